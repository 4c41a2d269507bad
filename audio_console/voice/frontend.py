"""A second, noise-reduced copy of an utterance, for the recognizer's second opinion.

Spectral subtraction with the noise spectrum of the utterance's quietest frames.
Measured on the synthetic corpus (docs/voice.md): decoding this copy instead of the
original helps in babble and hurts in white noise (pocketsphinx's model already
removes steady noise itself), so it is not used as the main input. It serves as a
second opinion: a command is acted on without asking only when this copy decodes
to the same command.
"""
from __future__ import annotations

import numpy as np

RATE = 16000
FFT = 512
HOP = 160


def denoise(x: np.ndarray, strength: float = 1.0, floor: float = 0.05) -> np.ndarray:
    """Spectral subtraction with the noise spectrum taken from the quietest frames
    (the endpointer leaves some lead-in). A gain floor keeps musical noise down."""
    if len(x) < FFT * 2:
        return x
    window = np.hanning(FFT).astype(np.float32)
    pad = np.concatenate([np.zeros(FFT, np.float32), x, np.zeros(FFT, np.float32)])
    n = 1 + (len(pad) - FFT) // HOP
    idx = np.arange(FFT)[None, :] + HOP * np.arange(n)[:, None]
    spec = np.fft.rfft(pad[idx] * window, axis=1)
    power = np.abs(spec) ** 2
    frame_power = power.sum(axis=1)
    quiet = frame_power <= np.percentile(frame_power[1:-1] if n > 2 else frame_power, 15)
    noise = power[quiet].mean(axis=0)
    gain = np.maximum(1.0 - strength * noise / (power + 1e-12), floor ** 2) ** 0.5
    out_frames = np.fft.irfft(spec * gain, FFT, axis=1) * window
    out = np.zeros(len(pad), np.float64)
    norm = np.zeros(len(pad), np.float64)
    np.add.at(out, idx, out_frames)
    np.add.at(norm, idx, np.broadcast_to(window ** 2, out_frames.shape))
    out = out / np.maximum(norm, 1e-3)
    return out[FFT: FFT + len(x)].astype(np.float32)


def to_float(pcm: bytes) -> np.ndarray:
    return np.frombuffer(pcm, "<i2").astype(np.float32) / 32768.0


def to_pcm(x: np.ndarray) -> bytes:
    return (np.clip(x, -1, 1) * 32767).astype("<i2").tobytes()
