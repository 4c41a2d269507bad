"""What the console is playing, kept for the microphone's echo canceller.

The engine's output callback writes every block it hands the device, silence
included, so the reference runs at the device's pace without gaps. The listener
reads it back at 16 kHz mono, step for step with the microphone's frames: both are
sample clocks of one machine, so once started the echo keeps one delay behind the
reference, which the canceller (voice/echo_cancel.py) finds and follows.
"""
from __future__ import annotations

import threading

import numpy as np

RATE = 16000
# The reference kept (5.8 MB at 48 kHz). The listener cleans each microphone frame
# when its worker gets to it, and a worker busy decoding falls seconds behind; with
# less kept, what the console had played was gone by then, the canceller took nothing
# out, and the console heard its own words (docs/measurements/voice-constants.md).
KEEP_SECONDS = 30.0
LOWPASS_TAPS = 63        # the anti-alias filter before taking every third sample (48 -> 16 kHz)


class EchoReference:
    """A ring of the mono output at the device's rate; `reader()` gives a cursor."""

    def __init__(self, sample_rate: int):
        self.sample_rate = sample_rate
        self._ring = np.zeros(int(KEEP_SECONDS * sample_rate), np.float32)
        self._written = 0            # samples written since the start
        self._lock = threading.Lock()

    def write(self, block: np.ndarray) -> None:
        """The audio thread: one (frames, 2) output block (cheap: a copy under a lock)."""
        mono = block.mean(axis=1) if block.ndim == 2 else block
        n, size = len(mono), len(self._ring)
        with self._lock:
            at = self._written % size
            first = min(n, size - at)
            self._ring[at:at + first] = mono[:first]
            self._ring[:n - first] = mono[first:]
            self._written += n

    def written(self) -> int:
        with self._lock:
            return self._written

    def take(self, start: int, n: int) -> np.ndarray:
        """Samples start .. start+n at the device's rate (zeros for any not written yet)."""
        out = np.zeros(n, np.float32)
        size = len(self._ring)
        with self._lock:
            stop = min(start + n, self._written)
            lo = max(start, self._written - size)
            if stop > lo:
                idx = np.arange(lo, stop) % size
                out[lo - start:stop - start] = self._ring[idx]
        return out

    def reader(self) -> "ReferenceReader":
        return ReferenceReader(self)


class ReferenceReader:
    """Reads the reference at 16 kHz, as many samples as the microphone gave, from
    LEAD seconds before the newest output: the echo of a sample reaches the
    microphone later than that (the device's buffer, the way through the room and
    the microphone's buffer), so the canceller always has the reference first."""

    LEAD = 0.03          # seconds behind the newest output the reading starts
    RESYNC = 0.3         # seconds off the expected place: clocks drifted or samples were lost

    def __init__(self, reference: EchoReference):
        self.reference = reference
        self.ratio = reference.sample_rate / RATE
        self._filter = _lowpass(reference.sample_rate)
        self.position: float | None = None     # in samples at the device's rate; None: not started
        self.resyncs = 0                       # times the place was set again after the start
        self._history = np.zeros(len(self._filter) - 1, np.float32)

    def read(self, n: int, queued: int = 0) -> np.ndarray:
        """The next n samples at 16 kHz (float32 -1..1). `queued`: microphone samples
        already captured but not read yet (they came before these n were played)."""
        expected = self.reference.written() - (self.LEAD * RATE + queued + n) * self.ratio
        if self.position is None or abs(self.position - expected) > self.RESYNC * self.reference.sample_rate:
            self.resyncs += self.position is not None
            self.position = expected
            self._history[:] = 0
        start = int(self.position)
        end = int(self.position + n * self.ratio) + 2
        source = self.reference.take(start, end - start)
        joined = np.concatenate([self._history, source])
        filtered = np.convolve(joined, self._filter, mode="valid")    # one per source sample
        at = self.position - start + np.arange(n) * self.ratio
        self.position += n * self.ratio
        keep = int(self.position) - start                              # source samples used up
        self._history = joined[keep:keep + len(self._history)]
        return np.interp(at, np.arange(len(filtered)), filtered).astype(np.float32)


def _lowpass(rate: int) -> np.ndarray:
    """A windowed-sinc low-pass at 7.2 kHz: nothing above 8 kHz folds into the band."""
    taps = np.arange(LOWPASS_TAPS) - (LOWPASS_TAPS - 1) / 2
    cutoff = 7200 / rate
    h = 2 * cutoff * np.sinc(2 * cutoff * taps) * np.hamming(LOWPASS_TAPS)
    return (h / h.sum()).astype(np.float32)
