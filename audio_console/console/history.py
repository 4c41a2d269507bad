"""The message history: the lines the console said, to step back through.

`repeat` says the last reply again; `previous message` and `next message` step one
line back or on from where the player is (each new line puts them back at the
newest), and `history` reads the last five. The last HISTORY_SIZE lines are kept;
prompts and the read-backs themselves are not lines of the history. When the
console is passed to the other team or player, the history is emptied: what the
one at the console heard is never read back to the next.
"""
from __future__ import annotations

from collections import deque

from audio_console.contract.base import Message, Reply
from audio_console.base.wording import counted

HISTORY_SIZE = 200
LAST = 5          # lines `history` reads


class MessageHistory:
    def __init__(self, size: int = HISTORY_SIZE):
        self.lines: deque[Message] = deque(maxlen=size)
        self.at = -1          # index of the line the player is at (-1: none yet)

    def add(self, messages: list[Message]) -> None:
        # kept without their signals: read back, a line is its words
        self.lines.extend(Message(m.text, speech=m.speech) for m in messages if m.text)
        self.at = len(self.lines) - 1

    def clear(self) -> None:
        self.lines.clear()
        self.at = -1

    def previous(self) -> Reply:
        if not self.lines:
            return Reply().say("No messages yet.")
        if self.at <= 0:
            return Reply().say("No earlier message: that was the oldest kept.", signal="error")
        self.at -= 1
        return Reply(messages=[self.lines[self.at]])

    def next(self) -> Reply:
        if not self.lines:
            return Reply().say("No messages yet.")
        if self.at >= len(self.lines) - 1:
            return Reply().say("No later message: that was the newest.", signal="error")
        self.at += 1
        return Reply(messages=[self.lines[self.at]])

    def last(self, count: int = LAST) -> Reply:
        if not self.lines:
            return Reply().say("No messages yet.")
        lines = list(self.lines)[-count:]
        return Reply(messages=[Message(f"Last {counted(len(lines), 'message', words=True)}, oldest first:"),
                               *lines])
