"""WAV files and sample formats for the recognizers: 16 kHz mono int16 bytes."""
from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 16000


WIDTHS = {1: "uint8", 2: "<i2", 4: "<i4"}     # sample width in bytes -> numpy type
CHUNK_BYTES = 1 << 20          # read a WAV a megabyte at a time, whatever its frame size
SPEECH_RATE = 48000            # recognize: a higher rate is brought down to about this, chunk by chunk


def read_wav(path) -> tuple[np.ndarray, int]:
    """Samples as float32 in -1..1 (channels averaged) and the sample rate. Read a chunk
    at a time and mixed down as it comes, so memory follows the audio's length, not the
    file's size (a file of many channels is never held whole)."""
    with wave.open(str(path), "rb") as w:
        parts = list(_mono_chunks(w))
        return (np.concatenate(parts) if parts else np.zeros(0, np.float32)), w.getframerate()


def read_speech(path) -> tuple[np.ndarray, float]:
    """Like read_wav, but a rate above SPEECH_RATE (96 or 192 kHz) is divided down as the
    chunks come (an anti-alias filter, then every q-th sample), so that memory follows
    the audio's length whatever its rate: 29 s at 192 kHz, 8 channels, held whole and
    resampled at once took 195 MB. Returns the rate it comes at (rate / q)."""
    with wave.open(str(path), "rb") as w:
        rate = w.getframerate()
        decimate = Decimator(max(1, rate // SPEECH_RATE))
        parts = [decimate(chunk) for chunk in _mono_chunks(w)]
        return (np.concatenate(parts) if parts else np.zeros(0, np.float32)), rate / decimate.q


def _mono_chunks(w: wave.Wave_read):
    channels, width = w.getnchannels(), w.getsampwidth()
    if width not in WIDTHS:
        raise ValueError(f"{8 * width}-bit samples are not supported")
    frame = width * channels
    while raw := w.readframes(max(1, CHUNK_BYTES // frame)):
        yield _mono(np.frombuffer(raw[:len(raw) - len(raw) % frame], WIDTHS[width]), width, channels)


class Decimator:
    """Keeps one sample in q of a signal given in chunks, after a low-pass filter
    (a Blackman-windowed sinc at 0.45 of the new rate's width) that keeps every band
    the recognizer hears (up to 8 kHz) and what would fold onto it out."""

    def __init__(self, q: int):
        self.q = q
        taps = 16 * q + 1
        t = np.arange(taps) - (taps - 1) / 2
        h = np.sinc(0.9 / q * t) * np.blackman(taps)
        self.h = (h / h.sum()).astype(np.float32)
        self._tail = np.zeros(taps - 1, np.float32)
        self._skip = 0            # samples of the next chunk before the next one kept

    def __call__(self, x: np.ndarray) -> np.ndarray:
        if self.q == 1:
            return x
        joined = np.concatenate([self._tail, x])
        self._tail = joined[len(joined) - len(self._tail):]
        kept = np.convolve(joined, self.h, "valid")[self._skip::self.q]
        self._skip = (self._skip - len(x)) % self.q
        return kept.astype(np.float32)


def _mono(x: np.ndarray, width: int, channels: int) -> np.ndarray:
    if width == 1:
        y = (x.astype(np.float32) - 128) / 128.0
    else:
        y = x.astype(np.float32) / float(1 << (8 * width - 1))
    return y.reshape(-1, channels).mean(axis=1, dtype=np.float32) if channels > 1 else y


def pcm_samples(pcm: bytes) -> np.ndarray:
    """16 kHz mono int16 bytes as float32 samples in -1..1 (an odd last byte dropped)."""
    return np.frombuffer(pcm[: len(pcm) - len(pcm) % 2], "<i2").astype(np.float32) / 32768.0


def to_pcm16(samples: np.ndarray, rate: float) -> bytes:
    """float samples at any rate -> 16 kHz mono int16 bytes (linear resampling)."""
    x = resample(np.asarray(samples, dtype=np.float32), rate, RATE)
    return (np.clip(x, -1, 1) * 32767).astype("<i2").tobytes()


def resample(x: np.ndarray, rate: float, to: int) -> np.ndarray:
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
    x, rate = read_speech(path)
    return to_pcm16(x, rate)


def write_wav(path, samples: np.ndarray, rate: int = RATE) -> None:
    data = (np.clip(np.asarray(samples, dtype=np.float32), -1, 1) * 32767).astype("<i2").tobytes()
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(data)
