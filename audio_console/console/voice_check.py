"""The voice check as a console of its own, run by the session over the game (as the
menu runs before one): it prompts for coordinates, takes what the listener heard,
and at the end reports and sets how often to confirm. Typing is not speaking, so a
typed line is refused, except cancel, stop or quit, which end the check unchanged.
"""
from __future__ import annotations

import random

from audio_console.commands import Grammar
from audio_console.commands.vocabulary import common_grammar
from audio_console.contract.adapter import GameAdapter, plain_lines
from audio_console.contract.base import InputError, Reply
from audio_console.base.settings import Settings
from audio_console.voice.check import VoiceCheck

ENDS = ("cancel", "stop", "quit")


class VoiceCheckConsole(GameAdapter):
    game = "voice check"
    title = "voice check"

    def __init__(self, rng: random.Random, settings: Settings):
        self.check = VoiceCheck(rng)
        self.settings = settings
        self.done = False
        self._common = common_grammar()

    def grammar(self) -> Grammar:
        return self.check.grammar()

    def prompt(self) -> str:
        return ""

    def finished(self) -> bool:
        return self.done

    def start(self) -> Reply:
        return Reply().say(self.check.next_prompt() or "", signal="prompt")   # a new check has prompts

    def typed(self, text: str) -> Reply:
        command = self._common.parse(text)
        if command is not None and command.name in ENDS:
            return self._cancel()
        raise InputError("Voice check: say the coordinate aloud, or type cancel.")

    def heard(self, heard) -> Reply:
        """One result from the listener (a Heard): recorded, then the next prompt or the report."""
        if heard.command is not None and heard.command.name in ENDS:
            return self._cancel()
        reply = Reply().say(self.check.record(heard))
        prompt = self.check.next_prompt()
        if prompt:
            return reply.say(prompt, signal="prompt")
        self.done = True
        self.settings.confirm = self.check.suggested_confirm()
        self.settings.save()
        lines = self.check.report() + [f"Confirm is now set to {self.settings.confirm}; say confirm always, "
                                       "unsure or never to change it."]
        return reply.extend(plain_lines(*lines))

    def _cancel(self) -> Reply:
        self.done = True
        return Reply().say("Voice check cancelled; nothing changed.")
