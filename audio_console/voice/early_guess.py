"""The early guess: an utterance decoded after a short silence, before the full
endpoint window, and whether it may be acted on at once.

A sure, complete command that no longer phrase extends is acted on at the guess; a
half command ("delta", "read row") is recognised as one, so that the listener waits
for the rest instead of acting on the nearest whole command.
"""
from __future__ import annotations

from typing import NamedTuple

from audio_console.commands.grammar import Grammar, Rule, normalize
from audio_console.voice.trust import decide


class Guess(NamedTuple):
    """The early guess of an utterance, decoded while the main Endpointer waits."""
    number: int                 # the cutter's early_count when it was made
    decoded: object             # Decoded, or None while (or if not) decoded
    grammar: object             # the grammar it was decoded with
    while_speaking: float       # seconds of its decoding done while the player spoke


def extendable_prefixes(grammar) -> set[tuple[str, ...]]:
    """Every word sequence that is the proper beginning of a longer phrase of `grammar`."""
    prefixes: set[tuple[str, ...]] = set()

    for phrase in grammar.phrases():
        words = tuple(phrase.split())
        prefixes.update(words[:k] for k in range(1, len(words)))
    return prefixes


def with_unfinished(grammar, extendable: set):
    """The grammar the recognizer listens with when acting early: the commands and,
    as phrases of their own, their unfinished beginnings ("golf", "read row", "what
    is at"). A half command heard at the early guess then decodes as what it is (no
    command of `grammar`: wait for the rest) instead of as the nearest whole command
    ("golf" was acted on as "help"); a half command that stays alone is "Say again"."""
    phrases = sorted(" ".join(words) for words in extendable
                     if grammar.parse(" ".join(words)) is None)
    if not phrases:
        return grammar
    return grammar + Grammar([Rule("unfinished", "unfinished", phrases)])


def says_unfinished(decoded, early_grammar) -> bool:
    """The guess decoded as one of the unfinished beginnings of with_unfinished()."""
    command = early_grammar.parse(decoded.text) if decoded.text else None
    return command is not None and command.name == "unfinished"


def is_unfinished(decoded, grammar, extendable: set) -> bool:
    """The utterance so far is the beginning of a longer command ("delta", "read
    row"): the unfinished phrases decode as themselves, and the engine's free
    transcript (Whisper's `detail["transcript"]`), where it writes one, may say so too."""
    if decoded is None:
        return False
    texts = [decoded.text] + ([decoded.detail["transcript"]] if "transcript" in decoded.detail else [])
    for text in texts:
        words = tuple(normalize(text))
        if words and words in extendable and grammar.parse(text) is None:
            return True
    return False


def is_complete(decoded, grammar, settings, extendable: set) -> bool:
    """Safe to act on before the full window: a command the trust layer would act on
    without asking, whose words no longer phrase of the grammar begins with ("voice
    training" may go on to "voice training off"), and no sign of no speech."""
    if decoded is None or decoded.detail.get("no_speech", 0.0) >= 0.5:
        return False
    heard = decide(decoded, grammar, settings)
    if heard.command is None or heard.confirm:
        return False
    evidence = getattr(decoded, "evidence", None)
    if evidence is not None and not evidence.agrees:
        return False   # Whisper's free transcript says something else (or more)
    return (tuple(normalize(decoded.text)) not in extendable
            and not is_unfinished(decoded, grammar, extendable))
