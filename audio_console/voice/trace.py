"""What voice input heard, one JSON line an event (`--voice-trace FILE`).

When a command is missed, the trace says why: no utterance at all (the cutter never
heard speech start, or heard a voice too quiet against the room), an utterance the
trust layer rejected (and what Whisper made of it), or one cut off by the console's
own sound. Nothing in it is needed for play.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TextIO

from audio_console.base.files import open_for_append, reason


class VoiceTrace:
    """Appends one JSON object a line, flushed at once. A file that cannot be opened
    or written turns the trace off; `problem` says why, once."""

    def __init__(self, path: Path):
        self.path = path
        self.problem: str | None = None
        self._started = time.monotonic()
        self._file: TextIO | None = None
        try:
            self._file = open_for_append(path)     # a regular file: a FIFO would block
        except OSError as error:
            self.problem = f"The voice trace cannot be written: {reason(error)} ({path})"

    def __call__(self, event: str, **fields) -> None:
        if self._file is None:
            return
        record = {"t": round(time.monotonic() - self._started, 2), "event": event, **fields}
        try:
            self._file.write(json.dumps(record, default=str) + "\n")
            self._file.flush()
        except OSError as error:
            self.problem = f"The voice trace cannot be written: {reason(error)} ({self.path})"
            self.close()

    def close(self) -> None:
        file, self._file = self._file, None
        if file is not None:
            try:
                file.close()
            except OSError:
                pass


def heard_fields(heard, decoded, seconds: float, how: str) -> dict:
    """The trace's fields for one decoded utterance: what live play did with it and
    the engine's evidence."""
    fields = {"how": how, "seconds": round(seconds, 2), "decode_ms": round(decoded.seconds * 1000),
              "action": heard.action, "command": str(heard.command) if heard.command else None,
              "text": heard.text}
    if heard.as_answer is not None:   # what it would be as the answer to "Did you say ...?"
        fields["as_answer"] = str(heard.as_answer.command)
    evidence = decoded.evidence
    if evidence is not None:
        fields.update(best=evidence.command, score=round(evidence.score, 3), margin=round(evidence.margin, 3),
                      no_speech=round(evidence.no_speech, 3), transcript=evidence.transcript,
                      agrees=evidence.agrees, second_look=evidence.second_look)
    for key in ("denoised", "speed"):   # the cleaned copy; the second look's speed (whisper_engine)
        if key in decoded.detail:
            fields[key] = decoded.detail[key]
    return fields


def untraced(event: str, **fields) -> None:
    """The trace when none was asked for: nothing is kept."""
