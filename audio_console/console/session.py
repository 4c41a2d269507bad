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

from audio_console.commands import Command
from audio_console.commands.vocabulary import common_grammar
from audio_console.console.base import InputError, Message, Reply
from audio_console.console.menu import MenuConsole
from audio_console.console.storage import EventLog, SavedGame, write_save
from audio_console.games import GameInfo
from audio_console.output.presenter import Presenter
from audio_console.settings import Settings

TICK_SECONDS = 0.1
ALWAYS = ("Always: repeat, help, status, summary, stop (silence), undo, new game, quit; "
          "louder, softer, faster, slower; quick signals, faithful signals.")
VOICE_HELP = ("Voice: voice check; voice training (or voice training off); push to talk (then Enter starts and ends each command) or "
              "always listen; headphones on or off; confirm always, unsure or never.")


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
        self.console = None
        self.info: GameInfo | None = None
        self.saved: SavedGame | None = None
        self.last_messages: list[Message] = []
        self.last_prompt = ""
        self.pending: tuple[str, callable] | None = None   # a question waiting for yes or no
        self.listener = None
        self.check = None          # a voice check in progress
        self.prompt_rng = random.Random()   # the voice check's and training's prompts
        self.talking = False       # push to talk: between the two presses of Enter
        self.running = True

    # --- starting a game ------------------------------------------------------

    def open_menu(self) -> None:
        self.console, self.info, self.saved = MenuConsole(self.games), None, None
        self._show(self.console.start())

    def open_game(self, info: GameInfo, options: dict, seed: int, actions: list[str] = ()) -> None:
        """Start a game, or resume one by replaying its recorded actions silently."""
        console = info.create(options, seed, self.settings, self.clock())
        for action in actions:
            console.apply_recorded(action)
        if hasattr(console, "restart_clock"):
            console.restart_clock(self.clock())
        self.console, self.info = console, info
        self._prewarm(console)
        self.saved = SavedGame(info.name, options, seed, list(actions))
        write_save(self.save_path, self.saved)
        if getattr(console, "needs_signals", False) and not self.presenter.signals:
            self._show(Reply().say("This practice is by ear, but the signals are off "
                                   "(--text or --no-signals): start it without them to hear them."))
        if actions:
            reply = Reply().say(f"Resumed {info.title}, after {len(actions)} actions.")
            reply.messages += [Message(line) for line in self._status_lines()]
            self._show(reply)
        else:
            self._show(console.start())
        self._update_listener()

    def _prewarm(self, console) -> None:
        """Have the speech of fixed phrases rendered ahead, so that they are never late."""
        prewarm = getattr(self.presenter.sink, "prewarm", None)
        if prewarm is None or not self.presenter.speech:
            return
        fixed = getattr(console, "fixed_phrases", lambda: [])()
        prewarm(list(fixed) + [console.prompt(), "Say again.", "Cancelled."])

    def _status_lines(self) -> list[str]:
        status = getattr(self.console, "status", None)
        return status() if status else []

    # --- the loop -------------------------------------------------------------

    def run(self, inputs: "queue.Queue") -> None:
        """Process input until quit, or the end of keyboard input with no listener."""
        self._show_prompt(force=True)
        while self.running:
            try:
                source, item = inputs.get(timeout=TICK_SECONDS)
            except queue.Empty:
                self._tick()
                continue
            if source == "eof":
                if self.listener is None:
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
        if self.console is not None and not self.pending:
            self._after(self.console.tick(self.clock()))

    # --- input ----------------------------------------------------------------

    def parse(self, text: str) -> Command | None:
        return self.console.grammar().parse(text) or self.common.parse(text)

    def type(self, text: str) -> None:
        text = text.strip()
        if not text and self._push_to_talk():
            self._toggle_talk()
            return
        if not text:
            self._show_prompt(force=True)
            return
        if self.check is not None:
            typed = self.common.parse(text)
            if typed is not None and typed.name in ("cancel", "stop", "quit"):
                self._end_check(cancelled=True)
            else:
                self._refuse("Voice check: say the coordinate aloud, or type cancel.")
            return
        command = self.parse(text)
        if command is None:
            self._refuse(self._explain(text))
            return
        self.do(command)

    def hear(self, heard) -> None:
        """A result from the voice listener (audio_console.voice.Heard)."""
        if self.check is not None:
            self._check_heard(heard)
            return
        if heard.command is None:
            self._show(Reply().say("Say again.", signal="error"))
            return
        if heard.confirm and heard.command.name not in ("yes", "no", "cancel", "stop", "repeat"):
            said = heard.text or heard.command.text
            self._ask(f"Did you say {said}? Yes or no.", lambda: self.do(heard.command))
            return
        self.do(heard.command)

    def _explain(self, text: str) -> str:
        explain = getattr(self.console, "explain", None)
        reason = explain(text) if explain else None
        return reason or f"Not understood: {text}. Say help to hear what you can say."

    # --- commands -------------------------------------------------------------

    def do(self, command: Command) -> None:
        name = command.name
        if self.pending and name in ("yes", "no", "cancel"):
            question, action = self.pending
            self.pending = None
            if name == "yes":
                action()
            else:
                self._show(Reply().say("Cancelled."))
            return
        self.pending = None
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
        for event in reply.events:
            self.log.write(game, event)
        if reply.record and self.saved is not None:
            self.saved.actions += reply.record
            write_save(self.save_path, self.saved)
        self._show(reply)
        if isinstance(self.console, MenuConsole) and self.console.finished():
            menu = self.console
            self.open_game(menu.info, menu.answers, random.randrange(2 ** 31))
            self._show_prompt()
        elif reply.messages:
            self._show_prompt()

    def _refuse(self, reason: str) -> None:
        self._show(Reply().say(reason, signal="error"), remember=False)

    def _ask(self, question: str, action) -> None:
        self.pending = (question, action)
        self._show(Reply().say(question, signal="prompt"))

    def _cmd_repeat(self, command: Command) -> None:
        self._show(Reply(messages=list(self.last_messages)), remember=False)
        self._show_prompt(force=True)

    def _cmd_help(self, command: Command) -> None:
        lines = self.console.help() + [ALWAYS] + ([VOICE_HELP] if self.listener is not None else [])
        self._show(Reply(messages=[Message(line) for line in lines]))

    def _cmd_stop(self, command: Command) -> None:
        self.presenter.stop()

    def _cmd_quit(self, command: Command) -> None:
        saved = self.saved is not None and not self.console.finished()
        self._show(Reply().say("Game saved. Goodbye." if saved else "Goodbye."), remember=False)
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

    def _cmd_new_game(self, command: Command) -> None:
        if self.info is None:
            self.open_menu()
            return
        info, options, seed = self.info, self.saved.options, self.saved.seed

        def start_again() -> None:
            self.open_game(info, options, random.Random(seed).randrange(2 ** 31))
            self._show_prompt(force=True)
        if self.console.finished() or not self.saved.actions:
            start_again()
        else:
            self._ask("Start a new game? This one will be lost. Yes or no.", start_again)

    def _setting(self, text: str, change) -> None:
        change(self.settings)
        self.settings.save()
        self.presenter.sink.apply_settings(self.settings)
        self._show(Reply().say(text))

    def _cmd_louder(self, command: Command) -> None:
        self._setting("Louder.", lambda s: setattr(s, "volume", min(1.0, round(s.volume + 0.1, 2))))

    def _cmd_softer(self, command: Command) -> None:
        self._setting("Softer.", lambda s: setattr(s, "volume", max(0.1, round(s.volume - 0.1, 2))))

    def _cmd_faster(self, command: Command) -> None:
        self._setting("Faster.", lambda s: setattr(s, "speech_rate", min(400, s.speech_rate + 25)))

    def _cmd_slower(self, command: Command) -> None:
        self._setting("Slower.", lambda s: setattr(s, "speech_rate", max(80, s.speech_rate - 25)))

    def _cmd_listening(self, command: Command) -> None:
        mode = command.text.split()[-1]
        text = ("Push to talk: press Enter, say a command, press Enter again." if mode == "push"
                else "Always listening.")
        self._setting(text, lambda s: setattr(s, "listening", mode))

    def _cmd_headphones(self, command: Command) -> None:
        on = command.get("switch") == "on"
        text = ("Headphones on: I keep listening while I speak." if on
                else "Headphones off: I stop listening while I speak.")
        self._setting(text, lambda s: setattr(s, "headphones", on))

    def _cmd_confirm(self, command: Command) -> None:
        mode = command.get("confirm")
        text = {"always": "I will repeat every command heard before acting on it.",
                "unsure": "I will ask you to confirm only when I am unsure.",
                "never": "When I am unsure, I will ask you to say it again."}[mode]
        self._setting(text, lambda s: setattr(s, "confirm", mode))

    # --- voice: push to talk and the voice check -----------------------------------

    def _push_to_talk(self) -> bool:
        return self.listener is not None and self.settings.listening == "push"

    def _toggle_talk(self) -> None:
        self.talking = not self.talking
        self.listener.talk(self.talking)
        self._show(Reply().say("Listening." if self.talking else "Done.", signal="prompt"), remember=False)

    def _cmd_voice_check(self, command: Command) -> None:
        if self.listener is None:
            self._refuse("The voice check needs the microphone: start with --input voice or both.")
            return
        from audio_console.voice.check import VoiceCheck
        self.check = VoiceCheck(self.prompt_rng)
        self.listener.set_grammar(self.check.grammar())
        self._show(Reply().say(self.check.next_prompt(), signal="prompt"))

    def _cmd_voice_training(self, command: Command) -> None:
        if self.listener is None:
            self._refuse("Voice training needs the microphone: start with --input voice or both.")
            return
        from audio_console.voice.check import VoiceTraining
        self.check = VoiceTraining(self.prompt_rng)
        self._training_mode(True)
        self.listener.set_grammar(self.check.grammar())
        self._show(Reply().say(self.check.next_prompt(), signal="prompt"))

    def _training_mode(self, on: bool) -> None:
        """While training, the recognizer passes every utterance on (pocketsphinx)."""
        recognizer = getattr(self.listener, "recognizer", None)
        if hasattr(recognizer, "training"):
            recognizer.training = on

    def _cmd_voice_training_off(self, command: Command) -> None:
        from audio_console.voice.check import training_off
        self._show(Reply().say(self._with_recognizer(training_off)))

    def _with_recognizer(self, action):
        """action(the listener's recognizer, or None), with no utterance being decoded."""
        if hasattr(self.listener, "with_recognizer"):
            return self.listener.with_recognizer(action)
        return action(getattr(self.listener, "recognizer", None))

    def _check_heard(self, heard) -> None:
        if heard.command is not None and heard.command.name in ("cancel", "stop", "quit"):
            self._end_check(cancelled=True)
            return
        # the utterance's audio: the voice training adapts the recognizer to it
        audio_for = getattr(getattr(self.listener, "recognizer", None), "audio_for", None)
        audio = audio_for(heard.text) if audio_for and heard is not None else b""
        reply = Reply().say(self.check.record(heard, audio=audio))
        prompt = self.check.next_prompt()
        if prompt:
            reply.say(prompt, signal="prompt")
            self._show(reply)
        else:
            self._show(reply)
            self._end_check()

    def _end_check(self, cancelled: bool = False) -> None:
        check, self.check = self.check, None
        self._training_mode(False)
        if cancelled:
            what = "Voice training" if hasattr(check, "finish") else "Voice check"
            self._show(Reply().say(f"{what} cancelled; nothing changed."))
        elif hasattr(check, "finish"):   # voice training: adapt, save, switch the recognizer over
            self._show(Reply().say("Adapting to your voice; a few seconds."))
            lines = self._with_recognizer(check.finish)
            self._show(Reply(messages=[Message(line) for line in lines]))
        else:
            lines = check.report(hasattr(getattr(self.listener, "recognizer", None), "use_adaptation"))
            self.settings.confirm = check.suggested_confirm()
            self.settings.save()
            lines.append(f"Confirm is now set to {self.settings.confirm}; say confirm always, "
                         "unsure or never to change it.")
            self._show(Reply(messages=[Message(line) for line in lines]))
        self._update_listener()
        self._show_prompt(force=True)

    def _cmd_timing(self, command: Command) -> None:
        timing = command.get("timing")
        self._setting(f"{timing.capitalize()} signals.", lambda s: setattr(s, "timing", timing))

    # --- output ---------------------------------------------------------------

    def _show(self, reply: Reply, remember: bool = True) -> None:
        if remember and reply.messages:
            self.last_messages = [m for m in reply.messages]
        self.presenter.show(reply.messages)

    def _show_prompt(self, force: bool = False) -> None:
        prompt = self.console.prompt() if self.console else ""
        just_said = bool(self.last_messages) and self.last_messages[-1].text == prompt
        if prompt and (force or (prompt != self.last_prompt and not just_said)):
            self.presenter.show([Message(prompt, signal="prompt")])
        self.last_prompt = prompt
        self._update_listener()

    def _update_listener(self) -> None:
        if self.listener is not None and self.console is not None:
            self.listener.set_grammar(self.console.grammar() + self.common)
