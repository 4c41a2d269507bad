"""What a typed line may hold, and reading typed lines from standard input.

A command is a few words: letters, digits, spaces and the punctuation a player
types around them ("D-5", "don't", "D5?"). Anything else (an arrow key's escape
sequence, a NUL, a byte-order mark, a letter of another alphabet) is part of no
command, so the line is refused with a reason rather than stripped into a move.
Input is read as bytes and decoded here, so a byte that is not UTF-8 makes one
unreadable line instead of ending the session.
"""
from __future__ import annotations

import string
import sys
import unicodedata

from audio_console.base.wording import counted

MAX_LINE = 200          # characters: the longest command is a few dozen
READ_LIMIT = 4096       # bytes read of one line at most; the rest of a longer line is skipped
UNREADABLE = "\ufffd"   # what a byte that is not UTF-8 decodes to
# The punctuation a player may type around a command; the parser reads each as a space.
HARMLESS = set(string.ascii_letters + string.digits + " \t" + "-'\u2019,.?!:;/()\"")
EDGES = " \t\r\n"       # forgiven at either end of a line
ECHO_WORDS = 6          # a refused line is echoed whole up to this many words


def refusal(text: str) -> str | None:
    """Why this typed line (already stripped of EDGES) cannot be a command, or None."""
    if UNREADABLE in text:
        return "That line was not readable text."
    if len(text) > MAX_LINE:
        return f"That line is too long: over {MAX_LINE} characters; a command is a few words."
    for char in text:
        if char not in HARMLESS:
            return f"Not understood: that line holds {describe(char)}, which is part of no command."
    return None


NAMED = {"\x1b": "an Escape character (from an arrow or function key)", "\x00": "a NUL character",
         "\ufeff": "a byte-order mark (an invisible character)"}


def describe(char: str) -> str:
    """A character named so that a screen reader says something sensible."""
    if char in NAMED:
        return NAMED[char]
    if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return f"an invisible control character (U+{ord(char):04X})"
    name = unicodedata.name(char, "").lower()
    return f"the character {char} ({name})" if name else f"the character U+{ord(char):04X}"


def typed_lines(raw):
    """Lines of a binary stream, decoded as UTF-8 with replacement; a line longer than
    READ_LIMIT bytes is given as its first READ_LIMIT bytes (the session refuses it)."""
    while True:
        chunk = raw.readline(READ_LIMIT)
        if not chunk:
            return
        if len(chunk) == READ_LIMIT and not chunk.endswith(b"\n"):
            rest = chunk
            while rest and not rest.endswith(b"\n"):   # skip the rest of the over-long line
                rest = raw.readline(READ_LIMIT)
        yield chunk.decode("utf-8", errors="replace")


def echo(text: str) -> str:
    """A refused line as it is said back: a long one cut, with its length."""
    words = text.split()
    if len(words) <= ECHO_WORDS and len(text) <= 60:
        return text
    return " ".join(words[:3])[:40] + f" ... ({counted(len(words), 'word')})"


def read_keys(inputs, stream=None) -> None:
    """Feed typed lines to the session's queue; a closed input is the end (so is a
    standard input closed before the start, 0<&-: Python then has no sys.stdin)."""
    stream = stream or sys.stdin
    if stream is None:
        inputs.put(("eof", None))
        return
    source = "tty" if stream.isatty() else "keys"
    raw = getattr(stream, "buffer", None)   # bytes: decoded by typed_lines, never fatally
    try:
        for line in (typed_lines(raw) if raw is not None else stream):
            inputs.put((source, line))
    except (OSError, ValueError):
        pass
    inputs.put(("eof", None))
