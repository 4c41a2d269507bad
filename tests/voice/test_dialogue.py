"""The voice dialogue's decisions (voice/dialogue.py), one utterance after another: a
unit test of its logic; tests/console/test_session_voice.py plays the same through the
session, with the lines the player hears."""
import queue
import time

from audio_console.commands import Command
from audio_console.voice import Heard
from audio_console.voice.capture import Capture
from audio_console.voice.dialogue import VoiceDialogue
from audio_console.voice.frames import FRAME_BYTES


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


def test_a_yes_begun_before_the_question_waiting_gets_the_question_again():
    dialogue = VoiceDialogue()
    before = time.monotonic()
    dialogue.asking(Command("query", "query F5", ("F5",)))
    yes = Command("yes", "yes")
    assert dialogue.take(Heard("yes", yes, 0.9, False, said_at=before)).ask_again
    assert dialogue.take(Heard("yes", yes, 0.9, False, said_at=None)).act == yes   # not known: taken
    assert dialogue.take(Heard("yes", yes, 0.9, False, said_at=time.monotonic())).act == yes
    dialogue.answered("yes")
    assert dialogue.take(Heard("yes", yes, 0.9, False, said_at=before)).act == yes  # nothing waits


def test_the_capture_time_of_a_frame_counts_what_the_microphone_queue_still_holds():
    """The worker runs behind the microphone by what its queue holds: a frame taken
    with 2 s of blocks still queued behind it was captured about 2 s ago."""
    class QueuedMicrophone:
        def __init__(self, blocks):
            self.frames = queue.Queue()
            for block in blocks:
                self.frames.put(block)

        def next_block(self, first=False):
            return self.frames.get_nowait() if not self.frames.empty() else None

    block = bytes(FRAME_BYTES * 10)                 # 0.3 s
    capture = Capture(QueuedMicrophone([block] * 8), None, lambda line: None, counting=lambda: False)
    frames = capture.frames(lambda: True)
    next(frames)
    assert abs((time.monotonic() - capture.captured_at) - 7 * 0.3) < 0.05


def test_an_answer_only_the_answers_bar_takes_is_timed_by_its_utterance():
    dialogue = VoiceDialogue()
    before = time.monotonic()
    dialogue.asking(Command("query", "query F5", ("F5",)))
    yes = Command("yes", "yes")
    unsure = Heard("", None, 0.2, False, as_answer=Heard("yes", yes, 0.3, False), silent=True, said_at=before)
    assert dialogue.take(unsure).ask_again
