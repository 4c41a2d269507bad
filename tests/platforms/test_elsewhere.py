"""The console as it would start on Windows and macOS: no Linux-only module on its way,
a whole Galaxis game typed on standard input, saved where that platform keeps an
application's data, and resumed from there (tests/platforms/elsewhere.py says how
the platform is imitated and what that cannot show)."""
import os
import subprocess
import sys

import numpy as np
import pytest

from audio_console.audio.recorder import read_wav
from audio_console.galaxis.board import ALL_POINTS, format_point
from tests.conftest import ROOT

ALL = [format_point(p) for p in ALL_POINTS]
ELSEWHERE = ROOT / "tests" / "platforms" / "elsewhere.py"
PLATFORMS = ["win32", "darwin"]


def platform_env(platform, tmp_path):
    """The environment of a player there: no AUDIO_CONSOLE_HOME, that platform's own folders."""
    env = {k: v for k, v in os.environ.items() if k != "AUDIO_CONSOLE_HOME"}
    env.update(PYTHONPATH=str(ROOT), HOME=str(tmp_path / "home"), APPDATA=str(tmp_path / "roaming"))
    if platform == "win32":
        env["PYTHONIOENCODING"] = "cp1252"   # a redirected Windows console: no UTF-8 to hide behind
    return env


def data_folder(platform, tmp_path):
    if platform == "win32":
        return tmp_path / "roaming" / "audio_console"
    return tmp_path / "home" / "Library" / "Application Support" / "audio_console"


def run_there(platform, args, lines, tmp_path, timeout=90, env_extra=None):
    end = "\r\n" if platform == "win32" else "\n"      # what a Windows console sends
    stdin = "".join(line + end for line in lines)
    return subprocess.run([sys.executable, str(ELSEWHERE), platform, *args], input=stdin, text=True,
                          capture_output=True, timeout=timeout,
                          env={**platform_env(platform, tmp_path), **(env_extra or {})}, cwd=tmp_path)


def test_the_imitation_really_blocks_the_linux_helpers(tmp_path):
    """Without this the tests below could pass with the helpers imported after all."""
    probe = "import tests.platforms.elsewhere as e; e.become('win32'); import audio_console.audio.alsa"
    env = platform_env("win32", tmp_path)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode != 0 and "blocked import: audio_console.audio.alsa" in done.stderr


@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_whole_galaxis_game_in_text_then_resumed_from_that_platforms_data_folder(platform, tmp_path):
    args = ["--game", "galaxis", "--option", "2", "--seed", "1", "--text"]
    half = run_there(platform, args, ALL[:20], tmp_path)
    assert half.returncode == 0, half.stderr
    assert "blocked import" not in half.stderr and "Traceback" not in half.stderr
    assert (data_folder(platform, tmp_path) / "game.json").is_file()
    rest = run_there(platform, ["--resume", "--text"], ALL[20:], tmp_path)
    assert rest.returncode == 0, rest.stderr
    assert "blocked import" not in rest.stderr and "Traceback" not in rest.stderr
    assert "Resumed Galaxis, after 20 actions." in rest.stdout
    assert "All four ships found in" in rest.stdout


@pytest.mark.parametrize("platform", PLATFORMS)
def test_with_signals_on_the_sound_opens_without_the_linux_helpers(platform, tmp_path):
    """Sound on (signals; speech below): open_sound runs its platform checks. With or
    without an audio device the game is played and the signals are recorded."""
    record = tmp_path / "played.wav"
    result = run_there(platform, ["--game", "galaxis", "--option", "2", "--seed", "1", "--no-speech",
                                  "--record", str(record)], ALL[:3] + ["quit"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "blocked import" not in result.stderr and "Traceback" not in result.stderr
    assert "A3 answered" in result.stdout
    assert loudness(record) > 0.01


@pytest.mark.parametrize("platform", PLATFORMS)
def test_speech_falls_back_to_espeak_when_the_platforms_own_driver_is_missing(platform, tmp_path):
    """Here pyttsx3's SAPI5 and nsss drivers cannot start (no comtypes, no pyobjc): the
    console must say the answers with espeak-ng, as it would on a PC that has it."""
    record = tmp_path / "played.wav"
    result = run_there(platform, ["--game", "galaxis", "--option", "2", "--seed", "1", "--no-signals",
                                  "--record", str(record)], ["A1", "quit"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "blocked import" not in result.stderr and "Traceback" not in result.stderr
    assert "nothing is spoken" not in result.stdout
    assert loudness(record) > 0.05     # the spoken lines, not silence


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("start", [[], ["--screen-reader"]], ids=["plain", "screen-reader"])
def test_the_plain_start_and_the_screen_reader_there(platform, start, tmp_path):
    """The start with nothing set (the menu, speech and signals on) and the one with
    the screen reader (none runs here: one line, then the console's own voice)."""
    env_extra = {"SPEECHD_ADDRESS": f"unix_socket:{tmp_path / 'none.sock'}"}
    record = tmp_path / "played.wav"
    result = run_there(platform, [*start, "--record", str(record)], ["galaxis", "2", "A1", "quit"], tmp_path,
                       env_extra=env_extra)
    assert result.returncode == 0, result.stderr
    assert "blocked import" not in result.stderr and "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert "Query 2." in lines and any(line.startswith("A1") for line in lines), lines   # a board of chance
    missing = "No screen reader found (none is running): I speak with my own voice."
    assert lines.count(missing) == (1 if start else 0)
    assert loudness(record) > 0.01


def loudness(path) -> float:
    """The RMS of the recording, 0..1 (0 when nothing was recorded)."""
    if not path.is_file():
        return 0.0
    samples, _ = read_wav(path)
    return float(np.sqrt(np.mean((samples / 32768.0) ** 2))) if samples.size else 0.0
