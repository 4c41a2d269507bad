"""The second look's change of speed (speed.py)."""
from __future__ import annotations

import numpy as np

from audio_console.voice.speed import at_speed


def tone(freq: float, seconds: float = 1.0) -> bytes:
    t = np.arange(int(16000 * seconds)) / 16000
    return (0.3 * 32767 * np.sin(2 * np.pi * freq * t)).astype("<i2").tobytes()


def peak_hz(pcm: bytes) -> float:
    x = np.frombuffer(pcm, "<i2").astype(np.float64)
    spectrum = np.abs(np.fft.rfft(x * np.hanning(len(x))))
    return float(np.argmax(spectrum)) * 16000 / len(x)


def test_slower_is_longer_and_lower_and_faster_shorter_and_higher():
    slow, fast = at_speed(tone(500), 0.9), at_speed(tone(500), 1 / 0.9)
    assert len(slow) // 2 == round(16000 / 0.9) and len(fast) // 2 == round(16000 * 0.9)
    assert abs(peak_hz(slow) - 450) < 3 and abs(peak_hz(fast) - 555.6) < 3
    level = np.abs(np.frombuffer(slow, "<i2")).max()
    assert 0.29 * 32767 < level <= 0.3 * 32767 + 1          # the level kept


def test_the_same_speed_and_a_sound_too_short_are_left_as_they_are():
    assert at_speed(tone(500), 1.0) == tone(500)
    assert at_speed(b"\x01\x00", 0.9) == b"\x01\x00"
    assert at_speed(b"", 1.1) == b""
