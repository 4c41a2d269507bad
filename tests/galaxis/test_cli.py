"""Whole Galaxis games through the real command line, typed on standard input."""
import json
import os
import select
import subprocess
import sys
import time

import pytest

from audio_console.galaxis.board import ALL_POINTS, answer, format_point, parse_point
from tests.conftest import ROOT, run_console

ALL = [format_point(p) for p in ALL_POINTS]


def read_log(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def check_answers_agree_with_reveal(events):
    reveal = [e for e in events if e["event"] == "reveal"]
    assert len(reveal) == 1
    ships = reveal[0]["ships"]
    for e in events:
        if e["event"] == "answer":
            targets = ships if isinstance(ships, list) else ships[str(e["team"])]
            expected = answer(parse_point(e["point"]), [parse_point(s) for s in targets])
            assert e["answer"] == expected, e
    return ships


def test_option2_whole_game_from_63_coordinates(tmp_path):
    log = tmp_path / "game.jsonl"
    result = run_console(["--game", "galaxis", "--option", "2", "--seed", "1", "--text",
                          "--log", str(log), "--save", str(tmp_path / "save.json")], ALL, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    events = read_log(log)
    check_answers_agree_with_reveal(events)
    over = [e for e in events if e["event"] == "game_over"]
    assert len(over) == 1 and over[0]["winner"] == 1 and over[0]["game"] == "galaxis"
    answers = [e for e in events if e["event"] == "answer"]
    assert over[0]["queries"] == {"1": len(answers)}
    assert sum(e["answer"] == "discovered" for e in answers) == 4
    assert "All four ships found in" in result.stdout


def test_a_game_cut_off_halfway_and_resumed_ends_the_same_way(tmp_path):
    whole, first, second = tmp_path / "whole.jsonl", tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    args = ["--game", "galaxis", "--option", "2", "--seed", "5", "--text"]
    run_console(args + ["--log", str(whole), "--save", str(tmp_path / "a.json")], ALL, tmp_path)
    save = tmp_path / "b.json"
    # A marker peg and its undo are part of the saved game too.
    half = run_console(args + ["--log", str(first), "--save", str(save)],
                       ALL[:20] + ["mark G9", "mark G8", "undo"], tmp_path)
    assert half.returncode == 0
    resumed = run_console(["--resume", "--text", "--save", str(save), "--log", str(second)],
                          ["what is at G9", "what is at G8"] + ALL[20:], tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "Resumed Galaxis, after 23 actions." in resumed.stdout
    said = {line[:2]: line for line in resumed.stdout.splitlines() if line[:4] in ("G9: ", "G8: ")}
    assert "marked by you" in said["G9"] and "marked by you" not in said["G8"]
    strip = lambda events: [{k: v for k, v in e.items()} for e in events]
    assert strip(read_log(first) + read_log(second)) == strip(read_log(whole))


def with_ready(lines):
    """Two human teams pass the console at each change of turn: "ready" after every line
    (a ready with nothing to be ready for is refused and changes nothing)."""
    return [said for line in lines for said in (line, "ready")]


def test_option1_two_teams_play_to_the_end_and_coordinates_stay_off_speech(tmp_path):
    log = tmp_path / "game.jsonl"
    result = run_console(["--game", "galaxis", "--option", "1", "--seed", "3", "--text",
                          "--log", str(log)], with_ready(ALL * 3), tmp_path)
    assert result.returncode == 0, result.stderr
    events = read_log(log)
    check_answers_agree_with_reveal(events)
    answers = [e for e in events if e["event"] == "answer"]
    assert {e["team"] for e in answers} == {1, 2}
    over = [e for e in events if e["event"] == "game_over"][0]
    winner_finds = [e for e in answers if e["team"] == over["winner"] and e["answer"] == "discovered"]
    assert len(winner_finds) == 4
    # A discovery gives the same team the next query; otherwise the turn passes.
    for before, after in zip(answers, answers[1:]):
        if before["answer"] == "discovered":
            assert after["team"] == before["team"]
        else:
            assert after["team"] != before["team"]
    assert "Team 1:" in result.stdout and "Team 2:" in result.stdout


def test_option3_storing_caution_own_ship_and_winning(tmp_path):
    log = tmp_path / "game.jsonl"
    storing = ["a1", "b2", "c3", "d4", "ready", "ready",    # team 1 stores, agrees, passes
               "d4", "f6", "g7", "a9", "ready", "ready"]    # team 2 the same
    lines = ["caution spaceship d4",          # team 1: both stored D4: found, and given away
             "b2",                            # team 1 again (a discovery): its own position: asked once
             "b2",                            # ... and said again: own ship, given away
             "c3",                            # team 2: team 1's stored C3, discovered
             "d4",                            # team 2 may not: team 1 queried D4
             ]
    result = run_console(["--game", "galaxis", "--option", "3", "--seed", "2", "--text",
                          "--log", str(log)], storing + with_ready(lines + ALL * 3), tmp_path)
    assert result.returncode == 0, result.stderr
    events = read_log(log)
    stored = [e for e in events if e["event"] == "stored"]
    assert [e["team"] for e in stored] == [1] * 4 + [2] * 4
    assert all("point" not in e for e in stored)          # stored positions stay secret
    answers = [e for e in events if e["event"] == "answer"]
    assert answers[0] == {"event": "answer", "team": 1, "point": "D4", "answer": "discovered",
                          "caution": True, "found": 1, "game": "galaxis"}
    own = [e for e in events if e["event"] == "own_ship"]
    assert own[0]["team"] == 1 and own[0]["point"] == "D4"
    assert own[1]["team"] == 1 and own[1]["point"] == "B2"
    assert "B2 is one of your own positions: say caution B2 to query it on purpose" in result.stdout
    assert "B2 was your own ship" in result.stdout
    ships = check_answers_agree_with_reveal(events)
    assert ships == {"1": ["D4", "F6", "G7", "A9"], "2": ["A1", "B2", "C3", "D4"]}
    assert "may not query it" in result.stdout             # a point the other team queried
    assert [e for e in events if e["event"] == "game_over"]


def read_until(process: subprocess.Popen, line: str, seconds: float) -> str:
    """What the console printed up to `line` (read raw from the pipe, so that nothing
    waits in a text buffer), waiting at most `seconds`."""
    deadline, seen = time.monotonic() + seconds, b""
    while line.encode() not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.2)
        if ready:
            got = os.read(process.stdout.fileno(), 4096)
            if not got:
                break
            seen += got
    return seen.decode()


def test_a_timed_out_turn_passes_to_the_other_team(tmp_path):
    log = tmp_path / "game.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home")}
    process = subprocess.Popen(
        [sys.executable, "-m", "audio_console", "--game", "galaxis", "--option", "1", "--seed", "4",
         "--time-limit", "1.5", "--text", "--log", str(log)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    # Team 1 lets its time run out: wait for the line, not a fixed time (a loaded machine
    # starts the console slowly, and a fixed 2.5 s failed under load).
    before = read_until(process, "Team 1: time is up; the turn passes.", seconds=30)
    out, err = process.communicate("ready\na1\nstatus\nquit\n", timeout=30)   # team 2 takes the console
    out = before + out
    assert process.returncode == 0, err
    assert "Team 1: 1 second left!" in out        # half of a 1.5 s limit, in good English
    assert "Team 1: time is up; the turn passes." in out
    assert "Team 1's turn, when it says ready: the clock waits." in out     # passing: no clock
    events = read_log(log)
    assert [e["event"] for e in events][:4] == ["time_warning", "time_out", "turn", "answer"]
    assert events[3]["team"] == 2           # the next query was team 2's


def test_bad_input_is_explained_and_changes_nothing(tmp_path):
    log = tmp_path / "game.jsonl"
    result = run_console(["--game", "galaxis", "--seed", "1", "--text", "--log", str(log)],
                         ["K12", "D0", "banana", "", "caution d5", "unmark d5", "undo", "mark d5",
                          "mark d5", "d5", "d5", "status"], tmp_path)
    assert result.returncode == 0 and not result.stderr
    out = result.stdout
    assert "K12 is not on the board: row K is off the board" in out
    assert "D0 is not on the board: column 0" in out
    assert "Not understood: banana." in out
    assert "D5 is not marked by you." in out
    assert "Nothing to undo; answers can never be undone." in out
    assert "D5 is already marked by you." in out
    assert "earlier. Still your turn." in out
    assert "Found 0 of 4 in 1 query." in out
    assert len([e for e in read_log(log) if e["event"] == "answer"]) == 1


def test_repeat_help_and_review_questions(tmp_path):
    result = run_console(["--game", "galaxis", "--seed", "1", "--text"],
                         ["delta five", "repeat", "help", "read row d", "read column 5",
                          "what is at D5", "summary"], tmp_path)
    lines = result.stdout.splitlines()
    first = next(l for l in lines if l.startswith("D5 answered"))
    assert lines.count(first) == 2                        # repeat says it again
    assert any("a row A to G and a column 1 to 9" in l for l in lines)
    assert any(l.startswith("Row D: D1 unknown") and "D5 1" in l for l in lines)
    assert any(l.startswith("Column 5: A5 unknown") for l in lines)
    assert any(l.startswith("Queried 1: D5") for l in lines)


def test_damaged_save_gets_a_clear_message_and_is_kept(tmp_path):
    save = tmp_path / "save.json"
    save.write_text('{"format": "audio_console save", "version": 1, "game": "galax')
    result = run_console(["--resume", "--game", "galaxis", "--text", "--save", str(save)], ["quit"], tmp_path)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "The saved game cannot be resumed: it is damaged: not valid JSON." in result.stdout
    assert list(tmp_path.glob("save.json.damaged-*"))
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"hello": "world"}))
    result = run_console(["--resume", "--game", "galaxis", "--text", "--save", str(foreign)], [], tmp_path)
    assert "it is not an audio_console saved game" in result.stdout and not result.stderr


def test_a_save_whose_last_action_does_not_replay_resumes_up_to_the_last_good_one(tmp_path):
    save = tmp_path / "save.json"
    save.write_text(json.dumps({"format": "audio_console save", "version": 1, "game": "galaxis",
                                "options": {"option": 2}, "seed": 1, "actions": ["query D5", "query D5"]}))
    result = run_console(["--resume", "--text", "--save", str(save)], [], tmp_path)
    assert "Saved action 2 could not be replayed" in result.stdout and "Traceback" not in result.stderr
    assert "Resumed Galaxis, after 1 action." in result.stdout
    assert "Found 0 of 4 in 1 query." in result.stdout


def test_menu_chooses_game_and_option_by_words(tmp_path):
    result = run_console(["--text"], ["galaxis", "three", "no", "status"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Choose a game: Galaxis" in result.stdout
    assert "Galaxis, option 3" in result.stdout
    assert "Team 1: store position 1 of 4." in result.stdout


def test_seed_gives_the_same_board_when_the_game_is_chosen_from_the_menu(tmp_path):
    """--seed promises a repeatable game, also without --game: the menu's game is the
    seed's board (the same answers as with --game), and another seed another board."""
    def answers(args, home):
        home.mkdir()
        result = run_console(args + ["--text"], ["galaxis", "two"] * ("--game" not in args) + points, home)
        assert result.returncode == 0, result.stderr
        return [line for line in result.stdout.splitlines() if " answered " in line]
    points = ["a1", "b3", "c5", "d7", "e9", "g2", "f4"]
    from_menu = answers(["--seed", "7"], tmp_path / "menu")
    assert len(from_menu) >= 5, from_menu
    assert answers(["--seed", "7"], tmp_path / "menu again") == from_menu
    assert answers(["--game", "galaxis", "--option", "2", "--seed", "7"], tmp_path / "game") == from_menu
    assert answers(["--seed", "8"], tmp_path / "other") != from_menu


def test_menu_takes_typed_numbers_and_explains_out_of_turn_words(tmp_path):
    result = run_console(["--text"], ["delta five", "1", "1", "2"], tmp_path)
    assert "Not understood: delta five. Choose a game: Galaxis" in result.stdout
    assert "Galaxis, option 1" in result.stdout and "Time limit" not in result.stdout


def test_end_of_input_mid_game_keeps_the_game(tmp_path):
    save = tmp_path / "save.json"
    run_console(["--game", "galaxis", "--seed", "9", "--text", "--save", str(save)], ["a1", "b2"], tmp_path)
    saved = json.loads(save.read_text())
    assert saved["actions"] == ["query A1", "query B2"] and saved["seed"] == 9


def test_a_closed_terminal_loses_nothing(tmp_path):
    import signal
    save = tmp_path / "save.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home")}
    process = subprocess.Popen(
        [sys.executable, "-m", "audio_console", "--game", "galaxis", "--seed", "3", "--text",
         "--save", str(save)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env, cwd=ROOT)
    process.stdin.write("d5\n")
    process.stdin.flush()
    deadline = time.time() + 20
    while time.time() < deadline and '"query D5"' not in (save.read_text() if save.exists() else ""):
        time.sleep(0.1)
    process.send_signal(signal.SIGHUP)
    out, err = process.communicate(timeout=20)
    assert "Stopped. The game is saved." in out and "Traceback" not in err
    assert json.loads(save.read_text())["actions"] == ["query D5"]


def test_near_commands_get_a_precise_reason_and_change_nothing(tmp_path):
    """Issue 13 item 16: caution outside option 3, a row or column off the board."""
    result = run_console(["--game", "galaxis", "--seed", "1", "--text"],
                         ["caution spaceship D5", "read row H", "read column 10", "listen to row hotel", "status"],
                         tmp_path)
    out = result.stdout
    assert "Caution spaceship is for option 3, where a team may query its own stored positions." in out
    assert out.count("Row H is off the board; rows go from A to G.") == 2
    assert "Column 10 is off the board; columns go from 1 to 9." in out
    assert "Not understood" not in out and "Found 0 of 4 in 0 queries." in out
