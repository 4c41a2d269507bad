"""The parts of the barge-in benchmark and its live test: the speakers reaching the
microphone (PulseAudio module-loopback from the output sink's monitor into the
microphone sink), a real person's clip played into the microphone, and the moment the
console's output went silent."""
from __future__ import annotations

import subprocess
import time
from pathlib import Path

import numpy as np

from audio_console.voice.audio import read_wav

REAL = Path(__file__).resolve().parent.parent / "tests" / "voice" / "real" / "bargein"
STOP_CLIPS = sorted(REAL.glob("stop_*.wav"))


def pactl(*args: str) -> str:
    return subprocess.run(["pactl", *args], capture_output=True, text=True, timeout=10, check=True).stdout


class SpeakersIntoMicrophone:
    """module-loopback from `out`.monitor into `mic` at `db` dB (the room's echo path),
    unloaded again on exit."""

    def __init__(self, out: str = "console_out", mic: str = "console_mic", db: float = -6.0,
                 latency_ms: int = 20):
        self.out, self.mic, self.db, self.latency_ms = out, mic, db, latency_ms
        self.module = ""

    def __enter__(self):
        self.module = pactl("load-module", "module-loopback", f"source={self.out}.monitor", f"sink={self.mic}",
                            f"latency_msec={self.latency_ms}", "source_dont_move=true",
                            "sink_dont_move=true").strip()
        for _ in range(50):
            for block in pactl("list", "sink-inputs").split("Sink Input #")[1:]:
                if f"Owner Module: {self.module}\n" in block:
                    pactl("set-sink-input-volume", block.split()[0], f"{self.db:g}dB")
                    return self
            time.sleep(0.05)
        raise RuntimeError("the loopback's stream did not appear")

    def __exit__(self, *exc):
        if self.module:
            subprocess.run(["pactl", "unload-module", self.module], capture_output=True, timeout=10)


def trailing_silence(path: Path) -> float:
    """Seconds after the last loud sample of a clip (Speech Commands clips are one
    second with the word somewhere inside)."""
    x, rate = read_wav(path)
    loud = np.flatnonzero(np.abs(x) > 0.05 * (np.max(np.abs(x)) or 1))
    return (len(x) - (loud[-1] + 1 if len(loud) else len(x))) / rate


def play_into(mic: str, path: Path) -> float:
    """Plays `path` into the microphone sink; returns when its speech ended (monotonic)."""
    subprocess.run(["paplay", f"--device={mic}", str(path)], check=True, timeout=30)
    return time.monotonic() - trailing_silence(path)


def silent_since(sound, after: float, quiet: float = 0.3, limit: float = 5.0) -> float | None:
    """When the console's output went silent (its last sound), once it has been
    silent for `quiet` seconds; None if it still sounds `limit` seconds after `after`.
    `sound` is bench_voice_game.ConsoleSound (it watches the output sink's monitor)."""
    deadline = after + limit
    while time.monotonic() < deadline:
        if time.monotonic() - sound.last_sound >= quiet:
            return sound.last_sound
        time.sleep(0.01)
    return None


def wait_for_sound(sound, since: float, limit: float = 10.0) -> bool:
    """Until the console sounds after `since` (a line it began to speak)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if sound.last_sound > since:
            return True
        time.sleep(0.01)
    return False


def heard_within(trace, seconds: float, passed_on: bool = False) -> list:
    """The utterances the console decoded (bench_voice_game.TraceTail of its voice
    trace), waiting up to `seconds` for the first; passed_on: only those it acted on,
    asked about or answered "Say again"."""
    deadline, heard = time.monotonic() + seconds, []
    while time.monotonic() < deadline and not heard:
        heard = [e for e in trace.new() if e.get("event") == "heard"
                 and (not passed_on or e.get("command") or e.get("text"))]
        time.sleep(0.05)
    return heard
