"""The session's side of voice input: confirmation, push to talk, voice settings and
the voice check. The listener here is a stand-in that records calls (a unit test of
session logic); tests/voice has the real recognizers and the live microphone path."""
import io
import queue
import time

from audio_console.console.session import Session
from audio_console.console.storage import EventLog
from audio_console.app.games import GAMES
from audio_console.output.presenter import Presenter
from audio_console.base.settings import Settings
from audio_console.voice import Heard


class RecordingListener:
    def __init__(self):
        self.grammars, self.talks = [], []

    def set_grammar(self, grammar):
        self.grammars.append(grammar)

    def talk(self, pressed):
        self.talks.append(pressed)

    def stop(self):
        pass


def make_session(tmp_path):
    out = io.StringIO()
    session = Session(Presenter(out=out), Settings(), GAMES, tmp_path / "save.json", EventLog(None))
    session.listener = RecordingListener()
    session.open_game(GAMES["galaxis"], {"option": 2}, seed=1)
    return session, out


def heard(session, text, confirm=False, confidence=0.9):
    command = session.parse(text) if text else None
    session.hear(Heard(text, command, confidence, confirm))


def test_an_unsure_coordinate_is_confirmed_in_the_words_heard(tmp_path):
    session, out = make_session(tmp_path)
    heard(session, "delta five", confirm=True)
    assert "Did you say delta five? Yes or no." in out.getvalue()
    assert session.saved.actions == []                    # nothing acted on yet
    heard(session, "yes")
    assert session.saved.actions == ["query D5"]


def test_no_to_a_confirmation_changes_nothing(tmp_path):
    session, out = make_session(tmp_path)
    heard(session, "bravo three", confirm=True)
    heard(session, "no")
    assert "Cancelled." in out.getvalue() and session.saved.actions == []


def test_heard_again_as_what_the_player_refused_the_runner_up_is_asked_instead(tmp_path):
    """A voice the model keeps mishearing the same way ("d two" as B2) does not loop
    on "Did you say b two?": the second time, the engine's runner-up is asked about."""
    session, out = make_session(tmp_path)

    def heard_b2(confirm=True, confidence=0.4):
        session.hear(Heard("b two", session.parse("b two"), confidence, confirm,
                           runner_up=session.parse("d two"), runner_up_text="d two"))
    heard_b2()
    heard(session, "no")
    heard_b2(confirm=False, confidence=0.95)              # even sure now: not acted on
    assert out.getvalue().count("Did you say b two?") == 1
    assert "Did you say d two? Yes or no." in out.getvalue() and session.saved.actions == []
    heard(session, "yes")
    assert session.saved.actions == ["query D2"]
    heard_b2()                                            # a new command: asked about as heard
    assert out.getvalue().count("Did you say b two?") == 2


def test_without_a_runner_up_the_refused_command_is_asked_not_acted_on(tmp_path):
    session, out = make_session(tmp_path)
    heard(session, "bravo three", confirm=True)
    heard(session, "no")
    heard(session, "bravo three", confirm=False)          # sure, but the player just said no
    assert out.getvalue().count("Did you say bravo three?") == 2 and session.saved.actions == []
    heard(session, "yes")
    assert session.saved.actions == ["query B3"]
    heard(session, "charlie three", confirm=False)        # the next command: acted on as usual
    assert session.saved.actions == ["query B3", "query C3"]


def test_a_yes_only_the_answers_bar_takes_confirms_while_did_you_say_waits(tmp_path):
    """A real "yes" in noise the usual bar drops ("Yeah.", scored low) confirms the
    point asked about; once another command dropped the question, the same sound is
    silence again (nothing waits for an answer)."""
    session, out = make_session(tmp_path)
    unsure_yes = Heard("", None, 0.2, False, as_answer=Heard("yes", session.parse("yes"), 0.3, False),
                       silent=True)
    heard(session, "delta five", confirm=True)
    session.hear(unsure_yes)
    assert session.saved.actions == ["query D5"]
    heard(session, "bravo three", confirm=True)
    heard(session, "status")                              # another command drops the question
    before = out.getvalue()
    session.hear(unsure_yes)
    assert session.saved.actions == ["query D5"] and out.getvalue() == before


def test_a_yes_said_before_the_question_waiting_never_answers_it(tmp_path):
    """A whole voice game in chatter lost a move this way: "foxtrot seven" was asked
    about; the player's repeat, heard as F5, replaced the question while the player
    said yes to F7, and that yes (decoded after the new question) queried F5. A yes
    begun before the question now waiting was asked gets the question again."""
    session, out = make_session(tmp_path)
    said_yes = time.monotonic()
    heard(session, "foxtrot five", confirm=True)          # asked after the yes began
    session.hear(Heard("yes", session.parse("yes"), 0.9, False, said_at=said_yes))
    assert session.saved.actions == []
    assert out.getvalue().count("Did you say foxtrot five? Yes or no.") == 2
    session.hear(Heard("no", session.parse("no"), 0.9, False, said_at=time.monotonic()))
    assert session.saved.actions == [] and "Cancelled." in out.getvalue()
    heard(session, "foxtrot seven", confirm=True)
    session.hear(Heard("yes", session.parse("yes"), 0.9, False, said_at=time.monotonic()))
    assert session.saved.actions == ["query F7"]      # a yes said after it answers it


def test_rejected_speech_asks_to_say_again(tmp_path):
    session, out = make_session(tmp_path)
    session.hear(Heard("uh bravo", None, 0.1, False))
    assert "Say again." in out.getvalue() and session.saved.actions == []


def test_misheard_twice_running_says_once_what_was_heard(tmp_path):
    session, out = make_session(tmp_path)
    for _ in range(3):
        session.hear(Heard("Kid.", None, 0.01, False))
    said = out.getvalue()
    assert said.count("Say again. Heard: Kid. Say help to hear what you can say, or type it.") == 1
    assert said.count("Say again.") == 3
    heard(session, "delta five")                       # understood: the count starts again
    session.hear(Heard("Kid.", None, 0.01, False))
    assert out.getvalue().count("Heard: Kid.") == 1


def test_push_to_talk_enter_starts_and_ends_listening(tmp_path):
    session, out = make_session(tmp_path)
    session.type("push to talk")
    assert session.settings.listening == "push"
    session.type("")
    session.type("")
    assert session.listener.talks == [True, False]
    assert "Listening." in out.getvalue() and "Done." in out.getvalue()
    session.type("always listen")
    session.type("")                                       # Enter repeats the prompt again
    assert session.listener.talks == [True, False]
    assert Settings.load().listening == "always"           # kept between sessions


def test_voice_settings_are_kept(tmp_path):
    session, out = make_session(tmp_path)
    session.type("headphones on")
    session.type("confirm always")
    saved = Settings.load()
    assert saved.headphones is True and saved.confirm == "always"


def test_voice_check_reports_and_sets_confirm(tmp_path):
    session, out = make_session(tmp_path)
    session.type("voice check")
    check = session.check.check                          # the VoiceCheck inside its console
    assert check is not None and "Voice check." in out.getvalue()
    session.type("d5")                                     # typing is not speaking
    assert "say the coordinate aloud" in out.getvalue()
    for i, expected in enumerate(check.prompts):
        said = expected if i % 4 else "A1" if expected != "A1" else "B2"   # every fourth misheard
        heard(session, said)
    text = out.getvalue()
    assert f"Voice check: understood {len(check.prompts) - 2} of {len(check.prompts)}." in text
    assert "Misheard:" in text and session.check is None
    assert session.settings.confirm == "always" and "Confirm is now set to always" in text
    assert session.saved.actions == []                     # the check never plays the game


def test_voice_check_needs_a_microphone(tmp_path):
    out = io.StringIO()
    session = Session(Presenter(out=out), Settings(), GAMES, tmp_path / "s.json", EventLog(None))
    session.open_game(GAMES["galaxis"], {"option": 2}, seed=1)
    session.type("voice check")
    assert "needs the microphone" in out.getvalue()
