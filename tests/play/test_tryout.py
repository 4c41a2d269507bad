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


def test_a_move_while_arcade_mode_is_paused_is_refused_as_paused_not_as_not_started(tmp_path):
    from tests.arkade.test_arcade_by_ear import started
    session, out, sink, now = started(tmp_path)
    session.type("pause")
    mark = len(out.getvalue())
    session.type("roll")
    assert out.getvalue()[mark:].splitlines()[0] == "Paused: nothing moves until you say go."
    assert "has not started" not in out.getvalue()[mark:]
    assert "Paused: nothing moves until you say go." in sink.spoken


def test_the_defences_spaceship_is_placed_by_its_column(tmp_path):
    """"Spaceship flies to 3." left the listener to guess that 3 is a column."""
    from tests.arkade.test_arcade_by_ear import run_to, started
    session, out, sink, now = started(tmp_path)
    run_to(session, now, 40.0)
    moves = [line for line in out.getvalue().splitlines() if line.startswith(("Spaceship", "Booster"))]
    assert moves
    assert all(" column " in line for line in moves), moves
