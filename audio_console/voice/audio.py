"""WAV files and sample formats for the recognizers: 16 kHz mono int16 bytes."""
from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 16000


WIDTHS = {1: "uint8", 2: "<i2", 4: "<i4"}     # sample width in bytes -> numpy type
CHUNK_FRAMES = 1 << 16


def read_wav(path) -> tuple[np.ndarray, int]:
    """Samples as float32 in -1..1 (channels averaged) and the sample rate. Read a chunk
    at a time and mixed down as it comes, so memory follows the audio's length, not the
    file's size (a file of many channels is never held whole)."""
    with wave.open(str(path), "rb") as w:
        rate, channels, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
        if width not in WIDTHS:
            raise ValueError(f"{path}: {8 * width}-bit samples are not supported")
        parts = []
        while raw := w.readframes(CHUNK_FRAMES):
            parts.append(_mono(np.frombuffer(raw[:len(raw) - len(raw) % (width * channels)], WIDTHS[width]),
                               width, channels))
    return (np.concatenate(parts) if parts else np.zeros(0, np.float32)), rate


def _mono(x: np.ndarray, width: int, channels: int) -> np.ndarray:
    if width == 1:
        y = (x.astype(np.float32) - 128) / 128.0
    else:
        y = x.astype(np.float32) / float(1 << (8 * width - 1))
    return y.reshape(-1, channels).mean(axis=1, dtype=np.float32) if channels > 1 else y


def pcm_samples(pcm: bytes) -> np.ndarray:
    """16 kHz mono int16 bytes as float32 samples in -1..1 (an odd last byte dropped)."""
    return np.frombuffer(pcm[: len(pcm) - len(pcm) % 2], "<i2").astype(np.float32) / 32768.0


def to_pcm16(samples: np.ndarray, rate: int) -> bytes:
    """float samples at any rate -> 16 kHz mono int16 bytes (linear resampling)."""
    x = resample(np.asarray(samples, dtype=np.float32), rate, RATE)
    return (np.clip(x, -1, 1) * 32767).astype("<i2").tobytes()


def resample(x: np.ndarray, rate: int, to: int) -> np.ndarray:
    """Band-limited resampling by FFT (whole utterances are short). Linear
    interpolation would fold 8-11 kHz into the band the recognizer listens to."""
    if rate == to or not len(x):
        return x.astype(np.float32)
    n = int(round(len(x) * to / rate))
    spectrum = np.fft.rfft(x)
    keep = n // 2 + 1
    if keep <= len(spectrum):
        spectrum = spectrum[:keep]
    else:
        spectrum = np.concatenate([spectrum, np.zeros(keep - len(spectrum), spectrum.dtype)])
    return (np.fft.irfft(spectrum, n) * (n / len(x))).astype(np.float32)


def wav_pcm16(path) -> bytes:
    """A WAV file as recognizer input: 16 kHz mono int16 bytes."""
    x, rate = read_wav(path)
    return to_pcm16(x, rate)


def write_wav(path, samples: np.ndarray, rate: int = RATE) -> None:
    data = (np.clip(np.asarray(samples, dtype=np.float32), -1, 1) * 32767).astype("<i2").tobytes()
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(data)
