"""The decoding stage: the recognizer, behind one lock, turns utterances into Decoded
results for the reporting stage.

The early guess (the cutter's `early`, after a short silence) is decoded at once: a
sure, complete command that no longer command extends is acted on right away; a half
command ("delta ...") makes the cutter wait longer for the rest; otherwise the result
waits for the full window to confirm it (early_guess.py). An engine that streams
(recognizer.streams) is fed while the player speaks, so that at the guess only the
tail is left (docs/listen.md).
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from audio_console.voice.early_guess import (Guess, extendable_prefixes, is_complete, is_unfinished,
                                              says_unfinished, with_unfinished)
from audio_console.voice.recognizer import RecognizerError, UtteranceStream, one_line, streams

UNFINISHED_WINDOW = 1.0     # the silence waited for after an unfinished command ("delta ...")


@dataclass
class Grammars:
    """What the recognizer listens for, as the session last set it."""
    grammar: object = None      # None: nothing (none set yet, or the engine refused it)
    early: object = None        # the early guess's own grammar, for an engine that does not stream
    key: str = ""               # the grammar's JSGF, to know the same grammar again
    extendable: set = field(default_factory=set)   # word tuples some longer phrase begins with
    reported: tuple = ()        # the words the engine cannot hear, as last told


@dataclass
class Stream:
    """The recognizer's stream for the utterance in progress, and the bytes fed to it."""
    decoding: UtteranceStream | None = None
    fed: int = 0


class Decoding:
    """Decodes for `report` (report.Reporter); `notify` gets one line per problem,
    never an exception."""

    def __init__(self, recognizer, settings, notify, report):
        self.recognizer, self.settings, self.notify, self.report = recognizer, settings, notify, report
        self.streams = streams(recognizer)
        self.lock = threading.Lock()    # the recognizer is used by one thread at a time
        self.grammars = Grammars()
        self.stream = Stream()
        self.guess: Guess | None = None   # the last early guess, decoded

    # --- the grammar (the session's thread) -------------------------------------

    def set_grammar(self, grammar) -> None:
        """Listen for `grammar` from the next utterance on (the same one again costs
        nothing); words the engine cannot listen for are reported once."""
        key = grammar.jsgf()
        if key == self.grammars.key:
            return
        extendable = extendable_prefixes(grammar)
        with self.lock:
            self.drop_stream()   # an utterance begun under the old grammar is decoded whole
            try:
                # The early guess listens for the unfinished beginnings too ("delta",
                # "read row"), so a half command decodes as what it is: Whisper's nearest
                # whole command for "delta" was "delta two", acted on. An engine that does
                # not stream (Whisper) decodes the whole utterance with the commands alone
                # (the short beginnings would crowd its search); one that streams keeps
                # one grammar throughout.
                early = self.early_grammar(grammar, extendable)
                self.grammars.early = None if self.streams else early
                self.recognizer.set_grammar(early if self.streams else grammar)
            except RecognizerError as e:
                self.notify(f"Voice input cannot listen for these commands: {e}")
                self.grammars.grammar = None
                return
            self.grammars.grammar, self.grammars.key, self.grammars.extendable = grammar, key, extendable
            dropped = tuple(getattr(self.recognizer, "dropped_words", ()))
        if dropped and dropped != self.grammars.reported:
            self.notify(f"The {self.recognizer.name} recognizer cannot hear: {', '.join(dropped)}; "
                        "type those commands.")
        self.grammars.reported = dropped

    def early_grammar(self, grammar, extendable: set):
        return with_unfinished(grammar, extendable)

    # --- the utterance in progress (the worker thread) ---------------------------

    def follow(self, cutter, on_heard, may_guess: Callable[[], bool] = lambda: True) -> bool:
        """A frame that ended no utterance: decode a new early guess at once (True: it
        was acted on, and what follows is a new utterance), or feed the stream.
        `may_guess()` is asked only of a new guess, not at every frame after it."""
        if cutter.early is not None:
            new = self.guess is None or self.guess.number != cutter.early_count
            return new and may_guess() and self.guess_now(cutter, on_heard)
        if self.streams:
            self.feed(cutter.early_held, cutter.early_held_since)
        return False

    def forget(self) -> None:
        """Drop the stream and the guess of the utterance in progress."""
        with self.lock:
            self.drop_stream()
        self.guess = None

    def drop_guess(self) -> None:
        """The utterance in progress will not be decoded: its guess is no use."""
        self.guess = None

    def feed(self, held: int, held_since) -> None:
        """Give the recognizer the speech the cutter let through since last time
        (`held` bytes so far; held_since(n) -> the bytes from n on)."""
        if held == self.stream.fed:
            return
        try:
            with self.lock:
                if held < self.stream.fed:   # the cutter dropped the utterance (too long)
                    self.drop_stream()
                    if not held:
                        return
                if self.grammars.grammar is None:
                    return
                decoding = self.stream.decoding
                if decoding is None:
                    decoding = self.recognizer.stream()
                    self.stream = Stream(decoding, 0)
                decoding.feed(held_since(self.stream.fed))
                self.stream.fed = held
        except Exception as e:  # noqa: BLE001 - streaming failed: the utterance is decoded whole
            self.drop_stream()
            self.notify(f"Voice input problem: {one_line(e)}")

    def drop_stream(self) -> None:
        """Forget the stream of the utterance in progress (call with the lock)."""
        decoding, self.stream = self.stream.decoding, Stream()
        if decoding is not None and hasattr(decoding, "cancel"):
            try:
                decoding.cancel()
            except Exception:  # noqa: BLE001 - nothing to keep from a stream being dropped
                pass

    # --- the early guess -------------------------------------------------------------

    def guess_now(self, cutter, on_heard) -> bool:
        """Decode the early guess of a whole utterance. A sure, complete command that no
        longer phrase of the grammar extends is reported at once (True); otherwise the
        result is kept for when the main window confirms the guess."""
        self.guess = Guess(cutter.early_count, None, None, 0.0)
        try:
            with self.lock:
                grammar, early = self.grammars.grammar, self.grammars.early
                decoded, during = self._decode_guess(cutter, grammar, early)
                if grammar is None:
                    return False
                half = early is not None and decoded is not None and says_unfinished(decoded, early)
                # a half command's guess is not kept: the whole utterance is decoded again
                self.guess = Guess(cutter.early_count, None if half else decoded, grammar, during or 0.0)
            return self.act_on_guess(decoded, grammar, cutter, during or 0.0, on_heard)
        except Exception as e:  # noqa: BLE001 - the main window's utterance is decoded instead
            self.notify(f"Voice input problem: {one_line(e)}")
        return False

    def _decode_guess(self, cutter, grammar, early):
        """The guess decoded with the early grammar (speech may resume: then a new
        stream from the start)."""
        if early is not None:
            self.recognizer.set_grammar(early)
        try:
            return self._finish(cutter.early, use_stream=grammar is not None, voiced=_voiced(cutter))
        finally:
            if early is not None:
                self.recognizer.set_grammar(grammar)

    def act_on_guess(self, decoded, grammar, cutter, during: float, on_heard) -> bool:
        """A half command makes the cutter wait longer for the rest; a sure, complete
        one is reported now (True)."""
        extendable = self.grammars.extendable
        if hasattr(cutter, "wait_longer") and is_unfinished(decoded, grammar, extendable):
            cutter.wait_longer(UNFINISHED_WINDOW)   # "delta ...": wait longer for the rest
        if is_complete(decoded, grammar, self.settings, extendable):
            self.guess = None
            self.report(decoded, grammar, time.monotonic(), "early-act", cutter.early, during, on_heard)
            return True
        return False

    # --- a whole utterance -------------------------------------------------------------

    def hear(self, pcm: bytes, on_heard, voiced: bool, guess: int | None = None) -> None:
        """Decode and report one utterance (`guess`: the early guess its cutter says it
        confirms); a failure is reported, never kills the thread."""
        try:
            guessed, self.guess = self.guess, None
            if guessed and guess is not None and guessed.number == guess and guessed.decoded is not None \
                    and guessed.grammar is self.grammars.grammar:
                self.report(guessed.decoded, guessed.grammar, time.monotonic(), "early", pcm,
                            guessed.while_speaking, on_heard)
                return
            self.decode_and_report(pcm, on_heard, voiced)
        except Exception as e:  # noqa: BLE001 - one bad utterance must not end voice input
            self.notify(f"Voice input problem: {one_line(e)}")

    def decode_and_report(self, pcm: bytes, on_heard, voiced: bool, use_stream: bool = False) -> None:
        """`use_stream`: the stream was fed these bytes (else it followed the guesses)."""
        ended = time.monotonic()
        with self.lock:
            grammar = self.grammars.grammar
            try:
                decoded, during = self._finish(pcm, use_stream=use_stream and grammar is not None, voiced=voiced)
            except RecognizerError as e:
                self.notify(f"Voice input problem: {e}")
                return
        if grammar is None:
            return
        self.report(decoded, grammar, ended, "whole" if during is None else "stream", pcm,
                    during or 0.0, on_heard)

    def _finish(self, pcm: bytes, use_stream: bool, voiced: bool):
        """(Decoded, seconds decoded while the player spoke, or None if decoded whole) for
        the utterance `pcm`, taking over the stream in progress (call with the lock):
        the stream gets the tail the cutter held back, unless it must not be used or
        was fed other bytes; then it is cancelled and `pcm` decoded whole. With no
        grammar set, only the stream is dropped: (None, None). `voiced`: the neural
        voice detector cut the utterance out."""
        decoding, fed = self.stream.decoding, self.stream.fed
        self.stream = Stream()
        if decoding is not None and use_stream and fed <= len(pcm):
            decoding.feed(pcm[fed:])
            return decoding.finish(), getattr(decoding, "busy_seconds", 0.0)
        if decoding is not None:
            decoding.cancel()
        if self.grammars.grammar is None:
            return None, None
        # push to talk: the key cut the utterance, not the detector
        return self.recognizer.decode(pcm, voiced=voiced and self.settings.listening != "push"), None


def _voiced(cutter) -> bool:
    """The cutter starts an utterance only on speech its neural detector heard."""
    return getattr(cutter, "voiced", False)
