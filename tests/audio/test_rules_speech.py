"""Issue 30 item 5, with real speech: `rules` is spoken by the real engine into
PulseAudio, and is cut off by `stop` or by the next typed line, like any speech."""
import io
import queue
import threading
import time

import pytest

from audio_console.audio.engine import AudioEngine
from audio_console.console.session import Session
from audio_console.console.storage import EventLog
from audio_console.app.games import GAMES
from audio_console.output.presenter import Presenter
from audio_console.base.settings import Settings


def idle_within(engine, seconds):
    end = time.monotonic() + seconds
    while engine.busy() and time.monotonic() < end:
        time.sleep(0.02)
    return not engine.busy()


@pytest.fixture
def session(pulse, tmp_path):
    engine = AudioEngine(Settings(), signals=False, notify=lambda line: None)
    assert engine.output == "device"
    out = io.StringIO()
    session = Session(Presenter(out=out, sink=engine), Settings(), GAMES, tmp_path / "game.json", EventLog(None))
    session.open_game(GAMES["arkade"], {"mode": "strategy"}, 1)
    assert idle_within(engine, 60)           # the introduction said (34 s; a loaded machine)
    yield session, engine, out
    engine.close()


@pytest.mark.audio
@pytest.mark.slow
def test_stop_cuts_the_rules_off(session):
    session, engine, out = session
    session.type("rules")
    time.sleep(1.5)
    assert engine.busy()                    # the first page, about 18 s: still speaking
    assert not idle_within(engine, 1.0)
    session.type("stop")
    assert idle_within(engine, 1.0)         # of about 18 s (1 s: a loaded machine's margin)


@pytest.mark.audio
@pytest.mark.slow
def test_typing_cuts_the_rules_off_and_is_answered(session):
    session, engine, out = session
    inputs: queue.Queue = queue.Queue()
    running = threading.Thread(target=session.run, args=(inputs,), daemon=True)
    running.start()
    inputs.put(("tty", "rules"))
    time.sleep(2.0)
    assert engine.busy()
    inputs.put(("tty", "dice"))             # the next typed line: the rules stop, the answer is said
    answered = time.monotonic() + 5.0       # the session thread answers (slowly under load)
    while "Alien dice: not rolled." not in out.getvalue() and time.monotonic() < answered:
        time.sleep(0.05)
    assert "Alien dice: not rolled." in out.getvalue()
    assert idle_within(engine, 4.0)         # only the short answer was left to say
    inputs.put(("tty", "quit"))
    running.join(10)
