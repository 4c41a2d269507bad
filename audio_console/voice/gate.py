"""Which frames reach the cutter: push to talk (only while the key is held), and the
console's own sound.

Without the echo canceller (and without headphones) the microphone is closed while
the console sounds (sink.busy(), and ECHO_TAIL after), so the console never hears
itself. When it closes on the player's speech, the player is told at the reopening
("I was speaking: say it again."); when it reopens the player hears a short cue; and
an utterance that began before the reopening (its start was lost) is not decoded.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from audio_console.voice.frames import BYTES_PER_SECOND, FRAME_SECONDS

ECHO_TAIL = 0.3              # seconds still ignored after the console falls silent
REOPEN_CUT = 0.15            # speech found this soon after the microphone reopened began before
CUT_MIN_SPEECH = 0.4         # seconds of an utterance the console's sound must cut to say so
REOPENED_FOR = 1.0           # seconds after the reopening that speech is checked for a lost start
SHORTEST_TALK = 0.15         # seconds: a shorter push to talk is a slip of the key

SAY_AGAIN_CUT = "I was speaking: say it again."
LISTENING_AGAIN = "Listening."


@dataclass
class GateState:
    deaf: bool = False               # the microphone is closed for the console's sound
    cut_by_console: bool = False     # ... and that cut the player's utterance
    said_cut: bool = False           # ... which the player was told at the reopening
    reopened_frames: int | None = None   # frames since the microphone reopened (None: long ago)
    began_cut: bool = False          # the utterance in progress began before the reopening
    quiet_until: float = 0.0         # the echo tail ends
    cue_until: float = 0.0           # the listening cue ends (it is not the console talking)


class ConsoleSound:
    """The microphone closed while the console sounds, and what follows its reopening.
    `forget()` drops whatever the decoding stage holds of the utterance in progress;
    `notice` gets what the player must hear, `notify` the cue's text line."""

    def __init__(self, settings, sink, echo, cutter, trace, notice: Callable[[str], None],
                 notify: Callable[[str], None], forget: Callable[[], None], cue: bool = True):
        self.settings, self.sink, self.echo, self.cutter = settings, sink, echo, cutter
        self.trace, self.notice, self.notify, self.forget = trace, notice, notify, forget
        self.cue = cue     # the listening cue when the microphone reopens
        self.state = GateState()

    @property
    def start_lost(self) -> bool:
        """The utterance in progress began before the microphone reopened."""
        return self.state.began_cut

    def admits(self) -> bool:
        """Whether this frame is heard (False: the console is sounding)."""
        state = self.state
        if self._deaf():
            if not state.deaf:
                self._close()
            return False
        if state.deaf:
            self._reopen()
        if state.reopened_frames is not None:
            state.reopened_frames += 1
        return True

    def after_frame(self, speech_began: bool) -> None:
        """The cutter took the frame: speech that begins this soon after the reopening
        was already going on (its start was lost)."""
        state = self.state
        reopened = state.reopened_frames
        if speech_began:
            state.began_cut = reopened is not None and reopened * FRAME_SECONDS <= REOPEN_CUT + 0.15
        if reopened is not None and reopened * FRAME_SECONDS > REOPENED_FOR:
            state.reopened_frames = None

    def drops(self, utterance: bytes) -> bool:
        """An utterance whose start was lost is not decoded; the player is told once
        (not again if just told for the cut)."""
        state = self.state
        if not state.began_cut:
            return False
        self.trace("began before the microphone reopened", seconds=round(len(utterance) / BYTES_PER_SECOND, 2))
        state.began_cut = False
        if not state.said_cut:
            self.notice(SAY_AGAIN_CUT)
        state.said_cut = False
        return True

    def _deaf(self) -> bool:
        """True while the console itself is making sound (and a short echo after)."""
        now, state = time.monotonic(), self.state
        if not self.settings.headphones and self.echo is None and self.sink.busy() and now >= state.cue_until:
            state.quiet_until = now + ECHO_TAIL
            return True
        return now < state.quiet_until

    def _close(self) -> None:
        """Forget what was heard up to the console's sound."""
        cutter, state = self.cutter, self.state
        self.trace("microphone closed while the console sounds")
        state.cut_by_console = cutter.in_speech and cutter.held >= CUT_MIN_SPEECH * BYTES_PER_SECOND
        if cutter.in_speech:
            self.trace("cut by the console's sound", seconds=round(cutter.held / BYTES_PER_SECOND, 2))
        cutter.reset()
        self.forget()
        state.deaf = True

    def _reopen(self) -> None:
        state = self.state
        state.deaf = False
        self.trace("microphone reopened")
        state.reopened_frames = 0
        state.said_cut = state.cut_by_console
        if state.cut_by_console:
            state.cut_by_console = False
            self.notice(SAY_AGAIN_CUT)
        self._cue_listening()

    def _cue_listening(self) -> None:
        """The short cue and its text line: the microphone hears the player again."""
        if not self.cue or self.settings.headphones:
            return
        try:
            from audio_console.audio.signals import duration
            self.state.cue_until = time.monotonic() + duration("listening") + 0.1
            self.sink.play_signal("listening")
        except Exception:  # noqa: BLE001 - no cue is no reason to stop listening
            pass
        self.notify(LISTENING_AGAIN)


@dataclass
class PushToTalk:
    """Push to talk: the key decides where the utterance begins and ends."""
    audio: bytearray = field(default_factory=bytearray)   # everything while the key is held
    talking: bool = False

    def push(self, frame: bytes, held: bool) -> bytes | None:
        """The whole utterance once the key is released (possibly too short to
        decode: long_enough), else None."""
        if held:
            self.audio += frame
            self.talking = True
            return None
        if not self.talking:
            return None
        self.talking = False
        utterance, self.audio = bytes(self.audio), bytearray()
        return utterance


def long_enough(utterance: bytes) -> bool:
    return len(utterance) > SHORTEST_TALK * BYTES_PER_SECOND
