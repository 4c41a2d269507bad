"""CTranslate2's Whisper as the reference our graphs are checked against: an
independent implementation of the same model (a test dependency only; the console
decodes on its own graphs, whisper_backend.py)."""
from __future__ import annotations

import numpy as np
import pytest

from audio_console.voice.whisper_decoder import log_softmax


class Reference:
    """CTranslate2's Whisper of a model folder, in float32 (what our graphs compute,
    to rounding)."""

    def __init__(self, model_path):
        ctranslate2 = pytest.importorskip("ctranslate2")
        self._ct2 = ctranslate2
        self.model = ctranslate2.models.Whisper(str(model_path), device="cpu", compute_type="float32",
                                                intra_threads=1)

    def encode(self, features: np.ndarray):
        """CTranslate2's encoding of one utterance's features [mels, frames] (its own type)."""
        return self.model.encode(self._ct2.StorageView.from_array(np.ascontiguousarray(features[None])))

    def forced_log_probs(self, encoded, prompt: list[int], start: list[int], tokens: list[int]) -> np.ndarray:
        """The log-probability of each of `tokens` forced after the prompt."""
        result = self.model.generate(encoded, [prompt + tokens], beam_size=1,
                                     max_length=_max_length(prompt, start, len(tokens) + 1),
                                     return_logits_vocab=True, suppress_blank=False, suppress_tokens=[])[0]
        return np.array([log_softmax(result.logits[0][i])[t] for i, t in enumerate(tokens)])

    def greedy(self, encoded, prompt: list[int], start: list[int], steps: int) -> tuple[list[int], float]:
        """Whisper's free greedy transcript (its default suppression) and no-speech probability."""
        result = self.model.generate(encoded, [prompt], beam_size=1, max_length=_max_length(prompt, start, steps),
                                     return_no_speech_prob=True)[0]
        return list(result.sequences_ids[0]), float(result.no_speech_prob)


def _max_length(prompt: list[int], start: list[int], steps: int) -> int:
    """generate()'s max_length for `steps` decoder steps after the prompt: with a
    context CTranslate2 counts the prompt up to <|startoftranscript|> in it, and
    without one it counts two per step (measured on ctranslate2 4.x)."""
    if len(prompt) > len(start):
        return len(prompt) - 1 + steps
    return 2 * steps
