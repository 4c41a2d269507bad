"""What the listener tells the player besides commands: the microphone stopped (and
came back), it sends only silence (muted), too much talk around to listen, speech cut
by the console's own sound.
The microphone here is a stream of real synthesized speech fed to the listener's
audio callback (no device); the recognizer is a stub, as no decoding is judged."""
import threading
import time

import numpy as np
import pytest

from audio_console.output.sink import NullSink
from audio_console.base.settings import Settings
from audio_console.voice import capture, cutting, gate, microphone
from audio_console.voice import listener as listening
from audio_console.voice.early_guess import extendable_prefixes, with_unfinished
from audio_console.voice.audio import wav_pcm16
from audio_console.app.games import grammar_for_game
from audio_console.voice.recognizer import Decoded


class Deaf:
    """A recognizer stub that hears nothing (the notices do not depend on decoding)."""
    name = "stub"
    dropped_words = []

    def set_grammar(self, grammar):
        pass

    def __init__(self):
        self.voiced = []      # per decode: whether the listener said its cutter heard a voice

    def decode(self, pcm, voiced=False):
        self.voiced.append(voiced)
        return Decoded("")


class FeedingStream:
    """A microphone: plays `pcm` (then silence, or nothing if `stops`) into the callback
    at twice real time."""

    def __init__(self, callback, pcm=b"", stops=False, first_after=0.0, then=bytes(960)):
        self.callback, self.pcm, self.stops, self.first_after = callback, pcm, stops, first_after
        self.then = then   # what follows pcm: digital silence unless told
        self.running = True
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        time.sleep(self.first_after)   # a device that is slow to start
        at = 0
        while self.running:
            block = self.pcm[at:at + 960]
            at += 960
            if len(block) < 960:
                if self.stops:
                    return   # the device is gone: no more callbacks
                block = self.then
            self.callback(block, 480, None, None)
            time.sleep(0.015)

    def stop(self):
        self.running = False

    def close(self):
        self.running = False


def run(listener, seconds):
    notices = []
    listener.set_grammar(grammar_for_game("galaxis"))
    listener.start(lambda heard: None, on_notice=notices.append)
    try:
        time.sleep(seconds)
    finally:
        listener.stop()
    return notices


def test_a_microphone_that_stops_is_said_once_and_its_return_too(monkeypatch):
    monkeypatch.setattr(microphone, "MIC_SILENT", 0.4)
    monkeypatch.setattr(capture, "MIC_RETRY", 0.3)
    opened = []

    def open_stream(callback):
        opened.append(time.monotonic())
        if len(opened) == 1:
            return FeedingStream(callback, bytes(32000), stops=True)   # 1 s, then gone
        if len(opened) < 4:
            raise OSError("no such device")                            # still gone
        return FeedingStream(callback)                                  # plugged in again
    listener = listening.Listener(Deaf(), Settings(), NullSink(), lambda line: None, open_stream=open_stream)
    notices = run(listener, 4.0)
    assert notices == [capture.MIC_STOPPED, capture.MIC_BACK]
    assert notices[0] == "The microphone stopped; type your commands."


def test_a_microphone_slow_to_start_is_not_said_to_have_stopped(monkeypatch):
    """Found playing by voice: at start, while the model loads, the first frames came
    after more than MIC_SILENT, and the player heard "The microphone stopped" and
    "back" before the game had begun."""
    monkeypatch.setattr(microphone, "MIC_SILENT", 0.4)
    listener = listening.Listener(Deaf(), Settings(), NullSink(), lambda line: None,
                                  open_stream=lambda cb: FeedingStream(cb, first_after=1.5))
    assert run(listener, 3.0) == []


def test_a_muted_microphone_is_said_once(monkeypatch):
    """A muted input sends samples that are all 0; without a word the player would
    wait for ever. Told once (here after 1 s of it instead of MUTED_AFTER), not again."""
    monkeypatch.setattr(microphone, "MUTED_AFTER", 1.0)
    listener = listening.Listener(Deaf(), Settings(), NullSink(), lambda line: None,
                                  open_stream=lambda cb: FeedingStream(cb))
    notices = run(listener, 2.5)    # 5 s of zeros at twice real time
    assert notices == [capture.MIC_MUTED]
    assert "muted" in notices[0] and "type" in notices[0]


def test_a_quiet_room_through_a_real_microphone_is_not_called_muted(monkeypatch):
    """A working microphone in a silent room still hears its own faint noise (here one
    or two steps of the 16-bit range, after a spoken word): no warning."""
    monkeypatch.setattr(microphone, "MUTED_AFTER", 1.0)
    hiss = np.random.default_rng(1).integers(-2, 3, 480).astype("<i2").tobytes()
    listener = listening.Listener(Deaf(), Settings(), NullSink(), lambda line: None,
                                  open_stream=lambda cb: FeedingStream(cb, bytes(9600), then=hiss))
    assert run(listener, 2.5) == []


def test_endless_talk_offers_push_to_talk_once(speech, monkeypatch):
    """Utterances that keep running to the length cap (here a cap of 1 s, so that a
    talker's phrases between breaths reach it): the player is told once and offered
    push to talk."""
    from audio_console.voice import vad
    monkeypatch.setattr(vad, "MAX_SECONDS", 1.0)
    sentence = wav_pcm16(speech.say("and then we walked along the river and talked about the old days "
                                    "and the people we used to know", "flite:kal"))
    x = np.frombuffer(sentence, "<i2")
    loud = np.flatnonzero(np.abs(x) > 0.02 * np.abs(x).max())
    talk = x[loud[0]:loud[-1] + 1].tobytes() * 6
    listener = listening.Listener(Deaf(), Settings(), NullSink(), lambda line: None,
                                  open_stream=lambda cb: FeedingStream(cb, talk))
    notices = run(listener, len(talk) / 64000 + 1)
    assert notices == [cutting.TOO_MUCH_TALK]
    assert "push to talk" in notices[0]


class SpeaksAt(NullSink):
    """The console starts to speak `at` seconds after the start, for `seconds`."""

    def __init__(self, at, seconds):
        self.start, self.at, self.seconds = time.monotonic(), at, seconds
        self.signals = []

    def busy(self):
        t = time.monotonic() - self.start
        return self.at <= t < self.at + self.seconds

    def play_signal(self, name, side=0):
        self.signals.append(name)


def test_speech_cut_by_the_console_is_said_and_the_microphone_reopens_with_a_cue(speech):
    said = wav_pcm16(speech.say("what is at alpha four, what is at bravo five", "flite:slt"))
    pcm = bytes(32000) + said        # speech from 0.5 s (twice real time) on
    sink = SpeaksAt(0.5 + 0.4, 0.6)  # the console speaks into the middle of it
    lines = []
    listener = listening.Listener(Deaf(), Settings(headphones=False), sink, lines.append,
                                  open_stream=lambda cb: FeedingStream(cb, pcm))
    notices = run(listener, 3.0)
    assert notices == [gate.SAY_AGAIN_CUT]
    assert sink.signals == ["listening"]          # the short cue as the microphone reopened
    assert gate.LISTENING_AGAIN in lines     # and its text line


def test_no_cue_and_no_notice_when_nothing_was_cut(speech):
    sink = SpeaksAt(0.3, 0.5)
    lines = []
    listener = listening.Listener(Deaf(), Settings(headphones=False), sink, lines.append,
                                  open_stream=lambda cb: FeedingStream(cb, bytes(64000)))
    notices = run(listener, 2.0)
    assert notices == []
    assert sink.signals == ["listening"] and lines.count(gate.LISTENING_AGAIN) == 1


@pytest.mark.parametrize("path", ["vad", "early"])
def test_the_engine_is_told_when_the_neural_voice_detector_cut_the_utterance(speech, path):
    """Then Whisper need not ask the same detector again whether it held speech; the
    benchmarks' Endpointer cutter ("early") knows only levels."""
    from scripts.bench_support.listen_paths import on_path
    pcm = bytes(32000) + wav_pcm16(speech.say("delta five", "flite:slt"))
    deaf = Deaf()
    listener = on_path(path, listening.Listener(deaf, Settings(), NullSink(), lambda line: None,
                                                open_stream=lambda cb: FeedingStream(cb, pcm)))
    run(listener, 2.5)
    assert deaf.voiced and set(deaf.voiced) == {path == "vad"}


@pytest.mark.parametrize("extendable", [("caution", "spaceship"), ("read", "row")])
def test_unfinished_beginnings_of_commands_are_known(extendable):
    grammar = grammar_for_game("galaxis")
    prefixes = extendable_prefixes(grammar)
    assert extendable in prefixes and ("delta",) in prefixes and ("read", "row") in prefixes
    assert ("delta", "five") not in prefixes and ("hint",) not in prefixes
    augmented = with_unfinished(grammar, prefixes)
    assert grammar.parse("delta") is None and augmented.parse("delta").name == "unfinished"
