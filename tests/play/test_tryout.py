"""What a new player ran into, trying the console from the README only (a tmux
terminal, sound into the null sink): each through the real console, asserting what
the player reads."""
import pytest

from tests.conftest import run_console


@pytest.mark.parametrize("folder, named", [("/", "/"), (".", "."), ("", ".")])
def test_a_save_path_that_names_no_file_is_one_line_not_a_traceback(tmp_path, folder, named):
    done = run_console(["--game", "galaxis", "--option", "2", "--text", "--save", folder], ["quit"], tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"audio-console: argument --save: {named!r} is a folder; give a file name, like game.json. "
        "audio-console --help lists the options."]
