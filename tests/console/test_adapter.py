"""The one shape of a game at the console (console/adapter.py): every game, drill and
the menu is a GameAdapter, so the session calls methods that always exist; dispatch,
refusals, the rules core's errors and replay behave the same in every game."""
import io

import pytest

from audio_console.commands import Grammar, Rule
from audio_console.contract.adapter import GAME_OVER, GameAdapter, refusal_sentence
from audio_console.contract.base import InputError, Reply
from audio_console.console.menu import MenuConsole
from audio_console.console.session import Session
from audio_console.console.storage import EventLog
from audio_console.games import GAMES
from audio_console.output.presenter import Presenter
from audio_console.settings import Settings


class Counter(GameAdapter):
    """The smallest game: 'add' three times wins. Only what it must say is written."""
    game = "counter"
    title = "Counter"
    rule_errors = (ValueError,)

    def __init__(self):
        self.count = 0

    def grammar(self):
        return Grammar([Rule("add", "add", ["add"]), Rule("break", "break", ["break"])])

    def finished(self):
        return self.count >= 3

    def prompt(self):
        return super().prompt() or f"Count {self.count}: say add."

    def do_add(self, command, now):
        if self.finished():
            raise ValueError("the counter is full")
        self.count += 1
        return Reply(record=["add"]).say(f"Count {self.count}.")


@pytest.mark.parametrize("name,options", [
    ("galaxis", {"option": 2}), ("galaxis", {"option": 1, "opponent": "computer"}),
    ("galaxis", {"practice": "ear"}), ("galaxis", {"practice": "tutorial"}),
    ("battleship", {}), ("arkade", {}),
])
def test_every_game_is_a_game_adapter(name, options):
    console = GAMES[name].create(options, 1, Settings(), 0.0)
    assert isinstance(console, GameAdapter)
    assert isinstance(console.status(), list) and isinstance(console.fixed_phrases(), list)
    console.restart_clock(0.0)
    assert isinstance(MenuConsole(GAMES), GameAdapter)


def test_dispatch_errors_and_replay_are_the_base_s():
    game = Counter()
    assert game.handle(game.grammar().parse("add"), 0.0).record == ["add"]
    with pytest.raises(InputError, match="^break cannot be done now"):
        game.handle(game.grammar().parse("break"), 0.0)        # no do_break
    game.apply_recorded("add")
    game.apply_recorded("add")
    assert game.finished() and game.prompt() == GAME_OVER
    with pytest.raises(InputError, match="^The counter is full.$"):
        game.handle(game.grammar().parse("add"), 0.0)          # the rules error, one sentence
    with pytest.raises(InputError, match="not a Counter action"):
        Counter().apply_recorded("subtract")
    assert refusal_sentence(ValueError("it is late")) == "It is late."


def test_the_session_runs_a_game_that_writes_only_what_it_must(tmp_path):
    out = io.StringIO()
    info = type(GAMES["galaxis"])("counter", "Counter", lambda o, s, st, n: Counter(), lambda a: {})
    session = Session(Presenter(out=out), Settings(), {"counter": info}, tmp_path / "save.json", EventLog(None))
    session.open_game(info, {}, seed=1)
    for line in ("add", "status", "banana", "add", "add"):
        session.type(line)
    text = out.getvalue()
    assert "Count 3." in text and GAME_OVER in text
    assert "Not understood: banana. Say help to hear what you can say." in text
