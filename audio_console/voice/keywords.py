"""A second opinion on the one-word commands "yes", "no" and "stop", from Whisper's own
encoder states.

In three-talker babble Whisper's free transcript writes the background's words
("Stand.", "You know it.") even when the phrase search found the word said, so the
trust layer had no witness and dropped it. The encoder states, pooled over the
utterance (their mean and their maximum over time), tell the three words from other
short words and talk well enough for a witness: a softmax regression over them
(keywords.json, fitted by scripts/fit_keywords.py on Speech Commands' tuning people
only, clean and with other people's babble and kitchen noise mixed in) gives each
utterance a most likely word of "yes", "no", "stop" or "other" and its probability.
It is only ever a witness: the trust layer acts on it when the phrase search chose
the same word (trust._keyword_agrees). It costs one small product per utterance on
the encoder output the phrase search needs anyway.

In babble the phrase search's best is often another command ("query D2", "hint")
although the word was said; the opinion alone cannot name the word. So when the
opinion names one of its words and the best phrase is another command, the engine
searches the grammar's phrases of that word alone (word_grammar) on the same
decoder state, and the trust layer may take the word on that phrase's own score
(trust._keyword_overrules).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from audio_console.commands.grammar import Grammar

WEIGHTS = Path(__file__).with_name("keywords.json")
FRAME_SAMPLES = 320          # one encoder state per 20 ms
# the opinion's words searched alone when the full search chose another command: only
# those the trust layer may take on that search (trust.KEYWORD_OVERRULE); "yes" and
# "no" there acted on other words (docs/voice-real.md), so their search would be wasted
SEARCHED_ALONE = ("stop",)


def word_grammar(grammar: Grammar, word: str) -> Grammar:
    """`grammar`'s spoken rules of one of the opinion's words alone: the search that
    asks how well the sound fits that word when the full search chose something else."""
    return Grammar([rule for rule in grammar.rules if rule.spoken and rule.name == word])


def pooled(encoded: np.ndarray, samples: int) -> np.ndarray:
    """The mean and the maximum of the encoder states [frames, width] that cover the
    utterance's `samples` (the window's padding after it left out)."""
    frames = max(1, min(len(encoded), -(-samples // FRAME_SAMPLES)))
    states = encoded[:frames]
    return np.concatenate([states.mean(0), states.max(0)]).astype(np.float32)


@dataclass(frozen=True)
class KeywordOpinion:
    """The fitted regression: classes[i] scores features . weights[:, i] + bias[i]."""
    classes: tuple[str, ...]
    weights: np.ndarray          # [2 * width, classes]
    bias: np.ndarray             # [classes]
    model: str                   # the Whisper model whose encoder it was fitted on

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> KeywordOpinion | None:
        """The fitted opinion, or None when its file is missing or unreadable."""
        try:
            data = json.loads(Path(path).read_text())
            return cls(tuple(data["classes"]), np.array(data["weights"], np.float32),
                       np.array(data["bias"], np.float32), str(data["model"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def fits(self, width: int) -> bool:
        """Whether an encoder of this width is the one it was fitted on."""
        return self.weights.shape[0] == 2 * width

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        z = features @ self.weights + self.bias
        e = np.exp(z - z.max())
        return e / e.sum()

    def __call__(self, encoded: np.ndarray, samples: int) -> tuple[str, float] | None:
        """The most likely word of the utterance and its probability (None when the
        encoder is not the one it was fitted on)."""
        if encoded.ndim != 2 or not self.fits(encoded.shape[1]):
            return None
        p = self.probabilities(pooled(encoded, samples))
        best = int(np.argmax(p))
        return self.classes[best], float(p[best])
