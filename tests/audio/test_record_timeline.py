"""Issue 30, item 8: --record through the real console and a real device (a PulseAudio
null sink) keeps the session's timeline. A query, a pause of known length, another
query: the WAV lasts as long as the sound the sink played, and the pause sits where
the player heard it (an 88.6-s session once gave a 68-s WAV, its silences dropped)."""
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from audio_console.audio.recorder import read_wav
from tests.conftest import ROOT

from .test_real_audio import RATE, Monitor

pytestmark = pytest.mark.audio
PAUSE = 4.0        # seconds the player thinks between the two queries


def groups(x: np.ndarray, rate: int) -> list[tuple[float, float]]:
    """(start, end) in seconds of each run of sound, runs parted by a silence over 1 s."""
    loud = np.flatnonzero(np.abs(x) > 0.01)
    cuts = np.flatnonzero(np.diff(loud) > rate)
    starts, ends = np.concatenate([[loud[0]], loud[cuts + 1]]), np.concatenate([loud[cuts], [loud[-1]]])
    return [(a / rate, b / rate) for a, b in zip(starts, ends)]


def read_until(process, start: str) -> None:
    for line in process.stdout:
        if line.startswith(start):
            return
    raise AssertionError(f"the console ended before {start!r}")


def test_a_recording_through_a_device_lasts_as_the_session_and_keeps_the_pause_in_place(pulse, tmp_path):
    wav, home = tmp_path / "game.wav", tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text('{"timing": "quick"}')     # D5's sounds: about 2 s
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(home)}
    env.pop("AUDIO_CONSOLE_DEVICE", None)
    with Monitor(pulse) as heard:
        process = subprocess.Popen([sys.executable, "-m", "audio_console", "--game", "galaxis", "--seed", "1",
                                    "--no-speech", "--record", str(wav)], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        read_until(process, "Query 1")
        time.sleep(2.5)                # the start's sound ends first: D5's must be a run of its own
        process.stdin.write("D5\n")
        process.stdin.flush()
        read_until(process, "D5 answered")
        time.sleep(3 + PAUSE)          # D5's sounds end, then the player thinks
        process.stdin.write("D6\n")
        process.stdin.flush()
        read_until(process, "D6 answered")
        time.sleep(3)
        out, err = process.communicate("quit\n", timeout=60)
    assert process.returncode == 0 and "Traceback" not in err
    assert "Sound is off" not in out and "recording" not in out      # a device, and the recording worked
    recorded, rate = read_wav(wav)
    assert rate in (44100, 48000)
    in_file, at_sink = groups(recorded[:, 0] / 32768, rate), groups(heard.samples[:, 0], RATE)
    # The start, D5's sounds, D6's: each run where the sink played it, counted from the end
    # of the first (the sink's monitor may miss the very first moment of sound). The
    # console's start (imports, a busy machine) once made the device miss blocks: that
    # silence was lost and D5 came 0.8 s early in the file.
    # The start's sound and D5's ran together into one run in a CI run (under 1 s apart):
    # then there are two runs, in the file and at the sink alike.
    assert len(in_file) == len(at_sink) in (2, 3), (in_file, at_sink)
    assert in_file[0][0] < 0.05                 # the file starts with the first sound
    assert in_file[-1][0] - in_file[-2][1] > PAUSE   # the pause is there, as long as the player's
    zero, heard_zero = in_file[0][1], at_sink[0][1]
    for (start, end), (heard_start, heard_end) in zip(in_file[1:], at_sink[1:]):
        assert abs((start - zero) - (heard_start - heard_zero)) < 0.1
        assert abs((end - zero) - (heard_end - heard_zero)) < 0.1
    assert len(recorded) / rate - in_file[-1][1] < 0.1       # and ends with the last

