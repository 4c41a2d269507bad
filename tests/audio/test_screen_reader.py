"""Issue 32 item 1, for real: with --screen-reader a Galaxis answer is spoken by
speech-dispatcher (its espeak-ng module, autospawned, playing into PulseAudio) and
heard in the output sink's monitor after the answer's signal, while the console's
own voice says nothing; `stop` silences it. Debian packages speech-dispatcher and
speech-dispatcher-espeak-ng (scripts/test installs them)."""
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

from audio_console.app.cli import build_parser, make_presenter, open_sound
from audio_console.console.session import Session
from audio_console.console.storage import EventLog
from audio_console.app.games import GAMES
from audio_console.base.settings import Settings

from .analysis import band_envelope, band_fraction, envelope
from .test_real_audio import RATE, Monitor

pytestmark = pytest.mark.audio
ARGS = ["--game", "galaxis", "--option", "2", "--seed", "1", "--screen-reader"]


def pulse_server() -> str | None:
    info = subprocess.run(["pactl", "info"], capture_output=True, text=True).stdout
    return next((line.split(":", 1)[1].strip() for line in info.splitlines()
                 if line.startswith("Server String:")), None)


@pytest.fixture
def speech_dispatcher(pulse, monkeypatch):
    """A speech-dispatcher of this test's own: a fresh runtime folder, so that one is
    autospawned with this environment, playing into the test's null sink (PULSE_SINK)
    of the same PulseAudio server (PULSE_SERVER). Ended when the test is: it would
    speak on after a console's exit into the sink the next test records."""
    if shutil.which("speech-dispatcher") is None:
        pytest.skip("speech-dispatcher is not installed (scripts/test installs it)")
    pytest.importorskip("prism")
    server = pulse_server()
    if server is None:
        pytest.skip("no PulseAudio server string")
    runtime = tempfile.mkdtemp(prefix="sd-")        # short: a socket path has a length limit
    monkeypatch.setenv("PULSE_SERVER", server if server.startswith("unix:") else f"unix:{server}")
    monkeypatch.setenv("XDG_RUNTIME_DIR", runtime)
    yield pulse
    end_daemon(Path(runtime) / "speech-dispatcher" / "pid" / "speech-dispatcher.pid")
    shutil.rmtree(runtime, ignore_errors=True)


def end_daemon(pid_file: Path) -> None:
    """End the test's own speech-dispatcher (by the pid it wrote), waiting until it has gone."""
    try:
        pid = int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return                                   # never spawned, or already gone
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if not running(pid):
            return
        os.kill(pid, sig)
        deadline = time.monotonic() + 10
        while running(pid) and time.monotonic() < deadline:
            time.sleep(0.05)


def running(pid: int) -> bool:
    """Alive and not a zombie waiting to be reaped."""
    state = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True).stdout.strip()
    return bool(state) and not state.startswith("Z")


@pytest.fixture
def game(speech_dispatcher, tmp_path):
    """The console as `audio-console ARGS` makes it, the engine's queue watched."""
    args = build_parser().parse_args(ARGS)
    settings = Settings()
    sink = open_sound(args, settings)
    if getattr(sink, "output", None) != "device":
        pytest.skip("no audio device through PulseAudio")
    presenter, line = make_presenter(args, settings, sink)
    queued: list = []             # every sound the console's own engine was given
    add = sink.mixer.add
    sink.mixer.add = lambda sound, overlap=False: (queued.append(sound), add(sound, overlap))[1]
    session = Session(presenter, settings, GAMES, tmp_path / "game.json", EventLog(None))
    yield session, presenter, line, queued, speech_dispatcher
    presenter.close_reader()
    sink.close()


def voiced_seconds(x: np.ndarray, threshold: float = 0.01) -> float:
    return float((envelope(x, RATE, frame=0.01) > threshold).sum() * 0.01)


def after_the_beep(x: np.ndarray) -> np.ndarray:
    """What was heard from 0.1 s after the answer's beep (near 880 Hz) on; empty before it."""
    beeps = band_envelope(x, RATE, 850, 910)
    if beeps.max() <= 0:
        return x[:0]
    signal_end = np.flatnonzero(beeps > 0.5 * beeps.max())[-1] * 0.01
    return x[int((signal_end + 0.1) * RATE):]


def speech_queued(queued) -> list[str]:
    """The console's own voice's sounds among those its engine was given."""
    return [sound.label for sound in queued if sound.label.startswith("speech")]


def wait_until(condition, seconds: float = 60.0) -> bool:
    """Poll: a loaded machine may take a while (the search signal alone is 3.3 s)."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.1)
    return condition()


def test_a_galaxis_answer_is_spoken_by_the_screen_reader_and_stop_silences_it(game):
    session, presenter, line, queued, sink_name = game
    assert line is None and presenter.reader is not None
    assert presenter.reader.opened.wait(60)      # found (it lists every voice first: seconds)
    assert presenter.reader.failed is None and presenter.reader.name == "Speech Dispatcher"
    assert session.settings.screen_reader is True                  # remembered for next time
    session.open_game(GAMES["galaxis"], {"option": 2}, 1)
    session.type("query B2")           # the first query builds the deduction's table (seconds)
    session.type("stop")               # the opening lines and that answer cut short
    time.sleep(0.5)

    with Monitor(sink_name) as monitor:
        before = len(queued)
        session.type("query D5")       # the search signal (3.3 s), the answer's beep, its line
        assert wait_until(lambda: any(sound.label == "answer_1" and sound.ended.is_set()
                                      for sound in queued[before:])), "the engine never played the answer"
        played = len(monitor.so_far())     # the beep through the server is in the recording 0.5 s on
        wait_until(lambda: len(monitor.so_far()) > played + 0.5 * RATE
                   and voiced_seconds(after_the_beep(monitor.so_far())) > 1.0)
    after = after_the_beep(monitor.samples)
    assert after.size, "the answer's signal was not heard"
    assert voiced_seconds(after) > 0.8                          # a line was spoken after the beeps ...
    assert band_fraction(after, RATE, 100, 4000) > 0.8          # ... in the speech band
    assert not speech_queued(queued)                            # the console's own voice: nothing

    with Monitor(sink_name) as monitor:
        typed = len(monitor.so_far())
        session.type("help")                                    # several long lines: half a minute
        speaking = wait_until(lambda: voiced_seconds(monitor.so_far()[typed:]) > 0.5)
        stopped = len(monitor.so_far())
        session.type("stop")
        # stop -> silent took 35 ms in bench_screen_reader; 1 s of grace, then 2 s listened to
        wait_until(lambda: len(monitor.so_far()) > stopped + 3.0 * RATE)
    x = monitor.samples
    assert speaking, "the help was not being spoken"
    assert voiced_seconds(x[int(stopped + 1.0 * RATE):]) == 0.0, "speech went on after stop"
    assert not speech_queued(queued)


@pytest.mark.parametrize("typed", [["help", "quit"], ["screen reader off", "quit"]])
def test_quitting_while_the_screen_reader_is_still_being_found_ends_cleanly(speech_dispatcher, tmp_path, typed):
    """Typed at once, before the search (seconds) is over: the process waited for none
    of it and died at exit, a segmentation fault after the goodbye (5 runs of 6)."""
    from tests.conftest import run_console
    done = run_console(ARGS, typed, tmp_path, timeout=120)
    assert done.returncode == 0, (done.returncode, done.stderr[-800:])
    assert done.stdout.splitlines()[-1] == "Game saved. Goodbye."


def test_voice_input_with_the_screen_reader_and_no_headphones_is_warned_once(speech_dispatcher, tmp_path):
    """The listener cannot tell when the screen reader speaks: the player is told, once."""
    from tests.conftest import run_console
    done = run_console(ARGS + ["--input", "voice"], ["quit"], tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    if any(line.startswith(("No microphone", "No speech recognizer")) for line in lines):
        pytest.skip("no microphone or recognizer here")
    assert lines.count("The microphone also hears your screen reader: say headphones on if you wear them, "
                       "or push to talk.") == 1


@pytest.mark.parametrize("found", [True, False])
def test_the_real_console_speaks_through_the_screen_reader_and_its_own_voice_only_without_one(
        speech_dispatcher, tmp_path, monkeypatch, found):
    """The console as a player starts it after --screen-reader once (remembered), all
    its own engine played recorded (--record; signals off, so that only speech could
    be in it): with the screen reader the answers are heard in the sink and the engine
    played nothing; with none running (speech-dispatcher at an address where none
    listens) one line says so and the engine speaks them."""
    from tests.conftest import run_console
    from tests.platforms.test_elsewhere import loudness
    if not found:
        monkeypatch.setenv("SPEECHD_ADDRESS", f"unix_socket:{tmp_path / 'none.sock'}")
    once = run_console(ARGS + ["--text"], ["quit"], tmp_path)     # text: no screen reader looked for
    assert once.returncode == 0, once.stderr
    plain = [arg for arg in ARGS if arg != "--screen-reader"]
    record = tmp_path / "engine.wav"
    with Monitor(speech_dispatcher) as monitor:
        done = run_console(plain + ["--no-signals", "--record", str(record)], ["query D5", "quit"], tmp_path,
                           timeout=120)
        # a screen reader speaks on after the console has gone
        heard = wait_until(lambda: voiced_seconds(monitor.so_far()) > 1.0)
    assert done.returncode == 0, (done.returncode, done.stderr[-800:])
    assert "D5 answered 1: one ship sighted." in done.stdout.splitlines()
    assert heard, "nothing was spoken into the sink"
    missing = "No screen reader found (none is running): I speak with my own voice."
    if found:
        assert missing not in done.stdout
        assert loudness(record) < 0.001           # the console's own voice said nothing
    else:
        assert done.stdout.splitlines().count(missing) == 1
        assert loudness(record) > 0.05            # it said the lines itself
