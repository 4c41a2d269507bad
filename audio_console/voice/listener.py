"""The microphone side as a pipeline of stages, run by one worker thread:

    capture (capture.py: the microphone's blocks as 30 ms frames, the console's own
             sound taken out, the microphone stopped, back or muted)
    -> gate (gate.py: push to talk; the microphone closed while the console sounds
             when its sound cannot be taken out, and what its reopening cut)
    -> cutting (cutting.py: the VAD cutter; barge-in's hold; too much talk)
    -> decoding (decoding.py: the recognizer; the early guess, acted on at once when
             it is a sure, complete command)
    -> reporting (report.py: trust.decide, the console's own echo and what was not
             said to it dropped) -> the session's on_heard(Heard).

The Listener wires them and is the session's side: set_grammar, talk, start, stop.
The opening of voice input for the session is in open_voice.py.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from audio_console.voice import echo_cancel
from audio_console.voice.capture import Capture
from audio_console.voice.cutting import ENDPOINT_WINDOW, TOO_MUCH_TALK, Cutting, vad_cutter
from audio_console.voice.decoding import Decoding
from audio_console.voice.gate import ConsoleSound, PushToTalk, long_enough
from audio_console.voice.heartbeat import Heartbeat
from audio_console.voice.microphone import Microphone
from audio_console.voice.recognizer import one_line
from audio_console.voice.report import Reporter
from audio_console.voice.trace import untraced


# Seconds after the console falls silent that the microphone's frames are still not
# the room's alone (the room's echo of its last word; the canceller's last block).
ROOM_TAIL = 0.15
# the cutter knows that speech began some frames after it did: an utterance is taken to
# have begun this long before (when a yes was said matters, dialogue.py)
ONSET_LAG = 0.2


@dataclass(frozen=True)
class ListenOptions:
    window: float = ENDPOINT_WINDOW   # seconds of silence that end an utterance
    cue: bool = True                  # the "listening" cue through the sink when the microphone reopens
    cancel_echo: bool = True          # barge-in: take the console's own sound out of the microphone


class Listener:
    """Listens on the default input device and reports each utterance as a Heard.
    `trace(event, **fields)`: what was heard, for finding why a command was missed
    (trace.VoiceTrace, --voice-trace). `open_stream(callback)`: the microphone's
    stream (default: the input device)."""

    decoding_stage = Decoding        # benchmarks put their baselines' stage in (scripts/bench_support)

    def __init__(self, recognizer, settings, sink, notify, options: ListenOptions | None = None,
                 device=None, open_stream=None, trace=None):
        self.recognizer, self.settings, self.sink, self.notify = recognizer, settings, sink, notify
        self.options = options or ListenOptions()
        self.trace = trace or untraced
        self.microphone = Microphone(device, open_stream)
        # barge-in: the console's own sound taken out of the microphone, if the sink
        # keeps what it plays and the canceller is installed (None: deaf while it sounds)
        self.echo = _echo_canceller(sink) if self.options.cancel_echo else None
        # ... and silent as soon as the player speaks over it (the session then cuts it off)
        self.hold = (echo_cancel.Hold(sink, self.echo, self._room_db, self.trace)
                     if self.echo is not None and settings.barge_in else None)
        self.cutting: Cutting | None = None    # the run in progress's cutter
        self.report = Reporter(settings, sink, self.echo, self.hold, self.trace, self._room_db,
                               said_at=lambda: self._said_at, voiceless=self._voiceless_onset)
        self._said_at: float | None = None   # when the utterance in progress began, as captured
        self._capture: Capture | None = None
        self.timings = self.report.timings     # per utterance: report.Timing (benchmarks)
        self.decoding = self.decoding_stage(recognizer, settings, notify, self.report)
        self._lock = threading.Lock()          # guards the talk key
        self._thread: threading.Thread | None = None
        self._running = threading.Event()
        self._talking = False
        self._prompted = False       # set_grammar called: the player was asked for a command
        self._on_notice = notify
        self.said_too_much_talk = False
        self._sounded = float("-inf")    # when the console was last heard sounding (monotonic)

    # --- the session's side (any thread) ---------------------------------------

    def set_grammar(self, grammar) -> None:
        """Listen for this grammar from the next utterance on. Words the recognizer
        cannot listen for are reported once through notify. The session may call this
        at every prompt: the same grammar again costs nothing."""
        self._prompted = True      # the console waits for a command: silence now is telling
        self.decoding.set_grammar(grammar)

    def talk(self, pressed: bool) -> None:
        """Push-to-talk: the key went down (True) or up (False)."""
        with self._lock:
            self._talking = pressed

    def start(self, on_heard, on_notice=None) -> None:
        """Open the microphone and call on_heard(Heard) from the listener thread;
        on_notice(line) gets what the player must hear (speech cut, too much talk,
        microphone stopped or back; default: notify)."""
        if self._thread is not None:
            return
        self._on_notice = on_notice or self.notify
        try:
            self.microphone.open()
        except Exception as e:  # noqa: BLE001 - PortAudioError, OSError: voice off, keys go on
            self.notify(f"Cannot open the microphone ({one_line(e)}): voice input is off; "
                        "the keyboard works as always.")
            return
        self._running.set()
        self._thread = threading.Thread(target=self.run, args=(on_heard,), name="voice-listener",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Close the microphone and end the listener thread (waits for it)."""
        self._running.clear()
        self.microphone.close()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            self.microphone.wake()
            thread.join(timeout=5)
        for part in (self.recognizer, self.trace):   # the engine's background work, the trace file
            close = getattr(part, "close", None)
            if close is not None:
                close()

    # --- the worker thread ---------------------------------------------------------

    def make_cutter(self):
        return vad_cutter(self.options.window, console_heard=self._console_heard)

    def _console_heard(self) -> bool:
        """The console's own sound reaches the microphone now, or its echo's tail (not
        with headphones, nor while held silent for the player): those frames do not
        tell the room's level."""
        if self.settings.headphones:
            return False
        now = time.monotonic()
        if self.sink.busy() and (self.hold is None or self.hold.since is None):
            self._sounded = now
        return now - self._sounded < ROOM_TAIL

    def run(self, on_heard) -> None:
        """The worker: every frame through the stages until stopped (the benchmarks
        call it on a thread of their own, with the microphone's queue fed directly)."""
        cutter = self.make_cutter()
        self.cutting = Cutting(cutter, self.hold, self.trace, self._too_much_talk, self.decoding.forget)
        gate = ConsoleSound(self.settings, self.sink, self.echo, cutter, self.trace, self._on_notice,
                            self.notify, self.decoding.forget, cue=self.options.cue)
        talk = PushToTalk()
        capture = self._capture = Capture(self.microphone, self.echo, self._on_notice,
                                          counting=lambda: self._prompted and not self.sink.busy())
        # its per-frame peak only feeds the trace: without one, nothing to measure
        heartbeat = (Heartbeat(self.trace, lambda: _probability(cutter), self._heartbeat_state)
                     if self.trace is not untraced else None)
        for frame in capture.frames(self._running.is_set):
            if self.settings.listening == "push":
                self._push_to_talk(talk, frame, on_heard)
            elif gate.admits():
                self._cut(gate, frame, on_heard)
            if heartbeat:
                heartbeat.push(frame, capture.captured_at)

    def _push_to_talk(self, talk: PushToTalk, frame: bytes, on_heard) -> None:
        utterance = talk.push(frame, self._talking)
        if utterance is None:
            return
        assert self.cutting is not None
        self.cutting.cutter.reset()
        self._said_at = None     # the key's press, not the voice, began it: not known here
        if long_enough(utterance):
            self.decoding.hear(utterance, on_heard, voiced=False)

    def _cut(self, gate: ConsoleSound, frame: bytes, on_heard) -> None:
        assert self.cutting is not None
        cutter = self.cutting.cutter
        utterance, began = self.cutting.push(frame)
        if began and self._capture is not None:
            self._said_at = self._capture.captured_at - ONSET_LAG
        gate.after_frame(began)
        if utterance and (gate.drops(utterance) or self.report.own_echo(utterance)):
            self.decoding.drop_guess()
        elif utterance:
            self.decoding.hear(utterance, on_heard, getattr(cutter, "voiced", False), cutter.closed_on_guess)
        elif self.decoding.follow(cutter, on_heard,
                                  may_guess=lambda: not gate.start_lost and not self._echo_guess(cutter)):
            cutter.reset()   # acted on: what follows is a new utterance

    def _echo_guess(self, cutter) -> bool:
        """The early guess in hand is the console's own echo: not worth a decode."""
        early = cutter.early
        return early is not None and self.report.own_echo(early, trace=False)

    def _voiceless_onset(self) -> bool:
        """The utterance being reported began over the console with no voice heard."""
        return self.cutting is not None and getattr(self.cutting.cutter, "voiceless_onset", False)

    def _heartbeat_state(self) -> dict:
        """The heartbeat's fields beside the frames: the room's level, the console
        sounding (as the cutter is told) and held."""
        return {"room_db": self._room_db(), "sounding": self.sink.busy(),
                "held": self.hold is not None and self.hold.holding}

    def _too_much_talk(self) -> None:
        if not self.said_too_much_talk:
            self.said_too_much_talk = True
            self._on_notice(TOO_MUCH_TALK)

    def _room_db(self) -> float | None:
        """The room's background level, when the cutter of the run knows it."""
        return self.cutting.room_db() if self.cutting is not None else None


def _probability(cutter) -> float:
    """The neural voice detector's last verdict (0 for a cutter without one)."""
    vad = getattr(getattr(cutter, "frames", None), "vad", None)
    return getattr(vad, "probability", 0.0)


def _echo_canceller(sink):
    """The echo canceller against what `sink` plays, or None (no reference, e.g. no
    sound device or text only; or pywebrtc-audio not installed). With the sound server's
    canceller it only keeps the levels: the microphone comes in clean."""
    reference = getattr(sink, "echo_reference", None)
    if reference is None or not echo_cancel.available():
        return None
    if getattr(sink, "echo_cancelled_by_server", False):
        return echo_cancel.EchoCanceller(reference, cancel=False)   # server_echo_cancel.py did it
    return echo_cancel.EchoCanceller(reference)
