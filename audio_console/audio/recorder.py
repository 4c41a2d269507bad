"""--record FILE.wav: everything the engine played, sample-exact and in order.

The mixer's blocks are handed over from the audio thread through a queue and
written by a thread of their own (no file I/O in the real-time callback). Only
blocks that carried sound are written: the time when nothing played (waiting for
the player) is left out, so a recording is the game's sounds back to back, in
the order and with the overlaps they had. Samples are the mixer's output after
volume, as 16-bit stereo PCM at the engine's sample rate.
"""
from __future__ import annotations

import queue
import threading
import wave
from pathlib import Path

import numpy as np


def to_int16(block: np.ndarray) -> np.ndarray:
    """Float -1..1 to 16-bit PCM, the way the recorder stores it."""
    return np.round(np.clip(block, -1.0, 1.0) * 32767).astype("<i2")


class WavRecorder:
    def __init__(self, path: str | Path, sample_rate: int):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # The file is opened first: a path that cannot be written raises a plain OSError
        # here, before a half-made Wave_write exists (its __del__ would fail later).
        self._file = open(self.path, "wb")
        self._wav = wave.open(self._file, "wb")
        self._wav.setnchannels(2)
        self._wav.setsampwidth(2)
        self._wav.setframerate(sample_rate)
        self._blocks: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._write_loop, name="audio-recorder", daemon=True)
        self._thread.start()
        self.frames_written = 0

    def add(self, block: np.ndarray) -> None:
        """Called from the audio thread: must not block."""
        self._blocks.put(to_int16(block).tobytes())

    def _write_loop(self) -> None:
        while True:
            data = self._blocks.get()
            if data is None:
                return
            self._wav.writeframesraw(data)
            self.frames_written += len(data) // 4

    def close(self) -> None:
        if self._thread.is_alive():
            self._blocks.put(None)
            self._thread.join(timeout=10)
        try:
            self._wav.close()   # writes the final lengths into the header
        except Exception:
            pass
        self._file.close()


def read_wav(path: str | Path) -> tuple[np.ndarray, int]:
    """A 16-bit WAV file as int16 (n, channels) and its sample rate (for tests and tools)."""
    with wave.open(str(path), "rb") as wav:
        data = np.frombuffer(wav.readframes(wav.getnframes()), "<i2")
        return data.reshape(-1, wav.getnchannels()), wav.getframerate()
