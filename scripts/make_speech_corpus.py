#!/usr/bin/env python3
"""Make a synthetic speech corpus for scripts/bench_speech.py (into corpus/, git-ignored).

Speakers: espeak-ng voice variants, flite voices, hibari-tts (its bundled voice), each
at several speeds. Every clean utterance is also degraded: white noise and babble at
20 and 10 dB SNR, reverb, and a quiet speaker. Out-of-grammar sentences and noise-only
clips (white, babble, coughs/clicks) get the same degradations, so the benchmark can
count false accepts. Writes corpus/manifest.jsonl: one line per clip with file,
degradation, speaker, text and expected canonical command (null for rejects).

    python scripts/make_speech_corpus.py [--commands 36] [--out corpus] [--seed 1]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from audio_console.voice.audio import read_wav, resample, write_wav  # noqa: E402
from audio_console.voice.grammars import grammar_for_game  # noqa: E402

RATE = 16000

OUT_OF_GRAMMAR = [
    "the weather is nice today", "could you pass me the salt please",
    "I think we should order pizza tonight", "where did I leave my glasses",
    "turn left at the next corner", "my sister is coming over on Sunday",
    "that was a really good film", "how much does this cost",
    "let me call you back later", "the train leaves at half past seven",
    "open the window it is warm in here", "do you want some more tea",
]

ESPEAK_VOICES = ["en-us", "en-us+m3", "en+f3", "en-gb+m1"]
FLITE_VOICES = ["kal", "slt", "rms", "awb"]
SPEEDS = [0.85, 1.0, 1.2]     # relative pace

DEGRADATIONS = ["clean", "white20", "white10", "babble20", "babble10", "reverb", "quiet"]


# --- speakers ---------------------------------------------------------------

def _resample(samples: np.ndarray, rate: int) -> np.ndarray:
    return resample(np.asarray(samples, dtype=np.float32), rate, RATE)


def _wav_file(cmd: list[str], path: str) -> np.ndarray:
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples, rate = read_wav(path)
    return _resample(samples, rate)


class Speakers:
    def __init__(self, tmp: str):
        self.tmp = tmp
        self._hibari = None

    def names(self) -> list[str]:
        names = [f"espeak:{v}" for v in ESPEAK_VOICES] + [f"flite:{v}" for v in FLITE_VOICES]
        try:
            import hibari  # noqa: F401
            names.append("hibari:heart")
        except ImportError:
            print("hibari-tts not installed: no hibari speaker", file=sys.stderr)
        return names

    def say(self, speaker: str, text: str, speed: float) -> np.ndarray:
        kind, voice = speaker.split(":")
        path = os.path.join(self.tmp, "say.wav")
        if kind == "espeak":
            return _wav_file(["espeak-ng", "-v", voice, "-s", str(int(165 * speed)), "-w", path, text], path)
        if kind == "flite":
            return _wav_file(["flite", "-voice", voice, "--setf", f"duration_stretch={1 / speed:.2f}",
                              "-t", text, "-o", path], path)
        if self._hibari is None:
            from hibari import Hibari
            self._hibari = Hibari()
        return _resample(np.asarray(self._hibari(text, speed=speed, seed=0), dtype=np.float32), 24000)


# --- degradations -------------------------------------------------------------

def _pad(x: np.ndarray, rng: random.Random) -> np.ndarray:
    """Leading and trailing silence, as a listener's endpointer would cut it."""
    before = np.zeros(int(RATE * rng.uniform(0.15, 0.35)), np.float32)
    after = np.zeros(int(RATE * rng.uniform(0.25, 0.4)), np.float32)
    return np.concatenate([before, x, after])


def _normalise(x: np.ndarray, peak: float = 0.6) -> np.ndarray:
    m = float(np.max(np.abs(x))) or 1.0
    return (x * (peak / m)).astype(np.float32)


def _mix(speech: np.ndarray, noise: np.ndarray, snr_db: float) -> np.ndarray:
    """Add noise at an SNR measured over the speech's active part."""
    active = speech[np.abs(speech) > 0.02 * np.max(np.abs(speech) + 1e-9)]
    p_s = float(np.mean(active ** 2)) if len(active) else float(np.mean(speech ** 2)) + 1e-9
    noise = np.resize(noise, len(speech))
    p_n = float(np.mean(noise ** 2)) + 1e-12
    out = speech + noise * np.sqrt(p_s / (p_n * 10 ** (snr_db / 10)))
    return np.clip(out, -1, 1).astype(np.float32)


def _reverb(x: np.ndarray, np_rng: np.random.Generator) -> np.ndarray:
    """A synthetic room: exponentially decaying noise, RT60 about 0.5 s."""
    n = int(0.5 * RATE)
    t = np.arange(n) / RATE
    ir = np_rng.standard_normal(n) * np.exp(-6.9 * t / 0.5)
    ir[0] = 1.0 / 0.15
    ir *= 0.15
    out = np.convolve(x, ir)[: len(x) + n // 2]
    return _normalise(out.astype(np.float32))


def degrade(x: np.ndarray, how: str, babble: np.ndarray, np_rng: np.random.Generator) -> np.ndarray:
    if how == "clean":
        return x
    if how.startswith("white"):
        return _mix(x, np_rng.standard_normal(len(x)).astype(np.float32), float(how[5:]))
    if how.startswith("babble"):
        start = int(np_rng.integers(0, max(1, len(babble) - len(x))))
        return _mix(x, babble[start:start + len(x)], float(how[6:]))
    if how == "reverb":
        return _reverb(x, np_rng)
    if how == "quiet":  # 26 dB down, over a faint noise floor
        return (x * 0.05 + np_rng.standard_normal(len(x)).astype(np.float32) * 0.0005).astype(np.float32)
    raise ValueError(how)


def make_babble(speakers: Speakers, names: list[str], rng: random.Random) -> np.ndarray:
    """Several people talking at once, from out-of-grammar sentences."""
    voices = [speakers.say(name, text, 1.0) for name, text in
              zip(rng.sample(names, min(4, len(names))), rng.sample(OUT_OF_GRAMMAR, 4))]
    length = max(len(v) for v in voices) * 3
    out = np.zeros(length, np.float32)
    for v in voices:
        v = np.tile(v, 4)[:length]
        v = np.pad(v, (0, length - len(v)))
        out += np.roll(v, rng.randrange(length))
    return _normalise(out)


def noise_clips(babble: np.ndarray, np_rng: np.random.Generator, count: int) -> list[tuple[str, np.ndarray]]:
    clips = []
    for i in range(count):
        kind = ["white", "babble", "cough", "clicks"][i % 4]
        n = int(RATE * np_rng.uniform(0.8, 1.6))
        if kind == "white":
            x = np_rng.standard_normal(n).astype(np.float32) * 0.1
        elif kind == "babble":
            start = int(np_rng.integers(0, len(babble) - n))
            x = babble[start:start + n] * 0.5
        elif kind == "cough":  # two bursts of shaped noise
            x = np.zeros(n, np.float32)
            for b in (0.1, 0.5):
                m = int(RATE * 0.25)
                burst = np_rng.standard_normal(m) * np.exp(-np.arange(m) / (RATE * 0.06))
                burst = np.convolve(burst, np.ones(8) / 8, "same")
                s = int(RATE * b)
                x[s:s + m] += (burst * 0.5).astype(np.float32)[: len(x) - s]
        else:  # table knocks and clicks
            x = np.zeros(n, np.float32)
            for _ in range(5):
                s = int(np_rng.integers(0, n - 200))
                x[s:s + 200] += (np_rng.standard_normal(200) * np.exp(-np.arange(200) / 40) * 0.6).astype(np.float32)
        clips.append((f"noise-{kind}-{i}", np.clip(x, -1, 1).astype(np.float32)))
    return clips


def pick_phrases(grammar, count: int, rng: random.Random) -> list[str]:
    """Mostly coordinates (what players say most), then every other command form."""
    phrases = list(grammar.phrases())
    coords = [p for p in phrases if len(p.split()) == 2 and grammar.parse(p).name == "query"]
    others = [p for p in phrases if p not in coords]
    n_coords = count * 2 // 3
    return rng.sample(coords, min(n_coords, len(coords))) + rng.sample(others, min(count - n_coords, len(others)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="corpus")
    ap.add_argument("--game", default="galaxis")
    ap.add_argument("--commands", type=int, default=36, help="in-grammar utterances")
    ap.add_argument("--oog", type=int, default=12, help="out-of-grammar sentences")
    ap.add_argument("--noise", type=int, default=8, help="noise-only clips")
    ap.add_argument("--degradations", default=",".join(DEGRADATIONS))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    rng = random.Random(args.seed)
    np_rng = np.random.default_rng(args.seed)
    grammar = grammar_for_game(args.game)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    degradations = args.degradations.split(",")

    with tempfile.TemporaryDirectory() as tmp:
        speakers = Speakers(tmp)
        names = speakers.names()
        babble = make_babble(speakers, names, rng)
        items = []   # (id, speaker, text, expected, samples)
        for i, phrase in enumerate(pick_phrases(grammar, args.commands, rng)):
            speaker, speed = names[i % len(names)], SPEEDS[(i // len(names)) % len(SPEEDS)]
            items.append((f"cmd-{i:03d}", f"{speaker}@{speed}", phrase, grammar.parse(phrase).text,
                           speakers.say(speaker, phrase, speed)))
        for i, sentence in enumerate(OUT_OF_GRAMMAR[: args.oog]):
            speaker = names[(i * 3 + 1) % len(names)]
            items.append((f"oog-{i:03d}", f"{speaker}@1.0", sentence, None, speakers.say(speaker, sentence, 1.0)))
        for name, samples in noise_clips(babble, np_rng, args.noise):
            items.append((name, "none", "", None, samples))

        with open(out / "manifest.jsonl", "w") as manifest:
            for how in degradations:
                (out / how).mkdir(exist_ok=True)
                for ident, speaker, text, expected, samples in items:
                    x = _pad(_normalise(samples) if speaker != "none" else samples, rng)
                    x = degrade(x, how, babble, np_rng)
                    path = out / how / f"{ident}.wav"
                    write_wav(path, x, RATE)
                    manifest.write(json.dumps({"file": str(path), "degradation": how, "speaker": speaker,
                                               "text": text, "expected": expected,
                                               "kind": ident.split("-")[0]}) + "\n")
    print(f"{len(items)} clips x {len(degradations)} degradations -> {out}/manifest.jsonl")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
