"""The assistant inside a Galaxis game: hints (counted, logged, never a wasted
point), questions about the deduction, auto-mark, the computer team (no leaks,
legal moves, replayable) and the practice modes from the command line."""
from __future__ import annotations

import json

import pytest

from audio_console.contract.base import InputError
from audio_console.galaxis.console import GalaxisConsole
from audio_console.galaxis.board import ALL_POINTS, format_point, parse_point
from audio_console.base.settings import Settings
from tests.conftest import run_console


def make(option=2, seed=1, **kwargs):
    return GalaxisConsole(option=option, seed=seed, settings=Settings(), **kwargs)


def say(console, text, now=0.0):
    command = console.grammar().parse(text)
    if command is None:
        from audio_console.commands.vocabulary import common_grammar
        command = common_grammar().parse(text)
    assert command is not None, text
    return console.handle(command, now)


def texts(reply):
    return " ".join(m.text for m in reply.messages)


def test_hint_is_counted_logged_recorded_and_never_a_wasted_point():
    console = make(seed=7)
    for _ in range(30):
        if console.finished():
            break
        reply = say(console, "hint")
        d = console.assistant.deductions[1]
        hint = reply.events[0]
        assert hint["event"] == "hint" and hint["team"] == 1 and reply.record == ["hint"]
        point = parse_point(hint["point"])
        assert point not in d.heard and point not in d.certain_empty()
        assert point not in console.memory[1].answers
        say(console, hint["point"])
    assert console.finished()
    assert console.assistant.hints[1] == console.core.state[1].queries
    assert "Hints used: " in " ".join(console.status())


def test_questions_about_the_deduction_change_nothing():
    console = make(seed=2)
    say(console, "D5")
    d = console.assistant.deductions[1]
    placements = say(console, "how many placements are left")
    assert not placements.record and f"{d.count:,} placements" in texts(placements)
    chance = say(console, "chance of D6")
    assert not chance.record and f"{d.chance(parse_point('D6')):.0%}" in texts(chance)
    ruled = say(console, "which points are ruled out")
    assert not ruled.record
    assert say(console, "chance of D5").messages[0].text.startswith("D5 was queried")
    assert console.core.state[1].queries == 1 and console.assistant.hints[1] == 0


def test_auto_mark_is_off_by_default_and_marks_exactly_the_ruled_out_points():
    console = make(seed=3)
    say(console, "A1")
    assert not console.memory[1].marked
    reply = say(console, "auto mark on")
    assert reply.record == ["auto mark on"]
    d = console.assistant.deductions[1]
    assert console.memory[1].marked == set(d.ruled_out())
    say(console, "G9")
    assert console.memory[1].marked == set(console.assistant.deductions[1].ruled_out()) - {parse_point("G9")}
    say(console, "auto mark off")
    before = set(console.memory[1].marked)
    say(console, "D5")
    assert console.memory[1].marked == before


def test_recorded_hints_and_auto_mark_replay_to_the_same_state():
    console = make(seed=4)
    record = []
    for line in ["hint", "D5", "auto mark on", "hint", "C3", "mark G1"]:
        record += say(console, line).record
    copy = make(seed=4)
    for action in record:
        copy.apply_recorded(action)
    assert copy.assistant.hints == console.assistant.hints == {1: 2}
    assert copy.memory[1].marked == console.memory[1].marked
    assert copy.assistant.deductions[1].count == console.assistant.deductions[1].count


def play_against_computer(option, level, seed, human_ships=("A1", "B9", "G1", "G9")):
    """Human team 1 follows the hints; returns the console and every message shown."""
    console = make(option=option, seed=seed, opponent="computer", level=level)
    shown, events = list(console.start().messages), []
    stored = iter(human_ships)
    for _ in range(200):
        if console.finished():
            break
        if console.core.turn == 1:
            if console.core.phase == "storing":
                reply = say(console, next(stored, "ready"))     # the read-back agreed
            else:
                hint = say(console, "hint").events[0]["point"]
                reply = say(console, hint)
        else:
            with pytest.raises(InputError):
                say(console, "D5")          # not the human's turn
            reply = console.tick(0.0)
        shown += reply.messages
        events += reply.events
        ticked = console.tick(0.0)
        shown += ticked.messages
        events += ticked.events
    assert console.finished()
    return console, shown, events


@pytest.mark.parametrize("level", [1, 3])
def test_option_1_computer_plays_team_2_and_its_points_stay_off_the_screen(level):
    console, shown, events = play_against_computer(1, level, seed=11)
    computer_points = {e["point"] for e in events if e["event"] == "answer" and e["team"] == 2}
    assert computer_points, "the computer made queries"
    over = max(i for i, m in enumerate(shown) if "wins" in m.text)
    before_end = " ".join(m.text + " " + m.spoken for m in shown[:over])
    human_points = {e["point"] for e in events if e["event"] == "answer" and e["team"] == 1}
    for point in computer_points - human_points:
        assert point not in before_end


def test_option_3_computer_keeps_its_positions_secret_and_plays_legally():
    console, shown, events = play_against_computer(3, 3, seed=12)
    stored = console.core.state[2].stored
    assert len(stored) == 4
    over = max(i for i, m in enumerate(shown) if "wins" in m.text)
    before_end = " ".join(m.text for m in shown[:over])
    for point in stored:
        # Its positions are named only when someone queries them.
        queried = {e["point"] for e in events if e["event"] in ("answer", "own_ship")}
        if format_point(point) not in queried:
            assert format_point(point) not in before_end
    human_queries = set(console.core.state[1].queried)
    for point in console.core.state[2].queried:
        assert point not in human_queries


def test_a_game_against_the_computer_replays_from_its_record():
    console = make(option=3, seed=5, opponent="computer", level=2)
    record = []
    for line in ["A1", "A2", "A3", "A4", "ready"]:
        record += say(console, line).record
    record += console.tick(0.0).record
    for _ in range(3):
        hint = say(console, "hint")
        record += hint.record
        record += say(console, hint.events[0]["point"]).record
        record += console.tick(0.0).record
    copy = make(option=3, seed=5, opponent="computer", level=2)
    for action in record:
        copy.apply_recorded(action)
    for team in (1, 2):
        assert copy.core.state[team].queried == console.core.state[team].queried
        assert copy.assistant.deductions[team].count == console.assistant.deductions[team].count
    assert copy.tick(0.0).record == console.tick(0.0).record


def test_option_2_demonstration_plays_on_next_and_explains():
    console = make(option=2, seed=6, opponent="computer", level=3)
    with pytest.raises(InputError):
        say(console, "D5")
    first = say(console, "next")
    assert first.messages[0].text.startswith("The computer queries")
    assert first.record and first.record[0].startswith("query ")
    for _ in range(40):
        if console.finished():
            break
        say(console, "next")
    assert console.finished() and console.core.state[1].queries <= 16
    review = say(console, "review")
    assert review.messages[-1].text.startswith("End of review: 4 of 4 ships found")


def test_cli_practice_modes_and_computer_option(tmp_path):
    ear = run_console(["--game", "galaxis", "--practice", "ear", "--seed", "2", "--text",
                       "--save", str(tmp_path / "e.json")], ["two", "discovered", "quit"], tmp_path)
    assert ear.returncode == 0, ear.stderr
    assert "Ear training, short drill: 8 sounds" in ear.stdout
    assert "Sound 3 of 8" in ear.stdout
    tutorial = run_console(["--game", "galaxis", "--practice", "tutorial", "--text",
                            "--save", str(tmp_path / "t.json")], ["next", "next"], tmp_path)
    assert "C4 answers 1, one beep" in tutorial.stdout
    log = tmp_path / "game.jsonl"
    game = run_console(["--game", "galaxis", "--option", "1", "--opponent", "computer", "--level", "2",
                        "--seed", "8", "--text", "--log", str(log), "--save", str(tmp_path / "g.json")],
                       ["hint", "D5", "hint", "chance of E5"], tmp_path)
    assert game.returncode == 0, game.stderr
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["event"] for e in events if e["event"] == "hint"] == ["hint", "hint"]
    assert any(e["event"] == "answer" and e["team"] == 2 for e in events)
    assert "Team 2 is the computer level 2" in game.stdout


def test_option_3_hints_keep_off_own_positions_and_use_the_other_teams_queries():
    console = make(option=3, seed=9)
    for point in ["D5", "D4", "C5", "E5", "ready", "ready"]:   # team 1 stores the hint's usual favourites
        say(console, point)         # (ready to the read-back; two teams pass the console: ready)
    for point in ["A1", "A9", "G1", "G9", "ready", "ready"]:
        say(console, point)
    hint = say(console, "hint").events[0]
    assert hint["point"] not in ("D5", "D4", "C5", "E5")
    say(console, hint["point"])                      # team 1 queries; team 2 now knows it is empty
    assert parse_point(hint["point"]) in console.assistant.deductions[2].certain_empty()
    say(console, "ready")
    second = say(console, "hint").events[0]          # team 2's turn
    assert second["team"] == 2 and second["point"] != hint["point"]


def test_the_best_score_counts_only_the_players_own_games_without_hints(tmp_path, monkeypatch):
    """Issue 13 item 10: the computer's demonstration and a game won with hints are not
    stored as the player's best, and the end says so; a plain game is."""
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path))
    demo = GalaxisConsole(option=2, seed=6, settings=Settings(best_option2=30), opponent="computer", level=3)
    lines = []
    while not demo.finished():
        lines.append(texts(say(demo, "next")))
    assert demo.settings.best_option2 == 30 and "new best" not in lines[-1]
    assert "Not counted as your best score: the computer played." in lines[-1]

    hinted = GalaxisConsole(option=2, seed=7, settings=Settings(best_option2=30))
    while not hinted.finished():
        point = say(hinted, "hint").events[0]["point"]
        last = texts(say(hinted, point))
    assert hinted.settings.best_option2 == 30 and "new best" not in last
    assert "Not counted as your best score: hints were used." in last

    plain = GalaxisConsole(option=2, seed=7, settings=Settings(best_option2=30))
    for point in hinted.core.state[1].queried:      # the same queries, in order, without hints
        last = texts(say(plain, format_point(point)))
    assert plain.finished() and plain.settings.best_option2 == plain.core.state[1].queries
    assert "a new best, beating 30" in last and "Not counted" not in last


def test_at_the_end_every_teams_hints_are_said_even_a_team_that_used_none():
    console = make(option=1, seed=3, opponent="computer", level=1)
    lines = []
    for _ in range(80):
        if console.finished():
            break
        point = say(console, "hint").events[0]["point"]
        lines += [m.text for m in say(console, point).messages + console.tick(0.0).messages]
    assert console.finished()
    assert f"Hints used: team 1 {console.assistant.hints[1]}, team 2 0." in lines
    assert console.assistant.hints[1] > 0
