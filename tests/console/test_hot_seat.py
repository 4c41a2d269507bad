"""Hot-seat passing (contract/hot_seat.py), the one rule Galaxis and Battleship share:
while the console is passed nothing but "ready" (and what the game allows) is taken,
the screen is cleared once, and "ready" says who has it."""
import pytest

from audio_console.commands import Command
from audio_console.contract.base import InputError, Message
from audio_console.contract.hot_seat import HotSeat


def test_passing_clears_once_waits_for_ready_and_says_who():
    seat = HotSeat("team")
    assert not seat.passing and seat.refusal(Command("query", "query D5")) is None
    clear = seat.pass_to(2, [Message("Team 1: D5 answered 2.")])
    assert clear.clear_for == "team 2" and clear.public == ("Team 1: D5 answered 2.",)
    assert seat.prompt() == "Pass the console to team 2. Team 2: say ready."
    assert seat.refusal(Command("query", "query D5")) == "The console is passing to team 2: team 2, say ready first."
    assert seat.refusal(Command("status", "status"), allowed=("ready", "status")) is None
    assert seat.refusal(Command("ready", "ready")) is None
    assert "nothing secret is said before" in seat.help()[0]
    assert seat.ready() == 2 and not seat.passing
    with pytest.raises(InputError, match="Nothing to be ready for."):
        seat.ready()


def test_a_replay_passes_the_console_silently():
    seat = HotSeat("player")
    seat.pass_to(1)
    seat.cancel()
    assert not seat.passing and seat.refusal(Command("shoot", "shoot 1 row A")) is None
