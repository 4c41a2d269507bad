"""The session: reads input (keys and voice), routes each command to the game or
to the console itself, shows every reply, logs events and saves after every move.

Input arrives on one queue from any number of sources (a stdin reader thread, the
voice listener), so keyboard and microphone work alike and together; between
inputs the session ticks the game's clocks and computer players. Each input goes
along a chain of handlers (console/chain.py) until one takes it.
"""
from __future__ import annotations

import queue
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from audio_console.commands import Command
from audio_console.commands.vocabulary import common_grammar
from audio_console.contract.adapter import GameAdapter
from audio_console.contract.base import Message, Reply
from audio_console.console.chain import (ClockHold, GameStage, Handler, MenuStage, PendingQuestion, Said,
                                         Understanding, VoiceCheckStage)
from audio_console.console.menu import MenuConsole
from audio_console.contract.gameinfo import GameInfo
from audio_console.console.slots import in_progress, make_room, take_out
from audio_console.console.storage import EventLog, SavedGame, copy_aside, write_save
from audio_console.console.history import MessageHistory
from audio_console.console.pager import Pager
from audio_console.console.session_commands import SessionCommands
from audio_console.console.spoken_commands import SpokenCommands
from audio_console.console.typed import EDGES, echo, refusal
from audio_console.console.voice_check import VoiceCheckConsole
from audio_console.base.files import WriteError
from audio_console.output.presenter import OutputClosed, Presenter
from audio_console.base.settings import Settings
from audio_console.voice.dialogue import VoiceDialogue
from audio_console.base.wording import counted

if TYPE_CHECKING:     # for the annotations only: voice is loaded when voice is used
    from audio_console.voice.listener import Listener

TICK_SECONDS = 0.1


class Session:
    def __init__(self, presenter: Presenter, settings: Settings, games: dict[str, GameInfo],
                 save_path: Path, log: EventLog, clock=time.monotonic, barge_in: bool = True):
        self.presenter = presenter
        self.settings = settings
        self.games = games
        self.save_path = save_path
        self.log = log
        self.clock = clock
        self.barge_in = barge_in
        self.common = common_grammar()
        self._console: GameAdapter | None = None
        self.menu: MenuConsole | None = None       # the menu, while it is in front of the player
        self.info: GameInfo | None = None
        self.saved: SavedGame | None = None
        self.keeps_save = True
        self.last_messages: list[Message] = []
        self.history = MessageHistory()
        self.pager = Pager()                       # the pages of a long answer, for `more`
        self.last_prompt = ""
        self.dialogue = VoiceDialogue()            # voice: mishearings and "Did you say ...?"
        self.listener: Listener | None = None
        self.check: VoiceCheckConsole | None = None    # a voice check in progress
        self.prompt_rng = random.Random()   # the voice check's prompts
        self.seed: int | None = None        # --seed: the board of each game the menu starts (None: a new one)
        self.talking = False       # push to talk: between the two presses of Enter
        self.running = True
        self.save_problem: str | None = None   # why the last save failed (told once)
        self.check_options = None   # check(game, options) for saves found for the menu
        self.holding = False        # the game's clocks wait until the sink has said a long answer
        self.question = PendingQuestion(self)
        self.commands = SessionCommands(self)
        self.chain: list[Handler] = [VoiceCheckStage(self), Understanding(self), self.question, ClockHold(self),
                                     MenuStage(self), self.commands, SpokenCommands(self), GameStage(self)]

    @property
    def console(self) -> GameAdapter:
        """The menu or the game in front of the player (one is open before any input)."""
        if self._console is None:
            raise RuntimeError("the session has no menu or game open yet")
        return self._console

    @console.setter
    def console(self, console: GameAdapter) -> None:
        self._console = console

    @property
    def pending(self) -> tuple[str, Callable[[], None]] | None:
        """The yes-or-no question waiting for its answer, if any."""
        return self.question.waiting

    # --- starting a game ------------------------------------------------------

    def open_menu(self, offers=None, start=None) -> None:
        """The menu; offers: the unfinished saved games (None: look for them)."""
        if offers is None:
            offers = in_progress(self.save_path, self.games, self.check_options)
        self.menu = MenuConsole(self.games, offers, start)
        self.console, self.info, self.saved = self.menu, None, None
        self.show(self.console.start())

    def resume_saved(self, saved: SavedGame) -> None:
        """Resume an unfinished game the menu offered (from its own slot)."""
        take_out(self.save_path, saved.game, self.games)
        self.open_game(self.games[saved.game], saved.options, saved.seed, saved.actions, saved.log)

    def open_game(self, info: GameInfo, options: dict, seed: int, actions: Sequence[str] = (),
                  log_pending: dict | None = None) -> None:
        """Start a game, or resume one by replaying its recorded actions silently.
        A recorded action that cannot be replayed ends the replay there: the game
        resumes after the last good action and says so (the full save kept aside)."""
        console = info.create(options, seed, self.settings, self.clock())
        actions = list(actions)
        dropped = None
        for done, action in enumerate(actions):
            try:
                console.apply_recorded(action)
            except Exception as error:   # a damaged save must never stop the console
                dropped = (done, error)
                break
        if dropped is not None:
            aside = copy_aside(self.save_path)
            log_pending = None
            actions = actions[:dropped[0]]
        console.restart_clock(self.clock())
        self.console, self.info, self.menu = console, info, None
        self._prewarm(console)
        self.saved = SavedGame(info.name, options, seed, list(actions))
        # A practice drill is not a game: it never takes the game's save slot.
        self.keeps_save = not console.practice
        moved = make_room(self.save_path, info.name, self.games) if self.keeps_save else None
        self._save()
        if log_pending:
            self.log.catch_up(info.name, log_pending)
            self._tell_log_problem()
        if console.needs_signals and not self.presenter.signals:
            self.show(Reply().say("This practice is by ear, but the signals are off "
                                   "(--text or --no-signals): start it without them to hear them."))
        if dropped is not None:
            done, problem = dropped
            kept = f" The full save was kept as {aside}." if aside else ""
            self.show(Reply().say(f"Saved action {done + 1} could not be replayed ({str(problem)[:80] or 'damaged'}); "
                                   f"the game resumes after the last good one.{kept}", signal="error"))
        if moved is not None:
            self.show(Reply().say(f"Your {self.games[moved].title} game in progress is kept: "
                                   "say menu to resume it.", signal=None))
        if actions or dropped is not None:
            reply = Reply().say(f"Resumed {info.title}, after {counted(len(actions), 'action')}.")
            reply.messages += [Message(line) for line in self._status_lines()]
            self.show(reply)
        else:
            self.show(console.start())
        self.update_listener()

    def tell(self, text: str, signal: str | None = "error") -> None:
        """A console notice (a file problem, a reset setting): printed and spoken."""
        self.show(Reply().say(text, signal=signal), remember=False)

    def _save(self) -> None:
        """Write the save; a failure is told once and play goes on."""
        if not self.keeps_save or self.saved is None:
            return
        try:
            write_save(self.save_path, self.saved)
        except WriteError as error:
            if self.save_problem is None:
                self.tell(f"Your game cannot be saved: {error}")
            self.save_problem = str(error)
        else:
            self.save_problem = None

    def _tell_log_problem(self) -> None:
        problem = self.log.take_problem()
        if problem:
            self.tell(problem)

    def _prewarm(self, console) -> None:
        """Have the speech of fixed phrases rendered ahead, so that they are never late."""
        prewarm = getattr(self.presenter.sink, "prewarm", None)
        if prewarm is None or not self.presenter.own_voice:
            return
        prewarm(console.fixed_phrases() + [console.prompt(), "Say again.", "Cancelled.", "Goodbye."])

    def _status_lines(self) -> list[str]:
        return self.console.status()

    # --- the loop -------------------------------------------------------------

    def run(self, inputs: "queue.Queue") -> None:
        """Process input until quit, or the end of keyboard input with no listener."""
        self._tell_log_problem()          # a --log that could not be opened
        self.show_prompt(force=True)
        while self.running:
            try:
                source, item = inputs.get(timeout=TICK_SECONDS)
            except queue.Empty:
                self._tick()
                continue
            if source == "eof":
                if self.listener is None:   # Ctrl-D or the end of piped input: as quit
                    try:
                        self.commands.do_quit(None)
                    except OutputClosed:    # the output is closed too (a pipe's reader gone)
                        pass
                    break
                continue
            if source == "notice":   # the listener: speech cut, too much talk, microphone gone
                self.show(Reply().say(item, signal="error"), remember=False)
                continue
            if self.barge_in and source in ("tty", "voice"):
                self.presenter.stop()
            if source == "voice":
                self.hear(item)
            else:
                self.type(item)
            self._tick()

    def _tick(self) -> None:
        self.presenter.check_reader()      # a screen reader not found after all: said now
        if self._console is None or self.pending:
            return
        if self.holding:
            if self.presenter.sink.busy():
                return
            self.holding = False             # heard to the end, or cut off: the clocks go on
            self.console.restart_clock(self.clock())
        self.after(self.console.tick(self.clock()))

    # --- input: along the chain of handlers -------------------------------------

    def parse(self, text: str) -> Command | None:
        return self.console.grammar().parse(text) or self.common.parse(text)

    def type(self, text: str) -> None:
        text = text.strip(EDGES)
        reason = refusal(text)
        if reason is not None:
            self.refuse(reason)
            return
        if not text and self._push_to_talk():
            self._toggle_talk()
            return
        if not text:
            self.show_prompt(force=True)
            return
        self._take(Said(text=text))

    def hear(self, heard) -> None:
        """A result from the voice listener (audio_console.voice.Heard)."""
        self._take(Said(heard=heard))

    def do(self, command: Command) -> None:
        self._take(Said(command=command))

    def _take(self, said: Said) -> None:
        for handler in self.chain:
            if handler.take(said):
                return

    def explain(self, text: str) -> str:
        reason = self.console.explain(text) or f"Not understood: {text}. Say help to hear what you can say."
        return reason.replace(text, echo(text))

    def ask(self, question: str, action: Callable[[], None], about: Command | None = None) -> None:
        """Ask a yes-or-no question; `about`: the heard command it checks, if any."""
        self.question.ask(question, action, about)

    def after(self, reply: Reply, prompt: bool = True) -> None:
        """Log, save and show a game's reply (then the prompt, when it said something)."""
        if not (reply.messages or reply.events or reply.record):
            return
        game = self.info.name if self.info else "menu"
        if reply.record:
            self.pager.moved()
        if reply.record and self.saved is not None:
            # Saved first, with the events it logs next: a resume logs those missing, none twice.
            offset = self.log.offset()
            self.saved.actions += reply.record
            self.saved.over = bool(self.console.finished())
            self.saved.log = ({"path": str(self.log.path), "offset": offset, "events": reply.events}
                              if offset is not None and reply.events else None)
            self._save()
        for event in reply.events:
            self.log.write(game, event)
        self._tell_log_problem()
        self.show(reply)
        if prompt and reply.messages:
            self.show_prompt()

    def refuse(self, reason: str) -> None:
        self.show(Reply().say(reason, signal="error"), remember=False)

    # --- voice: push to talk ----------------------------------------------------

    def _push_to_talk(self) -> bool:
        return self.listener is not None and self.settings.listening == "push"

    def _toggle_talk(self) -> None:
        if self.listener is None:
            return
        self.talking = not self.talking
        self.listener.talk(self.talking)
        self.show(Reply().say("Listening." if self.talking else "Done.", signal="prompt"), remember=False)

    # --- output ---------------------------------------------------------------

    def show(self, reply: Reply, remember: bool = True, review: bool = False) -> None:
        """Show a reply; remember: as the one `repeat` says; review: a read-back, kept
        out of the history."""
        if remember and reply.messages:
            self.last_messages = list(reply.messages)
        self.pager.hold(reply)
        if not review:
            self.history.add(reply.messages)
            if self._console is not None and self._console.passing():
                self.history.clear()     # a hot-seat game passes the console: nothing secret kept
        self.presenter.show(reply.messages)

    def show_prompt(self, force: bool = False) -> None:
        prompt = self._console.prompt() if self._console else ""
        just_said = bool(self.last_messages) and self.last_messages[-1].text == prompt
        if prompt and (force or (prompt != self.last_prompt and not just_said)):
            self.presenter.show([Message(prompt, signal="prompt")])
        self.last_prompt = prompt
        self.update_listener()

    def update_listener(self) -> None:
        if self.listener is not None and self._console is not None:
            self.listener.set_grammar(self.console.grammar() + self.common)
