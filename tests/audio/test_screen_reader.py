"""Issue 32 item 1, for real: with --screen-reader a Galaxis answer is spoken by
speech-dispatcher (its espeak-ng module, autospawned, playing into PulseAudio) and
heard in the output sink's monitor after the answer's signal, while the console's
own voice says nothing; `stop` silences it. Debian packages speech-dispatcher and
speech-dispatcher-espeak-ng (scripts/test installs them)."""
import shutil
import subprocess
import tempfile
import time

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
    of the same PulseAudio server (PULSE_SERVER). It ends itself 5 s after we leave."""
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
    shutil.rmtree(runtime, ignore_errors=True)


@pytest.fixture
def game(speech_dispatcher, tmp_path):
    """The console as `audio-console ARGS` makes it, the engine's queue watched."""
    args = build_parser().parse_args(ARGS)
    settings = Settings()
    sink = open_sound(args, settings)
    if getattr(sink, "output", None) != "device":
        pytest.skip("no audio device through PulseAudio")
    presenter, line = make_presenter(args, settings, sink)
    queued: list[str] = []        # every sound the console's own engine was given
    add = sink.mixer.add
    sink.mixer.add = lambda sound, overlap=False: (queued.append(sound.label), add(sound, overlap))[1]
    session = Session(presenter, settings, GAMES, tmp_path / "game.json", EventLog(None))
    yield session, presenter, line, queued, speech_dispatcher
    presenter.close_reader()
    sink.close()


def voiced_seconds(x: np.ndarray, threshold: float = 0.01) -> float:
    return float((envelope(x, RATE, frame=0.01) > threshold).sum() * 0.01)


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
        session.type("query D5")
        time.sleep(7.0)                # the search signal (3.3 s), the answer (0.7 s), its line
    x = monitor.samples
    beeps = band_envelope(x, RATE, 850, 910)
    assert beeps.max() > 0, "the answer's signal was not heard"
    signal_end = np.flatnonzero(beeps > 0.5 * beeps.max())[-1] * 0.01   # the answer's beep
    after = x[int((signal_end + 0.1) * RATE):]
    assert voiced_seconds(after) > 0.8                          # a line was spoken after the beeps ...
    assert band_fraction(after, RATE, 100, 4000) > 0.8          # ... in the speech band
    assert "answer_1" in queued                                 # the signal: the console's engine
    assert not [label for label in queued if label.startswith("speech")]   # its own voice: nothing

    started = time.monotonic()
    with Monitor(sink_name) as monitor:
        session.type("help")                                    # several long lines
        time.sleep(1.5)
        stopped_after = time.monotonic() - started
        session.type("stop")
        time.sleep(2.5)
    x = monitor.samples
    # the monitor's samples begin about 0.25 s after it was started
    speaking = x[int(0.4 * RATE):int((stopped_after - 0.3) * RATE)]
    silent = x[int((stopped_after + 0.5) * RATE):]
    assert voiced_seconds(speaking) > 0.5, "the help was not being spoken"
    assert voiced_seconds(silent) == 0.0, "speech went on after stop"
    assert not [label for label in queued if label.startswith("speech")]


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
