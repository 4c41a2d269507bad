"""Hints a voice player can listen to (issue 30, item 3): "Hint: D5." by default, the
reasoning on "why", and "long hints on" (remembered) for both at once; counted as
before. In Galaxis and Battleship, typed into the real console; the spoken hint is
rendered by the console's own text-to-speech to hear how long it takes."""
import pytest

from audio_console.audio.tts import Speech, SpeechUnavailable
from tests.conftest import run_console
from tests.robust.helpers import make_session, start

RATE = 48000


def seconds_spoken(text):
    try:
        speech = Speech(RATE, rate=175, notify=lambda m: None)
    except SpeechUnavailable as error:
        pytest.skip(str(error))
    try:
        return len(speech.render(text)) / RATE
    finally:
        speech.close()


def test_a_galaxis_hint_is_short_and_why_gives_its_reason(tmp_path):
    session, out, sink = make_session(tmp_path)
    start(session, "galaxis", seed=1, option=2)
    for line in ["why", "D5", "hint", "why", "status"]:
        session.type(line)
    lines = out.getvalue().splitlines()
    assert "Say hint first; why then gives the hint's reason." in lines
    hint = next(l for l in lines if l.startswith("Hint: "))
    assert len(hint) == len("Hint: D5.") and hint in sink.spoken
    point = hint[len("Hint: "):-1]
    why = next(l for l in lines if l.startswith("Why "))
    assert why.startswith(f"Why {point}: {point} is the best query now: of the ") and why in sink.spoken
    assert "Hints used: 1." in lines                  # counted once; why is not another hint
    assert seconds_spoken(hint) < 1.5 < 6 < seconds_spoken(why)


def test_long_hints_are_a_remembered_setting(tmp_path):
    args = ["--game", "galaxis", "--seed", "1", "--text"]
    first = run_console(args, ["long hints on", "hint", "quit"], tmp_path)
    assert "Long hints on: a hint says its reason too." in first.stdout
    long = next(l for l in first.stdout.splitlines() if l.startswith("Hint: "))
    assert " is the best query now: of the " in long
    (tmp_path / "home" / "game.json").unlink()
    again = run_console(args, ["hint", "long hints off", "hint", "quit"], tmp_path)
    hints = [l for l in again.stdout.splitlines() if l.startswith("Hint: ")]
    assert hints[0] == long and len(hints[1]) == len("Hint: D5.")
    assert "Long hints off: a hint names where to try; say why for its reason." in again.stdout


def test_a_battleship_hint_is_short_and_why_gives_its_reason(tmp_path):
    session, out, sink = make_session(tmp_path)
    start(session, "battleship", seed=3, opponent="computer", placement="random", level=2)
    for line in ["hint", "why"]:
        session.type(line)
    lines = out.getvalue().splitlines()
    hint = next(l for l in lines if l.startswith("Hint: "))
    assert hint.startswith("Hint: sector ") and hint.count(" ") == 4 and hint in sink.spoken
    line = hint[len("Hint: "):-1]
    why = next(l for l in lines if l.startswith("Why "))
    assert why.startswith(f"Why {line}: of ") and "fleets that agree with your shots" in why
    assert seconds_spoken(hint) < 2.0 < 5 < seconds_spoken(why)
