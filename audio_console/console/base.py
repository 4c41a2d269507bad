"""What every game gives the session, and what the session gives back.

A game's console adapter (for example audio_console.galaxis.console) turns
Commands into calls on its pure rules core and its board memory, and answers with
a Reply: lines to print and speak, signals to play, events to log, and the
canonical actions to record so that a saved game can be replayed exactly.
"""
from __future__ import annotations

from dataclasses import dataclass, field

CENTRE, LEFT, RIGHT = 0, 1, 2   # stereo side: both, team/player 1, team/player 2


@dataclass
class Message:
    """One output line. `text` is printed; `speech` is spoken (None: speak the text,
    "": speak nothing, for a secret kept off the speakers); `signal` names a sound
    from the signal table, played before the speech, on `side`. A message with
    empty text only plays its signal (the search signal before an answer line)."""
    text: str
    speech: str | None = None
    signal: str | None = None
    side: int = CENTRE
    # A line of the board to sonify (SOUNDS.md): (position, of how many, row, kind).
    cells: list[tuple[int, int, int, str]] | None = None
    rows: int = 7   # how many rows that board has (sets the pitch range of `cells`)

    @property
    def spoken(self) -> str:
        return self.text if self.speech is None else self.speech


@dataclass
class Reply:
    messages: list[Message] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)   # log events, each with "event"
    record: list[str] = field(default_factory=list)    # canonical actions that changed state

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


# The session's view of one game is audio_console.console.adapter.GameAdapter: every
# game's console adapter, the practice drills and the menu are one.
