"""The console's own words heard back through the speakers.

With speakers the echo canceller leaves a little of the console's voice in the
microphone. Most of it is too faint to begin an utterance or is dropped as echo
(report.py), but the first words of a line, before the canceller has caught up,
can come through loud enough: the console said "D5 answered 1: one ship sighted."
and heard "D5.", then asked its player "Did you say D5?" about its own words.

So an utterance that began over the console's sound, was not held at its onset
(the hold judged it the console's echo or faint: echo_cancel.Hold) and whose free
transcript is made only of words of a line the console was speaking meanwhile, is
the console's own words, and is dropped. A player's word said over the console is
held at its onset, so it is never weighed here.
"""
from __future__ import annotations

import re

from audio_console.voice.phrase_trie import NUMBERS

_TOKEN = re.compile(r"[a-z]+|\d+")


def _tokens(text: str) -> list[str]:
    """Lower-case letters and digits apart ("D5" -> d, 5), number words as digits."""
    return [NUMBERS.get(t, t) for t in _TOKEN.findall(text.lower())]


def said_by_the_console(transcript: str, spoken: list[str]) -> bool:
    """Every word of `transcript` is in what the console was saying meanwhile
    (`spoken`, its lines in order: a long line is spoken in parts), in that order."""
    heard = _tokens(transcript)
    if not heard:
        return False
    unique = [t for i, t in enumerate(heard) if t not in heard[:i]]   # Whisper repeats: "D5. D5."
    words = _tokens(" ".join(spoken))
    at = 0
    for token in unique:
        try:
            at = words.index(token, at) + 1
        except ValueError:
            return False
    return True
