"""The session's commands about what was said and how: repeat, the message history
(previous message, next message, history), the settings and the screen reader.
Mixed into Session, whose output they share (`_show`)."""
from __future__ import annotations

from typing import Any

from audio_console.commands import Command
from audio_console.contract.base import Message, Reply
from audio_console.console.history import MessageHistory
from audio_console.console.setting_commands import change_setting
from audio_console.output.presenter import Presenter
from audio_console.settings import Settings


# Settings of the console's own voice: a screen reader keeps its own voice, rate and volume.
OWN_VOICE_ONLY = ("speech louder", "speech softer", "faster", "slower")


class SpokenCommands:
    presenter: Presenter
    settings: Settings
    history: MessageHistory
    last_messages: list[Message]
    _console: Any        # the game or menu in front of the player (None before one opens)

    def _show_prompt(self, force: bool = False) -> None:
        raise NotImplementedError     # the session's

    def _show(self, reply: Reply, remember: bool = True, review: bool = False) -> None:
        """Show a reply; remember: as the one `repeat` says; review: a read-back, kept
        out of the history."""
        if remember and reply.messages:
            self.last_messages = list(reply.messages)
        if not review:
            self.history.add(reply.messages)
            if self._console is not None and self._console.passing():
                self.history.clear()     # a hot-seat game passes the console: nothing secret kept
        self.presenter.show(reply.messages)

    def _cmd_repeat(self, command: Command) -> None:
        # never the screen's clear again: it happens once, at the pass of the console
        again = [m for m in self.last_messages if not m.clear_for]
        self._show(Reply(messages=again), remember=False, review=True)
        self._show_prompt(force=True)

    def _cmd_previous_message(self, command: Command) -> None:
        self._show(self.history.previous(), remember=False, review=True)

    def _cmd_next_message(self, command: Command) -> None:
        self._show(self.history.next(), remember=False, review=True)

    def _cmd_history(self, command: Command) -> None:
        self._show(self.history.last(), remember=False, review=True)

    def _change_setting(self, command: Command) -> None:
        text = change_setting(self.settings, command)
        if self.presenter.reader is not None and command.name in OWN_VOICE_ONLY:
            text += f" {self.presenter.reader.name} keeps its own."
        self.settings.save()
        self.presenter.sink.apply_settings(self.settings)
        self._show(Reply().say(text))

    def _cmd_screen_reader(self, command: Command) -> None:
        self.settings.screen_reader = command.get("switch") == "on"
        self.settings.save()
        self._show(Reply().say(self.presenter.use_screen_reader(self.settings.screen_reader)))
