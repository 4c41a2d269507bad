"""The synthetic corpus's sound apart from its voices (scripts/make_speech_corpus.py):
the seven degradations of a clip (white noise and babble at an SNR, a synthetic
room's reverb, a quiet speaker) and the everyday noises of the noise-only clips,
all synthesised (no recordings). Deterministic for a given numpy Generator."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from make_speech_corpus import Speakers

RATE = 16000
DEGRADATIONS = ["clean", "white20", "white10", "babble20", "babble10", "reverb", "quiet"]
NOISE_KINDS = ["white", "babble", "cough", "clicks", "door", "dishes", "keyboard", "hum", "music", "tv"]


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
    return _normalise(_convolve(x, ir)[: len(x) + n // 2])


def _convolve(x: np.ndarray, ir: np.ndarray) -> np.ndarray:
    """Full linear convolution by FFT (np.convolve takes seconds per clip here)."""
    n = len(x) + len(ir) - 1
    size = 1 << (n - 1).bit_length()
    return np.fft.irfft(np.fft.rfft(x, size) * np.fft.rfft(ir, size), size)[:n].astype(np.float32)


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


# --- everyday noises (synthesised, no recordings) ------------------------------

def _lowpass(x: np.ndarray, cutoff: float) -> np.ndarray:
    spectrum = np.fft.rfft(x)
    spectrum[np.fft.rfftfreq(len(x), 1 / RATE) > cutoff] = 0
    return np.fft.irfft(spectrum, len(x)).astype(np.float32)


def _bandpass(x: np.ndarray, low: float, high: float) -> np.ndarray:
    spectrum = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / RATE)
    spectrum[(f < low) | (f > high)] = 0
    return np.fft.irfft(spectrum, len(x)).astype(np.float32)


def _decay(n: int, seconds: float) -> np.ndarray:
    return np.exp(-np.arange(n) / (RATE * seconds)).astype(np.float32)


def _door(n: int, r: np.random.Generator) -> np.ndarray:
    """A door closing: a low thump, the latch's click, a short rattle."""
    x = np.zeros(n, np.float32)
    s = int(r.integers(0, n // 3))
    m = min(int(0.25 * RATE), n - s)
    thump = _lowpass(r.standard_normal(m).astype(np.float32), 180) * _decay(m, 0.05)
    x[s:s + m] += thump / (np.max(np.abs(thump)) + 1e-9) * 0.6
    c = min(s + int(0.03 * RATE), n - 300)
    x[c:c + 300] += r.standard_normal(300).astype(np.float32) * _decay(300, 0.002) * 0.3
    m2 = min(int(0.3 * RATE), n - c)
    rattle = _bandpass(r.standard_normal(m2).astype(np.float32), 800, 3000) * _decay(m2, 0.08)
    x[c:c + m2] += rattle * 0.2
    return x


def _dishes(n: int, r: np.random.Generator) -> np.ndarray:
    """Plates and cutlery clinking: inharmonic partials at 2-7 kHz, fast decays."""
    x = np.zeros(n, np.float32)
    t = np.arange(int(0.3 * RATE)) / RATE
    for _ in range(int(r.integers(3, 7))):
        s = int(r.integers(0, n - len(t)))
        clink = sum(np.sin(2 * np.pi * f * t + r.uniform(0, 6.28)) * np.exp(-t / r.uniform(0.03, 0.12))
                    for f in r.uniform(2000, 7000, 3))
        x[s:s + len(t)] += (clink * r.uniform(0.1, 0.3)).astype(np.float32)
    return x


def _keyboard(n: int, r: np.random.Generator) -> np.ndarray:
    """Typing: 6-10 key clicks a second, each a short click and a soft thock."""
    x = np.zeros(n, np.float32)
    s = int(r.integers(0, RATE // 10))
    while s < n - 400:
        click = _bandpass(r.standard_normal(400).astype(np.float32), 1500, 6000) * _decay(400, 0.003)
        thock = _lowpass(r.standard_normal(400).astype(np.float32), 600) * _decay(400, 0.008)
        x[s:s + 400] += (click * 0.4 + thock * 0.6) * r.uniform(0.4, 1.0)
        s += int(RATE / r.uniform(6, 10))
    return x


def _hum(n: int, r: np.random.Generator, kettle: bool) -> np.ndarray:
    """A fan (mains hum and soft broadband air) or a kettle (a rising hiss)."""
    t = np.arange(n) / RATE
    air = r.standard_normal(n).astype(np.float32)
    if kettle:
        hiss = _bandpass(air, 2000, 7000) * np.linspace(0.3, 1.0, n, dtype=np.float32)
        return (hiss * 0.15 + _lowpass(air, 300) * 0.05).astype(np.float32)
    hum = sum(np.sin(2 * np.pi * 50 * k * t) / k for k in (1, 2, 3, 4))
    return (_lowpass(air, 800) * 0.15 + hum * 0.05).astype(np.float32)


def _music(n: int, r: np.random.Generator) -> np.ndarray:
    """Music-like tones: a pentatonic tune with harmonics and a bass line."""
    x = np.zeros(n, np.float32)
    scale = [0, 2, 4, 7, 9, 12, 14, 16]
    s, base = 0, float(r.uniform(196, 330))
    while s < n:
        m = min(int(RATE * r.choice([0.15, 0.25, 0.35])), n - s)
        t = np.arange(m) / RATE
        f = base * 2 ** (scale[int(r.integers(0, len(scale)))] / 12)
        env = np.minimum(1, t / 0.01) * np.exp(-t / 0.25)
        note = sum(np.sin(2 * np.pi * f * k * t) / k ** 1.5 for k in (1, 2, 3, 4))
        bass = np.sin(2 * np.pi * base / 2 * t)
        x[s:s + m] += ((note * 0.25 + bass * 0.15) * env).astype(np.float32)
        s += m
    return x


def _tv(speakers: Speakers, names: list[str], sentences: list[str], r: np.random.Generator) -> np.ndarray:
    """A TV in the next room: speech through a small loudspeaker, far away (reverb, low)."""
    name = names[int(r.integers(0, len(names)))]
    x = speakers.say(name, sentences[int(r.integers(0, len(sentences)))], 1.0)
    x = _bandpass(_normalise(x), 250, 4500)
    n = int(0.8 * RATE)
    tail = np.arange(n) / RATE
    ir = r.standard_normal(n) * np.exp(-6.9 * tail / 0.8) * 0.2
    ir[0] = 1.0
    x = _normalise(_convolve(x, ir.astype(np.float32))[: len(x) + n // 2], peak=0.08)
    return x


def noise_clips(babble: np.ndarray, np_rng: np.random.Generator, count: int, speakers: Speakers | None = None,
                names: list[str] | None = None, sentences: list[str] | None = None) -> list[tuple[str, np.ndarray]]:
    """Noise-only clips, the kinds in turn (the TV voice needs speakers, names and
    sentences; without them it is left out)."""
    kinds = NOISE_KINDS if speakers is not None and names and sentences else NOISE_KINDS[:-1]
    clips = []
    for i in range(count):
        kind = kinds[i % len(kinds)]
        n = int(RATE * np_rng.uniform(0.8, 1.6) * (1.6 if kind in ("music", "keyboard", "hum") else 1))
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
        elif kind == "clicks":  # table knocks and clicks
            x = np.zeros(n, np.float32)
            for _ in range(5):
                s = int(np_rng.integers(0, n - 200))
                x[s:s + 200] += (np_rng.standard_normal(200) * np.exp(-np.arange(200) / 40) * 0.6).astype(np.float32)
        elif kind == "door":
            x = _door(n, np_rng)
        elif kind == "dishes":
            x = _dishes(n, np_rng)
        elif kind == "keyboard":
            x = _keyboard(n, np_rng)
        elif kind == "hum":
            x = _hum(n, np_rng, kettle=bool(i // len(kinds) % 2))
        elif kind == "music":
            x = _music(n, np_rng)
        else:
            x = _tv(speakers, names, sentences, np_rng)
        clips.append((f"noise-{kind}-{i}", np.clip(x, -1, 1).astype(np.float32)))
    return clips
