"""Reading the sound file a speech driver wrote, once it is complete.

pyttsx3's drivers write different files from `save_to_file`: espeak-ng and SAPI5
(Windows) a 16-bit WAV, macOS's NSSpeechSynthesizer (the nsss driver) an AIFF
whatever the file is called. Both are read here into mono samples in -1..1. A
driver may return before its file is written, so a file counts only when its
header's length matches the data that is there.
"""
from __future__ import annotations

import struct
import time
import wave

import numpy as np


def read_complete(path: str, timeout: float) -> tuple[int, np.ndarray]:
    """(sample rate, mono samples) of the WAV or AIFF at `path`, waiting until it is complete."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with open(path, "rb") as file:
                data = file.read()
            got = _read_aiff(data) if data[:4] == b"FORM" else _read_wav(path)
            if got is not None:
                return got
        except (OSError, EOFError, wave.Error, struct.error):
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"the speech driver wrote no speech to {path}")
        time.sleep(0.005)


def _read_wav(path: str) -> tuple[int, np.ndarray] | None:
    with wave.open(path, "rb") as wav:
        frames, channels = wav.getnframes(), wav.getnchannels()
        if wav.getsampwidth() != 2:
            raise RuntimeError(f"unexpected {8 * wav.getsampwidth()}-bit speech file")
        raw = wav.readframes(frames)
        if frames > 0 and len(raw) == frames * channels * 2:
            mono = np.frombuffer(raw, "<i2").reshape(-1, channels).mean(axis=1) / 32768.0
            return wav.getframerate(), mono
    return None


# AIFF-C compression types for the sample formats read here: (numpy type, scale).
_AIFC_TYPES = {b"NONE": (">i2", 32768.0), b"twos": (">i2", 32768.0),
               b"sowt": ("<i2", 32768.0), b"fl32": (">f4", 1.0), b"FL32": (">f4", 1.0)}


def _read_aiff(data: bytes) -> tuple[int, np.ndarray] | None:
    """AIFF or AIFF-C with 16-bit integer or 32-bit float samples; None while incomplete."""
    if data[8:12] not in (b"AIFF", b"AIFC"):
        raise RuntimeError("unexpected speech file (FORM but not AIFF)")
    chunks = _chunks(data, 12)
    if b"COMM" not in chunks or b"SSND" not in chunks:
        return None
    comm = chunks[b"COMM"]
    channels, frames, bits = struct.unpack(">hIh", comm[:8])
    rate = _extended(comm[8:18])
    kind = comm[18:22] if data[8:12] == b"AIFC" else b"NONE"
    if kind not in _AIFC_TYPES or (bits != 16 and kind[:2].lower() != b"fl"):
        raise RuntimeError(f"unexpected speech file ({bits}-bit, {kind.decode('latin-1')})")
    dtype, scale = _AIFC_TYPES[kind]
    offset = struct.unpack(">I", chunks[b"SSND"][:4])[0]
    raw = chunks[b"SSND"][8 + offset:]
    size = frames * channels * np.dtype(dtype).itemsize
    if frames == 0 or len(raw) < size:
        return None
    mono = np.frombuffer(raw[:size], dtype).reshape(-1, channels).mean(axis=1) / scale
    return int(round(rate)), mono


def _chunks(data: bytes, at: int) -> dict[bytes, bytes]:
    """The chunks of an IFF file from `at` (big-endian sizes, padded to even lengths)."""
    found = {}
    while at + 8 <= len(data):
        name, size = data[at:at + 4], struct.unpack(">I", data[at + 4:at + 8])[0]
        found[name] = data[at + 8:at + 8 + size]
        at += 8 + size + (size & 1)
    return found


def _extended(raw: bytes) -> float:
    """An IEEE 754 80-bit extended float (AIFF's sample rate)."""
    head, mantissa = struct.unpack(">HQ", raw)
    exponent = (head & 0x7FFF) - 16383 - 63
    value = mantissa * 2.0 ** exponent
    return -value if head & 0x8000 else value
