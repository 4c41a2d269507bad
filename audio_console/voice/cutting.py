"""The cutting stage: frames in, utterances out, through the VAD cutter (vad.VadCutter:
a neural voice detector and the level over the room's background, so that people
talking nearby do not hold an utterance open).

Beside the cutter it holds the console's sound at the onset of speech over it
(barge-in, echo_cancel.Hold), tells the player once when utterances keep running to
the length cap (a room too talkative: push to talk is offered), and traces a voice
too quiet to begin an utterance.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from audio_console.voice.frames import FRAME_SECONDS
from audio_console.voice.vad import PRE_ROLL

# Silence (seconds) after which an utterance ends: long enough to keep "delta ... five"
# said with a half-second pause whole; the early guess hides most of the wait
# (docs/measurements/voice-constants.md).
ENDPOINT_WINDOW = 0.45
# The quick guess that speech ended (the cutter's `early`): decoded at once, acted on
# at once when it is a sure, complete command, else used when the full window
# confirms it with no speech in between.
EARLY_WINDOW = 0.18
OVERRUNS_TO_GIVE_UP = 2      # utterances in a row that ran to the cap: offer push-to-talk
TRACE_QUIET_FRAMES = 33      # the trace looks for a voice too quiet to start every second
TRACE_QUIET_MIN = 3          # ... and says so from this many frames of it
TRACE_QUIET_WITHIN = 6.0     # ... within this many dB of the level needed (not chatter far off)

TOO_MUCH_TALK = "Too much talk around me to hear you: say push to talk, or press Enter to talk."


def vad_cutter(window: float = ENDPOINT_WINDOW, console_heard: Callable[[], bool] | None = None):
    """The cutter play uses: the VAD cutter, with the early guess. `console_heard()`:
    the console's own sound reaches the microphone now (its frames are not the room's)."""
    from audio_console.voice.vad import SpeechFrames, VadCutter
    return VadCutter(window, early_window=EARLY_WINDOW, frames=SpeechFrames(console_heard=console_heard))


@dataclass
class CutState:
    counted: int = 0           # frames since the trace last looked for a quiet voice
    overruns: int = 0          # utterances in a row that ran to the length cap
    overruns_seen: int = 0     # the cutter's count of them when last looked at


class Cutting:
    """One cutter's frames and what goes with them. `hold` is the barge-in hold (None:
    no echo canceller or no barge-in); `too_much_talk()` tells the player (once)."""

    def __init__(self, cutter, hold, trace, too_much_talk: Callable[[], None],
                 restarted: Callable[[], None] = lambda: None):
        """`restarted()`: the utterance in progress lost its start (its decoding so far is void)."""
        self.cutter, self.hold, self.trace, self.too_much_talk = cutter, hold, trace, too_much_talk
        self.restarted = restarted
        self.frames = getattr(cutter, "frames", None)   # the VAD cutter's levels of the room
        self.state = CutState()

    def room_db(self) -> float | None:
        """The room's background level, when the cutter knows it."""
        return round(self.frames.background, 1) if self.frames is not None else None

    def push(self, frame: bytes) -> tuple[bytes | None, bool]:
        """(The utterance that just ended, or None; whether speech began with this frame)."""
        cutter, hold = self.cutter, self.hold
        was_speaking = cutter.in_speech
        utterance = cutter.push(frame)
        if hold is not None:
            hold.release(time.monotonic())   # held too long: talk, go on
        began = cutter.in_speech and not was_speaking
        if began:
            self.trace("speech began", room_db=self.room_db())
            if hold is not None:
                hold.onset(time.monotonic())
        elif hold is not None and cutter.in_speech:
            if hold.louder(time.monotonic()) and hasattr(cutter, "keep_from_strong"):
                # held only now that the word grew loud: what came before its first
                # frame over the leftover's level is the canceller's leftover of the
                # console's voice, which Whisper writes as words ("5. Big light is
                # stomp."); the word's start (a pre-roll) is kept
                cutter.keep_from_strong(round(PRE_ROLL / FRAME_SECONDS))
                self.restarted()
        elif hold is not None:
            hold.ended()
        self._count_overruns(utterance)
        self.state.counted += 1
        if self.frames is not None and self.state.counted >= TRACE_QUIET_FRAMES:
            self.state.counted = 0
            self._trace_quiet_voice(self.frames)
        return utterance, began

    def _count_overruns(self, utterance) -> None:
        """Utterances in a row that ran to the length cap; at OVERRUNS_TO_GIVE_UP the
        player is told that the room is too talkative, and offered push to talk."""
        state = self.state
        now = getattr(self.cutter, "overruns", 0)
        if utterance:
            state.overruns_seen, state.overruns = now, 0
            return
        if now != state.overruns_seen:
            state.overruns_seen = now
            self.trace("too long: dropped as background talk")
            state.overruns += 1
            if state.overruns >= OVERRUNS_TO_GIVE_UP:
                self.too_much_talk()

    def _trace_quiet_voice(self, frames) -> None:
        """A voice the detector heard but too quiet against the room to begin an
        utterance: a player speaking too softly, or far from the microphone."""
        quiet, loudest = frames.take_too_quiet()
        if quiet >= TRACE_QUIET_MIN and loudest > -TRACE_QUIET_WITHIN:
            self.trace("voice too quiet to begin an utterance", frames=quiet,
                       loudest_db_under_needed=round(-loudest, 1), room_db=self.room_db())
