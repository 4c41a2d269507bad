"""The voice dialogue's decisions (voice/dialogue.py), one utterance after another: a
unit test of its logic; tests/console/test_session_voice.py plays the same through the
session, with the lines the player hears."""
from audio_console.commands import Command
from audio_console.voice import Heard
from audio_console.voice.dialogue import VoiceDialogue


def query(point: str) -> Command:
    return Command("query", f"query {point}", (("point", point),))


D5, B2, D2 = query("D5"), query("B2"), query("D2")


def test_a_sure_command_is_acted_on_and_an_unsure_one_asked_about_in_the_words_heard():
    dialogue = VoiceDialogue()
    assert dialogue.take(Heard("delta five", D5, 0.95, False)).act == D5
    turn = dialogue.take(Heard("delta five", D5, 0.5, True))
    assert turn.act is None and turn.ask == D5 and turn.words == "delta five"


def test_an_answer_is_never_asked_about():
    yes = Command("yes", "yes")
    assert VoiceDialogue().take(Heard("yes", yes, 0.5, True)).act == yes


def test_the_second_mishearing_in_a_row_says_back_what_was_heard_once():
    dialogue = VoiceDialogue()
    turns = [dialogue.take(Heard("the five", None, 0.2, False)) for _ in range(3)]
    assert [(t.act, t.ask, t.words) for t in turns] == [(None, None, ""), (None, None, "the five"),
                                                      (None, None, "")]
    assert dialogue.take(Heard("", None, 0.0, False)).words == ""     # a cough: nothing to say back


def test_a_command_understood_starts_the_count_again():
    dialogue = VoiceDialogue()
    dialogue.take(Heard("the five", None, 0.2, False))
    dialogue.understood()                                              # typed meanwhile
    assert dialogue.take(Heard("the five", None, 0.2, False)).words == ""


def test_heard_again_as_what_the_player_said_no_to_the_runner_up_is_asked():
    dialogue = VoiceDialogue()
    turn = dialogue.take(Heard("b two", B2, 0.4, True, runner_up=D2, runner_up_text="d two"))
    dialogue.asking(turn.ask)
    dialogue.answered("no")
    again = dialogue.take(Heard("b two", B2, 0.95, False, runner_up=D2, runner_up_text="d two"))
    assert again.act is None and again.ask == D2 and again.words == "d two"
    dialogue.asking(again.ask)
    dialogue.answered("yes")
    assert dialogue.take(Heard("b two", B2, 0.95, False)).act == B2   # a yes forgets the refusal


def test_without_a_runner_up_the_refused_command_is_asked_about_not_acted_on():
    dialogue = VoiceDialogue()
    dialogue.asking(dialogue.take(Heard("b two", B2, 0.4, True)).ask)
    dialogue.answered("no")
    again = dialogue.take(Heard("b two", B2, 0.95, False))
    assert again.act is None and again.ask == B2
