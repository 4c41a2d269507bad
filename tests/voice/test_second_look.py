"""The second look (second_look.py): an utterance the console would not act
on is decoded again at 0.9 and 1/0.9 times its speed, on real synthesized speech."""
from __future__ import annotations

import pytest

from audio_console.base.settings import Settings
from audio_console.voice.audio import wav_pcm16
from audio_console.voice.trust import decide
from audio_console.voice.second_look import SECOND_LOOK_SPEEDS
from audio_console.voice.whisper_engine import WhisperRecognizer


@pytest.fixture(scope="module")
def whisper(galaxis_grammar):
    recognizer = WhisperRecognizer()
    recognizer.set_grammar(galaxis_grammar)
    return recognizer


def test_a_command_missed_at_its_own_speed_is_found_at_another_and_asked_about(whisper, speech, galaxis_grammar):
    """flite's awb voice saying "mark b seven": Whisper wrote "0." and nothing was
    found; 1.11 times as long it is "Mark V7." and the search's best phrase is mark B7,
    asked about (a second look never acts on its own)."""
    pcm = wav_pcm16(speech.say("mark b seven", "flite:awb"))
    whisper.options.speeds = ()
    try:
        first = decide(whisper.decode(pcm), galaxis_grammar, Settings())
    finally:
        whisper.options.speeds = SECOND_LOOK_SPEEDS
    assert first.command is None or first.command.text != "mark B7"
    decoded = whisper.decode(pcm)
    heard = decide(decoded, galaxis_grammar, Settings())
    assert heard.command is not None and heard.command.text == "mark B7", decoded.detail
    assert heard.action == "confirm" and decoded.evidence.second_look
    assert decoded.detail["speed"] != 1.0


def test_a_sure_command_gets_no_second_look(whisper, speech, galaxis_grammar):
    decoded = whisper.decode(wav_pcm16(speech.say("charlie one", "espeak:en-us")))
    assert decide(decoded, galaxis_grammar, Settings()).action == "act"
    assert "speed" not in decoded.detail and not decoded.evidence.second_look
