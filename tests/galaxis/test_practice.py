"""Practice by ear: the drill scores what was named right first and replays the
misses; the tutorial explains the rulebook's example beam by beam; the review
says what each query ruled out."""
from __future__ import annotations

import pytest

from audio_console.contract.base import InputError
from audio_console.galaxis.board import DISCOVERED, answer, parse_point
from audio_console.galaxis.explain import explain_answer
from audio_console.galaxis.practice import (ANSWER_SIGNALS, LESSONS, EarDrill, EarTraining,
                                            Tutorial, drill_items, lesson_steps)
from audio_console.galaxis.review import review

import random


def say(console, text):
    command = console.grammar().parse(text)
    assert command is not None, text
    return console.handle(command, 0.0)


def name_for(signal):
    return {"discovered": "discovered", "search": "search", "stored": "stored",
            "own_ship": "own ship", "time_warning": "time warning"}.get(signal) or \
        ["zero", "one", "two", "three", "four"][int(signal[-1])]


def test_drill_scores_first_pass_and_replays_each_miss_until_named():
    drill = EarDrill(["answer_1", "answer_3", "discovered"])
    assert drill.name("answer_1")
    assert not drill.name("answer_2")       # missed answer_3
    assert not drill.name(None)             # skipped discovered
    assert drill.score() == (1, 3)
    assert drill.current == "answer_3"      # the misses come back, in order
    assert drill.name("answer_3")
    assert drill.current == "discovered"
    assert not drill.name("answer_0")       # wrong again: back to the end of the queue
    assert drill.current == "discovered"
    assert drill.name("discovered")
    assert drill.finished()
    assert drill.score() == (1, 3)          # replays do not change the score
    assert drill.confusions[("answer_3", "answer_2")] == 1
    with pytest.raises(InputError):
        drill.name("answer_1")


def test_a_miss_is_replayed_at_most_retries_times():
    drill = EarDrill(["answer_4"], retries=2)
    drill.name("answer_3")
    drill.name("answer_3")
    drill.name("answer_3")
    assert drill.finished()


def test_drills_cover_every_signal_and_are_seeded():
    short = drill_items("short", random.Random(1))
    assert len(short) == 8 and set(ANSWER_SIGNALS) <= set(short)
    assert short == drill_items("short", random.Random(1))
    long = drill_items("long", random.Random(1))
    assert len(long) == 24 and {"search", "own_ship", "stored"} <= set(long)


def test_ear_training_console_plays_the_sound_without_naming_it_and_scores():
    console = EarTraining("short", seed=5)
    opening = console.start()
    asked = [m for m in opening.messages if m.signal]
    assert asked and asked[-1].signal == console.drill.current
    assert console.drill.current.replace("_", " ") not in asked[-1].text   # no give-away
    first = console.drill.current
    reply = say(console, name_for(first))
    assert reply.messages[0].text.startswith("Right")
    second = console.drill.current
    wrong = "discovered" if second != "discovered" else "two"
    reply = say(console, wrong)
    assert reply.messages[0].text.startswith("No")
    assert reply.messages[0].signal == second            # the right sound is played again
    again = say(console, "play again")
    assert not again.record and again.messages[-1].signal == console.drill.current
    while not console.finished():
        say(console, name_for(console.drill.current))
    assert console.drill.score() == (7, 8)
    with pytest.raises(InputError):
        say(console, "one")


def test_ear_training_refuses_a_name_not_in_the_short_drill():
    console = EarTraining("short", seed=1)
    console.start()
    command = EarTraining("long").grammar().parse("search")
    with pytest.raises(InputError):
        console.handle(command, 0.0)
    assert console.drill.position == 0


def test_ear_training_replays_recorded_answers_to_the_same_state():
    console = EarTraining("long", seed=3)
    console.start()
    recorded = []
    for guess in ["one", "discovered", "skip", "four"]:
        recorded += say(console, guess).record
    copy = EarTraining("long", seed=3)
    for action in recorded:
        copy.apply_recorded(action)
    assert copy.drill == console.drill


def test_rulebook_example_is_explained_beam_by_beam():
    ships = [parse_point(s) for s in ("F3", "E5", "D6", "B5")]
    assert explain_answer(parse_point("C2"), ships)[0].startswith("C2 answers 0")
    d5 = " ".join(explain_answer(parse_point("D5"), ships))
    assert "D5 answers 4" in d5
    for ship in ("B5", "D6", "F3", "E5"):
        assert f"meets the ship at {ship}" in d5
    assert "discovered" in explain_answer(parse_point("F3"), ships)[0]


def test_radio_shadow_is_explained():
    ships = [parse_point(s) for s in ("D3", "D6", "B2", "G9")]
    lines = " ".join(explain_answer(parse_point("D1"), ships))
    assert "D1 answers 1" in lines and "D6 lies behind it in its radio shadow" in lines


def test_tutorial_plays_each_answer_signal_of_the_rulebook_example():
    steps = lesson_steps(LESSONS[0])
    signals = [m.signal for step in steps for m in step if m.signal]
    assert signals == ["answer_0", "answer_1", "answer_2", "answer_3", "answer_4", "discovered"]
    tutorial = Tutorial()
    tutorial.start()
    with pytest.raises(InputError):
        say(tutorial, "back")
    shown = 0
    while not tutorial.finished():
        say(tutorial, "next")
        shown += 1
    assert shown == len(tutorial.steps)


def test_review_says_what_each_query_answered_and_ruled_out():
    ships = [parse_point(s) for s in ("F3", "E5", "D6", "B5")]
    queries = ["C2", "C4", "D5", "F3", "E5", "D6", "B5"]
    history = [(parse_point(q), answer(parse_point(q), ships)) for q in queries]
    lines = review(history)
    assert len(lines) == len(queries) + 2
    assert lines[1].text.startswith("Query 1: C2 answered 0. It rules out 22 points")
    assert lines[1].signal == "answer_0"
    assert "B1" in lines[1].text and "Placements left: 91,390 of 595,665" in lines[1].text
    assert lines[4].signal == "discovered"
    assert lines[-1].text == "End of review: 4 of 4 ships found in 7 queries."


def test_ear_training_says_when_the_signals_are_off(tmp_path):
    from tests.conftest import run_console
    result = run_console(["--game", "galaxis", "--practice", "ear", "--text"], ["quit"], tmp_path)
    assert "This practice is by ear, but the signals are off" in result.stdout
    result = run_console(["--game", "galaxis", "--practice", "tutorial", "--text"], ["quit"], tmp_path)
    assert "signals are off" not in result.stdout
