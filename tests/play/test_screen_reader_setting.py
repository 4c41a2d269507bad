"""Issue 32 item 1, the logic: `screen reader on` / `off` said and remembered, one
line when none is found (then the console's own voice), each line handed over
after its signal has played, `stop` dropping what still waits. The screen reader
itself is played for real in tests/audio/test_screen_reader.py; here a recording
stand-in takes its place (a fake for the logic only)."""
import threading
import time

from audio_console.output.screen_reader import ScreenReader
from audio_console.base.settings import Settings
from tests.conftest import run_console
from tests.robust.helpers import make_session
from audio_console.app.games import GAMES


class Backend:
    """Records what a screen reader would be told."""

    def __init__(self):
        self.said, self.stops = [], 0

    def speak(self, text, interrupt=False): self.said.append(text)
    def stop(self): self.stops += 1


class Sound:
    """A queued sound of the engine: its `ended` is set once it has played."""

    def __init__(self):
        self.ended, self.cancelled = threading.Event(), False


def wait_for(condition, seconds=2.0):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def test_a_line_waits_for_its_signal_and_lines_ready_together_go_as_one():
    backend = Backend()
    reader = ScreenReader(lambda: (backend, "Test reader", None))
    beeps = Sound()
    reader.say("D5 answered 2: two ships sighted.", after=beeps)
    reader.say("Query 2.")
    time.sleep(0.2)
    assert backend.said == []                       # the beeps are still playing
    beeps.ended.set()
    assert wait_for(lambda: backend.said)
    assert backend.said == ["D5 answered 2: two ships sighted. Query 2."]


def test_stop_drops_the_lines_waiting_and_silences_the_reader():
    backend = Backend()
    reader = ScreenReader(lambda: (backend, "Test reader", None))
    beeps = Sound()
    reader.say("A line that waits for its signal.", after=beeps)
    reader.stop()
    beeps.cancelled = True
    beeps.ended.set()                               # the engine's stop ends the sound too
    reader.say("After the stop.")
    assert wait_for(lambda: backend.said)
    assert backend.said == ["After the stop."] and backend.stops >= 1


def test_closing_hands_over_the_goodbye_without_its_signal_then_lets_the_reader_go():
    import weakref
    made = [Backend()]
    gone = weakref.ref(made[0])
    reader = ScreenReader(lambda: (made.pop(), "Test reader", None))   # the reader holds it alone
    assert reader.opened.wait(2)
    never_played = Sound()                 # the engine closed before it played
    reader.say("Game saved. Goodbye.", after=never_played)
    started = time.monotonic()
    said = gone().said
    reader.close()
    assert time.monotonic() - started < 2   # not the 10 s a line waits for its signal
    assert said == ["Game saved. Goodbye."]
    assert gone() is None                  # freed while the interpreter runs, not left to its exit


def test_closing_while_the_screen_reader_is_being_found_waits_for_the_search(monkeypatch):
    """The process must not end with the search still running (a segmentation fault at
    exit); `screen reader off` does not wait, the exit does."""
    from audio_console.output import screen_reader
    searching, backend = threading.Event(), Backend()

    def slow_find():
        searching.wait(5)
        return backend, "Slow reader", None
    monkeypatch.setattr(screen_reader, "FIND_WAIT", 10.0)
    reader = ScreenReader(slow_find)
    reader.say("Goodbye.")
    started = time.monotonic()
    reader.close(wait=False)                         # screen reader off: the session goes on
    assert time.monotonic() - started < 0.5
    threading.Timer(0.5, searching.set).start()
    screen_reader._let_go_at_exit()                  # at exit every reader is waited for
    assert not reader._worker.is_alive()
    assert backend.said == ["Goodbye."]


def test_lines_said_while_the_screen_reader_is_being_found_wait_for_it(tmp_path):
    backend, found = Backend(), threading.Event()

    def slow_find():
        found.wait(5)
        return backend, "Slow reader", None
    session, out, sink = make_session(tmp_path)
    session.presenter._find_reader = lambda: (ScreenReader(slow_find), "")
    started = time.monotonic()
    assert session.presenter.use_screen_reader(True) == "Screen reader on: I speak through the screen reader."
    assert time.monotonic() - started < 3                 # the console goes on meanwhile
    session.open_game(GAMES["galaxis"], {"option": 2}, 1)
    assert backend.said == [] and sink.spoken == []
    found.set()
    assert wait_for(lambda: backend.said)
    assert backend.said[0].startswith("Galaxis, option 2")
    assert sink.spoken == []


def test_a_screen_reader_not_found_after_all_is_said_and_the_waiting_lines_get_the_own_voice(tmp_path):
    from audio_console.output.screen_reader import ScreenReaderMissing
    given_up = threading.Event()

    def find_nothing():
        given_up.wait(5)
        raise ScreenReaderMissing("none is running")
    session, out, sink = make_session(tmp_path)
    session.presenter._find_reader = lambda: (ScreenReader(find_nothing), "")
    session.presenter.use_screen_reader(True)
    session.open_game(GAMES["galaxis"], {"option": 2}, 1)
    given_up.set()
    assert wait_for(lambda: session.presenter.reader.opened.is_set())
    session._tick()                                        # the session looks every tick
    assert out.getvalue().splitlines().count(
        "No screen reader found (none is running): I speak with my own voice.") == 1
    assert sink.spoken[-1].startswith("Galaxis, option 2")  # what waited, in the own voice
    assert session.presenter.reader is None


def test_screen_reader_on_and_off_are_said_and_remembered(tmp_path):
    session, out, sink = make_session(tmp_path)
    backend = Backend()
    session.presenter._find_reader = lambda: (ScreenReader(lambda: (backend, "Test reader", None)), "")
    session.open_game(GAMES["galaxis"], {"option": 2}, 1)
    session.type("screen reader on")
    assert out.getvalue().splitlines()[-1] == "Screen reader on: I speak through Test reader."
    assert Settings.load().screen_reader is True
    spoken_before = list(sink.spoken)
    session.type("query D5")
    assert sink.spoken == spoken_before             # the console's own voice says nothing ...
    assert wait_for(lambda: any("D5" in text for text in backend.said), 10), backend.said   # ... the reader does
    assert "answer_1" in sink.signals               # signals stay with the console
    session.type("speech softer")
    assert out.getvalue().splitlines()[-1] == "Speech softer: speech volume 7 of 10. Test reader keeps its own."
    session.type("screen reader off")
    assert "Screen reader off: I speak with my own voice." in out.getvalue().splitlines()
    assert Settings.load().screen_reader is False
    session.type("status")
    assert len(sink.spoken) > len(spoken_before)    # its own voice again


def test_no_screen_reader_found_is_one_line_and_the_own_voice_speaks(tmp_path, monkeypatch):
    # speech-dispatcher at an address where none runs: prismatoid finds no screen reader
    monkeypatch.setenv("SPEECHD_ADDRESS", f"unix_socket:{tmp_path / 'none.sock'}")
    monkeypatch.setenv("AUDIO_CONSOLE_DEVICE", "no-such-device")
    done = run_console(["--game", "galaxis", "--seed", "1", "--screen-reader"], ["quit"], tmp_path)
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    assert [line for line in lines if "screen reader" in line] == [
        "No screen reader found (none is running): I speak with my own voice."]
    assert Settings.load(tmp_path / "home" / "settings.json").screen_reader is True   # still wanted next time


def test_text_mode_never_looks_for_a_screen_reader(tmp_path):
    done = run_console(["--game", "galaxis", "--text", "--screen-reader"], ["screen reader on", "quit"], tmp_path)
    assert "No screen reader found" not in done.stdout
    assert "Screen reader on. Speech is off in this session, so nothing is spoken." in done.stdout.splitlines()
