"""Measurements a test can make on a sound, as an ear would: pitch, onsets, length, side."""
from __future__ import annotations

import numpy as np


def mono(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    return x.mean(axis=1) if x.ndim == 2 else x


def dominant_frequency(x: np.ndarray, rate: int, low: float = 50.0, high: float = 5000.0) -> float:
    """The strongest frequency (Hz) between low and high."""
    m = mono(x)
    spectrum = np.abs(np.fft.rfft(m * np.hanning(len(m))))
    freqs = np.fft.rfftfreq(len(m), 1 / rate)
    band = (freqs >= low) & (freqs <= high)
    return float(freqs[band][np.argmax(spectrum[band])])


def band_fraction(x: np.ndarray, rate: int, low: float, high: float) -> float:
    """Share of the sound's energy between low and high Hz."""
    m = mono(x)
    power = np.abs(np.fft.rfft(m)) ** 2
    freqs = np.fft.rfftfreq(len(m), 1 / rate)
    return float(power[(freqs >= low) & (freqs < high)].sum() / max(power.sum(), 1e-20))


def envelope(x: np.ndarray, rate: int, frame: float = 0.005) -> np.ndarray:
    """RMS per frame (5 ms)."""
    m = mono(x)
    n = max(1, int(frame * rate))
    frames = len(m) // n
    return np.sqrt((m[:frames * n].reshape(frames, n) ** 2).mean(axis=1))


def band_envelope(x: np.ndarray, rate: int, low: float, high: float, frame: float = 0.01) -> np.ndarray:
    """Energy per frame within a frequency band (a short-time Fourier analysis)."""
    m = mono(x)
    n = int(frame * rate)
    frames = len(m) // n
    blocks = m[:frames * n].reshape(frames, n) * np.hanning(n)
    spectrum = np.abs(np.fft.rfft(blocks, axis=1)) ** 2
    freqs = np.fft.rfftfreq(n, 1 / rate)
    return spectrum[:, (freqs >= low) & (freqs <= high)].sum(axis=1)


def count_onsets(env: np.ndarray, threshold: float = 0.3, min_gap: int = 3, bridge: int = 0) -> int:
    """Separate sounds: rises through threshold x peak, at least min_gap frames apart.
    A dip under the threshold shorter than `bridge` frames does not end a sound: through
    a real server, an output underrun on a loaded machine cuts a gap of a block or two
    into one beep, which the player hears as a click, not as another beep."""
    if env.max() <= 0:
        return 0
    above = env > threshold * env.max()
    if bridge:
        below = np.flatnonzero(~above)
        runs = np.split(below, np.flatnonzero(np.diff(below) > 1) + 1) if len(below) else []
        for run in runs:
            if len(run) < bridge and run[0] > 0 and run[-1] < len(above) - 1:
                above[run] = True
    rises = np.flatnonzero(above[1:] & ~above[:-1]) + 1
    if above[0]:
        rises = np.concatenate([[0], rises])
    count, last = 0, -10 ** 9
    for r in rises:
        if r - last >= min_gap:
            count += 1
        last = r
    return count


def sounding_length(x: np.ndarray, rate: int, threshold: float = 0.02) -> float:
    """Seconds from the first to the last frame above threshold x peak."""
    env = envelope(x, rate)
    loud = np.flatnonzero(env > threshold * env.max())
    return 0.0 if len(loud) == 0 else (loud[-1] - loud[0] + 1) * 0.005


def side_ratio(x: np.ndarray) -> float:
    """Energy left / energy right."""
    x = np.asarray(x, dtype=np.float64)
    return float((x[:, 0] ** 2).sum() / max((x[:, 1] ** 2).sum(), 1e-20))
