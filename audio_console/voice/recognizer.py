"""The recognizer interface every engine implements, and what it returns.

An engine turns one utterance (16 kHz mono int16 bytes) into a Decoded: the words it
heard, each with the engine's own confidence in 0..1. Engines know nothing of
commands or settings: the trust layer (trust.py) parses and decides (Whisper asks it
whether an utterance is worth a second look, trust.worth_a_second_look).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class RecognizerError(Exception):
    """The engine cannot be used (missing library or model, bad grammar)."""


def one_line(error: Exception) -> str:
    """An error as the one line a player hears: its first line, or its kind."""
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


@dataclass(frozen=True)
class Evidence:
    """What a grammar-constrained engine (Whisper) knows about its best phrase, for
    the trust layer: how likely the phrase was, by how much it beat the best phrase
    of a *different* command, whether there was speech at all, and what the model
    wrote when it was free to write anything."""
    command: str | None        # canonical command of the best phrase (None: no phrase)
    score: float               # mean log-probability per token of the best phrase, end included
    margin: float              # its total log-probability minus the best different command's
    no_speech: float           # the model's probability that there was no speech (0..1)
    transcript: str            # the free (unconstrained) transcript
    agrees: bool               # the transcript parses to the same command
    # the transcript has a word the model spelled in pieces (a word it does not know
    # whole, as a misheard command often comes out: "Gint", "Stagas"; "Okay" is one piece)
    pieced: bool = False
    # how many different words of the transcript no phrase of the grammar uses
    # ("I think we should order pizza tonight.": 7): talk to someone else
    talk_words: int = 0
    # the spoken phrase of the best different command the search finished ("delta two"
    # beside "b two"), or None: what to ask about when the player said no to the best
    runner_up: str | None = None
    # the best phrase came from a second look at the utterance (at another speed):
    # asked about, not acted on outright (unless it only makes the console speak)
    second_look: bool = False
    # the one-word commands' second opinion (keywords.py): the word of "yes", "no",
    # "stop" or "other" the encoder states are most like, and its probability
    keyword: str | None = None
    keyword_p: float = 0.0
    # when the opinion names one of its words and the best phrase is another command:
    # that word's phrase score a token in a search of its phrases alone, and the
    # margin there (over a pruned form of it only: little meaning) (None: not searched)
    keyword_score: float | None = None
    keyword_margin: float = 0.0


@dataclass
class Decoded:
    text: str                                  # the words heard, "" for nothing
    words: list[tuple[str, float]] = field(default_factory=list)   # (word, confidence 0..1)
    seconds: float = 0.0                       # decode time
    detail: dict = field(default_factory=dict)  # engine-specific evidence, for benchmarks
    evidence: Evidence | None = None           # set by grammar-constrained engines (Whisper)


class Recognizer(Protocol):
    """An engine may also stream: `stream()` returns an object that is fed an
    utterance while the player speaks (feed(pcm)) and gives its Decoded at the end
    (finish(); cancel() drops it). Such an engine keeps one grammar throughout; one
    that does not stream (Whisper) decodes each utterance whole and may be given
    another grammar for the early guess. The listener asks streams(recognizer)."""
    name: str                  # "whisper", "vosk": named to the player, never compared
    dropped_words: list[str]   # grammar words the engine could not listen for

    def set_grammar(self, grammar) -> None:
        """Listen only for this grammar's phrases from now on."""

    def decode(self, pcm: bytes, *, voiced: bool = False) -> Decoded:
        """One whole utterance. `voiced`: the neural voice detector cut it out, so it holds speech (an engine
        that would ask the detector about it again need not)."""


class UtteranceStream(Protocol):
    """One utterance decoded while it is spoken (Recognizer.stream)."""

    def feed(self, pcm: bytes) -> object:
        """More of the utterance."""

    def finish(self) -> Decoded:
        """The utterance ended: what was heard."""

    def cancel(self) -> None:
        """Drop it."""


def streams(recognizer) -> bool:
    """The engine can decode an utterance while it is spoken (Recognizer.stream)."""
    return callable(getattr(recognizer, "stream", None))
