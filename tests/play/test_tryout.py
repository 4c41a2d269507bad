"""What a new player ran into, trying the console from the README only (a tmux
terminal, sound into the null sink): each through the real console, asserting what
the player reads."""
import os
import re
import subprocess
import sys
import time

import pytest

from audio_console.app.games import GAMES
from tests.arkade.test_arcade_by_ear import run_to, started
from tests.conftest import ROOT, run_console
from tests.robust.helpers import make_session


@pytest.mark.parametrize("folder, named", [("/", "/"), (".", "."), ("", ".")])
def test_a_save_path_that_names_no_file_is_one_line_not_a_traceback(tmp_path, folder, named):
    done = run_console(["--game", "galaxis", "--option", "2", "--text", "--save", folder], ["quit"], tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"audio-console: argument --save: {named!r} is a folder; give a file name, like game.json. "
        "audio-console --help lists the options."]


def test_a_move_while_arcade_mode_is_paused_is_refused_as_paused_not_as_not_started(tmp_path):
    session, out, sink, now = started(tmp_path)
    session.type("pause")
    mark = len(out.getvalue())
    session.type("roll")
    assert out.getvalue()[mark:].splitlines()[0] == "Paused: nothing moves until you say go."
    assert "has not started" not in out.getvalue()[mark:]
    assert "Paused: nothing moves until you say go." in sink.spoken


def test_the_defences_spaceship_is_placed_by_its_column(tmp_path):
    """"Spaceship flies to 3." left the listener to guess that 3 is a column."""
    session, out, sink, now = started(tmp_path)
    run_to(session, now, 40.0)
    moves = [line for line in out.getvalue().splitlines() if line.startswith(("Spaceship", "Booster"))]
    assert moves
    assert all(" column " in line for line in moves), moves


def test_after_each_computer_shot_the_turn_comes_back_in_a_line_and_a_word(tmp_path):
    """The prompt was shown only when its words changed: after the second shot in a
    sector the computer's damage news was the last thing heard, with no "your shot"."""
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES["battleship"], {"opponent": "computer", "level": 2, "placement": "random"}, 2)
    for shot in ("sector 1 row A", "sector 1 row B", "row C"):
        mark, said = len(out.getvalue()), len(sink.spoken)
        session.type(shot)
        lines = out.getvalue()[mark:].splitlines()
        assert lines[0].startswith("You fire: sector 1 row") and any(l.startswith("The computer fires") for l in lines)
        assert lines[-1] == "Your shot in sector 1: say a row or a column, or another sector."
        assert lines.count(lines[-1]) == 1
        assert sink.spoken[-1] == "Your shot."
        assert sink.signals[-1] == "prompt"


@pytest.mark.parametrize("flags, sides", [
    (["--alien", "computer"], "Alien: computer; Defence: human."),
    (["--defence", "human"], "Alien: computer; Defence: human."),
    (["--defence", "computer"], "Alien: human; Defence: computer."),
    ([], "Alien: human; Defence: computer."),
    (["--alien", "computer", "--defence", "computer"], "Alien: computer; Defence: computer."),
])
def test_naming_the_computers_side_in_arkade_leaves_the_other_side_to_you(tmp_path, flags, sides):
    """README: "Against the computer: --defence computer / --alien computer". --alien
    computer alone started a game the computer played on both sides, to its end."""
    done = run_console(["--game", "arkade", "--text", "--seed", "1", *flags], ["quit"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].endswith(sides)
    if sides != "Alien: computer; Defence: computer.":
        assert "The computer plays both sides" not in done.stdout and "Game over" not in done.stdout


def test_a_game_command_in_the_menu_names_itself_and_asks_again(tmp_path):
    """It said "First choose: Choose a game: ..."."""
    done = run_console(["--text"], ["status", "hint", "galaxis", "summary", "quit"], tmp_path)
    lines = done.stdout.splitlines()
    assert "Status needs a game first. Choose a game: Galaxis, Arkade, Battleship: Outer Space." in lines
    assert "Hint needs a game first. Choose a game: Galaxis, Arkade, Battleship: Outer Space." in lines
    assert any(line.startswith("Summary needs a game first. Which option?") for line in lines)


def test_a_resumed_arcade_game_says_it_is_paused_not_that_it_has_not_started(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home")}
    first = subprocess.Popen([sys.executable, "-m", "audio_console", "--text", "--game", "arkade", "--mode", "arcade",
                              "--seed", "2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    first.stdin.write("go\n")
    first.stdin.flush()
    time.sleep(5)                    # the countdown: three seconds
    first.stdin.write("roll\nquit\n")
    out, _ = first.communicate(timeout=60)
    assert "Alien rolls" in out
    done = run_console(["--text", "--resume"], ["roll", "status"], tmp_path)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Resumed Arkade")
    assert "Paused: nothing moves until you say go." in lines
    assert "Paused: the computer waits. Say go to go on." in lines
    assert not [line for line in lines if "not started" in line.lower()], lines


@pytest.mark.parametrize("typed", ["D5", "delta five", "sector 2 D5"])
def test_a_galaxis_point_in_battleship_says_how_a_shot_is_called(tmp_path, typed):
    """A player coming from Galaxis types D5 and got only "Not understood: D5."."""
    done = run_console(["--text", "--game", "battleship", "--seed", "2"], [typed, "status"], tmp_path)
    lines = done.stdout.splitlines()
    assert ("A shot here is a whole row or column, not one point: say a sector and a row or a column, "
            "like sector 2 row D or sector 2 column 5.") in lines
    assert any(line.startswith("Shots: 0 called") for line in lines)     # nothing was fired


def test_hint_in_arkade_points_to_what_can_i_do(tmp_path):
    """The README's list of commands every game understands has hint (Galaxis, Battleship);
    in Arkade it answered "hint is not something Arkade can do; say help."."""
    done = run_console(["--text", "--game", "arkade", "--seed", "2"], ["hint", "what can I do"], tmp_path)
    lines = done.stdout.splitlines()
    assert "Arkade has no hints: what can I do names every move your dice allow; how to play, the rules." in lines
    assert any(line.startswith("You can: roll") for line in lines)


def test_ready_with_a_time_limit_says_the_clock_starts(tmp_path):
    """It said "Team 2: 60 seconds from now.", which does not say what happens then."""
    done = run_console(["--text", "--game", "galaxis", "--option", "1", "--time-limit", "--seed", "1"],
                       ["D4", "ready"], tmp_path)
    lines = done.stdout.splitlines()
    assert lines[lines.index("Pass the console to team 2. Team 2: say ready.") + 1:][:2] == [
        "Team 2: your 60 seconds start now.", "Team 2: your query."]


def test_the_defences_prompt_offers_only_what_its_dice_still_allow(tmp_path):
    """After the ship flew and shot it said "Dice used; ... Ship to, booster, shoot, or done."."""
    done = run_console(["--text", "--game", "arkade", "--alien", "computer", "--seed", "3"],
                       ["roll", "ship to two", "shoot"], tmp_path)
    prompts = [line for line in done.stdout.splitlines() if line.startswith("Defence: ")]
    assert prompts[-2:] == ["Defence: Shot purple; ship in column 2. Booster, shoot, or done.",
                            "Defence: Dice used; ship in column 2. Booster, or done."]


def test_resuming_from_a_folder_never_renames_the_folder(tmp_path):
    """--save FOLDER --resume renamed the player's folder to FOLDER.damaged-..., with
    everything in it (a named pipe was moved the same way)."""
    folder = tmp_path / "Documents"
    (folder / "letters").mkdir(parents=True)
    (folder / "letters" / "mine.txt").write_text("kept")
    done = run_console(["--text", "--save", str(folder), "--resume"], ["quit"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (folder / "letters" / "mine.txt").read_text() == "kept"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("Documents")] == ["Documents"]
    first = done.stdout.splitlines()[0]
    assert first.startswith("The saved game cannot be resumed: it cannot be read: that path is a folder.")
    assert f"It stays at {folder}" in first


@pytest.mark.parametrize("start", [[], ["--game", "galaxis", "--option", "2"]])
def test_a_damaged_save_is_said_and_kept_aside_without_resume_too(tmp_path, start):
    """Without --resume a damaged save was passed over in silence, and the next game's
    save replaced it: the game in it was lost without a word."""
    home = tmp_path / "home"
    run_console(["--text", "--game", "galaxis", "--option", "2"], ["D5", "quit"], tmp_path)
    damaged = (home / "game.json").read_bytes()[:60]
    (home / "game.json").write_bytes(damaged)
    done = run_console(["--text", *start], ["galaxis", "two", "E5", "quit"], tmp_path)
    first = done.stdout.splitlines()[0]
    assert first.startswith("The saved game cannot be resumed: it is damaged: not valid JSON. It was kept as ")
    [aside] = home.glob("game.json.damaged-*")
    assert aside.read_bytes() == damaged and str(aside) in first
    # the new game's board is random: E5 is answered, or is a ship
    assert re.search(r"^E5( answered|: spaceship discovered)", done.stdout, re.M), done.stdout
    assert "Game saved. Goodbye." in done.stdout


def test_a_computer_defence_turn_with_no_move_and_no_shot_is_said(tmp_path):
    """Its rolls alone ("Defence rolls flight 1, shot yellow." then "Alien's turn 3.")
    left the Alien waiting for a move that never came."""
    typed = [word for _ in range(12) for word in ("roll", "done")]
    done = run_console(["--text", "--game", "arkade", "--seed", "2", "--no-chips"], typed, tmp_path)
    turns = done.stdout.split("Defence's turn ")[1:]
    assert len(turns) >= 10
    for turn in turns:
        body = turn.split("Alien's turn")[0]
        acted = any(word in body for word in ("Spaceship flies", "Booster ", "Shot:", "Outpost"))
        quiet = "Defence: the spaceship stays in column " in body
        assert acted != quiet, body
    assert any("Defence: the spaceship stays in column" in turn for turn in turns)


def test_at_one_console_the_owner_of_a_vaporized_ship_is_told_after_ready(tmp_path):
    """"Vaporized: player 1's Dueler." was said while player 2 had the console; after
    ready player 1 heard only the damage, never that the ship was gone."""
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES["battleship"], {"opponent": "human", "placement": "random", "level": 2}, 3)
    for typed in ("sector 1 row A", "sector 1 row B", "ready", "sector 1 row A"):
        session.type(typed)
    assert "Vaporized: player 1's Dueler." in out.getvalue()
    mark, said, played = len(out.getvalue()), len(sink.spoken), len(sink.signals)
    session.type("ready")
    lines = out.getvalue()[mark:].splitlines()
    assert lines[0] == "Player 1: your turn."
    damage = lines.index("Damage in sector 1: your Dueler at A6 and A7.")
    assert lines[damage + 1] == "Vaporized: your Dueler."
    assert "Vaporized: your Dueler." in sink.spoken[said:] and "vaporized" in sink.signals[played:]


def test_help_while_galaxis_passes_the_console_lists_only_what_is_taken_then(tmp_path):
    """It listed hint, chance of, auto mark and review, all refused until ready."""
    # Seed 1: D5 sights a ship but is not one, so the turn passes (a random board failed CI once).
    done = run_console(["--game", "galaxis", "--option", "1", "--seed", "1", "--text"], ["D5", "help", "hint", "quit"], tmp_path)
    after = done.stdout.split("Pass the console to team 2. Team 2: say ready.\n", 1)[1].splitlines()
    assert after[0] == "The console is passing to team 2. Say ready when team 2 has it; nothing secret is said before."
    assert after[1].startswith("Always: ")
    assert after[2] == "The console is passing to team 2: team 2, say ready first."
    assert not any(word in line for line in after[:2] for word in ("Hint", "Chance", "Auto mark", "Review"))


def test_after_a_question_is_cancelled_the_prompt_says_where_the_player_is(tmp_path):
    """After "new game", "no" the last thing read was "Cancelled.": no word of whose turn."""
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES["galaxis"], {"option": 2}, 1)
    session.type("D5")
    prompt = session.console.prompt()
    session.type("new game")
    mark, said = len(out.getvalue()), len(sink.spoken)
    session.type("no")
    assert out.getvalue()[mark:].splitlines() == ["Cancelled.", prompt]
    assert sink.spoken[said:] == ["Cancelled.", prompt] and sink.signals[-1] == "prompt"
    done = run_console(["--game", "galaxis", "--option", "2", "--seed", "1", "--text"], ["D5", "new game", "no", "quit"], tmp_path)
    assert done.stdout.split("Cancelled.\n", 1)[1].splitlines()[0] == prompt
