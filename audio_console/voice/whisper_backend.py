"""The decoding backend: encode utterances, then the log-probabilities after token
prefixes of each, behind one small interface (Backend), and its background load.

One implementation ships: our own ONNX Runtime graphs built from model.bin's
weights (whisper_encoder.py; whisper_decoder.py keeps the decoder's state per
utterance, whisper_utterance.py). Every model the console offers (tiny.en built in,
Whisper base, the downloadable float16 models) is read by them; CTranslate2, which
decoded a model.bin they could not read, is no longer loaded (it held about 330 MB
beside them: docs/measurements/memory.md).
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Protocol

import numpy as np

from audio_console.voice.recognizer import RecognizerError
from audio_console.voice.whisper_decoder import DecoderUnavailable, WhisperDecoder
from audio_console.voice.whisper_encoder import WhisperEncoder
from audio_console.voice.whisper_model import Tokens
from audio_console.voice.whisper_utterance import Together, Utterance
from audio_console.voice.whisper_weights import UnsupportedModel

LOAD_WAIT = 30.0          # seconds close() waits for the background load (about 1 s)


class Backend(Protocol):
    positions: int       # the longest token sequence (prompt included) it decodes

    def encode(self, features: list[np.ndarray]) -> list[np.ndarray]:
        """Each utterance's log-mel features [mels, frames] -> its encoding."""

    def together(self, encodings: list[np.ndarray], prompt: list[int], tokens: Tokens,
                 greedy_steps: int) -> Together:
        """The utterances' decoding state after the prompt: Together.rows gives the
        log-probabilities after token prefixes, Together.transcripts the free ones."""


class OnnxBackend:
    """Our encoder and decoder graphs of one model folder."""

    def __init__(self, model_dir: Path):
        try:
            self.decoder = WhisperDecoder.load(model_dir)
            self.encoder = WhisperEncoder.load(model_dir)
        except (UnsupportedModel, DecoderUnavailable, OSError, ValueError, KeyError, MemoryError, RuntimeError) as e:
            raise RecognizerError(f"Whisper could not load {model_dir}: {e}") from e
        self.positions = len(self.decoder.positions)

    def encode(self, features: list[np.ndarray]) -> list[np.ndarray]:
        """Those of one window length in one run."""
        out: list[np.ndarray] = [np.zeros(0)] * len(features)
        for frames in dict.fromkeys(f.shape[-1] for f in features):
            same = [i for i, f in enumerate(features) if f.shape[-1] == frames]
            for i, encoded in zip(same, self.encoder(np.stack([features[i] for i in same]))):
                out[i] = encoded
        return out

    def together(self, encodings: list[np.ndarray], prompt: list[int], tokens: Tokens,
                 greedy_steps: int) -> Together:
        return Together([Utterance(self.decoder, e, prompt, tokens.sot, tokens.suppress, tokens.suppress_begin,
                                   tokens.eot, greedy_steps, tokens.stops, start=False) for e in encodings])


class BackgroundLoad:
    """A backend loaded in a thread of its own once asked for soon(), so that the
    first command does not wait for it (about a second); get() waits for it."""

    def __init__(self, model_dir: Path):
        self.model_dir = model_dir
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._backend: Backend | None = None
        self._error: RecognizerError | None = None

    def soon(self) -> None:
        if self._thread is None and self._backend is None:
            self._thread = threading.Thread(target=self._load, name="whisper-backend-load", daemon=True)
            self._thread.start()

    def _load(self) -> None:
        try:
            self.get()
        except RecognizerError:
            pass           # said by the decode that needs it

    def get(self) -> Backend:
        with self._lock:
            if self._backend is None and self._error is None:
                try:
                    self._backend = OnnxBackend(self.model_dir)
                except RecognizerError as e:
                    self._error = e
            if self._error is not None:
                raise self._error
            assert self._backend is not None
            return self._backend

    def close(self) -> None:
        """Wait for the background load to end. A process that exits while ONNX
        Runtime builds its session can abort at exit ("terminate called without an
        active exception", exit code -6: seen once in CI when a player quit right
        after start)."""
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=LOAD_WAIT)
