"""Barge-in offline: the console's own speech (espeak-ng, as the console speaks) comes
back into the microphone 60 ms later at -6 dB, and a real person's "stop" (Speech
Commands, tests/voice/real/bargein) is said over it. The canceller, fed what the
console played, must take the echo out, leave the person's word to be heard as
"stop" by the real recognizer, and tell the echo-only stretches from the word."""
from pathlib import Path

import numpy as np
import pytest

from audio_console.audio.echo_reference import EchoReference
from audio_console.base.settings import Settings
from audio_console.voice import echo_cancel
from audio_console.voice.audio import read_wav, resample, wav_pcm16
from audio_console.voice.trust import decide

pytestmark = pytest.mark.skipif(not echo_cancel.available(), reason="pywebrtc-audio is not installed")

REAL = Path(__file__).parent / "real" / "bargein"
LINE = ("Hint 3: query delta five. The answer is two, because two ships are seen from there; "
        "foxtrot one is empty and golf nine answered three. Say stop to cut me off.")


@pytest.fixture(scope="module")
def console_line(speech):
    x, rate = read_wav(speech.say(LINE, "espeak:en"))
    return resample(x, rate, 48000) * 0.8


def _through_the_room(console_line, clip: Path | None, at: float = 6.0):
    """The microphone's 30 ms frames cleaned against the console's output, as the
    listener does; returns the canceller, the raw and the cleaned 16 kHz samples."""
    reference = EchoReference(48000)
    canceller = echo_cancel.EchoCanceller(reference)
    far16 = resample(console_line, 48000, 16000)
    near = np.zeros(len(far16), np.float32)
    delay = int(0.06 * 16000) + int(0.03 * 16000)   # the room's path, beyond the reader's own lead
    near[delay:] = far16[:-delay] * 10 ** (-6 / 20)
    if clip is not None:
        word = np.frombuffer(wav_pcm16(clip), "<i2").astype(np.float32) / 32768
        i = int(at * 16000)
        near[i:i + len(word)] += word
    raw = (np.clip(near, -1, 1) * 32767).astype("<i2")
    cleaned = []
    for k in range(0, len(raw) - 480, 480):
        block = console_line[k * 3:(k + 480) * 3]   # the engine writes what it plays ...
        reference.write(np.stack([block, block], axis=1))
        cleaned.append(canceller.clean(raw[k:k + 480].tobytes()))   # ... the microphone hears it
    return canceller, raw[:len(cleaned) * 480], np.frombuffer(b"".join(cleaned), "<i2")


def _db(x):
    y = x.astype(np.float32) / 32768
    return 10 * np.log10(np.mean(y * y) + 1e-12)


def test_the_consoles_own_speech_is_taken_out_and_known_as_its_echo(console_line):
    canceller, raw, cleaned = _through_the_room(console_line, None)
    later = slice(3 * 16000, len(raw))          # once the canceller has found the echo
    assert _db(raw[later]) - _db(cleaned[later]) > 25
    assert canceller.echo_only(30)


@pytest.mark.slow
@pytest.mark.parametrize("clip", sorted(REAL.glob("stop_*.wav")), ids=lambda p: p.stem)
def test_a_real_stop_said_over_the_console_is_heard_as_stop(console_line, clip, galaxis_grammar):
    from audio_console.voice.whisper_engine import WhisperRecognizer
    canceller, raw, cleaned = _through_the_room(console_line, clip)
    word = slice(int(5.8 * 16000), int(7.2 * 16000))
    frames = (7.2 - 5.8) / 0.03
    recognizer = WhisperRecognizer()
    recognizer.set_grammar(galaxis_grammar)
    heard = decide(recognizer.decode(cleaned[word].tobytes(), voiced=True), galaxis_grammar, Settings())
    assert heard.command is not None and heard.command.name == "stop", heard
    # the person's word is not mistaken for the console's echo (heard up to its end)
    canceller, _, _ = _through_the_room(console_line[: int(7.2 * 48000)], clip)
    assert not canceller.echo_only(int(frames))
    # without the canceller the console's voice over the word loses it
    unheard = decide(recognizer.decode(raw[word].tobytes(), voiced=True), galaxis_grammar, Settings())
    assert unheard.command is None or unheard.command.name != "stop"
