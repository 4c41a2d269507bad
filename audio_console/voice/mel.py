"""Whisper's log-mel features in numpy (no torch, no ffmpeg).

The recipe of OpenAI's whisper/audio.py: a 400-point periodic Hann STFT every 160
samples (10 ms at 16 kHz), centred with reflect padding, the last frame dropped;
power spectrum through 80 Slaney-style mel filters (0-8 kHz, area-normalised);
log10 floored at 1e-10, then clamped to (max - 8) and mapped by (x + 4) / 4.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

RATE = 16000
N_FFT = 400
HOP = 160
N_MELS = 80


def _hz_to_mel(hz):
    """Slaney's mel scale: linear below 1 kHz, logarithmic above."""
    hz = np.asarray(hz, dtype=np.float64)
    f_sp = 200.0 / 3
    mels = hz / f_sp
    min_log_hz = 1000.0
    min_log_mel = min_log_hz / f_sp
    logstep = np.log(6.4) / 27.0
    return np.where(hz >= min_log_hz, min_log_mel + np.log(np.maximum(hz, 1e-10) / min_log_hz) / logstep, mels)


def _mel_to_hz(mels):
    mels = np.asarray(mels, dtype=np.float64)
    f_sp = 200.0 / 3
    min_log_hz = 1000.0
    min_log_mel = min_log_hz / f_sp
    logstep = np.log(6.4) / 27.0
    return np.where(mels >= min_log_mel, min_log_hz * np.exp(logstep * (mels - min_log_mel)), f_sp * mels)


@lru_cache(maxsize=4)
def mel_filters(n_mels: int = N_MELS) -> np.ndarray:
    """[n_mels, N_FFT // 2 + 1] triangular filters, each normalised by its width."""
    fft_hz = np.linspace(0, RATE / 2, N_FFT // 2 + 1)
    edges = _mel_to_hz(np.linspace(_hz_to_mel(0.0), _hz_to_mel(RATE / 2), n_mels + 2))
    widths = np.diff(edges)
    ramps = edges[:, None] - fft_hz[None, :]
    lower = -ramps[:-2] / widths[:-1, None]
    upper = ramps[2:] / widths[1:, None]
    weights = np.maximum(0.0, np.minimum(lower, upper))
    weights *= (2.0 / (edges[2:n_mels + 2] - edges[:n_mels]))[:, None]
    return weights.astype(np.float32)


@lru_cache(maxsize=1)
def _window() -> np.ndarray:
    n = np.arange(N_FFT)
    return (0.5 - 0.5 * np.cos(2 * np.pi * n / N_FFT)).astype(np.float32)   # periodic Hann


def log_mel(samples: np.ndarray, frames: int | None = None, n_mels: int = N_MELS) -> np.ndarray:
    """float samples (16 kHz, -1..1) -> [n_mels, frames] float32 features.
    `frames`: the window length in 10 ms frames; the audio is cut or padded with
    silence to it (Whisper pads to 3000 frames, 30 s)."""
    x = np.asarray(samples, dtype=np.float32)
    if frames is None:
        frames = len(x) // HOP
    wanted = frames * HOP
    x = x[:wanted] if len(x) >= wanted else np.concatenate([x, np.zeros(wanted - len(x), np.float32)])
    half = N_FFT // 2
    padded = np.pad(x, half, mode="reflect") if len(x) > half else np.pad(x, half)
    count = 1 + (len(padded) - N_FFT) // HOP
    idx = np.arange(N_FFT)[None, :] + HOP * np.arange(count)[:, None]
    spectrum = np.fft.rfft(padded[idx] * _window(), axis=1)
    power = (spectrum.real ** 2 + spectrum.imag ** 2)[:-1].astype(np.float32)   # drop the last frame
    mel = mel_filters(n_mels) @ power.T
    logs = np.log10(np.maximum(mel, 1e-10))
    logs = np.maximum(logs, logs.max() - 8.0)
    return ((logs + 4.0) / 4.0).astype(np.float32)
