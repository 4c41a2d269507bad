"""Galaxis cues: every event has its line, its speech and a signal from the table;
sides follow the teams; option 1 keeps the point off the speakers."""
import pytest

from audio_console.audio.signals import SIGNALS
from audio_console.galaxis.board import DISCOVERED, parse_point
from audio_console.galaxis.console import GalaxisConsole
from audio_console.galaxis.cues import GalaxisCues
from audio_console.galaxis.events import (
    Answered, GameOver, OwnShipRevealed, Reveal, Stored, TimedOut, TimeWarning, TurnPassed,
)

D5 = parse_point("D5")
EVENTS = [Answered(1, D5, n) for n in range(5)] + [
    Answered(2, D5, DISCOVERED, found=2), Answered(1, D5, 3, caution=True),
    OwnShipRevealed(1, D5, 1), Stored(2, D5, 3), TurnPassed(2, "searching"),
    TurnPassed(1, "searching", phase_begins=True), TurnPassed(2, "storing", phase_begins=True),
    TimeWarning(1, 6.0), TimedOut(2), GameOver(1, {1: 10, 2: 9}), Reveal({1: (D5,), 2: (D5,)})]


@pytest.mark.parametrize("option", [1, 2, 3])
@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_every_event_is_said_and_its_signal_exists(option, event):
    messages = GalaxisCues(option).messages(event)
    assert any(m.text for m in messages), "every event has a line of text"
    for m in messages:
        assert m.signal is None or m.signal in SIGNALS
        if m.signal and m.signal != "search":
            assert m.text, "no signal without its line"


def test_each_answer_has_its_own_signal_after_the_search_signal():
    for n in range(5):
        search, result = GalaxisCues(2).messages(Answered(1, D5, n))
        assert search.signal == "search" and result.signal == f"answer_{n}"
    assert GalaxisCues(2).messages(Answered(1, D5, DISCOVERED))[1].signal == "discovered"


def test_teams_sound_on_their_side_and_the_lone_player_in_the_centre():
    assert {m.side for m in GalaxisCues(1).messages(Answered(1, D5, 2))} == {1}
    assert {m.side for m in GalaxisCues(1).messages(Answered(2, D5, 2))} == {2}
    assert {m.side for m in GalaxisCues(2).messages(Answered(1, D5, 2))} == {0}


def test_option1_prints_the_point_but_never_speaks_it():
    message = GalaxisCues(1).messages(Answered(1, D5, 2))[1]
    assert "D5" in message.text and "D5" not in message.spoken
    announced = GalaxisCues(3).messages(Answered(1, D5, 2))[1]
    assert "D5" in announced.spoken                 # option 3: announced to both teams


def test_the_computers_point_stays_off_the_screen_in_option1():
    cues = GalaxisCues(1)
    cues.computer_team = 2
    for answer in (0, 2, DISCOVERED):
        message = cues.messages(Answered(2, D5, answer))[1]
        assert "D5" not in message.text and "D5" not in message.spoken


def test_option1_answers_are_rendered_ahead():
    console = GalaxisConsole(option=1)
    spoken = {m.spoken for t in (1, 2) for n in range(5)
              for m in console.cues.messages(Answered(t, D5, n)) if m.spoken}
    assert spoken <= set(console.fixed_phrases())


def test_the_time_warning_counts_seconds_in_good_english():
    cues = GalaxisCues(option=1)
    assert cues.messages(TimeWarning(1, 1.2))[0].text == "Team 1: 1 second left!"
    assert cues.messages(TimeWarning(2, 6.0))[0].text == "Team 2: 6 seconds left!"


def test_the_computer_storing_its_positions_is_not_called_a_query():
    cues = GalaxisCues(option=3)
    cues.computer_team = 2
    assert cues.messages(TurnPassed(2, "storing"))[0].text == "Team 2: the computer stores its four positions."
    assert cues.messages(TurnPassed(2, "searching"))[0].text == "Team 2: the computer's query."
