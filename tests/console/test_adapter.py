"""The one shape of a game at the console (contract/adapter.py): every game, drill and
the menu is a GameAdapter, so the session calls methods that always exist; dispatch,
refusals, the rules core's errors and replay behave the same in every game."""
import io

import pytest

from audio_console.commands import Grammar, Rule
from audio_console.contract.adapter import GAME_OVER, GameAdapter, do_method, refusal_sentence
from audio_console.contract.base import InputError, Reply
from audio_console.console.menu import MenuConsole
from audio_console.console.session import Session
from audio_console.console.storage import EventLog
from audio_console.app.games import GAMES
from audio_console.output.presenter import Presenter
from audio_console.base.settings import Settings


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


class Pair(Counter):
    """Two commands for one handler (as data), and a part with commands of its own."""
    handled_by = {"plus": "add"}

    def __init__(self):
        super().__init__()
        self.notes = Notes()

    def grammar(self):
        return Grammar([Rule(name, name, [name]) for name in ("add", "plus", "note")])

    def parts(self):
        return (self.notes,)


class Notes:
    def __init__(self):
        self.said = 0

    def do_note(self, command, now):
        self.said += 1
        if self.said > 1:
            raise ValueError("one note is enough")
        return Reply().say("Noted.")


def test_one_handler_for_several_commands_and_a_parts_commands_go_through_the_same_dispatch():
    game = Pair()
    assert game.handle(game.grammar().parse("plus"), 0.0).record == ["add"] and game.count == 1
    assert not hasattr(game, "do_plus")
    assert game.handle(game.grammar().parse("note"), 0.0).messages[0].text == "Noted."
    with pytest.raises(InputError, match="^One note is enough.$"):     # the part's errors too
        game.handle(game.grammar().parse("note"), 0.0)


@pytest.mark.parametrize("name", ["galaxis", "battleship", "arkade"])
def test_every_command_a_game_shares_out_has_its_handler(name):
    console = GAMES[name].create({}, 1, Settings(), 0.0)
    for command, handler in console.handled_by.items():
        method = do_method(handler)
        assert any(hasattr(owner, method) for owner in (console, *console.parts())), command
