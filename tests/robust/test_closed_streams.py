"""Issue 31, item 8, beyond a reader that hangs up: a standard stream closed before the
console starts (`>&-`, `0<&-`, `2>&-`), where Python has no sys.stdout (or stdin, or
stderr) at all. The console ends cleanly or plays on as with an empty input, never
prints a traceback, and no file it opens takes the closed stream's place."""
import os
import subprocess
import sys

from audio_console.console.storage import read_save
from audio_console.app.games import GAMES
from tests.conftest import ROOT

from .test_files import GALAXIS, run


def closed(fd, args, home, lines="D6\nquit\n", stdout=subprocess.PIPE):
    """The console with file descriptor fd closed before it starts."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(home),
           "AUDIO_CONSOLE_DEVICE": "no-such-device"}
    return subprocess.run([sys.executable, "-m", "audio_console", *args], input=lines if fd else None,
                          stdout=stdout, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT, timeout=60,
                          preexec_fn=lambda: os.close(fd))


def test_standard_output_closed_before_the_start_ends_cleanly_with_the_game_saved(tmp_path):
    home = tmp_path / "home"
    run(GALAXIS, ["D5", "quit"], home)
    done = closed(1, ["--resume", "--text"], home, stdout=None)
    assert done.returncode == 3
    assert done.stderr == "audio-console: the output takes no more lines (it is closed); the game is saved; ending.\n"
    assert read_save(home / "game.json", GAMES).actions == ["query D5"]


OPENS = """
import os, sys
from audio_console.output.presenter import keep_standard_streams
keep_standard_streams()
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT)
sys.stderr.write(str(fd))
"""


def test_no_file_the_console_opens_takes_the_place_of_a_closed_standard_output(tmp_path):
    """Else a recording opened as file descriptor 1 would get whatever anyone prints
    (a library, a program the console starts) inside its sound."""
    done = subprocess.run([sys.executable, "-c", OPENS, str(tmp_path / "game.wav")], stderr=subprocess.PIPE,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60,
                          preexec_fn=lambda: os.close(1))
    assert int(done.stderr) > 2


def test_standard_input_closed_before_the_start_is_the_end_of_input(tmp_path):
    home = tmp_path / "home"
    done = closed(0, GALAXIS, home)         # it used to print a traceback and wait for ever
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines()[-1] == "Game saved. Goodbye."


def test_standard_error_closed_before_the_start_changes_nothing(tmp_path):
    home = tmp_path / "home"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "audio_console", *GALAXIS], input="D5\nquit\n", text=True,
                          stdout=subprocess.PIPE, env=env, cwd=ROOT, timeout=60, preexec_fn=lambda: os.close(2))
    assert done.returncode == 0 and "D5 answered" in done.stdout
    assert read_save(home / "game.json", GAMES).actions == ["query D5"]
