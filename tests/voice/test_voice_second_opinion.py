"""The recognizer's second opinion: a noise-reduced copy of the utterance must decode
to the same command before the console acts without asking (docs/voice.md: in
babble the first decode was often sure of a wrong command)."""
import numpy as np
import pytest

from audio_console.settings import Settings
from audio_console.voice import frontend
from audio_console.voice.audio import read_wav, to_pcm16, wav_pcm16
from audio_console.voice.trust import decide


def _band_power(x, lo, hi):
    spectrum = np.abs(np.fft.rfft(x)) ** 2
    freqs = np.fft.rfftfreq(len(x), 1 / 16000)
    return spectrum[(freqs >= lo) & (freqs < hi)].sum()


def test_denoise_removes_steady_hiss_and_keeps_the_voice():
    rng = np.random.default_rng(0)
    t = np.arange(32000) / 16000
    voice = np.where((t > 0.5) & (t < 1.5), 0.3 * np.sin(2 * np.pi * 440 * t), 0).astype(np.float32)
    noisy = voice + 0.03 * rng.standard_normal(len(t)).astype(np.float32)
    cleaned = frontend.denoise(noisy)
    assert len(cleaned) == len(noisy)
    lead_in = slice(0, 6000)   # hiss only
    # plain subtraction of the mean noise spectrum: the hiss falls by about 4 dB
    assert np.mean(cleaned[lead_in] ** 2) < 0.5 * np.mean(noisy[lead_in] ** 2)
    tone = slice(10000, 22000)
    assert _band_power(cleaned[tone], 400, 480) > 0.7 * _band_power(voice[tone], 400, 480)


def test_denoise_leaves_short_clips_and_silence_alone():
    short = np.ones(100, np.float32) * 0.1
    assert np.array_equal(frontend.denoise(short), short)
    silence = np.zeros(16000, np.float32)
    assert np.allclose(frontend.denoise(silence), 0)


@pytest.mark.slow
def test_a_sure_command_is_still_acted_on_when_the_second_opinion_agrees(sphinx, galaxis_grammar, speech):
    decoded = sphinx.decode(wav_pcm16(speech.say("delta five", "flite:slt")))
    heard = decide(decoded, galaxis_grammar, Settings())
    assert decoded.detail["second"] == "delta five"
    assert heard.command is not None and heard.command.text == "query D5" and not heard.confirm


@pytest.mark.slow
def test_a_second_opinion_that_hears_another_command_turns_acting_into_asking(
        sphinx, galaxis_grammar, speech, monkeypatch):
    # The "noise-reduced copy" is replaced by a real recording of another command:
    # the first decode is sure of D5, the second hears E6, so the player is asked.
    samples, rate = read_wav(speech.say("echo six", "flite:slt"))
    other = frontend.to_float(to_pcm16(samples, rate))
    monkeypatch.setattr(frontend, "denoise", lambda x: other)
    decoded = sphinx.decode(wav_pcm16(speech.say("delta five", "flite:slt")))
    heard = decide(decoded, galaxis_grammar, Settings())
    assert decoded.detail["second"] == "echo six"
    assert heard.command is not None and heard.command.text == "query D5"
    assert heard.confirm
    never = decide(decoded, galaxis_grammar, Settings(confirm="never"))
    assert never.command is None
