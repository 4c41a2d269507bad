"""No silent drops: speech surely said to the console, but not understood, is asked
to be said again; background talk, noise and far voices are not. Real speech: a
person's "stop" from Speech Commands (tests/voice/real/bargein)."""
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from audio_console.voice.addressed import spoke_to_me
from audio_console.voice.audio import wav_pcm16

STOP = Path(__file__).parent / "real" / "bargein" / "stop_a9abc695_nohash_1.wav"


@dataclass
class Said:        # the two things of Whisper's evidence that count here
    no_speech: float
    transcript: str


def _level_db(pcm: bytes) -> float:
    x = np.frombuffer(pcm, "<i2").astype(np.float32) / 32768
    frames = (x[: len(x) // 480 * 480].reshape(-1, 480) ** 2).mean(axis=1)
    return float(10 * np.log10(np.percentile(frames, 90) + 1e-12))


def test_a_real_short_word_said_close_to_the_microphone_is_asked_again():
    pcm = wav_pcm16(STOP)
    assert spoke_to_me(pcm, room_db=-60.0, evidence=Said(0.3, "Stup"))
    # an engine without evidence (Vosk) writes words whenever it heard some: "" stays silence
    assert not spoke_to_me(pcm, room_db=-60.0, evidence=None)


def test_the_same_word_barely_above_the_room_is_not():
    pcm = wav_pcm16(STOP)
    assert not spoke_to_me(pcm, room_db=_level_db(pcm) - 10, evidence=Said(0.3, "Stup"))


def test_a_long_stretch_of_speech_is_talk_not_a_command():
    pcm = wav_pcm16(STOP)
    talk = b"".join([pcm] * 4)      # four seconds of voice: a sentence, not a command
    assert not spoke_to_me(talk, room_db=-60.0, evidence=Said(0.2, "stop"))


def test_a_sentence_or_what_whisper_doubts_was_speech_is_not():
    pcm = wav_pcm16(STOP)
    assert not spoke_to_me(pcm, -60.0, Said(0.2, "I think we should order pizza tonight"))
    assert not spoke_to_me(pcm, -60.0, Said(0.8, "Stup"))
    assert not spoke_to_me(b"", -60.0, None)
