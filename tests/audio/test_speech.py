"""Speech rendered by pyttsx3 + espeak-ng into samples the engine mixes (no device needed)."""
import time

import numpy as np
import pytest

from audio_console.audio.engine import AudioEngine, _pan
from audio_console.audio.recorder import read_wav, to_int16
from audio_console.audio.signals import synthesise
from audio_console.audio.tts import Speech, SpeechUnavailable
from audio_console.base.settings import Settings

RATE = 48000


@pytest.fixture(scope="module")
def speech():
    try:
        s = Speech(RATE, rate=175, notify=lambda m: None)
    except SpeechUnavailable as error:
        pytest.skip(str(error))
    yield s
    s.close()


def test_a_phrase_becomes_speech_that_starts_at_once(speech):
    x = speech.render("D5, answer two")
    assert x.dtype == np.float32 and x.ndim == 1
    assert 0.5 < len(x) / RATE < 2.5
    loud = np.flatnonzero(np.abs(x) > 0.004)
    assert loud[0] < 0.005 * RATE                 # the leading silence is gone
    assert np.abs(x).max() > 0.1


def test_a_faster_rate_speaks_faster(speech):
    speech.set_voice(120, "")
    slow = speech.render("Team two, your turn")
    speech.set_voice(320, "")
    fast = speech.render("Team two, your turn")
    speech.set_voice(175, "")
    assert len(slow) > 1.7 * len(fast)


def test_an_unknown_voice_is_reported_once_and_the_default_speaks():
    messages = []
    s = Speech(RATE, rate=175, voice="no-such-voice", notify=messages.append)
    try:
        assert len(s.render("answer one")) > 0.3 * RATE
        assert len(s.render("answer two")) > 0.3 * RATE
    finally:
        s.close()
    assert messages == ["No voice called 'no-such-voice'; using the default voice."]


def test_a_voice_named_by_its_name_is_the_same_voice_as_by_its_id():
    """The renderer hands the synthesiser the voice's id, since SAPI5 takes nothing else
    (untestable here); with espeak-ng, "English (Scotland)" must still be that voice."""
    messages = []
    said = {}
    for voice in ("English (Scotland)", "gmw/en-gb-scotland", "gmw/en-us"):
        s = Speech(RATE, rate=175, voice=voice, notify=messages.append)
        said[voice] = s.render("Team two, your turn")
        s.close()
    assert messages == []
    by_name, by_id, other = (said[v] for v in ("English (Scotland)", "gmw/en-gb-scotland", "gmw/en-us"))
    # espeak-ng's output varies by a few samples from run to run: compare length and timbre.
    assert abs(len(by_name) - len(by_id)) < 0.01 * len(by_id)
    assert timbre(by_name) @ timbre(by_id) > 0.99 > timbre(by_id) @ timbre(other) + 0.02


def timbre(x):
    """The phrase's average magnitude spectrum, of unit length."""
    n = len(x) // 1024 * 1024
    spectrum = np.abs(np.fft.rfft(x[:n].reshape(-1, 1024) * np.hanning(1024), axis=1)).mean(axis=0)
    return spectrum / np.linalg.norm(spectrum)


def test_prewarm_makes_fixed_phrases_ready_and_speaking_goes_first(speech):
    phrases = ["answer zero", "answer four", "discovered", "answer three"]
    speech.prewarm(phrases)
    urgent = speech.render("Team one, your turn")     # not held up behind the prewarm jobs
    assert len(urgent) > 0
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not all(speech.cached(p) is not None for p in phrases):
        time.sleep(0.01)
    assert all(speech.cached(p) is not None for p in phrases)


def test_signal_then_speech_in_one_queue_sample_exact(tmp_path):
    engine = AudioEngine(Settings(speech_volume=0.5, signal_volume=0.5, timing="quick"), record_path=tmp_path / "r.wav",
                         notify=lambda m: None, use_device=False)
    if engine.speech is None:
        pytest.skip("no speech here")
    spoken = engine.speech.render("D5, answer one")     # so the expected samples are known
    engine.play_signal("answer_1", side=1)
    engine.speak("D5, answer one", side=1)
    engine.wait_until_idle(15)
    engine.close()
    recorded, _ = read_wav(tmp_path / "r.wav")
    expected = to_int16(np.concatenate([synthesise("answer_1", 1, "quick"), _pan(spoken, 1)]) * 0.5)
    assert np.array_equal(recorded[:len(expected)], expected)
    assert not recorded[len(expected):].any()


def test_when_no_driver_of_the_platform_starts_one_line_names_each(monkeypatch):
    """On a Mac without pyobjc (here: none) and without espeak-ng, speech is off with one
    line saying why for each driver tried, and the game goes on in text."""
    import sys

    from audio_console.audio import tts
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setitem(tts.FILE_DRIVERS, "darwin", ("nsss", "no_such_driver"))
    with pytest.raises(SpeechUnavailable) as raised:
        tts.open_driver()
    why = str(raised.value)
    assert why.startswith("nsss: ") and "; no_such_driver: " in why and "\n" not in why


def test_speech_and_signals_play_each_at_its_own_volume_sample_exact(tmp_path):
    """Issue 32 item 4: the signal at the signals' volume, the speech after it at the
    speech's, in the same queue; changed while the game goes on."""
    engine = AudioEngine(Settings(speech_volume=0.5, signal_volume=0.5, timing="quick"),
                         record_path=tmp_path / "r.wav", notify=lambda m: None, use_device=False)
    if engine.speech is None:
        pytest.skip("no speech here")
    spoken = engine.speech.render("D5, answer one")
    engine.apply_settings(Settings(speech_volume=0.3, signal_volume=0.9, timing="quick"))
    engine.play_signal("answer_1", side=1)
    engine.speak("D5, answer one", side=1)
    engine.wait_until_idle(15)
    engine.close()
    recorded, _ = read_wav(tmp_path / "r.wav")
    expected = to_int16(np.concatenate([synthesise("answer_1", 1, "quick") * np.float32(0.9),
                                        _pan(spoken, 1) * np.float32(0.3)]))
    assert np.array_equal(recorded[:len(expected)], expected)
