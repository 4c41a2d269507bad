"""The first command of a session in a room where people talk, live through PulseAudio.

The console runs as a player starts it (a subprocess, --input voice) with its own
output and microphone sinks, its output looped into the microphone at -6 dB
(speakers, no headphones; the echo canceller on), and real people's talk (three
copies of a real recording, offset, 10 dB under the player) played into the
microphone from before the console starts. Through the canceller the frames of its
introduction are far quieter than the room; learnt as the room's level, the chatter
began an utterance the moment the introduction ended and the first command ran into
it (dropped as too long). The first command must be heard, at the latest when the
player says it again after no answer, as a later one is. Not yet met: heard at the
first try every time (in some runs the chatter still holds an utterance open past
the length cap right after the introduction, and the first try is dropped as
background talk; docs/voice-real.md, "The room's level before the first command")."""
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from audio_console.voice import echo_cancel
from audio_console.voice.audio import read_wav, write_wav

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
REAL = Path(__file__).resolve().parent / "real"
sys.path.insert(0, str(SCRIPTS))
from bench_barge_in_parts import SpeakersIntoMicrophone, pactl, play_into  # noqa: E402
from bench_voice_game import MOVE, Console, ConsoleSound, TraceTail, wait_for_silence  # noqa: E402
from room import RATE, at_level, in_a_loop, room_tone, stop_loop  # noqa: E402

pytestmark = [pytest.mark.audio, pytest.mark.slow,
              pytest.mark.skipif(not echo_cancel.available(), reason="pywebrtc-audio is not installed")]

PLAYER_DB, CHATTER_BELOW = -20.0, 10.0


def real_chatter(seconds: float) -> np.ndarray:
    """Three people's worth of talk from one real recording (an address read out),
    each copy starting elsewhere in it, without its silent padding."""
    x, rate = read_wav(REAL / "address.wav")
    assert rate == RATE
    x = x[np.abs(x) > 1e-4]
    n = int(seconds * RATE)
    looped = np.tile(x, n // len(x) + 3)
    talk = sum(looped[start:start + n] for start in (0, len(x) // 3, 2 * len(x) // 3))
    return at_level(talk, PLAYER_DB - CHATTER_BELOW)


def player_clip(tmp: Path) -> Path:
    """A real person's "delta" + "five" at the player's level, with a little silence after."""
    x, _ = read_wav(REAL / "nato_delta5.wav")
    path = tmp / "delta5.wav"
    write_wav(path, np.concatenate([at_level(x, PLAYER_DB), np.zeros(int(0.3 * RATE), np.float32)]), RATE)
    return path


@pytest.fixture
def sinks(tmp_path):
    if not shutil.which("paplay") or subprocess.run(["pactl", "info"], capture_output=True).returncode:
        pytest.skip("no PulseAudio server (pactl info failed); scripts/test starts one")
    out, mic = f"first_out_{os.getpid()}", f"first_mic_{os.getpid()}"
    modules = [pactl("load-module", "module-null-sink", f"sink_name={name}").strip() for name in (out, mic)]
    saved = {k: os.environ.get(k) for k in ("PULSE_SINK", "PULSE_SOURCE")}
    os.environ.update(PULSE_SINK=out, PULSE_SOURCE=f"{mic}.monitor")
    try:
        yield out, mic
    finally:
        for module in modules:
            subprocess.run(["pactl", "unload-module", module], capture_output=True)
        for key, value in saved.items():
            os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)


# Known gap, issue 28: with the sound server's echo canceller the player's word over
# chatter is sometimes "too quiet to begin an utterance" at both tries (a fresh-clone
# CI run, 2026-12-02); the same loss as the stops missed over speakers (docs/listen.md).
@pytest.mark.xfail(reason="issue 28: the first command over chatter with the server's echo canceller "
                          "is not yet heard every time", strict=False)
def test_the_first_command_said_over_chatter_after_the_introduction_is_heard(sinks, tmp_path):
    out, mic = sinks
    write_wav(tmp_path / "chatter.wav", real_chatter(30.0), RATE)
    loops = [room_tone(tmp_path, mic), in_a_loop(tmp_path / "chatter.wav", mic)]
    speakers = SpeakersIntoMicrophone(out, mic, -6.0).__enter__()
    sound = ConsoleSound(out)
    home = tmp_path / "home"
    home.mkdir()
    console = Console(1, home, ["--voice-trace", str(home / "voice.jsonl")])
    trace = TraceTail(home / "voice.jsonl")
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not any("Query 1" in line for _, line in console.take()):
            time.sleep(0.1)
        wait_for_silence(console, sound, quiet=0.8)   # a player waits for the introduction's end
        console.take()
        clip, tries = player_clip(tmp_path), []
        for _ in range(2):      # a player who gets no answer says it once more
            play_into(mic, clip)
            lines = _lines_until_answered(console, limit=20)   # a loaded machine decodes late
            events = trace.new()
            tries.append((lines, [(e.get("command"), e.get("action")) for e in events if e.get("event") == "heard"],
                          [e["event"] for e in events]))
            if any(_answers_d5(line) for line in lines):
                break
        assert any(_answers_d5(line) for line in tries[-1][0]), tries
    finally:
        console.close()
        sound.close()
        speakers.__exit__()
        for loop in loops:
            stop_loop(loop)


def _answers_d5(line: str) -> bool:
    return bool(MOVE.match(line)) and line.startswith("D5") or line.startswith("Did you say delta five")


def _lines_until_answered(console, limit: float) -> list:
    deadline, lines = time.monotonic() + limit, []
    while time.monotonic() < deadline and not any(MOVE.match(line) or line.startswith("Did you say")
                                                  for line in lines):
        time.sleep(0.1)
        lines += [line for _, line in console.take()]
    return lines
