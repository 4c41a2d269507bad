"""Utterances cut out of the microphone's frames by pocketsphinx's Endpointer.

The old way of ending an utterance, the listening benchmarks' baseline
(bench_support/listen_paths.py, bench_endpointing.py); play uses vad.VadCutter, which
has the same interface. pocketsphinx is therefore only a test extra.
"""
from __future__ import annotations

from audio_console.voice.cutting import ENDPOINT_WINDOW
from audio_console.voice.frames import FRAME_BYTES, FRAME_SECONDS

MAX_UTTERANCE = 8.0          # seconds; a longer "utterance" is background talk


class UtteranceCutter:
    """Frames in, whole utterances out (bytes), by pocketsphinx's Endpointer.

    With `early_window` a second, quicker Endpointer runs beside it: `early` is the
    utterance as that one closed it (a guess that speech has ended, the main window
    before the main Endpointer is sure), or None while speech goes on. The listener
    decodes the guess at once; the main Endpointer then only confirms it
    (`closed_on_guess`), unless the player spoke again after a guess: then the main
    Endpointer's utterance is decoded whole."""

    voiced = False    # its utterances need not hold speech (it knows only levels)

    def __init__(self, window: float = ENDPOINT_WINDOW, ratio: float = 0.9, early_window: float | None = None):
        from pocketsphinx import Endpointer, Vad

        def make(seconds, ratio):
            # a short window needs a lower ratio: pocketsphinx refuses one that leaves
            # no frame of the window to be non-speech
            frames = max(2, round(seconds / FRAME_SECONDS))
            ratio = min(ratio, 1.0 - 1.0 / frames + 1e-6)
            return lambda: Endpointer(window=seconds, ratio=ratio, vad_mode=Vad.LOOSE,
                                      sample_rate=16000, frame_length=FRAME_SECONDS)
        self._make = make(window, ratio)
        self._make_early = make(early_window, ratio) if early_window and early_window < window else None
        self.early_count = 0   # early guesses so far, never reset: each guess has its own number
        self.reset()

    def reset(self) -> None:
        self._ep = self._make()
        self._speech = bytearray()
        self._early_ep = self._make_early() if self._make_early else None
        self._early_speech = bytearray()
        self._resumed = False   # speech came after a guess in this utterance
        self.early: bytes | None = None
        self.closed_on_guess: int | None = None   # at the main close: the guess it confirmed

    @property
    def in_speech(self) -> bool:
        return self._ep.in_speech

    @property
    def held(self) -> int:
        """Bytes of the utterance in progress (for feeding a streaming decoder)."""
        return len(self._speech)

    def held_since(self, start: int) -> bytes:
        return bytes(self._speech[start:])

    @property
    def early_held(self) -> int:
        """Bytes the quick Endpointer let through for the utterance in progress."""
        return len(self._early_speech)

    def early_held_since(self, start: int) -> bytes:
        return bytes(self._early_speech[start:])

    def push(self, frame: bytes) -> bytes | None:
        """Feed one 30 ms frame; returns a finished utterance when speech just ended."""
        if self._early_ep is not None:
            self._push_early(frame)
        was_in_speech = self._ep.in_speech
        out = self._ep.process(frame)
        if out is not None:
            self._speech += out
        if was_in_speech and not self._ep.in_speech:
            # the early guess holds if no speech came after it, and none came after an
            # earlier guess either: the quick Endpointer's audio then lacks part of the
            # pause, and paused commands decoded from it were rejected more often
            self.closed_on_guess = self.early_count if self.early is not None and not self._resumed else None
            return self._take()
        if len(self._speech) > MAX_UTTERANCE * 32000:
            self.reset()   # endless "speech": background talk or steady noise
        return None

    def _push_early(self, frame: bytes) -> None:
        ep = self._early_ep
        if ep is None:           # no early guesses asked for
            return
        was_in_speech = ep.in_speech

        out = ep.process(frame)
        if ep.in_speech and not was_in_speech:
            # speech (again): any guess is void; after a short pause the guess
            # keeps what came before, as the main Endpointer will
            if self.early is not None:
                self._resumed = True
            self.early = None
            if not self._ep.in_speech and not self._speech:
                self._early_speech = bytearray()
                self._resumed = False
        if out is not None:
            self._early_speech += out
        if was_in_speech and not ep.in_speech and self._early_speech:
            self.early = bytes(self._early_speech)
            self.early_count += 1
        if len(self._early_speech) > MAX_UTTERANCE * 32000:
            self._early_speech = bytearray()

    def flush(self) -> bytes | None:
        """End of input: the utterance in progress, if any."""
        if self._ep.in_speech:
            out = self._ep.end_stream(bytes(FRAME_BYTES))   # one frame of silence closes it
            if out:
                self._speech += out
        return self._take() if self._speech else None

    def _take(self) -> bytes:
        utterance, self._speech = bytes(self._speech), bytearray()
        self._early_speech, self.early, self._resumed = bytearray(), None, False
        return utterance
