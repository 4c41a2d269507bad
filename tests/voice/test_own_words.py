"""The console's own words heard back through the speakers are dropped, not asked
about ("Did you say D5?" after the console itself said "D5 answered 1"), while a
player's words said over the console are passed on (voice/own_words.py, report.py).
The live check, through PulseAudio and the sound server's canceller, is in
test_bargein_live.py."""
import time
from dataclasses import dataclass

from audio_console.app.games import grammar_for_game
from audio_console.base.settings import Settings
from audio_console.voice.frames import FRAME_BYTES
from audio_console.voice.own_words import said_by_the_console
from audio_console.voice.recognizer import Decoded, Evidence
from audio_console.voice.report import Reporter

ANSWER = "D5 answered 1: one ship sighted."
QUESTION = "Did you say delta five? Yes or no."


def test_the_words_of_a_line_being_said_are_the_consoles_own():
    assert said_by_the_console("D5.", [ANSWER])
    assert said_by_the_console("D5. D5.", [ANSWER])              # Whisper repeats
    assert said_by_the_console("D5 answered one.", [ANSWER])     # number words and digits alike
    assert said_by_the_console("Yes or no.", [QUESTION])
    assert said_by_the_console("answered 1 one ship", ["D5 answered 1:", "one ship sighted."])   # spoken in parts


def test_a_players_words_are_not_the_consoles_own():
    assert not said_by_the_console("Delta 5.", [ANSWER])         # the player's NATO point
    assert not said_by_the_console("E5.", [ANSWER])
    assert not said_by_the_console("ship D5", [ANSWER])          # not in the line's order
    assert not said_by_the_console("Stop.", [ANSWER, QUESTION])
    assert not said_by_the_console("D5.", [])                    # the console said nothing lately
    assert not said_by_the_console("", [ANSWER])


class SpeakingSink:
    def __init__(self, lines):
        self.lines = lines

    def busy(self) -> bool:
        return True

    def spoken_within(self, seconds: float) -> list[str]:
        return self.lines

    def hold(self, on: bool) -> None:
        pass


@dataclass
class OnsetHold:
    began_over: bool
    holding: bool

    def release(self, now=None) -> None:
        pass


class PassesEverything:
    """An echo measure that never calls the utterance the console's echo."""

    def echo_only(self, frames: int) -> bool:
        return False

    def levels_db(self, frames: int) -> dict:
        return {}


def _report(transcript: str, hold: OnsetHold, lines=(ANSWER,), settings=None) -> tuple[list, list]:
    grammar = grammar_for_game("galaxis")
    events, heard = [], []
    reporter = Reporter(settings or Settings(), SpeakingSink(list(lines)), PassesEverything(), hold,
                        lambda event, **fields: events.append(event), room_db=lambda: None)
    evidence = Evidence(command="query D5", score=-0.1, margin=8.0, no_speech=0.01,
                        transcript=transcript, agrees=True)
    reporter(Decoded("d five", evidence=evidence), grammar, time.monotonic(), "whole",
             b"\0" * FRAME_BYTES * 20, 0.0, heard.append)
    return heard, events


def test_the_consoles_own_point_heard_back_unheld_is_dropped():
    heard, events = _report("D5.", OnsetHold(began_over=True, holding=False))
    assert heard == []
    assert "the console's own words: dropped" in events


def test_a_point_held_at_its_onset_is_the_players_and_passed_on():
    heard, _ = _report("D5.", OnsetHold(began_over=True, holding=True))
    assert [h.command.text for h in heard] == ["query D5"]


def test_a_point_begun_in_silence_is_passed_on():
    heard, _ = _report("D5.", OnsetHold(began_over=False, holding=False))
    assert [h.command.text for h in heard] == ["query D5"]


def test_with_headphones_nothing_is_the_consoles_own():
    heard, _ = _report("D5.", OnsetHold(began_over=True, holding=False), settings=Settings(headphones=True))
    assert [h.command.text for h in heard] == ["query D5"]


def _not_understood(hold: OnsetHold, settings=None) -> list:
    """A clear utterance that names no command, words the console did not say ("Fine."), reported with `hold`."""
    grammar = grammar_for_game("galaxis")
    heard: list = []
    reporter = Reporter(settings or Settings(), SpeakingSink([ANSWER]), PassesEverything(), hold,
                        lambda event, **fields: None, room_db=lambda: -70.0)
    evidence = Evidence(command=None, score=-3.0, margin=0.0, no_speech=0.01, transcript="Fine.", agrees=False)
    pcm = b"".join((b"\0\0" if i % 2 else b"\x00\x20") * (FRAME_BYTES // 2) for i in range(25))   # 0.75 s, loud
    reporter(Decoded("", evidence=evidence), grammar, time.monotonic(), "whole", pcm, 0.0, heard.append)
    return heard


def test_not_understood_over_the_console_unheld_gets_no_say_again():
    """What the canceller left of the console's own answer, garbled, is not a player
    to ask "Say again." (held at its onset, or with headphones, it is)."""
    assert _not_understood(OnsetHold(began_over=True, holding=False)) == []
    asked_again = _not_understood(OnsetHold(began_over=True, holding=True))
    assert [(h.command, h.text) for h in asked_again] == [(None, "")]
    with_headphones = _not_understood(OnsetHold(began_over=True, holding=False), Settings(headphones=True))
    assert [(h.command, h.text) for h in with_headphones] == [(None, "")]


def _voiceless(command: str, transcript: str, score: float = -0.3) -> tuple[list, list]:
    """An utterance begun over the console with no voice heard (vad.LOUD_ONSET),
    held at its onset, reported."""
    grammar = grammar_for_game("galaxis")
    events, heard = [], []
    reporter = Reporter(Settings(), SpeakingSink([ANSWER]), PassesEverything(), OnsetHold(True, True),
                        lambda event, **fields: events.append(event), room_db=lambda: None,
                        voiceless=lambda: True)
    evidence = Evidence(command=command, score=score, margin=8.0, no_speech=0.05, transcript=transcript, agrees=True)
    reporter(Decoded(command, evidence=evidence), grammar, time.monotonic(), "whole",
             b"\0" * FRAME_BYTES * 20, 0.0, heard.append)
    return heard, events


def test_begun_over_the_console_without_a_voice_only_a_stop_is_taken():
    """Loud frames with no voice heard begin an utterance over the console (what the
    canceller leaves of a short stop); a leak of the console's own voice has such
    frames too, and was asked about live as "more": only a stop of it is taken."""
    heard, events = _voiceless("more", "More")
    assert heard == [] and "begun over the console without a voice, not a stop: dropped" in events
    heard, _ = _voiceless("stop", "Stop.")
    assert [h.command.name for h in heard] == ["stop"]
