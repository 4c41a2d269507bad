"""The engine's behaviour: order, overlap, stop, volume, recording, and no device at all."""
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from audio_console.audio import open_sound
from audio_console.audio.engine import DEVICE_ENV, AudioEngine
from audio_console.audio.recorder import read_wav, to_int16
from audio_console.audio.signals import synthesise
from audio_console.audio.sonify import line_sonification
from audio_console.output.sink import NullSink
from audio_console.base.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def recording_engine(tmp_path, messages, **kw):
    """No device: the engine renders on its virtual clock into the recorder."""
    settings = Settings(speech_volume=0.5, signal_volume=0.5, timing="quick")
    return AudioEngine(settings, speech=False, record_path=tmp_path / "r.wav",
                       notify=messages.append, use_device=False, **kw)


def expected_queue(names, side=0, volume=0.5, timing="quick", block=256):
    """The queue plays back to back: the signals one after another, then silence to the block end."""
    x = np.concatenate([synthesise(n, side, timing) for n in names]) * volume
    pad = (-len(x)) % block
    return to_int16(np.concatenate([x, np.zeros((pad, 2), np.float32)]))


def test_recording_without_a_device_is_sample_exact_and_in_order(tmp_path, messages):
    engine = recording_engine(tmp_path, messages)
    assert engine.output == "virtual clock"
    for name in ["answer_2", "stored", "answer_0"]:
        engine.play_signal(name, side=1)
    assert engine.busy()
    engine.wait_until_idle(10)
    assert not engine.busy()
    engine.close()
    recorded, rate = read_wav(tmp_path / "r.wav")
    assert rate == engine.sample_rate
    assert np.array_equal(recorded, expected_queue(["answer_2", "stored", "answer_0"], side=1))
    assert messages == []


def test_overlap_plays_at_once_on_top_of_the_queue(tmp_path, messages):
    engine = recording_engine(tmp_path, messages)
    engine.play_signal("own_ship")
    engine.play_signal("prompt", overlap=True)
    engine.wait_until_idle(10)
    engine.close()
    recorded, _ = read_wav(tmp_path / "r.wav")
    own, tick = synthesise("own_ship", 0, "quick"), synthesise("prompt", 0, "quick")
    assert len(recorded) < len(own) + 256          # together, not one after the other

    def mixed_at(offset):
        mix = own.copy()
        mix[offset:offset + len(tick)] += tick
        return np.abs(recorded[:len(own)].astype(int) - to_int16(mix * 0.5).astype(int)).max() <= 1
    # the tick starts on a block boundary within a few blocks of the call, on top of the tone
    assert any(mixed_at(offset) for offset in range(0, 4800, 256))


def test_stop_cuts_everything_off_at_once(tmp_path, messages):
    engine = recording_engine(tmp_path, messages)
    for _ in range(3):
        engine.play_signal("own_ship")
    time.sleep(0.3)
    engine.stop()
    assert not engine.busy()
    engine.wait_until_idle(1)
    engine.close()
    recorded, rate = read_wav(tmp_path / "r.wav")
    assert len(recorded) / rate < 0.6              # 3 s queued; cut after about 0.3 s
    assert np.abs(recorded[-10:]).max() < 30       # faded out, no click at the cut


def test_volume_and_timing_follow_the_settings(tmp_path, messages):
    engine = recording_engine(tmp_path, messages)
    engine.apply_settings(Settings(speech_volume=0.25, signal_volume=0.25, timing="faithful"))
    engine.play_signal("answer_1")
    engine.wait_until_idle(10)
    engine.close()
    recorded, _ = read_wav(tmp_path / "r.wav")
    assert np.array_equal(recorded, expected_queue(["answer_1"], volume=0.25, timing="faithful"))


def test_no_device_gives_one_plain_message_and_a_text_only_sink(monkeypatch, messages):
    monkeypatch.setenv(DEVICE_ENV, "no-such-device")
    sink = open_sound(Settings(), speech=False, notify=messages.append)
    assert isinstance(sink, NullSink)
    assert len(messages) == 1 and messages[0].startswith("Sound is off:") and "text" in messages[0]
    sink.play_signal("answer_3", 1)   # the game goes on
    sink.stop()
    sink.close()


def test_no_portaudio_gives_one_plain_message(monkeypatch, messages):
    monkeypatch.setitem(sys.modules, "sounddevice", None)   # import fails, as without libportaudio2
    sink = open_sound(Settings(), speech=False, notify=messages.append)
    assert isinstance(sink, NullSink)
    assert len(messages) == 1 and "PortAudio" in messages[0]


def test_no_device_still_records(monkeypatch, tmp_path, messages):
    monkeypatch.setenv(DEVICE_ENV, "no-such-device")
    sink = open_sound(Settings(speech_volume=0.5, signal_volume=0.5, timing="quick"), speech=False,
                      record_path=str(tmp_path / "r.wav"), notify=messages.append)
    assert len(messages) == 1
    sink.play_signal("answer_3")
    sink.wait_until_idle(5)
    sink.close()
    recorded, _ = read_wav(tmp_path / "r.wav")
    assert np.array_equal(recorded, expected_queue(["answer_3"]))


def test_unknown_signal_name_is_reported_once_and_the_game_goes_on(tmp_path, messages):
    engine = recording_engine(tmp_path, messages)
    assert engine.play_signal("answer_9") is None
    assert engine.play_signal("answer_9") is None
    engine.close()
    assert len(messages) == 1 and "answer_9" in messages[0]


def test_text_mode_is_a_null_sink_without_any_message(messages):
    assert isinstance(open_sound(Settings(), speech=False, signals=False, notify=messages.append), NullSink)
    assert messages == []


@pytest.mark.audio
def test_recording_with_a_device_is_sample_exact(pulse, tmp_path, messages):
    engine = AudioEngine(Settings(speech_volume=0.5, signal_volume=0.5, timing="quick"), speech=False,
                         record_path=tmp_path / "r.wav", notify=messages.append)
    assert engine.output == "device", messages
    for name in ["answer_1", "answer_2"]:
        engine.play_signal(name, side=2)
    engine.wait_until_idle(10)
    engine.close()
    recorded, _ = read_wav(tmp_path / "r.wav")
    # the device asks for blocks of its own size: the sounds are exact, then silence
    expected = expected_queue(["answer_1", "answer_2"], side=2, block=1)
    assert np.array_equal(recorded[:len(expected)], expected)
    assert not recorded[len(expected):].any()


@pytest.mark.audio
def test_a_device_lost_mid_game_gives_one_message_then_text(pulse, messages):
    engine = AudioEngine(Settings(), speech=False, notify=messages.append)
    assert engine.output == "device", messages
    engine.play_signal("answer_4")
    engine._stream.abort()   # the stream ends under the engine, as when the host API fails
    time.sleep(0.1)
    for _ in range(3):
        engine.play_signal("answer_1")   # no exception: nothing plays
    assert not engine.busy()
    engine.close()
    assert len(messages) == 1 and messages[0].startswith("Sound stopped")


@pytest.mark.audio
def test_speech_never_prints_to_standard_output(pulse, tmp_path):
    script = (
        "from audio_console.audio import open_sound\n"
        "from audio_console.base.settings import Settings\n"
        "sink = open_sound(Settings(), notify=print)\n"
        "sink.speak('answer three')\n"
        "sink.speak('D5 discovered, ship found')\n"
        "print('game line')\n"
        "sink.wait_until_idle(10)\n"
        "sink.close()\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "game line\n"


def test_play_samples_takes_other_rates_and_refuses_bad_shapes_plainly(tmp_path, messages):
    engine = recording_engine(tmp_path, messages)
    t = np.arange(12000) / 24000
    tone = (0.4 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)     # 0.5 s at 24 kHz, mono
    assert engine.play_samples(tone, 24000) is not None
    assert engine.play_samples(np.zeros((10, 3)), 48000) is None
    engine.wait_until_idle(5)
    engine.close()
    recorded, rate = read_wav(tmp_path / "r.wav")
    assert abs(len(recorded) / rate - 0.5) < 0.01                        # same length in time
    spectrum = np.abs(np.fft.rfft(recorded[:, 0].astype(float)))
    assert abs(np.argmax(spectrum) * rate / len(recorded) - 440) < 5     # same pitch
    assert len(messages) == 1 and "cannot play these samples" in messages[0]


def test_a_board_line_is_sonified_by_the_engine_as_long_as_its_points(tmp_path, messages):
    # "listen to row D": the output layer hands the cells down; the engine makes the sound
    engine = recording_engine(tmp_path, messages)
    stereo, rate = line_sonification([(c, 9, 3, "open") for c in range(9)], rows=7)
    assert engine.play_board_line([(c, 9, 3, "open") for c in range(9)], rows=7) is not None
    engine.wait_until_idle(10)
    engine.close()
    recorded, recorded_rate = read_wav(tmp_path / "r.wav")
    assert abs(len(recorded) / recorded_rate - len(stereo) / rate) < 0.02
    assert np.abs(recorded).max() > 0 and messages == []
