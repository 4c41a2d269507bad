"""A saved Galaxis game replays through the same commands as play: queries, info
pegs, hints, a turn that ran out of time, and the computer team's own moves."""
import pytest

from audio_console.contract.base import InputError
from audio_console.galaxis.console import GalaxisConsole
from audio_console.galaxis.commands import grammar


def play(console, *texts, now=0.0):
    records = []
    for text in texts:
        command = (console.grammar() + grammar()).parse(text) or console.replay_grammar().parse(text)
        records += console.handle(command, now).record
    return records


def test_a_turn_that_ran_out_of_time_is_replayed():
    console = GalaxisConsole(option=1, seed=2, time_limit=5, now=0.0)
    records = play(console, "D5", "ready") + console.tick(100.0).record
    assert records == ["query D5", "time out"]
    again = GalaxisConsole(option=1, seed=2, time_limit=5, now=0.0)
    for action in records:
        again.apply_recorded(action)
    assert again.core.turn == console.core.turn and again.core.state[1].queries == 1


def test_the_computer_team_moves_are_replayed_as_recorded():
    console = GalaxisConsole(option=1, seed=3, opponent="computer", level=1)
    records = play(console, "hint", "D5") + console.tick(0.0).record
    records += play(console, "E2") + console.tick(0.0).record
    assert records[:2] == ["hint", "query D5"] and records[2].startswith("query ")
    again = GalaxisConsole(option=1, seed=3, opponent="computer", level=1)
    for action in records:
        again.apply_recorded(action)
    assert again.core.state[2].queried == console.core.state[2].queried
    assert again.assistant.hints == console.assistant.hints


def test_a_saved_action_that_changes_nothing_is_refused():
    console = GalaxisConsole(option=2, seed=1)
    console.apply_recorded("query D5")
    with pytest.raises(InputError, match="changes nothing"):
        console.apply_recorded("query D5")        # answered from the scanner: no move
    with pytest.raises(InputError, match="not a Galaxis action"):
        console.apply_recorded("banana")
