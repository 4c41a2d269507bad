"""Steady background noise (a fan, a hum, hiss) taken out of an utterance.

Whisper tiny.en copes with babble better than with steady broadband noise: on the
tuning corpora, spectral subtraction before the search made the best phrase the one
said for more commands in white noise (10 dB: 18 -> 24 of 36) and fewer in babble
(21 -> 19). So the engine decodes a cleaned copy only when the utterance's quietest
frames are both loud and spectrally flat (steady noise, not voices), and keeps
whichever decode scores better (whisper_engine.py).
"""
from __future__ import annotations

import numpy as np

from audio_console.voice.audio import pcm_samples

FRAME = 512                  # samples (32 ms at 16 kHz)
HOP = 128
QUIET_SHARE = 0.15           # the quietest frames taken as the noise
BAND = (4, 200)              # FFT bins of the flatness: about 125 Hz .. 6 kHz
STEADY_FLOOR_DB = -50.0      # the noise's level (dBFS) above which it is worth removing
STEADY_FLATNESS = 0.5        # between white noise's flatness and babble's (docs/measurements/voice-constants.md)
KEEP = 0.05                  # each bin keeps at least this share of its magnitude


def _spectra(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    window = np.hanning(FRAME).astype(np.float32)
    frames = np.lib.stride_tricks.sliding_window_view(np.pad(x, (FRAME, FRAME)), FRAME)[::HOP] * window
    return window, np.fft.rfft(frames, axis=1)


def _quietest(magnitudes: np.ndarray) -> np.ndarray:
    energy = (magnitudes ** 2).sum(1)
    return np.argsort(energy)[:max(1, int(len(energy) * QUIET_SHARE))]


def noise_of(pcm: bytes) -> tuple[float, float]:
    """The level (dBFS) and spectral flatness (0-1) of the utterance's quietest frames."""
    x = pcm_samples(pcm)
    if len(x) < 2 * FRAME:
        return -120.0, 0.0
    window, spectra = _spectra(x)
    magnitudes = np.abs(spectra)
    power = (magnitudes[_quietest(magnitudes)] ** 2).mean(0)
    band = power[BAND[0]:BAND[1]] + 1e-12
    flatness = float(np.exp(np.mean(np.log(band))) / np.mean(band))
    # mean square of the samples under the window, from Parseval
    level = power.sum() * 2 / (FRAME * (window ** 2).sum())
    return float(10 * np.log10(level + 1e-12)), flatness


def steady_noise(pcm: bytes) -> bool:
    level, flatness = noise_of(pcm)
    return level > STEADY_FLOOR_DB and flatness > STEADY_FLATNESS


def cleaned(pcm: bytes) -> bytes:
    """The utterance with the quietest frames' average spectrum subtracted (each bin
    keeps at least KEEP of itself, so no bin goes silent), resynthesised by overlap-add."""
    x = pcm_samples(pcm)
    if len(x) < 2 * FRAME:
        return pcm
    window, spectra = _spectra(x)
    magnitudes = np.abs(spectra)
    noise = magnitudes[_quietest(magnitudes)].mean(0)
    kept = np.maximum(magnitudes - noise, KEEP * magnitudes)
    frames = np.fft.irfft(kept * np.exp(1j * np.angle(spectra)), n=FRAME, axis=1) * window
    out = np.zeros(len(x) + 3 * FRAME, np.float32)
    weight = np.zeros_like(out)
    for i, frame in enumerate(frames):
        out[i * HOP:i * HOP + FRAME] += frame
        weight[i * HOP:i * HOP + FRAME] += window ** 2
    y = (out / np.maximum(weight, 1e-6))[FRAME:FRAME + len(x)]
    return (np.clip(y, -1.0, 1.0) * 32767).astype("<i2").tobytes()
