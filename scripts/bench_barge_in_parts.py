"""The parts of the barge-in benchmark and its live test: the speakers reaching the
microphone (PulseAudio module-loopback from the output sink's monitor into the
microphone sink), a real person's clip played into the microphone, and the moment the
console's output went silent."""
from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from pathlib import Path

import numpy as np

from audio_console.voice.audio import read_wav

REAL = Path(__file__).resolve().parent.parent / "tests" / "voice" / "real" / "bargein"
STOP_CLIPS = sorted(REAL.glob("stop_*.wav"))


def corpus_clips(corpus: Path, expected: str | None, count: int, condition: str = "clean") -> list[Path]:
    """Up to `count` clips of a corpus (make_real_corpus.py, its manifest.jsonl) that
    should be heard as `expected` (None: words that are no command), in `condition`,
    one person each."""
    clips, people = [], set()
    for line in (corpus / "manifest.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row.get("expected") != expected or row.get("degradation") != condition or row["speaker"] in people:
            continue
        people.add(row["speaker"])
        path = Path(row["file"])
        clips.append(path if path.is_absolute() else corpus / path)
    return clips[:count]


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
            stream = self._stream()
            if stream is not None:
                # as a linear factor: pactl reads "-6dB" as 6 dB less than now, and
                # module-stream-restore starts each loopback at the last one's volume,
                # so every run was 6 dB quieter than the one before (down to -270 dB)
                pactl("set-sink-input-volume", stream, f"{10 ** (self.db / 20):.4f}")
                self._check(stream)
                return self
            time.sleep(0.05)
        raise RuntimeError("the loopback's stream did not appear")

    def _stream(self) -> str | None:
        for block in pactl("list", "sink-inputs").split("Sink Input #")[1:]:
            if f"Owner Module: {self.module}\n" in block:
                return block.split()[0]
        return None

    def _check(self, stream: str) -> None:
        """The loopback's volume is the one asked for (else the benchmark measures nothing)."""
        for block in pactl("list", "sink-inputs").split("Sink Input #")[1:]:
            if block.split()[0] == stream:
                levels = [float(v) for v in re.findall(r"/\s*(-?[\d.]+|-inf) dB", block.split("Volume:")[1].split("\n")[0])]
                if not levels or any(abs(v - self.db) > 0.1 for v in levels):
                    self.__exit__()
                    raise RuntimeError(f"the loopback's volume is {levels} dB, not {self.db:g} dB")

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


def heard_within(trace, seconds: float, passed_on: bool = False, seen: list | None = None) -> list:
    """The utterances the console decoded (bench_voice_game.TraceTail of its voice
    trace), waiting up to `seconds` for the first; passed_on: only those it acted on,
    asked about or answered "Say again". `seen` gets every event read."""
    deadline, heard = time.monotonic() + seconds, []
    while time.monotonic() < deadline and not heard:
        events = trace.new()
        if seen is not None:
            seen += events
        heard = [e for e in events if e.get("event") == "heard"
                 and (not passed_on or e.get("command") or e.get("text"))]
        time.sleep(0.05)
    return heard


class Recorder:
    """Keeps the last `keep` seconds of a PulseAudio source (16 kHz mono) with the
    time they arrived, to cut out what the microphone heard around a round."""

    def __init__(self, source: str, keep: float = 30.0):
        self.keep = int(keep * 16000)
        self.blocks: list[tuple[float, np.ndarray]] = []
        self._proc = subprocess.Popen(["parec", f"--device={source}", "--format=s16le", "--rate=16000",
                                       "--channels=1", "--raw", "--latency-msec=30"],
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            block = self._proc.stdout.read(960)
            if not block:
                return
            with self._lock:
                self.blocks.append((time.monotonic(), np.frombuffer(block, "<i2").copy()))
                while len(self.blocks) * 480 > self.keep:
                    self.blocks.pop(0)

    def wait_recording(self, seconds: float = 0.3, limit: float = 10.0) -> bool:
        """Until `seconds` of sound have arrived (parec connects late on a loaded
        machine: what played before is not in it); False after `limit` seconds."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.blocks) * 480 >= seconds * 16000:
                    return True
            time.sleep(0.02)
        return False

    def between(self, start: float, end: float) -> np.ndarray:
        """The samples (int16) that arrived from `start` to `end` (monotonic)."""
        with self._lock:
            got = [x for t, x in self.blocks if start <= t <= end]
        return np.concatenate(got) if got else np.zeros(0, np.int16)

    def close(self) -> None:
        self._proc.kill()
