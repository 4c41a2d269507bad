"""Yes and no while "Did you say ...?" waits (voice/answers.py, voice/dialogue.py): the
answers' own bar in logic, then real people's yes and no in noise through the real
Whisper tiny.en."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from audio_console.commands import Command
from audio_console.base.settings import Settings
from audio_console.voice import Heard
from audio_console.voice.answers import as_answer, with_answer
from audio_console.voice.audio import wav_pcm16
from audio_console.voice.dialogue import VoiceDialogue
from audio_console.voice.recognizer import Decoded, Evidence
from audio_console.voice.trust import decide
from tests.voice.test_real_speech import whisper  # noqa: F401 - the real tiny.en, set to the grammar

REAL = Path(__file__).parent / "real"
D5 = Command("query", "query D5", (("point", "D5"),))


def said(text, command, score, transcript, agrees=True, no_speech=0.1, margin=3.0, second_look=False):
    return Decoded(text, evidence=Evidence(command, score, margin, no_speech, transcript, agrees,
                                           second_look=second_look))


def both(decoded, grammar, settings=None):
    settings = settings or Settings()
    return with_answer(decide(decoded, grammar, settings), decoded, grammar, settings)


def test_a_yes_written_alone_but_scored_under_the_usual_floor_is_taken_as_an_answer(galaxis_grammar):
    heard = both(said("yes", "yes", -1.5, "Yeah."), galaxis_grammar)
    assert heard.action != "act"                       # the usual bar: not sure enough
    assert heard.as_answer is not None and heard.as_answer.action == "act"
    assert heard.as_answer.command.name == "yes"


def test_an_answer_begun_with_but_followed_by_other_words_is_taken(galaxis_grammar):
    heard = both(said("no", "no", -1.7, "No, you're holding", agrees=False), galaxis_grammar)
    assert heard.as_answer is not None and heard.as_answer.command.name == "no"


def test_a_transcript_with_both_answers_is_no_answer(galaxis_grammar):
    """ "Yeah, no": the one that would make the move the player refused is never guessed."""
    assert as_answer(said("yes", "yes", -1.3, "Yeah, no.", agrees=False), galaxis_grammar, Settings()) is None


@pytest.mark.parametrize("score, no_speech, transcript", [
    (-2.2, 0.1, "Yeah."),       # under the answers' floor: chatter scores as well
    (-1.5, 0.6, "Yeah."),       # Whisper doubts anyone spoke
    (-1.5, 0.1, "Here."),       # the free transcript does not say it
])
def test_a_doubtful_yes_is_no_answer(galaxis_grammar, score, no_speech, transcript):
    decoded = said("yes", "yes", score, transcript, agrees=transcript == "Yeah.", no_speech=no_speech)
    assert both(decoded, galaxis_grammar).as_answer is None


def test_other_commands_and_strict_clarity_keep_the_usual_bar(galaxis_grammar):
    assert both(said("delta five", "query D5", -1.5, "Delta 5."), galaxis_grammar).as_answer is None
    strict = Settings(clarity=0.8)
    assert both(said("yes", "yes", -1.5, "Yeah."), galaxis_grammar, strict).as_answer is None


def test_the_dialogue_takes_the_answer_only_while_did_you_say_waits():
    yes = Command("yes", "yes")
    unsure_yes = Heard("yes", None, 0.3, False, as_answer=Heard("yes", yes, 0.3, False))
    dialogue = VoiceDialogue()
    assert dialogue.take(unsure_yes).act is None             # nothing asked: the usual bar
    dialogue.asking(dialogue.take(Heard("delta five", D5, 0.5, True)).ask)
    assert dialogue.take(unsure_yes).act == yes
    dialogue.answered("yes")
    assert dialogue.take(unsure_yes).act is None             # answered: the usual bar again


def test_noise_that_would_be_an_answer_is_silence_when_nothing_is_asked():
    silent = Heard("", None, 0.0, False, as_answer=Heard("no", Command("no", "no"), 0.2, False), silent=True)
    dialogue = VoiceDialogue()
    assert dialogue.take(silent).silent and dialogue.misheard == 0
    dialogue.asking(D5)
    assert dialogue.take(silent).act == Command("no", "no")


def test_another_question_than_did_you_say_keeps_the_usual_bar():
    dialogue = VoiceDialogue()
    dialogue.asking(None)                    # "Start a new game? This one will be lost."
    assert not dialogue.expects_answer


# --- real people's yes and no in noise, the real model ------------------------------

def test_a_real_yes_over_dishes_confirms_the_point_asked_about(whisper, galaxis_grammar):
    """A person's "yes" at 10 dB over running water, written "Yeah." but scored under
    the usual floor. The encoder's keyword opinion (keywords.py) now has it acted on
    at once; without that opinion the usual bar drops it, and the answers' own bar
    still takes it while "Did you say D5?" waits."""
    decoded = whisper.decode(wav_pcm16(REAL / "yes_kitchen10.wav"))
    assert both(decoded, galaxis_grammar).action == "act"
    assert decoded.evidence is not None
    decoded.evidence = replace(decoded.evidence, keyword=None, keyword_p=0.0)
    heard = both(decoded, galaxis_grammar)
    assert heard.action != "act"
    dialogue = VoiceDialogue()
    dialogue.asking(D5)
    assert dialogue.take(heard).act == Command("yes", "yes")


def test_a_real_no_in_babble_is_taken_as_no_never_as_yes(whisper, galaxis_grammar):
    heard = both(whisper.decode(wav_pcm16(REAL / "no_babble10.wav")), galaxis_grammar)
    dialogue = VoiceDialogue()
    dialogue.asking(D5)
    assert dialogue.take(heard).act == Command("no", "no")
