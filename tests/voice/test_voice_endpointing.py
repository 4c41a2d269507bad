"""Cutting utterances out of a continuous microphone stream (no device needed)."""
import numpy as np

from audio_console.voice.audio import wav_pcm16
from audio_console.voice.listener import FRAME_BYTES, UtteranceCutter


def frames(pcm):
    for i in range(0, len(pcm) - FRAME_BYTES + 1, FRAME_BYTES):
        yield pcm[i:i + FRAME_BYTES]


def test_two_phrases_with_a_pause_are_two_utterances(speech):
    one = wav_pcm16(speech.say("delta five", "flite:slt"))
    two = wav_pcm16(speech.say("read row echo", "flite:slt"))
    silence = bytes(32000)   # one second
    stream = silence + one + silence + two + silence
    cutter = UtteranceCutter()
    utterances = [u for u in (cutter.push(f) for f in frames(stream)) if u]
    assert len(utterances) == 2
    for got, said in zip(utterances, (one, two)):
        # each holds the phrase (within 0.4 s either way), not the whole stream
        assert abs(len(got) - len(said)) < 0.4 * 32000 + len(said) * 0.5


def test_silence_is_no_utterance():
    cutter = UtteranceCutter()
    assert not any(cutter.push(f) for f in frames(bytes(3 * 32000)))
    assert cutter.flush() is None


def test_speech_cut_off_by_the_end_of_input_is_flushed(speech):
    one = wav_pcm16(speech.say("golf two", "flite:slt"))
    cutter = UtteranceCutter()
    results = [cutter.push(f) for f in frames(bytes(16000) + one)]
    assert not any(results)
    assert cutter.flush()


def test_endless_loud_noise_is_dropped_not_kept_growing():
    rng = np.random.default_rng(0)
    noise = (rng.standard_normal(16000 * 10) * 8000).astype("<i2").tobytes()
    cutter = UtteranceCutter()
    for f in frames(noise):
        cutter.push(f)
    assert len(cutter._speech) < 8.5 * 32000
