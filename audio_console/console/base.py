"""What every game gives the session, and what the session gives back.

A game's console adapter (for example audio_console.galaxis.console) turns
Commands into calls on its pure rules core and its board memory, and answers with
a Reply: lines to print and speak, signals to play, events to log, and the
canonical actions to record so that a saved game can be replayed exactly.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from audio_console.commands import Command, Grammar
# Message belongs to the output layer; it is named here too because every game's
# adapter builds Replies of Messages.
from audio_console.output.message import CENTRE, LEFT, RIGHT, Message  # noqa: F401


@dataclass
class Reply:
    messages: list[Message] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)   # log events, each with "event"
    record: list[str] = field(default_factory=list)    # canonical actions that changed state
    quiet: bool = False  # True: nothing changed; a question answered from memory

    def extend(self, other: "Reply") -> "Reply":
        self.messages += other.messages
        self.events += other.events
        self.record += other.record
        return self

    def say(self, text: str, **kwargs) -> "Reply":
        self.messages.append(Message(text, **kwargs))
        return self


class InputError(Exception):
    """A command that cannot be carried out now; the message says why, plainly.
    Raising it must leave the game exactly as it was."""


class GameConsole(Protocol):
    """The session's view of one game."""

    game: str                  # "galaxis", "battleship", "arkade"

    def start(self) -> Reply:
        """The opening lines: what game, which option, whose turn."""

    def grammar(self) -> Grammar:
        """What can be said now (game and phase), without the common commands."""

    def prompt(self) -> str:
        """The question the console is waiting on, important words first."""

    def help(self) -> list[str]:
        """What can be said now, one line each."""

    def handle(self, command: Command, now: float) -> Reply:
        """Act on a command; raise InputError to refuse it without a change."""

    def tick(self, now: float) -> Reply:
        """Clocks and computer players. Returns an empty Reply when nothing happens."""

    def apply_recorded(self, action: str) -> None:
        """Replay one recorded action silently (resuming a saved game)."""

    def finished(self) -> bool:
        """True when the game is over."""
