"""The worker's heartbeat in the voice trace: every few seconds, how far it runs
behind the microphone, how loud what it took was, the voice detector's highest
probability and the room's level then. A gap in the heartbeats means the worker
itself was held up (a decode, a lock), not that nothing was said; a heartbeat with
few frames or only the floor's level means the stream sent nothing; loud frames
that the detector never called voiced, or a room's level far over the floor while
the console speaks, mean the cutter could not begin an utterance."""
from __future__ import annotations

import math
import time
from array import array
from typing import Callable

EVERY = 5.0                  # seconds between heartbeats
FLOOR_DB = -120.0


class Heartbeat:
    """`probability()`: the voice detector's verdict on the frame just cut (0-1);
    `state()`: more fields for the trace (the room's level, ...)."""

    def __init__(self, trace: Callable[..., None], probability: Callable[[], float] = lambda: 0.0,
                 state: Callable[[], dict] = dict, every: float | None = None):
        self.trace, self.probability, self.state = trace, probability, state
        self.every = EVERY if every is None else every
        self.since = time.monotonic()
        self.frames, self.loudest, self.voice = 0, 0, 0.0

    def push(self, frame: bytes, captured_at: float) -> None:
        """One frame the worker took (`captured_at`: when the microphone captured it)."""
        self.frames += 1
        samples = array("h", frame)
        self.loudest = max(self.loudest, max(samples, default=0), -min(samples, default=0))
        self.voice = max(self.voice, self.probability())
        now = time.monotonic()
        if now - self.since < self.every:
            return
        level = 20 * math.log10(self.loudest / 32768) if self.loudest else FLOOR_DB
        self.trace("listening", frames=self.frames, seconds=round(now - self.since, 2),
                   behind=round(now - captured_at, 2), peak_db=round(level, 1),
                   voice=round(self.voice, 2), **self.state())
        self.since, self.frames, self.loudest, self.voice = now, 0, 0, 0.0
