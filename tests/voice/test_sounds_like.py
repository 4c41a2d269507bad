"""A free transcript that says a NATO point the way it sounds agrees with the phrase:
real people's clearly said points are acted on at once, and a transcript that names
another point never helps the wrong one. The evidence below is what tiny.en gave for
real people's clips of the NATO tuning corpus (issue 28)."""
from __future__ import annotations

import pytest

from audio_console.base.settings import Settings
from audio_console.voice.recognizer import Decoded, Evidence
from audio_console.voice.sounds_like import sounds_like_point
from audio_console.voice.trust import decide


@pytest.mark.parametrize("phrase, transcript", [
    ("foxtrot seven", "Boxtrot 7. Boxtrot 7"),
    ("foxtrot four", "Boxtruck 4. Boxtruck 4"),
    ("foxtrot three", "Box truck 3. Box truck 3. Box"),   # two words, the last cut short
    ("charlie three", "Charlie 3. Charley 3. Charley"),
    ("golf three", "Go 3"),                               # the start of "golf" alone
    ("golf eight", "Gal 8."),
    ("delta five", "delta five"),                         # numbers as words too
])
def test_a_transcript_spelled_otherwise_but_sounding_like_the_point_agrees(phrase, transcript):
    assert sounds_like_point(phrase, transcript)


@pytest.mark.parametrize("phrase, transcript", [
    ("alpha three", "Delta 3."),                 # another point: a real wrong move in babble
    ("golf three", "Golf 4"),                    # the number must be the phrase's
    ("charlie seven", "Watch Charlie 7."),       # a word before it: talk, not the point
    ("delta three", "Delta 3 is a good film."),  # chatter after it
    ("golf three", "Call 3."),                   # as near to "echo" as to "golf"
    ("echo three", "Go 3"),
    ("bravo two", "Brother 2"),
    ("d five", "D 5"),                           # plain letters keep their own rules
    ("mark delta five", "Mark Delta 5."),         # only a bare point
    ("delta five", "5"),
    ("delta five", ""),
])
def test_a_transcript_naming_something_else_does_not_agree(phrase, transcript):
    assert not sounds_like_point(phrase, transcript)


def evidence(command, score, margin, no_speech, transcript, second_look=True):
    return Evidence(command, score, margin, no_speech, transcript, False, second_look=second_look)


@pytest.mark.parametrize("phrase, command, ev", [
    # Kahn's clean "charlie three" (tests/voice/real/nato_charlie3.wav), asked at 0.66 before
    ("charlie three", "query C3", evidence("query C3", -0.30, 5.4, 0.05, "Charlie 3. Charley 3. Charley")),
    # Hansen's clean "foxtrot four", asked at 0.64 before
    ("foxtrot four", "query F4", evidence("query F4", -1.13, 7.2, 0.1, "Boxtruck 4. Boxtruck 4")),
])
def test_a_clearly_said_point_spelled_otherwise_is_acted_on_at_once(galaxis_grammar, phrase, command, ev):
    heard = decide(Decoded(phrase, evidence=ev), galaxis_grammar, Settings())
    assert (heard.action, heard.command.text) == ("act", command)


def test_a_weak_point_that_sounds_alike_is_still_asked_about(galaxis_grammar):
    # Hansen's clean "foxtrot two": the best phrase scored -1.02 a token, 0.5 nats ahead
    ev = evidence("query F2", -1.02, 0.5, 0.46, "Boxtrot 2. Boxtrot 2")
    heard = decide(Decoded("foxtrot two", evidence=ev), galaxis_grammar, Settings())
    assert (heard.action, heard.command.text) == ("confirm", "query F2")


def test_the_wrong_point_a_transcript_does_not_name_is_not_acted_on(galaxis_grammar):
    # babble 5 dB: "charlie three" said, "charlie seven" the best phrase, asked before
    ev = evidence("query C7", -1.13, 6.1, 0.34, "Watch Charlie 7.")
    heard = decide(Decoded("charlie seven", evidence=ev), galaxis_grammar, Settings())
    assert heard.action != "act"
