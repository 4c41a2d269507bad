"""Steady noise taken out before Whisper (denoise.py, second_look.with_cleaned_copy)."""
from __future__ import annotations

import numpy as np

from audio_console.voice.audio import read_wav, resample
from audio_console.voice.denoise import cleaned, noise_of, steady_noise
from audio_console.voice.whisper_engine import WhisperRecognizer
from audio_console.voice.trust import decide
from audio_console.base.settings import Settings


def pcm_of(x: np.ndarray) -> bytes:
    return (np.clip(x, -1, 1) * 32767).astype("<i2").tobytes()


def db(x: np.ndarray) -> float:
    return float(10 * np.log10(np.mean(x.astype(np.float64) ** 2) + 1e-12))


def spoken(speech, text: str, voice: str = "flite:slt") -> np.ndarray:
    """The phrase at an active level of -20 dBFS with a little silence around it."""
    x, rate = read_wav(speech.say(text, voice))
    x = resample(x, rate, 16000)
    x = np.concatenate([np.zeros(4800, np.float32), x, np.zeros(6400, np.float32)])
    return x / np.sqrt(np.mean(x[np.abs(x) > 0.02] ** 2)) * 0.1


def test_white_noise_is_steady_and_voices_and_a_quiet_room_are_not(speech):
    rng = np.random.default_rng(0)
    hiss = rng.standard_normal(32000).astype(np.float32) * 0.03
    assert steady_noise(pcm_of(hiss))
    level, flatness = noise_of(pcm_of(hiss))
    assert abs(level - db(hiss)) < 1.5 and flatness > 0.9
    chatter = speech.chatter(3.0, -25.0)
    assert not steady_noise(pcm_of(chatter)), noise_of(pcm_of(chatter))
    room = spoken(speech, "delta five")
    room = room + rng.standard_normal(len(room)).astype(np.float32) * 10 ** (-70 / 20)
    assert not steady_noise(pcm_of(room))
    assert noise_of(b"") == (-120.0, 0.0)


def test_cleaning_takes_out_the_hiss_and_keeps_a_tone():
    rng = np.random.default_rng(1)
    t = np.arange(48000) / 16000
    tone = (0.2 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)
    tone[:16000] = 0                                  # one second of hiss alone first
    hiss = rng.standard_normal(48000).astype(np.float32) * 0.03
    out = np.frombuffer(cleaned(pcm_of(tone + hiss)), "<i2").astype(np.float32) / 32768
    assert len(out) == 48000
    assert db(out[2000:14000]) < db(hiss[2000:14000]) - 6        # the hiss alone: 6 dB less at least (8.5 here)
    assert abs(db(out[20000:46000]) - db(tone[20000:46000])) < 1.5   # the tone kept
    assert cleaned(b"\x01\x00") == b"\x01\x00"                     # too short: as it is


def test_a_command_in_steady_noise_is_understood_from_the_cleaned_copy(speech, galaxis_grammar):
    """flite's "charlie one" in white noise 10 dB below it: Whisper alone heard "read
    row E"; the cleaned copy scores better and is the command said."""
    recognizer = WhisperRecognizer()
    recognizer.set_grammar(galaxis_grammar)
    x = spoken(speech, "charlie one")
    noisy = pcm_of(x + np.random.default_rng(4).standard_normal(len(x)).astype(np.float32) * 0.1 * 10 ** (-10 / 20))
    decoded = recognizer.decode(noisy)
    heard = decide(decoded, galaxis_grammar, Settings())
    assert decoded.detail.get("denoised") is True, decoded.detail
    assert heard.command is not None and heard.command.text == "query C1", decoded.detail


def test_speech_in_a_quiet_room_is_decoded_once(speech, galaxis_grammar):
    recognizer = WhisperRecognizer()
    recognizer.set_grammar(galaxis_grammar)
    decoded = recognizer.decode(pcm_of(spoken(speech, "delta five")))
    assert "denoised" not in decoded.detail
    assert decoded.evidence is not None and decoded.evidence.command == "query D5"
