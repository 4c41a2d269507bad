"""The microphone as a queue of raw 16 kHz mono int16 blocks.

PortAudio's callback only queues (its thread must never wait); the listener's worker
takes the blocks. A microphone that sends nothing for a while has stopped: the
listener says so and calls reopen() every few seconds until it is back. One that sends
only zeros is muted (SilenceWatch): the listener says that once.
"""
from __future__ import annotations

import queue

from audio_console.voice.frames import FRAME_BYTES

MIC_SILENT = 1.5             # seconds without a frame from the microphone: it stopped
MIC_FIRST = 8.0              # ... before its first frame (it opens while the model loads)
MUTED_AFTER = 8.0            # seconds of digital silence (every sample 0) before the player is told


class Microphone:
    def __init__(self, device=None, open_stream=None):
        self.device = device
        self._open_stream = open_stream or self._open_device   # (callback) -> started stream
        self.frames: queue.Queue = queue.Queue(maxsize=2000)
        self.stream = None

    def open(self) -> None:
        """Start the stream (raises what the device raises) with an empty queue:
        nothing is left over from an earlier start and stop."""
        self.stream = self._open_stream(self._on_audio)
        self.frames = queue.Queue(maxsize=2000)

    def reopen(self) -> None:
        """Close the stream and try to open it again (the queue is kept); a device
        still gone leaves no stream, and the next attempt comes later."""
        self.close()
        try:
            self.stream = self._open_stream(self._on_audio)
        except Exception:  # noqa: BLE001 - still gone: try again later
            self.stream = None

    def close(self) -> None:
        stream, self.stream = self.stream, None
        if stream is not None:
            try:
                stream.stop()
                stream.close()
            except Exception:  # noqa: BLE001 - a device that vanished is closed anyway
                pass

    def next_block(self, first: bool = False):
        """The next block; "" when none came for MIC_SILENT seconds (MIC_FIRST for the
        first block: a microphone still opening has not stopped); None: stop."""
        try:
            return self.frames.get(timeout=MIC_FIRST if first else MIC_SILENT)
        except queue.Empty:
            return ""

    def wake(self) -> None:
        """Make the worker's next_block() return None: the listener is stopping."""
        self.frames.put(None)

    def _open_device(self, callback):
        import sounddevice as sd
        stream = sd.RawInputStream(samplerate=16000, channels=1, dtype="int16",
                                   blocksize=FRAME_BYTES // 2, device=self.device, callback=callback)
        stream.start()
        return stream

    def _on_audio(self, indata, frames, time_info, status) -> None:
        """PortAudio's thread: queue only."""
        try:
            self.frames.put_nowait(bytes(indata))
        except queue.Full:
            pass   # the worker is far behind: dropping audio beats growing without bound


class SilenceWatch:
    """Digital silence: a real microphone always hears a little noise, so seconds of
    samples that are all exactly 0 mean a muted or disconnected input (PulseAudio's
    mute sends zeros, and the listener would wait for ever). True from push() once,
    after MUTED_AFTER seconds of it; never again, as a microphone with a noise gate
    also sends zeros between words and must not be warned about all game."""

    def __init__(self):
        self.limit = int(MUTED_AFTER * 32000)   # bytes of 16 kHz int16
        self.zeros = 0
        self.told = False

    def push(self, block: bytes, counting: bool = True) -> bool:
        """`counting` False (the console sounding, or no prompt yet): the zeros so far
        are forgotten, so the warning needs MUTED_AFTER seconds of a fair chance."""
        if self.told:
            return False
        if block.strip(b"\x00") or not counting:
            self.zeros = 0
            return False
        self.zeros += len(block)
        self.told = self.zeros >= self.limit
        return self.told
