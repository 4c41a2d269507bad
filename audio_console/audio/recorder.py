"""--record FILE.wav: everything the engine played, sample-exact, on the session's timeline.

The mixer's blocks are handed over from the audio thread through a queue and
written by a thread of their own (no file I/O in the real-time callback). The
silences between sounds (the player thinking) are kept, as counts of silent frames
written out as zeros, so the recording lasts as the session did from its first
sound to its last and is what the player heard. With a device they are counted by
the clock (played()): a block that came late, the machine busy, left the device
silent meanwhile, and that silence is in the file too; the silence before the first sound
and after the last is left out. Samples are the mixer's output after volume, as
16-bit stereo PCM at the engine's sample rate.

The file is a valid WAV from the start: the header is written when it is opened and
its lengths are brought up to date about every second, so a kill, or a disk that
fills up, leaves a WAV of what was written. A write that fails is said once
(`notify`), the rest is not recorded, and play goes on; end_line() says it again when
the session ends. A named pipe is opened without blocking (one nobody reads is said
at once, never waited for) and streamed to, its header unpatched; a block device is
refused (a recording must never overwrite a disk).
"""
from __future__ import annotations

import errno
import os
import queue
import stat
import struct
import threading
import wave
from pathlib import Path
from typing import Callable

import numpy as np

from audio_console.base.files import FILE_OR_STREAM, open_to_write, reason

CHANNELS, WIDTH = 2, 2
FRAME = CHANNELS * WIDTH
HEADER = 44
MAX_DATA = 0xFFFFFFFF - HEADER - 8 - FRAME     # the WAV format's 32-bit lengths (about 6 hours)
PATCH_EVERY = 1.0                              # seconds of audio between header updates
LATE = 0.05      # seconds a device's block may come late, after an underflow, before the gap is silence
SURELY_LATE = 0.25   # ... and without one (a device that does not report its underflows)
MAX_BACKLOG = 12_000   # blocks waiting for the writer at most (a minute of sound; a pipe nobody empties)
SETTLED = 50     # blocks before that clock counts: PulseAudio takes its first few, then waits about 2 s


def to_int16(block: np.ndarray) -> np.ndarray:
    """Float -1..1 to 16-bit PCM, the way the recorder stores it."""
    return np.round(np.clip(block, -1.0, 1.0) * 32767).astype("<i2")


def wav_header(sample_rate: int, data_bytes: int) -> bytes:
    return (b"RIFF" + struct.pack("<I", HEADER - 8 + data_bytes) + b"WAVEfmt "
            + struct.pack("<IHHIIHH", 16, 1, CHANNELS, sample_rate, sample_rate * FRAME, FRAME, 8 * WIDTH)
            + b"data" + struct.pack("<I", data_bytes))


def failure(path: str | Path, error: OSError) -> str:
    return f"The recording cannot be written: {reason(error)} ({path})"


def not_recorded(path: str | Path, error: OSError) -> str:
    """The session's last line when the file could not be made."""
    return f"Nothing was recorded: {reason(error)} ({path})."


class WavRecorder:
    """Raises OSError when the file cannot be made (failure() words it for the player)."""

    def __init__(self, path: str | Path, sample_rate: int, notify: Callable[[str], None] = print):
        self.path = Path(path)
        self.sample_rate = sample_rate
        self._notify = notify
        # No folder is made: a mistyped path is said at once, not recorded somewhere unexpected.
        self._fd = open_to_write(self.path, kinds=FILE_OR_STREAM)     # never a disk
        try:
            self._seekable = stat.S_ISREG(os.fstat(self._fd).st_mode)
            if self._seekable:       # truncated only now: the descriptor is a regular file's
                os.ftruncate(self._fd, 0)
            # a stream's header cannot be patched: it claims the most a WAV holds
            if os.write(self._fd, wav_header(sample_rate, 0 if self._seekable else MAX_DATA)) != HEADER:
                raise OSError(errno.ENOSPC, "no space for the header")
        except OSError:
            os.close(self._fd)
            raise
        self.data_bytes = 0
        self._patched = 0
        self.failed = False
        self.problem = ""           # why the writing failed, in plain words
        self._started = False       # silence counts only after the first sound
        self._gap = 0               # silent frames since the last sound (audio thread only)
        self._clock_start = 0.0      # played(): when the device's first frame played, by its clock,
        self._clock_frames = 0       # the frames it has played since,
        self._clock_blocks = 0       # and the blocks
        self._blocks: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._write_loop, name="audio-recorder", daemon=True)
        self._thread.start()

    @property
    def frames_written(self) -> int:
        return self.data_bytes // FRAME

    # --- called from the audio thread (or the virtual clock): must not block ---
    def add(self, block: np.ndarray) -> None:
        """A block in which something sounded; the silence before it goes in first."""
        if self.failed:
            return
        if self._blocks.qsize() > MAX_BACKLOG:    # the file takes the sound slower than it comes
            self.failed, self.problem = True, "the file takes the sound too slowly"
            self._tell()
            return
        if self._gap:
            self._blocks.put(self._gap)
            self._gap = 0
        self._started = True
        self._blocks.put(to_int16(block).tobytes())

    def add_silence(self, frames: int) -> None:
        """Frames in which nothing sounded: kept if another sound follows."""
        if self._started:
            self._gap += max(0, int(frames))

    def played(self, block: np.ndarray | None, frames: int, now: float, underflow: bool = False) -> None:
        """A device's block of frames (None: silent), given at now (time.monotonic()).
        A block that came late (the machine was busy: an underrun) left the device
        silent meanwhile; that silence is recorded too, so the file keeps the output's
        clock, not only the count of blocks rendered. Only a lag the device reported
        (underflow), or one too long to be jitter, is silence: a gap in a sound the
        player never heard would be worse than a pause a little short."""
        self._clock_blocks += 1
        if self._clock_blocks <= SETTLED:        # the clock starts once the device runs steadily
            self._clock_start = now - self._clock_frames / self.sample_rate
        lag = round((now - self._clock_start) * self.sample_rate) - self._clock_frames
        if lag > (LATE if underflow else SURELY_LATE) * self.sample_rate:
            self.add_silence(lag)
            self._clock_frames += lag
        self._clock_frames += frames
        if block is None:
            self.add_silence(frames)
        else:
            self.add(block)

    # --- the writer thread ---
    def _write_loop(self) -> None:
        zeros = bytes(FRAME * self.sample_rate)
        while True:
            item = self._blocks.get()
            if item is None:
                return
            if self.failed:
                continue
            try:
                if isinstance(item, int):
                    for start in range(0, item * FRAME, len(zeros)):
                        self._write_data(zeros[:min(len(zeros), item * FRAME - start)])
                else:
                    self._write_data(item)
            except OSError as error:
                self._fail(error)

    def _write_data(self, data: bytes) -> None:
        if self.data_bytes + len(data) > MAX_DATA:
            raise OSError(errno.EFBIG, "the file holds at most about 6 hours of sound")
        view = memoryview(data)
        while view:          # a short write (the disk filling up) is counted, then the error comes
            written = os.write(self._fd, view)
            self.data_bytes += written
            view = view[written:]
        if self._seekable and self.data_bytes - self._patched >= PATCH_EVERY * self.sample_rate * FRAME:
            self._patch()

    def _fail(self, error: OSError) -> None:
        first = not self.failed      # (it may have stopped already: a writer that fell behind)
        self.failed = True
        self.problem = self.problem or reason(error)
        # A partly written frame is cut off; the header then says what the file holds.
        self.data_bytes -= self.data_bytes % FRAME
        try:
            if self._seekable:
                os.ftruncate(self._fd, HEADER + self.data_bytes)
            self._patch()
        except OSError:
            pass
        if first:
            self._tell()

    def _tell(self) -> None:
        self._notify(f"The recording cannot be written: {self.problem} ({self.path}); "
                     "the game goes on, the rest is not recorded.")

    def end_line(self) -> str | None:
        """What the session's last line says of a recording that failed (None: it did not)."""
        if not self.failed:
            return None
        held = self.frames_written / self.sample_rate
        return f"The recording holds only its first {held:.0f} s: {self.problem} ({self.path})."

    def _patch(self) -> None:
        """Bring the header's lengths up to date (it is already there: no disk space needed)."""
        if not self._seekable:
            return
        os.pwrite(self._fd, struct.pack("<I", HEADER - 8 + self.data_bytes), 4)
        os.pwrite(self._fd, struct.pack("<I", self.data_bytes), 40)
        self._patched = self.data_bytes

    def close(self) -> None:
        if self._thread.is_alive():
            self._blocks.put(None)
            self._thread.join(timeout=10)
        try:
            self._patch()           # after a failure too: the header says what the file holds
        except OSError as error:
            if not self.failed:
                self._fail(error)
        finally:
            try:
                os.close(self._fd)
            except OSError:
                pass


def read_wav(path: str | Path) -> tuple[np.ndarray, int]:
    """A 16-bit WAV file as int16 (n, channels) and its sample rate (for tests and tools)."""
    with wave.open(str(path), "rb") as wav:
        data = np.frombuffer(wav.readframes(wav.getnframes()), "<i2")
        return data.reshape(-1, wav.getnchannels()), wav.getframerate()
