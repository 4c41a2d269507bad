"""The session: reads input (keys and voice), routes each command to the game or
to the console itself, shows every reply, logs events and saves after every move.

Input arrives on one queue from any number of sources (a stdin reader thread, the
voice listener), so keyboard and microphone work alike and together; between
inputs the session ticks the game's clocks and computer players.
"""
from __future__ import annotations

import queue
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from audio_console.commands import Command
from audio_console.commands.vocabulary import NEVER_CONFIRMED, common_grammar
from audio_console.console.adapter import GameAdapter
from audio_console.console.base import InputError, Message, Reply
from audio_console.console.menu import MenuConsole
from audio_console.console.gameinfo import GameInfo
from audio_console.console.slots import in_progress, make_room, take_out
from audio_console.console.storage import EventLog, SavedGame, copy_aside, write_save
from audio_console.console.history import MessageHistory
from audio_console.console.setting_commands import SETTING_COMMANDS
from audio_console.console.spoken_commands import SpokenCommands
from audio_console.console.typed import EDGES, echo, refusal
from audio_console.console.voice_check import VoiceCheckConsole
from audio_console.files import WriteError
from audio_console.output.presenter import OutputClosed, Presenter
from audio_console.settings import Settings
from audio_console.wording import counted

if TYPE_CHECKING:     # for the annotations only: voice is loaded when voice is used
    from audio_console.voice.listener import Listener

TICK_SECONDS = 0.1
ALWAYS = ("Always: repeat, previous message, next message, history, help, rules, status, summary, "
          "stop (silence), new game, quit; louder, softer (one alone: speech louder, signals softer); "
          "faster, slower; quick signals, faithful signals; long hints on or off; screen reader on or off.")
VOICE_HELP = ("Voice: voice check; push to talk (then Enter starts and ends each command) or "
              "always listen; headphones on or off; confirm always, unsure or never.")


class Session(SpokenCommands):
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
        self.info: GameInfo | None = None
        self.saved: SavedGame | None = None
        self.keeps_save = True
        self.last_messages: list[Message] = []
        self.history = MessageHistory()
        self.last_prompt = ""
        self.pending: tuple[str, Callable[[], None]] | None = None   # a question waiting for yes or no
        self.misheard = 0          # voice: "Say again." in a row since the last command understood
        self.asked_about: Command | None = None   # voice: the command of the last "Did you say ...?"
        self.refused: Command | None = None       # ... when the player answered no to it
        self.listener: Listener | None = None
        self.check: VoiceCheckConsole | None = None    # a voice check in progress
        self.prompt_rng = random.Random()   # the voice check's prompts
        self.talking = False       # push to talk: between the two presses of Enter
        self.running = True
        self.save_problem: str | None = None   # why the last save failed (told once)
        self.check_options = None   # check(game, options) for saves found for the menu
        self.holding = False        # the game's clocks wait until the sink has said a long answer

    @property
    def console(self) -> GameAdapter:
        """The menu or the game in front of the player (one is open before any input)."""
        if self._console is None:
            raise RuntimeError("the session has no menu or game open yet")
        return self._console

    @console.setter
    def console(self, console: GameAdapter) -> None:
        self._console = console

    # --- starting a game ------------------------------------------------------

    def open_menu(self, offers=None, start=None) -> None:
        """The menu; offers: the unfinished saved games (None: look for them)."""
        if offers is None:
            offers = in_progress(self.save_path, self.games, self.check_options)
        self.console, self.info, self.saved = MenuConsole(self.games, offers, start), None, None
        self._show(self.console.start())

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
        self.console, self.info = console, info
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
            self._show(Reply().say("This practice is by ear, but the signals are off "
                                   "(--text or --no-signals): start it without them to hear them."))
        if dropped is not None:
            done, problem = dropped
            kept = f" The full save was kept as {aside}." if aside else ""
            self._show(Reply().say(f"Saved action {done + 1} could not be replayed ({str(problem)[:80] or 'damaged'}); "
                                   f"the game resumes after the last good one.{kept}", signal="error"))
        if moved is not None:
            self._show(Reply().say(f"Your {self.games[moved].title} game in progress is kept: "
                                   "say menu to resume it.", signal=None))
        if actions or dropped is not None:
            reply = Reply().say(f"Resumed {info.title}, after {counted(len(actions), 'action')}.")
            reply.messages += [Message(line) for line in self._status_lines()]
            self._show(reply)
        else:
            self._show(console.start())
        self._update_listener()

    def tell(self, text: str, signal: str | None = "error") -> None:
        """A console notice (a file problem, a reset setting): printed and spoken."""
        self._show(Reply().say(text, signal=signal), remember=False)

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
        self._show_prompt(force=True)
        while self.running:
            try:
                source, item = inputs.get(timeout=TICK_SECONDS)
            except queue.Empty:
                self._tick()
                continue
            if source == "eof":
                if self.listener is None:   # Ctrl-D or the end of piped input: as quit
                    try:
                        self._cmd_quit(None)
                    except OutputClosed:    # the output is closed too (a pipe's reader gone)
                        pass
                    break
                continue
            if source == "notice":   # the listener: speech cut, too much talk, microphone gone
                self._show(Reply().say(item, signal="error"), remember=False)
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
        self._after(self.console.tick(self.clock()))

    # --- input ----------------------------------------------------------------

    def parse(self, text: str) -> Command | None:
        return self.console.grammar().parse(text) or self.common.parse(text)

    def type(self, text: str) -> None:
        text = text.strip(EDGES)
        reason = refusal(text)
        if reason is not None:
            self._refuse(reason)
            return
        if not text and self._push_to_talk():
            self._toggle_talk()
            return
        if not text:
            self._show_prompt(force=True)
            return
        if self.check is not None:
            self._check_step(lambda: self.check.typed(text))
            return
        command = self.parse(text)
        if command is None:
            self._refuse(self._explain(text))
            return
        self.misheard = 0
        self.refused = None
        self.do(command)

    def hear(self, heard) -> None:
        """A result from the voice listener (audio_console.voice.Heard)."""
        if self.check is not None:
            self._check_step(lambda: self.check.heard(heard))
            return
        if heard.command is None:
            self.misheard += 1
            if self.misheard != 2 or not heard.text:
                self._show(Reply().say("Say again.", signal="error"))
            else:
                # misheard twice running: once, what was heard helps the player say it otherwise
                self._show(Reply().say(f"Say again. Heard: {echo(heard.text.rstrip('.?! '))}. "
                                       "Say help to hear what you can say, or type it.", signal="error"))
            return
        self.misheard = 0
        refused, self.refused = self.refused, None
        if refused is not None and heard.command.text == refused.text:
            # heard again as what the player just said it was not (a voice the model
            # keeps mishearing the same way): ask about the runner-up, never act on it
            if heard.runner_up is not None:
                self._ask_heard(heard.runner_up_text, heard.runner_up)
            else:
                self._ask_heard(heard.text or heard.command.text, heard.command)
            return
        if heard.confirm and heard.command.name not in NEVER_CONFIRMED:
            self._ask_heard(heard.text or heard.command.text, heard.command)
            return
        self.do(heard.command)

    def _ask_heard(self, said: str, command: Command) -> None:
        self._ask(f"Did you say {said}? Yes or no.", lambda: self.do(command), about=command)

    def _explain(self, text: str) -> str:
        reason = self.console.explain(text) or f"Not understood: {text}. Say help to hear what you can say."
        return reason.replace(text, echo(text))

    # --- commands -------------------------------------------------------------

    def do(self, command: Command) -> None:
        name = command.name
        if self.pending and name in ("yes", "no", "cancel"):
            question, action = self.pending
            self.pending = None
            self.refused, self.asked_about = (self.asked_about if name == "no" else None), None
            if name == "yes":
                action()
            else:
                self._show(Reply().say("Cancelled."))
                self._show_prompt(force=True)     # where the player is, after the question
            return
        self.pending = None
        self.holding = self.console.holds_clock(command)
        if name in SETTING_COMMANDS:
            self._change_setting(command)
            return
        handler = getattr(self, "_cmd_" + name.replace(" ", "_"), None)
        if handler is not None:
            handler(command)
            return
        try:
            reply = self.console.handle(command, self.clock())
        except InputError as error:
            self._refuse(str(error))
            return
        self._after(reply)

    def _after(self, reply: Reply) -> None:
        """Log, save and show a game's reply; move from the menu into a game."""
        if not (reply.messages or reply.events or reply.record):
            return
        game = self.info.name if self.info else "menu"
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
        self._show(reply)
        if isinstance(self.console, MenuConsole) and self.console.finished():
            self._leave_menu(self.console)
            self._show_prompt()
        elif reply.messages:
            self._show_prompt()

    def _leave_menu(self, menu: MenuConsole) -> None:
        try:
            if menu.resume is not None:
                self.resume_saved(menu.resume)
            elif menu.start_with is not None:
                self.open_game(*menu.start_with)
            elif menu.info is not None:
                self.open_game(menu.info, menu.answers, random.randrange(2 ** 31))
            else:                       # finished without a game: cannot happen, but not a crash
                self.open_menu()
        except InputError as error:
            self.tell(f"Cannot start that game: {error}")
            self.open_menu()

    def _refuse(self, reason: str) -> None:
        self._show(Reply().say(reason, signal="error"), remember=False)

    def _ask(self, question: str, action, about: Command | None = None) -> None:
        """Ask a yes-or-no question; `about`: the heard command it checks, if any."""
        self.pending = (question, action)
        self.asked_about = about
        self._show(Reply().say(question, signal="prompt"))

    def _cmd_help(self, command: Command) -> None:
        lines = self.console.help() + [ALWAYS] + ([VOICE_HELP] if self.listener is not None else [])
        self._show(Reply(messages=[Message(line) for line in lines]))

    def _cmd_rules(self, command: Command) -> None:
        # one message a line: typing, a voice command or stop cuts the rest off
        lines = self.console.rules_summary() or ["Choose a game first; then say rules to hear its rules in short."]
        self._show(Reply(messages=[Message(line) for line in lines]))

    def _cmd_stop(self, command: Command) -> None:
        self.presenter.stop()
        # Printed, not spoken: a screen reader hears that it worked, the speakers stay quiet.
        self._show(Reply().say("Stopped.", speech=""), remember=False)

    def _cmd_quit(self, command: Command | None) -> None:
        saved = self.saved is not None and self.keeps_save and not self.console.finished()
        text = ("Goodbye. The game could not be saved." if saved and self.save_problem
                else "Game saved. Goodbye." if saved else "Goodbye.")
        # Spoken short, so that quitting takes under a second; a failed save is said in full.
        spoken = {"Game saved. Goodbye.": "Goodbye."}.get(text)
        self._show(Reply().say(text, speech=spoken), remember=False)
        self.running = False

    def _cmd_yes(self, command: Command) -> None:
        self._pass_to_game(command, "There is no question to answer yes to.")

    def _cmd_no(self, command: Command) -> None:
        self._pass_to_game(command, "There is no question to answer no to.")

    def _cmd_cancel(self, command: Command) -> None:
        self._pass_to_game(command, "Nothing to cancel.")

    def _pass_to_game(self, command: Command, otherwise: str) -> None:
        try:
            reply = self.console.handle(command, self.clock())
        except InputError:
            self._refuse(otherwise)
            return
        self._after(reply)

    def _cmd_menu(self, command: Command) -> None:
        if isinstance(self.console, MenuConsole):
            self._pass_to_game(command, "")
            return
        kept = (self.saved is not None and self.keeps_save and not self.console.finished()
                and self.saved.actions)
        if kept:
            self._show(Reply().say("Game saved." if not self.save_problem else "The game could not be saved."))
        self.open_menu()
        self._show_prompt(force=True)

    def _cmd_new_game(self, command: Command) -> None:
        if self.info is None or self.saved is None:     # in the menu: its first question again
            self._pass_to_game(Command("menu", "menu"), "")
            return
        info, options, seed = self.info, self.saved.options, self.saved.seed

        def start_again() -> None:
            self.open_game(info, options, random.Random(seed).randrange(2 ** 31))
            self._show_prompt(force=True)
        if self.console.finished() or not self.saved.actions:
            start_again()
        else:
            self._ask("Start a new game? This one will be lost. Yes or no.", start_again)

    # --- voice: push to talk and the voice check -----------------------------------

    def _push_to_talk(self) -> bool:
        return self.listener is not None and self.settings.listening == "push"

    def _toggle_talk(self) -> None:
        if self.listener is None:
            return
        self.talking = not self.talking
        self.listener.talk(self.talking)
        self._show(Reply().say("Listening." if self.talking else "Done.", signal="prompt"), remember=False)

    def _cmd_voice_check(self, command: Command) -> None:
        if self.listener is None:
            self._refuse("The voice check needs the microphone: start with --input voice or both.")
            return
        self.check = VoiceCheckConsole(self.prompt_rng, self.settings)
        self.listener.set_grammar(self.check.grammar())
        self._show(self.check.start())

    def _check_step(self, step) -> None:
        """Typed or heard input during the voice check; back to the game when it ends."""
        try:
            self._show(step())
        except InputError as error:
            self._refuse(str(error))
        if self.check is not None and self.check.finished():
            self.check = None
            self._update_listener()
            self._show_prompt(force=True)

    # --- output ---------------------------------------------------------------

    def _show_prompt(self, force: bool = False) -> None:
        prompt = self._console.prompt() if self._console else ""
        just_said = bool(self.last_messages) and self.last_messages[-1].text == prompt
        if prompt and (force or (prompt != self.last_prompt and not just_said)):
            self.presenter.show([Message(prompt, signal="prompt")])
        self.last_prompt = prompt
        self._update_listener()

    def _update_listener(self) -> None:
        if self.listener is not None and self._console is not None:

            self.listener.set_grammar(self.console.grammar() + self.common)
