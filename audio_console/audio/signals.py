"""The console's signals: one table of parameters, synthesised with numpy at run time.

Every signal is a short score of tones (`Tone`). Each tone has a waveform, a start
and end pitch (a glide when they differ), a length and a pause after it; lengths
are given twice, for the "faithful" timing (near the 1980 console, see
docs/audio.md) and for the "quick" timing (much shorter, still distinct). A tone
may carry its own stereo position (the time warning ticks left-right); otherwise
the whole signal goes to the side it is played on: 0 centre, 1 left (team or
player 1), 2 right (team or player 2).

`synthesise(name, side, timing, sample_rate)` returns float32 stereo (n, 2) in
-1..1. Results are cached: the same request always gives the same samples, which
is what lets --record be compared sample by sample with the table.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

TIMINGS = ("faithful", "quick")
CENTRE, LEFT, RIGHT = 0, 1, 2
SIDE_PAN = {CENTRE: 0.0, LEFT: -0.8, RIGHT: 0.8}   # -1 hard left .. 1 hard right
PEAK = 0.35          # every signal's peak: room to overlap, and about as loud as speech (peak 0.9)
FADE = 0.008         # seconds of raised-cosine fade at both ends of every tone: no clicks


@dataclass(frozen=True)
class Tone:
    freq: float                      # Hz at the start (for "noise": a low-pass corner)
    on: tuple[float, float]          # length in seconds: (faithful, quick)
    off: tuple[float, float] = (0.0, 0.0)   # pause after it: (faithful, quick)
    to: float | None = None          # Hz at the end: a glide (None: steady)
    wave: str = "sine"               # sine, soft (sine + a little 2nd), buzz, square, triangle, bell, noise
    level: float = 1.0               # relative loudness inside the signal
    pan: float | None = None         # fixed position -1..1 (None: the side it is played on)
    attack: float = FADE             # seconds; a slow attack makes a soft pulse
    decay: float = 0.0               # > 0: exponential decay time constant (bells, plucks)
    vibrato: tuple[float, float] = (0.0, 0.0)   # (rate Hz, depth as a fraction of freq)


def _beeps(n: int, freq: float = 880.0) -> tuple[Tone, ...]:
    """The Galaxis 'PIEP' x n: n equal beeps, evenly spaced, easy to count."""
    return tuple(Tone(freq, on=(0.35, 0.12), off=(0.35, 0.10), wave="soft") for _ in range(n))


# The one table. A last tone's pause ("off") is part of the signal: it keeps the
# console's rhythm before the speech or signal that follows. The Galaxis signals sit
# near published re-creations of the 1980 console (docs/signals.md): beeps about
# 880 Hz, 0.35 s on and off; answer 0 a low falling buzz of about 1.8 s; the search
# signal two low-to-high calls of about 3 s in all; "discovered" two low-high pairs
# (120 Hz / 820 Hz); the own-ship tone a deep 165 Hz for 3.5 s.
SIGNALS: dict[str, tuple[Tone, ...]] = {
    # --- Galaxis ---
    "search": (
        Tone(165, on=(0.45, 0.12), wave="buzz", level=0.8),
        Tone(165, to=480, on=(0.95, 0.25), off=(0.20, 0.08), wave="buzz", level=0.8),
        Tone(165, on=(0.45, 0.12), wave="buzz", level=0.8),
        Tone(165, to=480, on=(0.95, 0.25), off=(0.30, 0.10), wave="buzz", level=0.8),
    ),
    "answer_0": (Tone(170, to=125, on=(1.8, 0.6), off=(0.30, 0.10), wave="buzz"),),
    "answer_1": _beeps(1),
    "answer_2": _beeps(2),
    "answer_3": _beeps(3),
    "answer_4": _beeps(4),
    "discovered": (
        Tone(120, on=(0.35, 0.12), wave="buzz"), Tone(820, on=(0.35, 0.12), off=(0.25, 0.08), wave="soft"),
        Tone(120, on=(0.35, 0.12), wave="buzz"), Tone(820, on=(0.35, 0.12), off=(0.30, 0.10), wave="soft"),
    ),
    "stored": (
        Tone(587, on=(0.14, 0.08), off=(0.06, 0.04), wave="soft"),
        Tone(587, on=(0.14, 0.08), wave="soft"),
    ),
    "own_ship": (Tone(165, on=(3.5, 1.0), wave="buzz", attack=0.08),),
    "ready": (
        Tone(440, on=(0.45, 0.2), off=(0.15, 0.05), wave="sine", attack=0.15, level=0.7),
        Tone(440, on=(0.45, 0.2), wave="sine", attack=0.15, level=0.7),
    ),
    "turn": (
        Tone(660, on=(0.15, 0.08), off=(0.05, 0.02), wave="soft"),
        Tone(880, on=(0.22, 0.10), wave="soft"),
    ),
    "time_warning": tuple(
        Tone(1200, on=(0.05, 0.04), off=(0.20, 0.08), wave="soft", pan=p, decay=0.02)
        for p in (-0.9, 0.9, -0.9, 0.9)
    ),
    "time_out": (Tone(700, to=330, on=(0.5, 0.25), wave="triangle"),),
    "victory": (
        Tone(523, on=(0.15, 0.08), off=(0.02, 0.01), wave="triangle"),
        Tone(659, on=(0.15, 0.08), off=(0.02, 0.01), wave="triangle"),
        Tone(784, on=(0.15, 0.08), off=(0.02, 0.01), wave="triangle"),
        Tone(1047, on=(0.60, 0.30), wave="triangle", decay=0.5),
    ),
    # --- Battleship: Outer Space ---
    "laser": (Tone(2200, to=300, on=(0.30, 0.15), wave="square", level=0.6),),
    "hit": (
        Tone(2500, on=(0.35, 0.2), wave="noise", decay=0.12),
        Tone(90, to=60, on=(0.35, 0.2), wave="sine", decay=0.15, pan=None),
    ),
    "miss": (Tone(420, to=200, on=(0.25, 0.15), wave="sine", decay=0.1),),
    "vaporized": (
        Tone(4000, on=(1.2, 0.6), wave="noise", decay=0.45),
        Tone(200, to=50, on=(0.8, 0.4), wave="buzz", decay=0.3),
    ),
    "fleet_destroyed": (
        Tone(392, on=(0.18, 0.09), off=(0.02, 0.01), wave="square", level=0.7),
        Tone(523, on=(0.18, 0.09), off=(0.02, 0.01), wave="square", level=0.7),
        Tone(659, on=(0.18, 0.09), off=(0.02, 0.01), wave="square", level=0.7),
        Tone(784, on=(0.18, 0.09), off=(0.02, 0.01), wave="square", level=0.7),
        Tone(1047, on=(0.8, 0.4), wave="square", level=0.7, decay=0.6),
    ),
    # --- Arkade ---
    "dice": tuple(
        Tone(3000 + 400 * i, on=(0.03, 0.025), off=(g, g * 0.6), wave="noise", decay=0.01)
        for i, g in enumerate((0.05, 0.07, 0.04, 0.09, 0.06, 0.0))
    ),
    "saucer_yellow": (Tone(880, on=(0.7, 0.35), wave="sine", vibrato=(12, 0.04)),),
    "saucer_pink": (Tone(660, on=(0.7, 0.35), wave="triangle", vibrato=(8, 0.06)),),
    "saucer_purple": (Tone(440, on=(0.7, 0.35), wave="square", level=0.7, vibrato=(5, 0.08)),),
    "spaceship_flight": (
        Tone(900, on=(0.8, 0.4), wave="noise", level=0.5),
        Tone(200, to=600, on=(0.8, 0.4), wave="buzz", level=0.6, attack=0.2),
    ),
    "booster": (Tone(300, to=1200, on=(0.3, 0.15), wave="buzz", attack=0.05),),
    "shot": (Tone(1500, to=900, on=(0.08, 0.06), wave="square", level=0.7, decay=0.04),),
    "peng": (Tone(1800, on=(0.45, 0.3), wave="bell", decay=0.12),),
    "shield": (
        Tone(500, on=(0.1, 0.06), wave="square", level=0.6),
        Tone(750, on=(0.1, 0.06), wave="square", level=0.6),
    ),
    "saucer_destroyed": (
        Tone(3000, on=(0.7, 0.35), wave="noise", decay=0.25),
        Tone(600, to=150, on=(0.7, 0.35), wave="triangle", decay=0.3),
    ),
    "chip": (
        Tone(1568, on=(0.1, 0.07), wave="bell", decay=0.06),
        Tone(2093, on=(0.18, 0.12), wave="bell", decay=0.08),
    ),
    "alarm": tuple(Tone(f, on=(0.2, 0.1), wave="square", level=0.6) for f in (600, 900, 600, 900)),
    # --- common ---
    "error": (
        Tone(330, on=(0.12, 0.08), off=(0.03, 0.02), wave="sine", level=0.5),
        Tone(262, on=(0.18, 0.10), wave="sine", level=0.5),
    ),
    "prompt": (Tone(1000, on=(0.03, 0.03), wave="sine", level=0.4, decay=0.015),),
    # the microphone reopened after the console's own sound: two quick rising ticks
    # (unlike the single 1000 Hz prompt tick); a tone, never taken for speech
    "listening": (
        Tone(1320, on=(0.025, 0.025), off=(0.03, 0.03), wave="sine", level=0.35, decay=0.012),
        Tone(1760, on=(0.025, 0.025), wave="sine", level=0.35, decay=0.012),
    ),
}

# Tones that sound together with the one before them instead of after it
# (a layered sound: noise burst plus body). Keyed by signal name: tone indices.
LAYERED: dict[str, frozenset[int]] = {
    "hit": frozenset({1}),
    "vaporized": frozenset({1}),
    "spaceship_flight": frozenset({1}),
    "saucer_destroyed": frozenset({1}),
}

# Signals played softer than the rest (a fraction of PEAK): small, frequent sounds
# that must not startle (the prompt tick comes before every spoken command).
SOFTER: dict[str, float] = {"prompt": 0.35, "listening": 0.35, "error": 0.6, "ready": 0.7, "time_warning": 0.7}

# Harmonic amplitudes of the periodic waveforms (soft edges: no harsh overtones).
_HARMONICS = {
    "sine": (1.0,),
    "soft": (1.0, 0.25, 0.06),
    "buzz": (1.0, 0.5, 0.33, 0.25, 0.2, 0.16, 0.14),
    "square": (1.0, 0.0, 0.33, 0.0, 0.2, 0.0, 0.14),
    "triangle": (1.0, 0.0, 0.11, 0.0, 0.04),
}
_BELL_PARTIALS = ((1.0, 1.0), (2.76, 0.5), (5.4, 0.25))   # (ratio, amplitude): inharmonic


class UnknownSignal(KeyError):
    """A signal name that is not in the table."""


def duration(name: str, timing: str = "faithful") -> float:
    """Length of a signal in seconds, with the pause after its last tone: the beeps keep
    their rhythm up to the speech that follows, and a repeated signal stays even."""
    k = _timing_index(timing)
    return max(start + tone.on[k] + tone.off[k] for start, tone in _layout(name, timing))


def _layout(name: str, timing: str) -> list[tuple[float, Tone]]:
    """Each tone with its start in seconds."""
    k = _timing_index(timing)
    placed: list[tuple[float, Tone]] = []
    cursor = 0.0
    for i, tone in enumerate(_tones(name)):
        start = placed[-1][0] if i in LAYERED.get(name, ()) else cursor
        placed.append((start, tone))
        cursor = start + tone.on[k] + tone.off[k]
    return placed


def synthesise(name: str, side: int = CENTRE, timing: str = "faithful",
               sample_rate: int = 48000) -> np.ndarray:
    """The signal as float32 stereo (n, 2), peak PEAK (less for SOFTER ones). Cached, read-only."""
    return _synthesise(name, int(side), timing, int(sample_rate))


@lru_cache(maxsize=512)
def _synthesise(name: str, side: int, timing: str, sample_rate: int) -> np.ndarray:
    k = _timing_index(timing)
    if side not in SIDE_PAN:
        raise ValueError(f"side must be 0 (centre), 1 (left) or 2 (right), not {side}")
    n_total = int(round(duration(name, timing) * sample_rate)) + 1
    out = np.zeros((n_total, 2), dtype=np.float64)
    rng = np.random.default_rng(sum(map(ord, name)))   # noise is the same every time
    for start_s, tone in _layout(name, timing):
        start = int(round(start_s * sample_rate))
        mono = _tone(tone, tone.on[k], sample_rate, rng)
        left, right = _pan_gains(SIDE_PAN[side] if tone.pan is None else tone.pan)
        n = min(len(mono), n_total - start)
        out[start:start + n, 0] += left * mono[:n]
        out[start:start + n, 1] += right * mono[:n]
    peak = np.abs(out).max()
    if peak > 0:
        out *= PEAK * SOFTER.get(name, 1.0) / peak
    result = out.astype(np.float32)
    result.flags.writeable = False
    return result


def _tone(tone: Tone, seconds: float, rate: int, rng: np.random.Generator) -> np.ndarray:
    n = max(1, int(round(seconds * rate)))
    t = np.arange(n) / rate
    freq = np.full(n, float(tone.freq)) if tone.to is None else \
        tone.freq * (tone.to / tone.freq) ** (t / max(seconds, 1e-9))   # exponential glide: even in pitch
    if tone.vibrato[0] > 0:
        freq = freq * (1 + tone.vibrato[1] * np.sin(2 * np.pi * tone.vibrato[0] * t))
    phase = 2 * np.pi * np.cumsum(freq) / rate
    if tone.wave == "noise":
        # White noise through a low-pass at `freq`: a hiss or a rumble.
        wave = _low_pass(rng.standard_normal(n), tone.freq, rate)
    elif tone.wave == "bell":
        wave = sum((amp * np.sin(ratio * phase) for ratio, amp in _BELL_PARTIALS), np.zeros(n))

    else:
        harmonics = _HARMONICS[tone.wave]
        nyquist = rate / 2
        wave = np.zeros(n)
        for h, amp in enumerate(harmonics, start=1):
            if amp and tone.freq * h < nyquist and (tone.to or 0) * h < nyquist:
                wave += amp * np.sin(h * phase)
    wave = wave / (np.abs(wave).max() or 1.0)
    return tone.level * wave * _envelope(n, rate, tone.attack, tone.decay)


def _low_pass(x: np.ndarray, corner: float, rate: int) -> np.ndarray:
    """A gentle (first-order) low-pass, applied in the frequency domain."""
    spectrum = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / rate)
    return np.fft.irfft(spectrum / np.sqrt(1 + (f / corner) ** 2), n=len(x))


def _envelope(n: int, rate: int, attack: float, decay: float) -> np.ndarray:
    env = np.ones(n)
    a = min(n // 2, max(1, int(attack * rate)))
    r = min(n // 2, max(1, int(FADE * rate)))
    env[:a] = 0.5 - 0.5 * np.cos(np.pi * np.arange(a) / a)
    env[n - r:] *= 0.5 + 0.5 * np.cos(np.pi * np.arange(1, r + 1) / r)
    if decay > 0:
        env *= np.exp(-np.arange(n) / (decay * rate))
    return env


def _pan_gains(pan: float) -> tuple[float, float]:
    """Equal-power pan: -1 hard left, 0 centre, 1 hard right."""
    angle = (pan + 1) * np.pi / 4
    return float(np.cos(angle)), float(np.sin(angle))


def _tones(name: str) -> tuple[Tone, ...]:
    try:
        return SIGNALS[name]
    except KeyError:
        raise UnknownSignal(f"no signal called {name!r}") from None


def _timing_index(timing: str) -> int:
    if timing not in TIMINGS:
        raise ValueError(f"timing must be 'faithful' or 'quick', not {timing!r}")
    return TIMINGS.index(timing)
