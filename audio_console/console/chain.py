"""The session's chain of handlers: every input (a typed line, an utterance heard, or a
command) is offered to each handler in turn until one takes it.

    voice check -> understanding -> pending question -> clock hold -> menu
                -> session commands -> review commands -> game

Each handler has one job and one method, `take(said) -> bool` (True: taken, the chain
stops). A handler that only notes something (the clock hold) or turns the input into
a command (understanding) returns False, so the rest of the chain sees it. The
session's own commands are `do_<name>(command)` methods, as a game's are
(contract/adapter.py): one way to name what a command does, for the console and the
games alike.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol

from audio_console.commands import Command
from audio_console.contract.adapter import GameAdapter, do_method
from audio_console.contract.base import InputError, Message, Reply
from audio_console.contract.gameinfo import GameInfo
from audio_console.console.history import MessageHistory
from audio_console.console.menu import MenuConsole
from audio_console.console.pager import Pager
from audio_console.console.storage import SavedGame
from audio_console.console.typed import echo
from audio_console.console.voice_check import VoiceCheckConsole
from audio_console.output.presenter import Presenter
from audio_console.base.settings import Settings
from audio_console.voice.dialogue import VoiceDialogue

if TYPE_CHECKING:     # for the annotations only: voice is loaded when voice is used
    from audio_console.voice.listener import Listener


@dataclass
class Said:
    """One input on its way along the chain."""
    text: str | None = None         # a typed line (stripped, readable, not empty)
    heard: Any = None               # a result of the listener (audio_console.voice.Heard)
    command: Command | None = None  # what it asks for, once understood


class SessionView(Protocol):
    """What the handlers use of the Session (console/session.py, which imports them:
    described here rather than imported, so that no two modules import each other)."""
    settings: Settings
    presenter: Presenter
    history: MessageHistory
    pager: Pager
    last_messages: list[Message]
    dialogue: VoiceDialogue
    listener: Listener | None
    check: VoiceCheckConsole | None
    menu: MenuConsole | None
    info: GameInfo | None
    saved: SavedGame | None
    keeps_save: bool
    save_problem: str | None
    holding: bool
    running: bool
    prompt_rng: random.Random
    seed: int | None
    clock: Callable[[], float]

    @property
    def console(self) -> GameAdapter: ...
    @property
    def pending(self) -> tuple[str, Callable[[], None]] | None: ...
    def parse(self, text: str) -> Command | None: ...
    def explain(self, text: str) -> str: ...
    def do(self, command: Command) -> None: ...
    def ask(self, question: str, action: Callable[[], None], about: Command | None = None) -> None: ...
    def after(self, reply: Reply, prompt: bool = True) -> None: ...
    def show(self, reply: Reply, remember: bool = True, review: bool = False) -> None: ...
    def show_prompt(self, force: bool = False) -> None: ...
    def refuse(self, reason: str) -> None: ...
    def tell(self, text: str, signal: str | None = "error") -> None: ...
    def update_listener(self) -> None: ...
    def open_menu(self, offers=None, start=None) -> None: ...
    def open_game(self, info: GameInfo, options: dict, seed: int, actions=(), log_pending=None) -> None: ...
    def resume_saved(self, saved: SavedGame) -> None: ...


class Handler:
    def __init__(self, session: SessionView):
        self.session = session

    def take(self, said: Said) -> bool:
        raise NotImplementedError


def dispatch(handler: object, command: Command) -> bool:
    """Call the handler's `do_<name>` method for the command, if it has one."""
    method = getattr(handler, do_method(command.name), None)
    if method is None:
        return False
    method(command)
    return True


class VoiceCheckStage(Handler):
    """While a voice check runs, it takes every line typed and everything heard."""

    def take(self, said: Said) -> bool:
        check = self.session.check
        if check is None or (said.text is None and said.heard is None):
            return False
        session = self.session
        try:
            session.show(check.typed(said.text) if said.text is not None else check.heard(said.heard))
        except InputError as error:
            session.refuse(str(error))
        if check.finished():
            session.check = None
            session.update_listener()
            session.show_prompt(force=True)
        return True


class Understanding(Handler):
    """A typed line is parsed; an utterance goes through the voice dialogue (say again,
    "Did you say ...?", or act). What is understood goes on as a command."""

    def take(self, said: Said) -> bool:
        if said.command is not None:
            return False
        session = self.session
        if said.heard is not None:
            return self._heard(said)
        assert said.text is not None
        said.command = session.parse(said.text)
        if said.command is None:
            session.refuse(session.explain(said.text))
            return True
        session.dialogue.understood()
        return False

    def _heard(self, said: Said) -> bool:
        session = self.session
        turn = session.dialogue.take(said.heard)
        if turn.silent:
            return True
        if turn.ask_again and session.pending is not None:
            session.show(Reply().say(session.pending[0], signal="prompt"))
            return True
        if turn.act is not None:
            said.command = turn.act
            return False
        if turn.ask is not None:
            command = turn.ask
            session.ask(f"Did you say {turn.words}? Yes or no.", lambda: session.do(command), about=command)
        elif turn.words:
            session.show(Reply().say(f"Say again. Heard: {echo(turn.words.rstrip('.?! '))}. "
                                     "Say help to hear what you can say, or type it.", signal="error"))
        else:
            session.show(Reply().say("Say again.", signal="error"))
        return True


class PendingQuestion(Handler):
    """A yes-or-no question waiting: yes carries out its action, no or cancel drops it.
    Any other command drops it too, and goes on."""

    def __init__(self, session: SessionView):
        super().__init__(session)
        self.waiting: tuple[str, Callable[[], None]] | None = None

    def ask(self, question: str, action: Callable[[], None], about: Command | None = None) -> None:
        """Ask; `about`: the heard command the question checks, if any."""
        self.waiting = (question, action)
        self.session.dialogue.asking(about)
        self.session.show(Reply().say(question, signal="prompt"))

    def take(self, said: Said) -> bool:
        assert said.command is not None
        name = said.command.name
        waiting, self.waiting = self.waiting, None
        if waiting is None:
            return False
        self.session.dialogue.answered(name)   # another command drops the question too
        if name not in ("yes", "no", "cancel"):
            return False
        if name == "yes":
            waiting[1]()
        else:
            self.session.show(Reply().say("Cancelled."))
            self.session.show_prompt(force=True)     # where the player is, after the question
        return True


class ClockHold(Handler):
    """The game's clocks wait while a long answer is heard (the game says which)."""

    def take(self, said: Said) -> bool:
        assert said.command is not None
        self.session.holding = self.session.console.holds_clock(said.command)
        return False


class MenuStage(Handler):
    """While the menu is open: its own commands, and starting what it chose."""
    OWN = ("choose", "back", "menu", "new game")   # new game in the menu: its first question again

    def take(self, said: Said) -> bool:
        menu, session = self.session.menu, self.session
        if menu is None or said.command is None or said.command.name not in self.OWN:
            return False
        command = said.command if said.command.name != "new game" else Command("menu", "menu")
        try:
            reply = menu.handle(command, session.clock())
        except InputError as error:
            session.refuse(str(error))
            return True
        if not menu.finished():
            session.after(reply)
            return True
        session.after(reply, prompt=False)
        self._leave(menu)
        session.show_prompt()
        return True

    def _leave(self, menu: MenuConsole) -> None:
        session = self.session
        try:
            if menu.resume is not None:
                session.resume_saved(menu.resume)
            elif menu.start_with is not None:
                session.open_game(*menu.start_with)
            elif menu.info is not None:
                seed = session.seed if session.seed is not None else random.randrange(2 ** 31)
                session.open_game(menu.info, menu.chosen_options(), seed)
            else:                       # finished without a game: cannot happen, but not a crash
                session.open_menu()
        except InputError as error:
            session.tell(f"Cannot start that game: {error}")
            session.open_menu()


class GameStage(Handler):
    """The game (or the menu) in front of the player: the rest of the commands."""

    def take(self, said: Said) -> bool:
        assert said.command is not None
        session = self.session
        try:
            reply = session.console.handle(said.command, session.clock())
        except InputError as error:
            session.refuse(str(error))
            return True
        session.after(reply)
        return True
