"""The commands that read back what was said (repeat, previous message, next message,
history) and those that change a setting or the screen reader: a handler of the
session's chain (console/chain.py), for every game and the menu alike."""
from __future__ import annotations

from audio_console.commands import Command
from audio_console.contract.base import Reply
from audio_console.console.chain import Handler, Said, dispatch
from audio_console.console.setting_commands import SETTING_COMMANDS, change_setting


# Settings of the console's own voice: a screen reader keeps its own voice, rate and volume.
OWN_VOICE_ONLY = ("speech louder", "speech softer", "faster", "slower")


class SpokenCommands(Handler):
    def take(self, said: Said) -> bool:
        assert said.command is not None
        if said.command.name in SETTING_COMMANDS:
            self._change_setting(said.command)
            return True
        return dispatch(self, said.command)

    def do_repeat(self, command: Command) -> None:
        # never the screen's clear again: it happens once, at the pass of the console
        again = [m for m in self.session.last_messages if not m.clear_for]
        self.session.show(Reply(messages=again), remember=False, review=True)
        # the prompt after it, unless the reply ended with it ("Pass the console to team 2 ...")
        self.session.show_prompt(force=not again or again[-1].text != self.session.console.prompt())

    def do_previous_message(self, command: Command) -> None:
        self.session.show(self.session.history.previous(), remember=False, review=True)

    def do_next_message(self, command: Command) -> None:
        self.session.show(self.session.history.next(), remember=False, review=True)

    def do_history(self, command: Command) -> None:
        self.session.show(self.session.history.last(), remember=False, review=True)

    def _change_setting(self, command: Command) -> None:
        settings, presenter = self.session.settings, self.session.presenter
        text = change_setting(settings, command)
        if presenter.reader is not None and command.name in OWN_VOICE_ONLY:
            text += f" {presenter.reader.name} keeps its own."
        settings.save()
        presenter.sink.apply_settings(settings)
        self.session.show(Reply().say(text))

    def do_screen_reader(self, command: Command) -> None:
        settings = self.session.settings
        settings.screen_reader = command.get("switch") == "on"
        settings.save()
        self.session.show(Reply().say(self.session.presenter.use_screen_reader(settings.screen_reader)))
