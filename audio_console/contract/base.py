"""What every game gives the session, and what the session gives back.

A game's console adapter (for example audio_console.galaxis.console) turns
Commands into calls on its pure rules core and its board memory, and answers with
a Reply: lines to print and speak, signals to play, events to log, and the
canonical actions to record so that a saved game can be replayed exactly.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# Message belongs to the output layer; it is named here too because every game's
# adapter builds Replies of Messages.
from audio_console.output.message import CENTRE, LEFT, RIGHT, Message  # noqa: F401


@dataclass
class Reply:
    messages: list[Message] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)   # log events, each with "event"
    record: list[str] = field(default_factory=list)    # canonical actions that changed state
    # Pages held back for `more` (console/pager.py): the messages say how to ask for them.
    more: list[list[Message]] = field(default_factory=list)
    more_lasts: bool = True    # False: the pages are dropped when the game changes (a list of moves)

    def extend(self, other: "Reply") -> "Reply":
        self.messages += other.messages
        self.events += other.events
        self.record += other.record
        if other.more:
            self.more, self.more_lasts = other.more, other.more_lasts
        return self

    def say(self, text: str, **kwargs) -> "Reply":
        self.messages.append(Message(text, **kwargs))
        return self


class InputError(Exception):
    """A command that cannot be carried out now; the message says why, plainly.
    Raising it must leave the game exactly as it was."""


# The session's view of one game is audio_console.contract.adapter.GameAdapter: every
# game's console adapter, the practice drills and the menu are one.
