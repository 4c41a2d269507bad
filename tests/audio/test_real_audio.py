"""Through real audio: the engine plays into PulseAudio's console_out null sink and
the test records the sink's monitor with parec, then listens for what it should hear."""
import os
import subprocess
import tempfile
import time

import numpy as np
import pytest

from audio_console.audio.engine import AudioEngine
from audio_console.audio.signals import duration
from audio_console.base.settings import Settings

from .analysis import band_envelope, band_fraction, count_onsets, dominant_frequency, envelope

pytestmark = pytest.mark.audio
RATE = 48000


class Monitor:
    """Records a sink's monitor (float32 stereo) while the block runs."""

    def __init__(self, sink):
        self.sink = sink

    def __enter__(self):
        self.file = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            ["parec", "-d", f"{self.sink}.monitor", "--format=float32le", f"--rate={RATE}",
             "--channels=2", "--raw", "--latency-msec=20"],
            stdout=self.file, stderr=subprocess.DEVNULL)
        # parec connected and streaming: 0.4 s recorded (a suspended sink's monitor
        # can take longer than that to start; the first 0.25 s are dropped)
        deadline = time.monotonic() + 10
        while len(self.so_far()) < 0.15 * RATE and time.monotonic() < deadline:
            time.sleep(0.02)
        return self

    def __exit__(self, *exc):
        time.sleep(0.4)   # the tail of the sound through the server
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.samples = self.so_far()
        self.file.close()

    def so_far(self) -> np.ndarray:
        """What is recorded until now, as `samples` will begin (for a test that waits
        for what it listens for instead of sleeping a fixed time)."""
        size = os.fstat(self.file.fileno()).st_size // 8 * 8
        samples = np.frombuffer(os.pread(self.file.fileno(), size, 0), "<f4").reshape(-1, 2)
        # The monitor may hand over a little of what it held before we connected: drop
        # the first 0.25 s (nothing of ours is played before 0.4 s).
        return samples[int(0.25 * RATE):]


@pytest.fixture
def engine(pulse):
    messages = []
    engine = AudioEngine(Settings(speech_volume=0.8, signal_volume=0.8, timing="faithful"), notify=messages.append)
    if engine.output != "device":
        engine.close()
        pytest.skip(f"no audio device through PulseAudio: {messages}")
    engine.play_signal("prompt")      # the stream's first start-up takes a moment: wait it out here
    engine.wait_until_idle(5)
    yield engine
    engine.close()
    assert messages == []


def test_answer_3_comes_out_of_the_sink_as_three_beeps_near_880_hz_on_the_left(pulse, engine):
    with Monitor(pulse) as monitor:
        engine.play_signal("answer_3", side=1)
        engine.wait_until_idle(10)
    x = monitor.samples
    assert len(x) > RATE, "the monitor recorded nothing"
    beeps = band_envelope(x, RATE, 820, 940)
    assert count_onsets(beeps, bridge=10) == 3     # 0.35 s apart; a dip under 0.1 s is an underrun's click
    assert 850 <= dominant_frequency(x, RATE) <= 910
    assert (x[:, 0] ** 2).sum() > 10 * (x[:, 1] ** 2).sum()     # team 1: the left
    loud = np.flatnonzero(beeps > 0.3 * beeps.max())
    assert 1.6 <= (loud[-1] - loud[0]) * 0.01 <= 1.9               # 3 x 0.35 s on, 2 x 0.35 s off


def test_answer_0_comes_out_as_one_low_buzz(pulse, engine):
    with Monitor(pulse) as monitor:
        engine.play_signal("answer_0", side=2)
        engine.wait_until_idle(10)
    x = monitor.samples
    assert 120 <= dominant_frequency(x, RATE) <= 175
    assert count_onsets(envelope(x, RATE, frame=0.01)) == 1
    assert (x[:, 1] ** 2).sum() > 10 * (x[:, 0] ** 2).sum()     # team 2: the right


def test_speech_comes_out_of_the_sink_after_its_signal(pulse, engine):
    with Monitor(pulse) as monitor:
        engine.play_signal("answer_2")
        engine.speak("D 5, answer two")
        engine.wait_until_idle(15)
    x = monitor.samples
    beeps = band_envelope(x, RATE, 850, 910)
    first_beep = np.flatnonzero(beeps > 0.3 * beeps.max())[0] * 0.01
    signal_end = first_beep + duration("answer_2", "faithful")
    after = x[int((signal_end + 0.05) * RATE):]        # from just after the signal
    assert np.sqrt((after ** 2).mean()) > 0.01         # something was spoken after the signal
    assert band_fraction(after, RATE, 100, 4000) > 0.8   # in the speech band
    speaking = envelope(after, RATE, frame=0.01)
    voiced = (speaking > 0.1 * speaking.max()).sum() * 0.01
    assert 0.5 <= voiced <= 3.0                        # a short phrase, not a click


def test_quit_cuts_a_backlog_of_sound_but_the_goodbye_is_heard(pulse, engine):
    """Issue 12 item 12: at quit the queued answers are not played out in real time;
    the last line, the goodbye, is."""
    engine.speak("Goodbye.")           # rendered ahead, as the session prewarms it
    engine.wait_until_idle(30)
    backlog = 0.0
    with Monitor(pulse) as monitor:
        for _ in range(6):
            engine.play_signal("answer_4")
            backlog += duration("answer_4", "faithful")
        engine.speak("Goodbye.")
        time.sleep(0.3)                 # the first answer has begun
        engine.finish(3.0)
    x = monitor.samples
    loud = envelope(x, RATE, frame=0.01) > 0.05 * envelope(x, RATE, frame=0.01).max()
    first, last = np.flatnonzero(loud)[[0, -1]] * 0.01
    assert backlog > 5.0 and last - first < 2.0, "the backlog was cut, not played out"
    tail = x[int((first + 0.45) * RATE):int((last + 0.05) * RATE)]   # after the cut answer
    assert np.sqrt((tail ** 2).mean()) > 0.01                         # something followed it:
    assert band_fraction(tail, RATE, 850, 910) < 0.5                  # speech, not more beeps


def hold_the_interpreter(seconds: float) -> None:
    """Keep the audio callback from running, in bursts of about 0.1 s (sum over a range is
    one C call that lets no other thread in): a busy machine's late blocks."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        sum(range(10 ** 6))


@pytest.mark.parametrize("pause", ["thinking", "a busy machine"])
def test_a_recording_with_a_device_keeps_the_pause_the_sink_played(pulse, tmp_path, pause):
    """--record with a real device: the silence between two sounds is in the WAV as long
    as it came out of the sink (the recording is what the player heard), also when the
    device was starved meanwhile and played silence no block was asked for (that
    pause lost 0.59 s in the file when only the blocks were counted)."""
    from audio_console.audio.recorder import read_wav
    messages = []
    engine = AudioEngine(Settings(speech_volume=0.8, signal_volume=0.8, timing="quick"), speech=False, record_path=tmp_path / "r.wav",
                         notify=messages.append)
    if engine.output != "device":
        engine.close()
        pytest.skip(f"no audio device through PulseAudio: {messages}")
    with Monitor(pulse) as heard:
        engine.play_signal("answer_2")
        engine.wait_until_idle(5)
        time.sleep(1.2) if pause == "thinking" else hold_the_interpreter(1.5)
        engine.play_signal("answer_2")
        engine.wait_until_idle(5)
    engine.close()
    recorded, rate = read_wav(tmp_path / "r.wav")

    def longest_silence(x):
        loud = np.flatnonzero(np.abs(x) > 0.01)
        return np.diff(loud).max() / RATE

    in_file, at_sink = longest_silence(recorded[:, 0] / 32768), longest_silence(heard.samples[:, 0])
    assert in_file > 1.0 and abs(in_file - at_sink) < 0.1
    assert messages == []
    assert pause == "thinking" or engine.underruns > 0, "the device was never starved: nothing was shown"
