"""The mixer: what plays now, what plays next, rendered block by block.

The engine's output callback (or, without a device, its virtual clock) asks
`Mixer.render(frames)` for the next block. Sounds in the queue play one after
the other, each starting on the sample after the previous one ends (a message's
signal, then its speech); sounds added with overlap=True play at once, on top.
A queued sound may still be waiting for its samples (speech being rendered):
the queue waits for it, in order. Each sound is of a kind, "speech" or "signal",
and plays at its kind's volume (the player sets the two apart).

Everything here runs under one lock, briefly: render() is called from the
real-time audio thread and must never wait for long.
"""
from __future__ import annotations

import threading
import time
from collections import deque

import numpy as np

STOP_FADE = 0.005   # seconds: stop() fades out this fast instead of clicking
SOUNDED_KEPT = 16   # sounds remembered after they played (what the console just said: voice/own_words.py)


class Sound:
    """One thing to play. `samples` is float32 (n, 2), or None while being rendered."""

    __slots__ = ("label", "kind", "samples", "pos", "cancelled", "first_sample_at", "ended_at", "ended")

    def __init__(self, label: str, samples: np.ndarray | None = None, kind: str = "signal"):
        self.label = label
        self.kind = kind             # "speech" or "signal": which volume it plays at
        self.samples = samples
        self.pos = 0
        self.cancelled = False
        self.first_sample_at: float | None = None   # perf_counter() when its first sample was mixed
        self.ended_at: float | None = None          # ... and when its last was, or it was cut
        self.ended = threading.Event()

    @property
    def ready(self) -> bool:
        return self.samples is not None

    def finish(self, now: float) -> None:
        self.ended_at = now
        self.ended.set()


class Mixer:
    def __init__(self, sample_rate: int, volumes: dict[str, float] | None = None):
        self.sample_rate = sample_rate
        self.volumes = dict(volumes or {})   # kind -> 0..1; a kind not named plays at 1
        self._queue: deque[Sound] = deque()
        self._layers: list[Sound] = []
        self._tail: np.ndarray | None = None   # the fade-out after stop(): plays, but is not "busy"
        self._sounded: deque[Sound] = deque(maxlen=SOUNDED_KEPT)   # the last sounds that began to play
        self.held = False     # hold(): silent where it is, until released or cleared (barge-in)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)

    # --- called by the engine (any thread) ---
    def add(self, sound: Sound, overlap: bool = False) -> None:
        with self._lock:
            (self._layers.append if overlap else self._queue.append)(sound)
            self._changed.notify_all()

    def fill(self, sound: Sound, samples: np.ndarray) -> None:
        """Give a waiting sound its samples (speech has been rendered)."""
        with self._lock:
            sound.samples = samples
            self._changed.notify_all()

    def clear(self) -> None:
        """Cut everything off, with a few milliseconds' fade so it does not click."""
        with self._lock:
            self._fade_out()
            now = time.perf_counter()
            for sound in list(self._queue) + self._layers:
                sound.cancelled = True
                sound.finish(now)
            self._queue.clear()
            self._layers.clear()
            self.held = False
            self._changed.notify_all()

    def _fade_out(self) -> None:
        """(Under the lock.) The next few milliseconds of what is sounding, faded to
        nothing, become the tail that plays after a cut (nothing sounds while held)."""
        if self.held:
            return
        fade_frames = int(STOP_FADE * self.sample_rate)
        tail = np.zeros((fade_frames, 2), np.float32)
        playing = ([self._queue[0]] if self._queue and self._queue[0].ready else []) + self._layers
        for sound in playing:
            if sound.samples is None:     # an overlapping sound still rendering
                continue
            chunk = self._scaled(sound, sound.samples[sound.pos:sound.pos + fade_frames])
            if sound.pos > 0 and len(chunk):
                tail[:len(chunk)] += chunk
        if tail.any():
            tail *= np.linspace(1, 0, fade_frames, dtype=np.float32)[:, None]
            self._tail = tail

    def keep_last(self) -> None:
        """Cut everything but the last queued sound (the goodbye at quit): a backlog
        of earlier lines is not played out in real time."""
        with self._lock:
            if len(self._queue) <= 1 and not self._layers:
                return
            last = self._queue.pop() if self._queue else None
        self.clear()
        if last is not None:
            self.add(last)

    def hold(self, on: bool) -> None:
        """Fall silent at once where it is (on=True) and go on from there (False): the
        player began to speak over the console; what they said decides (clear() or go on)."""
        with self._lock:
            if on:
                self._fade_out()
            self.held = on
            self._changed.notify_all()

    def sounded_within(self, seconds: float, kind: str) -> list[str]:
        """The labels of the sounds of `kind` playing at some time in the last `seconds`."""
        since = time.perf_counter() - seconds
        with self._lock:
            return [s.label for s in self._sounded if s.kind == kind and (s.ended_at is None or s.ended_at >= since)]

    def idle(self) -> bool:
        with self._lock:
            return not self._queue and not self._layers

    def fading(self) -> bool:
        """True while the fade-out after stop() is still playing."""
        with self._lock:
            return self._tail is not None

    def wait_until_idle(self, timeout: float | None = None) -> bool:
        with self._lock:
            return self._changed.wait_for(lambda: not self._queue and not self._layers, timeout)

    def wait_for_work(self, timeout: float) -> bool:
        """True when something is ready to play (for the virtual clock). The fade-out
        of a hold or a cut is work even while held; a sound still rendering is not."""
        with self._lock:
            return self._changed.wait_for(self._has_work, timeout)

    def _has_work(self) -> bool:
        if self._tail is not None:
            return True
        if self.held:
            return False
        return any(s.ready for s in self._layers) or (bool(self._queue) and self._queue[0].ready)

    # --- called by the audio thread ---
    def render(self, frames: int) -> tuple[np.ndarray, bool]:
        """The next block, float32 (frames, 2), and whether any sound was in it."""
        out = np.zeros((frames, 2), np.float32)
        active = False
        now = time.perf_counter()
        with self._lock:
            if self.held:   # only the fade-out of where it was held
                return out, self._play_tail(out, frames)
            filled = 0
            while filled < frames and self._queue:
                sound = self._queue[0]
                samples = sound.samples
                if samples is None:           # speech still rendering: the queue waits for it
                    break

                take = min(frames - filled, len(samples) - sound.pos)
                if take > 0:
                    if sound.pos == 0:
                        sound.first_sample_at = now
                        self._sounded.append(sound)
                    out[filled:filled + take] += self._scaled(sound, samples[sound.pos:sound.pos + take])
                    sound.pos += take
                    filled += take
                    active = True
                if sound.pos >= len(samples):
                    self._queue.popleft()
                    sound.finish(now)
            for sound in list(self._layers):
                samples = sound.samples
                if samples is None:           # speech on top still rendering: it starts when ready
                    continue
                take = min(frames, len(samples) - sound.pos)
                if take > 0:
                    if sound.pos == 0 and sound.first_sample_at is None:
                        sound.first_sample_at = now
                        self._sounded.append(sound)
                    out[:take] += self._scaled(sound, samples[sound.pos:sound.pos + take])
                    sound.pos += take
                    active = True
                if sound.pos >= len(samples):
                    self._layers.remove(sound)
                    sound.finish(now)
            active = self._play_tail(out, frames) or active
            if not self._queue and not self._layers:
                self._changed.notify_all()
        if active:
            np.clip(out, -1.0, 1.0, out=out)
        return out, active

    def _scaled(self, sound: Sound, chunk: np.ndarray) -> np.ndarray:
        volume = self.volumes.get(sound.kind, 1.0)
        return chunk if volume == 1.0 else chunk * np.float32(volume)

    def _play_tail(self, out: np.ndarray, frames: int) -> bool:
        """(Under the lock.) Mix the fade-out after a cut into `out`; True if any."""
        if self._tail is None:
            return False
        take = min(frames, len(self._tail))
        out[:take] += self._tail[:take]
        self._tail = self._tail[take:] if take < len(self._tail) else None
        return True
