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


def _paused(speech, first, second, pause):
    """flite saying `first`, `pause` seconds of silence, then `second` (silences trimmed)."""
    def trimmed(pcm):
        x = np.frombuffer(pcm, "<i2")
        loud = np.flatnonzero(np.abs(x) > 0.02 * np.abs(x).max())
        return x[loud[0]:loud[-1] + 1].tobytes()
    one = trimmed(wav_pcm16(speech.say(first, "flite:slt")))
    two = trimmed(wav_pcm16(speech.say(second, "flite:slt")))
    return one + bytes(int(pause * 16000) * 2) + two


def test_a_player_pausing_inside_a_command_is_one_utterance(speech):
    # "delta ... five": a pause between letter and number must not cut the command
    # (with the old 0.3 s window a pause of 0.35 s cut it now and then)
    stream = bytes(32000) + _paused(speech, "delta", "five", 0.35) + bytes(32000)
    cutter = UtteranceCutter()
    utterances = [u for u in (cutter.push(f) for f in frames(stream)) if u]
    assert len(utterances) == 1
    assert len(utterances[0]) > 32000 * 0.35


def test_the_early_guess_comes_before_the_end_and_is_confirmed(speech):
    said = wav_pcm16(speech.say("bravo three", "flite:slt"))
    cutter = UtteranceCutter(early_window=0.15)
    guessed_at = closed_at = None
    for i, f in enumerate(frames(bytes(32000) + said + bytes(32000))):
        if cutter.push(f):
            closed_at = i
            break
        if cutter.early is not None and guessed_at is None:
            guessed_at = i
    assert guessed_at is not None and closed_at is not None and guessed_at < closed_at
    assert cutter.closed_on_guess == cutter.early_count   # nothing was said after the guess


def test_speech_after_a_pause_voids_the_early_guess(speech):
    stream = bytes(32000) + _paused(speech, "rule", "out bravo five", 0.4) + bytes(32000)
    cutter = UtteranceCutter(window=0.6, early_window=0.15)
    utterances, guesses = [], set()
    for f in frames(stream):
        u = cutter.push(f)
        if cutter.early is not None:
            guesses.add(cutter.early_count)
        if u:
            utterances.append((u, cutter.closed_on_guess))
    assert len(utterances) == 1
    assert len(guesses) == 2                 # one guess after "rule", one at the end
    assert utterances[0][1] is None          # no guess taken: the whole utterance is decoded
