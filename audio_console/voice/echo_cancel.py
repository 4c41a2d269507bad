"""Barge-in: the console's own sound taken out of the microphone, so it can listen
while it speaks.

The engine keeps what it plays (audio/echo_reference.py); for every microphone frame
the listener reads as much of it and WebRTC's echo canceller (AEC3, pywebrtc-audio,
on Linux, Windows and macOS alike) subtracts the echo it finds of it, however the
room and the buffers delay it. What is left is the player. Per frame the levels
before and after are kept, so that an utterance made of the console's own echo that
the canceller could not take out (heard as "its own words") is known for what it is:
`echo_only(frames)`. docs/listen.md says what was measured.
"""
from __future__ import annotations

from collections import deque

import numpy as np

FRAME_LOG = 400               # frames (30 ms) of levels kept: 12 s, longer than an utterance
ECHO_ACTIVE_DB = -50.0        # the reference louder than this (dBFS) in a frame: the console sounded
# an utterance the canceller took this many dB out of (over the frames the console
# sounded in) was its own echo, not a person: a person adds sound the reference
# does not explain, and so little is taken out.
ECHO_ONLY_REMOVED_DB = 10.0


def available() -> bool:
    try:
        import pywebrtc_audio  # noqa: F401
    except ImportError:
        return False
    return True


class EchoCanceller:
    """Cleans 16 kHz int16 microphone blocks against the console's output."""

    def __init__(self, reference, cancel: bool = True):
        """`cancel` False: the sound server took the echo out already
        (server_echo_cancel.py); only the levels are kept."""
        self._aec = None
        if cancel:
            from pywebrtc_audio import EchoCanceller as Aec3
            self._aec = Aec3(sample_rate=16000, num_channels=1)
        self._reader = reference.reader()
        self.levels: deque = deque(maxlen=FRAME_LOG)   # per frame: (reference, raw, cleaned) power

    def clean(self, block: bytes, queued: int = 0) -> bytes:
        """The block with the console's echo taken out. `queued`: microphone samples
        waiting behind this block."""
        near = np.frombuffer(block[: len(block) - len(block) % 2], "<i2")
        if not len(near):
            return block
        far = self._reader.read(len(near), queued)
        far16 = (np.clip(far, -1, 1) * 32767).astype(np.int16)
        out = self._aec.process(near, far16) if self._aec is not None else near
        self.levels.append((_power(far16), _power(near), _power(out)))
        return out.astype("<i2").tobytes()

    def echo_only(self, frames: int) -> bool:
        """Whether the last `frames` frames' sound was the console's own echo: the
        console sounded in them and the canceller removed most of what was heard."""
        recent = list(self.levels)[-frames:] if frames > 0 else []
        sounding = [(raw, cleaned) for far, raw, cleaned in recent if _db(far) > ECHO_ACTIVE_DB]
        if len(sounding) < max(1, len(recent) // 3):
            return False
        raw = sum(r for r, _ in sounding)
        cleaned = sum(c for _, c in sounding)
        return _db(raw) - _db(cleaned) >= ECHO_ONLY_REMOVED_DB

    def removed_db(self, frames: int) -> float:
        """dB taken out over the last `frames` frames (for the trace and benchmarks)."""
        recent = list(self.levels)[-frames:]
        return round(_db(sum(r for _, r, _ in recent)) - _db(sum(c for _, _, c in recent)), 1)

    def levels_db(self, frames: int) -> dict:
        """The last `frames` frames' levels (dBFS) for the trace: the console's output
        (the reference), the microphone as heard and as cleaned, and how many of the
        frames the console sounded in; where a missed command was drowned."""
        recent = list(self.levels)[-frames:] if frames > 0 else []
        n = max(1, len(recent))
        return {"reference_db": round(_db(sum(f for f, _, _ in recent) / n), 1),
                "raw_db": round(_db(sum(r for _, r, _ in recent) / n), 1),
                "cleaned_db": round(_db(sum(c for _, _, c in recent) / n), 1),
                "sounding": sum(_db(f) > ECHO_ACTIVE_DB for f, _, _ in recent)}


def _power(x: np.ndarray) -> float:
    y = x.astype(np.float32) / 32768.0
    return float(np.mean(y * y)) if len(y) else 0.0


def _db(power: float) -> float:
    return 10 * np.log10(power + 1e-12)


HOLD_AT_MOST = 2.5            # seconds: a command is shorter; longer is talk, and the console goes on
# while the console sounds, sound less than this over the room's is the canceller's
# leftover of its voice, not a player, whose word is far louder over the room
# (docs/measurements/voice-constants.md). A hold missed only costs time: acting on
# the word cuts the line.
LEFTOVER_UNDER_DB = 25.0
ONSET_FRAMES = 6              # the frames that began the utterance, checked for being the console's echo
# ... and, when they were faint, the last frames of the utterance that must be this
# loud over the room to hold it after all: two frames (one of the canceller's leftover
# reached 25 dB with nobody talking), 30 dB (two of its leftover reached 25.5 dB; a
# stop's vowel through the canceller is over 30 dB; voice-constants.md)
LOUD_FRAMES = 2
LOUD_OVER_ROOM_DB = 30.0


class Hold:
    """The console falls silent as soon as the player begins to speak over it, and
    goes on from where it was if what was said turns out not to be for it (dropped
    as noise, echo or background talk); anything passed to the session cuts the
    speech off there (its barge-in), so the player's "stop" silences it at the
    onset of the word, not after it was understood."""

    def __init__(self, sink, canceller: EchoCanceller, room_db=lambda: None, trace=lambda event, **fields: None):
        self.sink, self.canceller, self.room_db, self.trace = sink, canceller, room_db, trace
        self.since: float | None = None
        self.began_over = False       # the utterance in progress began while the console sounded
        self._pending = False         # ... and was not held at its onset: its louder frames may be

    def onset(self, now: float) -> None:
        """Speech began: hold the console's sound if it is sounding and the onset was
        not its own echo nor faint (then each louder frame of the utterance is
        weighed again: `louder`)."""
        self.began_over = self.sink.busy()
        self._pending = self.began_over
        if self._try(now, ONSET_FRAMES):
            return
        if self._pending:
            self.trace("onset over the console not held (its echo, or faint)", room_db=self.room_db(),
                       onset_db=self.canceller.levels_db(ONSET_FRAMES)["cleaned_db"])

    def louder(self, now: float) -> bool:
        """A frame of the utterance in progress: held as soon as the last LOUD_FRAMES
        are LOUD_OVER_ROOM_DB over the room (True: held now). While the console speaks the canceller takes out what of
        the word is under its voice (the "st" of "stop"), and the onset is often that
        faint part, or the canceller's leftover of the console's voice just before
        the word; the vowel that follows is as loud as said
        (docs/measurements/voice-constants.md)."""
        if not (self._pending and self._try(now, LOUD_FRAMES, LOUD_OVER_ROOM_DB)):
            return False
        self.trace("held when the word grew loud", room_db=self.room_db(),
                   frames_db=self.canceller.levels_db(LOUD_FRAMES)["cleaned_db"])
        return True

    def ended(self) -> None:
        """The utterance ended: nothing more to weigh."""
        self._pending = False

    def _try(self, now: float, frames: int, over_room: float = LEFTOVER_UNDER_DB) -> bool:
        """Hold now, if the console sounds and the last `frames` frames are neither its
        echo nor under `over_room` dB over the room; whether it held."""
        hold = getattr(self.sink, "hold", None)
        if hold is None or self.since is not None or not self.sink.busy():
            self._pending = False
            return False
        if self.canceller.echo_only(ONSET_FRAMES):
            self._pending = False
            return False
        if self._faint(frames, over_room):
            return False
        hold(True)
        self.since, self._pending = now, False
        return True

    def _faint(self, frames: int = ONSET_FRAMES, over_room: float = LEFTOVER_UNDER_DB) -> bool:
        """The last `frames` frames are under `over_room` dB over the room (`room_db()`,
        dBFS or None): what the canceller left of the console's voice; a player speaks
        30 dB and more over it."""
        room = self.room_db()
        return room is not None and self.canceller.levels_db(frames)["cleaned_db"] - room < over_room

    @property
    def holding(self) -> bool:
        """The console's sound is held: the utterance in progress began over it."""
        return self.since is not None

    def release(self, now: float | None = None) -> None:
        """Go on speaking: the utterance was dropped, or (with `now`) HOLD_AT_MOST has
        passed (talk; or the session has cut the speech off by then: nothing to go on with)."""
        if self.since is not None and (now is None or now - self.since > HOLD_AT_MOST):
            self.since = None
            self.sink.hold(False)
