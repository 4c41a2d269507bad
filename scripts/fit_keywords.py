#!/usr/bin/env python3
"""Fit the one-word commands' second opinion (audio_console/voice/keywords.json).

Speech Commands' clips of "yes", "no", "stop" and of other short words (up, down,
left, right, go, on, off: class "other") by its **tuning people only**
(real_speech_sources.held_by_crc: the held-out people of the one-word corpora are
never seen), each trimmed, peak-normalised and padded as make_real_corpus.py makes
a clip, heard clean, in babble (three voices of the free spoken digit dataset at once,
a third source that no corpus uses as babble) and, for the three commands, in the
first half of Speech Commands' background noises, at 3-15 dB SNR. Each clip's tiny.en
encoder states are pooled (keywords.pooled) and a softmax regression with L2 is
fitted on them (numpy; classes weighted equally). It prints the accuracy of a 5-fold
cross-validation grouped by person, then writes the weights with the standardisation
folded in.

    python scripts/fit_keywords.py --speech-commands PICO/MLTK_keyworkSpotting/dataset \
        --noise WIDS/data/_background_noise_ --digits FSDD/recordings [--features cache.npz]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
import real_speech_sources as sources  # noqa: E402
from corpus_noise import _mix, _normalise, _pad  # noqa: E402
from audio_console.voice.keywords import WEIGHTS, pooled  # noqa: E402

CLASSES = ("yes", "no", "stop", "other")
COMMANDS = CLASSES[:3]
OTHER = ("up", "down", "left", "right", "go", "on", "off")
NOISES = ("doing_the_dishes", "running_tap", "exercise_bike", "dude_miaowing", "pink_noise", "white_noise")
SNR = (3.0, 15.0)
FOLDS = 5


def babble_of(digits: Path, rng: random.Random) -> np.ndarray:
    """Three voices of the free spoken digit dataset (every third file) at once."""
    clips = [_normalise(sources.load(p), 0.3) for p in sorted(digits.glob("*.wav"))[::3]]
    rng.shuffle(clips)
    voices = [np.concatenate(clips[i::3]) for i in range(3)]
    n = min(len(v) for v in voices)
    return sum(v[:n] for v in voices).astype(np.float32)


def features(args) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pooled encoder states, word labels and people of every augmented clip."""
    from audio_console.app.games import grammar_for_game
    from audio_console.voice.whisper_engine import WhisperRecognizer
    recognizer = WhisperRecognizer()
    recognizer.set_grammar(grammar_for_game("galaxis"))
    backend = recognizer.backend()
    rng, np_rng = random.Random(5), np.random.default_rng(5)
    babble = babble_of(Path(args.digits), rng)
    noises = []
    for name in NOISES:
        x = sources.load(Path(args.noise) / f"{name}.wav")
        noises.append(x[: len(x) // 2])      # the tuning half, as the corpora's noise

    def piece(source: np.ndarray, n: int) -> np.ndarray:
        start = int(np_rng.integers(0, len(source) - n))
        return source[start:start + n]

    X, words, people = [], [], []
    for word in COMMANDS + OTHER:
        files = sorted((Path(args.speech_commands) / word).glob("*.wav"))
        for path in files if word in COMMANDS else files[::3]:
            person = path.stem.split("_nohash_")[0]
            if sources.held_by_crc(person):
                continue
            clip = _pad(_normalise(sources.trimmed(sources.load(path))), rng)
            for how in ("clean", "babble", "noise") if word in COMMANDS else ("clean", "babble"):
                x = clip
                if how == "babble":
                    x = _mix(clip, piece(babble, len(clip)), float(np_rng.uniform(*SNR)))
                elif how == "noise":
                    noise = noises[int(np_rng.integers(0, len(noises)))]
                    x = _mix(clip, piece(noise, len(clip)), float(np_rng.uniform(*SNR)))
                pcm = (np.clip(x, -1, 1) * 32767).astype("<i2").tobytes()
                encoded = backend.encode([recognizer.features(pcm)])[0]
                X.append(pooled(encoded, len(pcm) // 2))
                words.append(word)
                people.append(person)
        print(f"{word}: {len(X)} clips so far", flush=True)
    return np.stack(X), np.array(words), np.array(people)


def fit(X: np.ndarray, y: np.ndarray, l2: float, steps: int = 400, rate: float = 0.05) -> dict:
    """Softmax regression on standardised features, classes weighted equally (Adam)."""
    mu, sd = X.mean(0), X.std(0) + 1e-6
    Z = (X - mu) / sd
    k = len(CLASSES)
    W, b = np.zeros((Z.shape[1], k)), np.zeros(k)
    Y = np.eye(k)[y]
    weight = (1.0 / np.maximum(1, np.bincount(y, minlength=k)))[y]
    moments = [[np.zeros_like(W), np.zeros_like(W)], [np.zeros_like(b), np.zeros_like(b)]]
    for t in range(1, steps + 1):
        G = (softmax(Z @ W + b) - Y) * weight[:, None] / weight.sum()
        for param, grad, (m, v) in ((W, Z.T @ G + l2 * W, moments[0]), (b, G.sum(0), moments[1])):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            param -= rate * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    # standardisation folded into the weights: features . W' + b'
    return {"weights": W / sd[:, None], "bias": b - (mu / sd) @ W}


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(-1, keepdims=True)


def fold_of(person: str) -> int:
    return zlib.crc32(person.encode()) % FOLDS


def labels(words: np.ndarray) -> np.ndarray:
    return np.array([CLASSES.index(w) if w in CLASSES else CLASSES.index("other") for w in words])


def cross_validated(X: np.ndarray, y: np.ndarray, people: np.ndarray, l2: float) -> float:
    """Accuracy on each fold's people of the fit without them."""
    folds = np.array([fold_of(p) for p in people])
    right = 0
    for f in range(FOLDS):
        model = fit(X[folds != f], y[folds != f], l2)
        right += int((softmax(X[folds == f] @ model["weights"] + model["bias"]).argmax(1) == y[folds == f]).sum())
    return right / len(y)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--speech-commands", help="Speech Commands word folders (yes/, no/, ...)")
    ap.add_argument("--noise", help="Speech Commands' _background_noise_ folder")
    ap.add_argument("--digits", help="the free spoken digit dataset's recordings/ folder")
    ap.add_argument("--features", help="an .npz cache of the pooled states (read if it exists, else written)")
    ap.add_argument("--l2", type=float, default=1e-2)
    ap.add_argument("--out", default=str(WEIGHTS))
    args = ap.parse_args(argv)
    cache = Path(args.features) if args.features else None
    if cache is not None and cache.exists():
        data = np.load(cache)
        X, words, people = data["X"], data["words"], data["people"]
    else:
        X, words, people = features(args)
        if cache is not None:
            np.savez(cache, X=X, words=words, people=people)
    y = labels(words)
    print(f"{len(y)} clips of {len(set(people))} people; cross-validated accuracy "
          f"{100 * cross_validated(X, y, people, args.l2):.1f} %")
    model = fit(X, y, args.l2)
    Path(args.out).write_text(json.dumps({
        "model": "tiny.en", "classes": list(CLASSES),
        "weights": np.round(model["weights"], 5).tolist(), "bias": np.round(model["bias"], 5).tolist()}))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
