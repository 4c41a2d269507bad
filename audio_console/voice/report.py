"""The reporting stage: a decoded utterance becomes a Heard (trust.decide) for the
session, unless it was only the console's own echo, or nothing said to the console
(a cough, a knock, talk to someone else: addressed.py), which get no answer."""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

from audio_console.voice.addressed import louder_than_room, speech_db, spoke_to_me
from audio_console.voice.answers import with_answer
from audio_console.voice.echo_cancel import LEFTOVER_UNDER_DB
from audio_console.voice.frames import FRAME_BYTES, seconds
from audio_console.voice.over_speech import STOP, point_over_speech, stop_over_speech
from audio_console.voice.own_words import said_by_the_console
from audio_console.voice.trace import heard_fields
from audio_console.voice.trust import decide

ECHO_CHECK_AFTER = 15        # frames after an utterance's sound also weighed (the window that closed it)
SPOKEN_MARGIN = 1.0          # seconds before an utterance in which what the console said is weighed
TIMINGS_KEPT = 100


@dataclass(frozen=True)
class Timing:
    """When one utterance was decoded, for the benchmarks (monotonic seconds)."""
    ended: float             # the cutter closed it (or the early guess was taken)
    decoded: float           # its Heard was ready
    how: str                 # "whole", "stream", "early" (a guess confirmed), "early-act" (acted on at the guess)
    seconds: float           # its length
    decode: float            # the engine's decode time
    while_speaking: float    # seconds of decoding done while the player spoke


class Reporter:
    """`room_db()`: the room's level (None: unknown); `hold`: the barge-in hold or None;
    `said_at()`: when the utterance being reported began, as captured (None: unknown)."""

    def __init__(self, settings, sink, echo, hold, trace, room_db, said_at=lambda: None,
                 voiceless=lambda: False):
        """`voiceless()`: the utterance began over the console with no voice heard
        (vad.LOUD_ONSET): only a "stop" of it is taken."""
        self.settings, self.sink, self.echo, self.hold = settings, sink, echo, hold
        self.trace, self.room_db, self.said_at, self.voiceless = trace, room_db, said_at, voiceless
        self.timings: list[Timing] = []

    def own_echo(self, pcm: bytes, trace: bool = True) -> bool:
        """The utterance `pcm` (just cut) is the console's own echo: the canceller
        took most of it out. Then it is dropped (`trace`: and said so) and the console
        goes on; checked before decoding, so that the worker does not fall behind
        the microphone decoding the console's own words."""
        frames = len(pcm) // FRAME_BYTES
        if self.echo is None or not (self.echo.echo_only(frames + ECHO_CHECK_AFTER) or self._faint_over_console(pcm)):
            return False
        if trace:
            level = speech_db(pcm)
            self.trace("the console's own echo: dropped", removed_db=self.echo.removed_db(frames),
                       speech_db=None if level is None else round(level, 1), room_db=self.room_db(),
                       seconds=round(seconds(pcm), 2))
            self.go_on()
        return True

    def _faint_over_console(self, pcm: bytes) -> bool:
        """Begun or said while the console sounds and hardly louder than the room:
        what the canceller left of the console's own voice (with the sound server's
        canceller -72 to -46 dB over a -70 dB room), not a player (35-45 dB over it)."""
        room = self.room_db()
        began_over = self.hold is not None and (self.hold.holding or self.hold.began_over)
        over = not self.settings.headphones and (began_over or self.sink.busy())
        return over and room is not None and not louder_than_room(pcm, room, margin=LEFTOVER_UNDER_DB)

    def __call__(self, decoded, grammar, ended: float, how: str, pcm: bytes, during: float, on_heard) -> None:
        frames = len(pcm) // FRAME_BYTES
        if self.own_echo(pcm) or self._own_words(decoded, pcm, ended):
            return
        heard = decide(decoded, grammar, self.settings)
        held = self.hold is not None and self.hold.holding
        taken = stop_over_speech(heard, decoded, grammar, held)
        if taken is not heard:
            self.trace("stop said over the console's speech: taken", rejected_as=heard.action)
            heard = taken
        if self.voiceless() and not (heard.command is not None and heard.command.name == STOP):
            # begun with no voice heard, on the loud frames that a stop's vowel leaves
            # through the canceller and that leaks of the console's own voice have too
            self.trace("begun over the console without a voice, not a stop: dropped", heard=heard.text)
            self.go_on()
            return
        taken = point_over_speech(heard, decoded, self.settings, held)
        if taken is not heard:
            self.trace("point said over the console's speech: acted on", confidence=heard.confidence)
            heard = taken
        heard = replace(with_answer(heard, decoded, grammar, self.settings), said_at=self.said_at())
        echo = self.echo.levels_db(frames + ECHO_CHECK_AFTER) if self.echo is not None else {}
        self.trace("heard", **heard_fields(heard, decoded, seconds(pcm), how), room_db=self.room_db(), **echo)
        self.timings.append(Timing(ended, time.monotonic(), how, seconds(pcm), decoded.seconds, during))
        del self.timings[:-TIMINGS_KEPT]
        if heard.command is None and not heard.text and not self._spoke_to_me(pcm, decoded):
            self.go_on()
            if heard.as_answer is None:
                return   # a cough, a knock, noise, talk to someone else: nothing to answer
            heard = replace(heard, silent=True)   # unless it answers a question waiting
        on_heard(heard)   # not understood but surely said to the console: "Say again."

    def _begun_over_unheld(self) -> bool:
        """The utterance began while the console sounded through the speakers and was
        not held at its onset: a player's voice over the console is (echo_cancel's
        hold), so this one is most likely what the canceller left of the console."""
        hold = self.hold
        return hold is not None and not self.settings.headphones and hold.began_over and not hold.holding

    def _own_words(self, decoded, pcm: bytes, ended: float) -> bool:
        """The utterance began over the console, was not held at its onset, and its
        words are the console's own (own_words.py): dropped, and said so in the trace."""
        if not self._begun_over_unheld():
            return False
        evidence = decoded.evidence
        transcript = evidence.transcript if evidence is not None else decoded.text
        spoken = self.sink.spoken_within(seconds(pcm) + max(0.0, time.monotonic() - ended) + SPOKEN_MARGIN)
        if not said_by_the_console(transcript, spoken):
            return False
        self.trace("the console's own words: dropped", transcript=transcript, seconds=round(seconds(pcm), 2))
        self.go_on()
        return True

    def go_on(self) -> None:
        """The console goes on speaking if it was held for what turned out to be nothing."""
        if self.hold is not None:
            self.hold.release()

    def _spoke_to_me(self, pcm: bytes, decoded) -> bool:
        if self.settings.listening == "push":
            return True   # the player held the key to talk to the console
        if self._begun_over_unheld():
            # not understood, begun over the console and not held: its own answer
            # come back garbled ("D5 answered 1: ..." then "Say again." in a live
            # test), not a player to ask to say it again
            return False
        if self.echo is None and self.sink.busy():
            return False
        return spoke_to_me(pcm, self.room_db(), decoded.evidence)
