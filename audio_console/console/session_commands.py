"""The commands the session answers itself in every game: help, rules, stop, quit,
menu, new game, the voice check, and yes, no or cancel with no question waiting. A
handler of the session's chain (console/chain.py)."""
from __future__ import annotations

import random

from audio_console.commands import Command
from audio_console.contract.base import InputError, Message, Reply
from audio_console.console.chain import Handler, Said, dispatch
from audio_console.console.pager import paged
from audio_console.console.voice_check import VoiceCheckConsole

ALWAYS = ("Always: repeat, previous message, next message, history, help, rules, more, status, summary, "
          "stop (silence), new game, quit; louder, softer (one alone: speech louder, signals softer); "
          "faster, slower; quick signals, faithful signals; long hints on or off; screen reader on or off.")
VOICE_HELP = ("Voice: voice check; push to talk (then Enter starts and ends each command) or "
              "always listen; headphones on or off; confirm always, unsure or never.")


class SessionCommands(Handler):
    def take(self, said: Said) -> bool:
        assert said.command is not None
        return dispatch(self, said.command)

    def do_help(self, command: Command) -> None:
        session = self.session
        lines = session.console.help() + [ALWAYS] + ([VOICE_HELP] if session.listener is not None else [])
        session.show(Reply(messages=[Message(line) for line in lines]))

    def do_rules(self, command: Command) -> None:
        # a page at a time (more: the next), one message a line: typing or stop cuts it off;
        # asked again, the rules start over, even when they fit on one page
        lines = self.session.console.rules_summary() or [
            "Choose a game first; then say rules to hear its rules in short."]
        self.session.pager.drop()
        self.session.show(paged(lines, going_on="choosing" if self.session.menu is not None else "playing"))

    def do_more(self, command: Command) -> None:
        self.session.show(self.session.pager.next())

    def do_stop(self, command: Command) -> None:
        self.session.presenter.stop()
        # Printed, not spoken: a screen reader hears that it worked, the speakers stay quiet.
        self.session.show(Reply().say("Stopped.", speech=""), remember=False)

    def do_quit(self, command: Command | None) -> None:
        session = self.session
        saved = session.saved is not None and session.keeps_save and not session.console.finished()
        text = ("Goodbye. The game could not be saved." if saved and session.save_problem
                else "Game saved. Goodbye." if saved else "Goodbye.")
        # Spoken short, so that quitting takes under a second; a failed save is said in full.
        spoken = {"Game saved. Goodbye.": "Goodbye."}.get(text)
        session.show(Reply().say(text, speech=spoken), remember=False)
        session.running = False

    def do_yes(self, command: Command) -> None:
        self._pass_to_game(command, "There is no question to answer yes to.")

    def do_no(self, command: Command) -> None:
        self._pass_to_game(command, "There is no question to answer no to.")

    def do_cancel(self, command: Command) -> None:
        self._pass_to_game(command, "Nothing to cancel.")

    def _pass_to_game(self, command: Command, otherwise: str) -> None:
        """The game may take it (a question of its own); else `otherwise` is said."""
        session = self.session
        try:
            reply = session.console.handle(command, session.clock())
        except InputError:
            session.refuse(otherwise)
            return
        session.after(reply)

    def do_menu(self, command: Command) -> None:
        session = self.session
        kept = (session.saved is not None and session.keeps_save and not session.console.finished()
                and session.saved.actions)
        if kept:
            session.show(Reply().say("Game saved." if not session.save_problem else "The game could not be saved."))
        session.open_menu()
        session.show_prompt(force=True)

    def do_new_game(self, command: Command) -> None:
        session = self.session
        if session.info is None or session.saved is None:   # the menu takes it; never a crash
            self._pass_to_game(Command("menu", "menu"), "")
            return
        info, options, seed = session.info, session.saved.options, session.saved.seed

        def start_again() -> None:
            session.open_game(info, options, random.Random(seed).randrange(2 ** 31))
            session.show_prompt(force=True)
        if session.console.finished() or not session.saved.actions:
            start_again()
        else:
            session.ask("Start a new game? This one will be lost. Yes or no.", start_again)

    def do_voice_check(self, command: Command) -> None:
        session = self.session
        if session.listener is None:
            session.refuse("The voice check needs the microphone: start with --input voice or both.")
            return
        session.check = VoiceCheckConsole(session.prompt_rng, session.settings)
        session.listener.set_grammar(session.check.grammar())
        session.show(session.check.start())
