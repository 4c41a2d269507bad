"""The command line's --record: a Galaxis query heard in the recording, sample-exact,
with no audio device at all (the engine's virtual clock)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from audio_console.audio.recorder import read_wav, to_int16
from audio_console.audio.signals import synthesise

ROOT = Path(__file__).resolve().parents[2]


def test_record_a_galaxis_query_without_a_device(tmp_path):
    wav, log = tmp_path / "game.wav", tmp_path / "game.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home"),
           "AUDIO_CONSOLE_DEVICE": "no-such-device"}
    result = subprocess.run(
        [sys.executable, "-m", "audio_console", "--game", "galaxis", "--option", "2", "--seed", "1",
         "--no-speech", "--record", str(wav), "--log", str(log)],
        input="query D5\n", text=True, capture_output=True, timeout=60, env=env, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Sound is off:")            # said once, first, plainly
    assert sum("Sound" in line for line in lines) == 1
    answer = next(e for e in map(json.loads, log.read_text().splitlines()) if e["event"] == "answer")
    recorded, rate = read_wav(wav)
    # The query's sounds: the search signal, then the answer's beeps, back to back, on
    # the querying team's side, at the default volume (0.8), exactly (other sounds, such
    # as the prompt tick, come before and after).
    def heard_exactly(side):
        query = to_int16(np.concatenate([synthesise("search", side, "faithful", rate),
                                         synthesise(f"answer_{answer['answer']}", side, "faithful", rate)]) * 0.8)
        windows = np.lib.stride_tricks.sliding_window_view(recorded[:, 0], 64)
        starts = np.flatnonzero((windows == query[1000:1064, 0]).all(axis=1)) - 1000
        return any(np.array_equal(recorded[i:i + len(query)], query) for i in starts if i >= 0)
    assert any(heard_exactly(side) for side in (0, 1, 2))
