""""The microphone sends only silence" waits for a fair chance (issue 30, item 9): the
zeros count only while the console is quiet and the player has been asked for a
command, so the opening lines are never taken for a muted microphone. The microphone
is a stream of digital silence fed to the real listener (twice real time); the
recognizer is a stub, as no decoding is judged."""
import time

from audio_console.output.sink import NullSink
from audio_console.base.settings import Settings
from audio_console.voice import capture, microphone
from audio_console.voice import listener as listening
from audio_console.app.games import grammar_for_game
from tests.voice.test_listener_notices import Deaf, FeedingStream


class SpeakingSink(NullSink):
    """The console speaking its opening lines until `until` (monotonic seconds)."""

    def __init__(self, seconds):
        self.until = time.monotonic() + seconds

    def busy(self):
        return time.monotonic() < self.until


def listen(sink, seconds, prompted=True):
    notices = []
    listener = listening.Listener(Deaf(), Settings(), sink, lambda line: None,
                                  open_stream=lambda cb: FeedingStream(cb))
    if prompted:
        listener.set_grammar(grammar_for_game("galaxis"))
    listener.start(lambda heard: None, on_notice=lambda line: notices.append((time.monotonic(), line)))
    try:
        time.sleep(seconds)
    finally:
        listener.stop()
    return notices


def test_silence_while_the_console_speaks_is_not_called_muted(monkeypatch):
    monkeypatch.setattr(microphone, "MUTED_AFTER", 1.0)     # 1 s of audio: 0.5 s here
    sink = SpeakingSink(1.5)
    notices = listen(sink, 3.5)                              # 3 s of audio while it speaks
    assert [line for _, line in notices] == [capture.MIC_MUTED]
    # told only after 1 s of audio (0.5 s here, at most twice real time) with the console quiet
    assert notices[0][0] >= sink.until + 0.45


def test_silence_before_the_player_is_asked_anything_is_not_called_muted(monkeypatch):
    monkeypatch.setattr(microphone, "MUTED_AFTER", 1.0)
    assert listen(NullSink(), 2.0, prompted=False) == []


class TakingAllOut:
    """An echo canceller that leaves nothing of what it is given (a fake: only which
    samples the muted check judges is tested here, not the cancelling)."""

    def clean(self, block, queued=0):
        return bytes(len(block))


def test_the_microphones_own_samples_are_judged_not_what_the_canceller_leaves(monkeypatch):
    import numpy as np
    monkeypatch.setattr(microphone, "MUTED_AFTER", 1.0)
    notices = []
    take = capture.Capture(microphone.Microphone(), TakingAllOut(), notices.append, lambda: True)._take
    quiet_room = np.random.default_rng(0).integers(-3, 4, 480).astype("<i2").tobytes()
    for _ in range(100):                 # 3 s of a working microphone in a quiet room
        take(quiet_room)
    assert notices == []
    for _ in range(40):                  # 1.2 s of zeros: the microphone itself is muted
        take(bytes(960))
    assert notices == [capture.MIC_MUTED]
