"""Barge-in live, through PulseAudio: the console runs as a player starts it (a
subprocess, --input voice) with its own output and microphone sinks; with speakers its
output is looped into the microphone at -6 dB (module-loopback: speakers that reach
the microphone) and the console loads the sound server's echo canceller
(voice/server_echo_cancel.py). While it speaks a long hint, a real person's "stop"
(Speech Commands) must silence it, a point said must be acted on, and with nobody
talking it must not hear itself. The figures (median, worst) come from
scripts/bench_bargein.py; the bounds here only say "in time" on a loaded test machine."""
import contextlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from audio_console.voice import echo_cancel

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))
from bench_barge_in_parts import (STOP_CLIPS, SpeakersIntoMicrophone, heard_within, pactl,  # noqa: E402
                                  play_into, silent_since, wait_for_sound)
from bench_voice_game import ASKED, HINT, MOVE, Console, ConsoleSound, TraceTail, wait_for_silence  # noqa: E402
from room import room_tone, stop_loop  # noqa: E402

pytestmark = [pytest.mark.audio, pytest.mark.slow,
              pytest.mark.skipif(not echo_cancel.available(), reason="pywebrtc-audio is not installed")]


@contextlib.contextmanager
def _console(tmp, settings: str, speakers: bool):
    """Sinks of our own (out, mic), with `speakers` the output looped into the
    microphone at -6 dB, a faint room tone, and the console started on them as a
    player starts it (it loads the sound server's echo canceller itself)."""
    if not shutil.which("paplay") or subprocess.run(["pactl", "info"], capture_output=True).returncode:
        pytest.skip("no PulseAudio server (pactl info failed); scripts/test starts one")
    tag = f"{os.getpid()}_{int(speakers)}"
    out, mic = f"bargein_out_{tag}", f"bargein_mic_{tag}"
    modules = [pactl("load-module", "module-null-sink", f"sink_name={name}").strip() for name in (out, mic)]
    loop = room_tone(tmp, mic)
    saved = {k: os.environ.get(k) for k in ("PULSE_SINK", "PULSE_SOURCE")}
    os.environ.update(PULSE_SINK=out, PULSE_SOURCE=f"{mic}.monitor")
    home = tmp / "home"
    home.mkdir()
    (home / "settings.json").write_text(settings)
    speakers_in = SpeakersIntoMicrophone(out, mic, -6.0).__enter__() if speakers else None
    sound = ConsoleSound(out)
    console = Console(1, home, ["--voice-trace", str(home / "voice.jsonl")])
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not any("Query 1" in line for _, line in console.take()):
            time.sleep(0.1)
        wait_for_silence(console, sound, quiet=2.0)
        trace = TraceTail(home / "voice.jsonl")
        trace.new()     # each test sees its own events (the start is not what they ask about)
        yield console, sound, trace, mic
    finally:
        console.close()
        sound.close()
        if speakers_in is not None:
            speakers_in.__exit__()
        stop_loop(loop)
        for module in modules:
            subprocess.run(["pactl", "unload-module", module], capture_output=True)
        for key, value in saved.items():
            os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    """The speakers reach the microphone (long hints: a 15-second line to talk over;
    the short one is "Hint: D5.")."""
    with _console(tmp_path_factory.mktemp("bargein"), '{"long_hints": true}', speakers=True) as parts:
        yield parts


@pytest.fixture
def headphones(tmp_path_factory):
    """Headphones on: nothing of the console reaches the microphone (its own console,
    closed after its test: two at once would load the test machine twice)."""
    with _console(tmp_path_factory.mktemp("headphones"), '{"long_hints": true, "headphones": true}',
                  speakers=False) as parts:
        yield parts


def _hint(console, sound) -> str:
    """Types hint; returns its point once the console has begun to speak it."""
    console.take()
    typed = time.monotonic()
    console.proc.stdin.write("hint\n")
    console.proc.stdin.flush()
    assert wait_for_sound(sound, typed, limit=15), "the console did not speak the hint"
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        for _, line in console.take():
            if HINT.match(line):
                return HINT.match(line).group(1)
        time.sleep(0.02)
    raise AssertionError("no hint line")


def _heard(trace) -> list:
    return [e for e in trace.new() if e.get("event") == "heard" and (e.get("command") or e.get("text"))]


def _stops(console, sound, trace, mic, tries: int = 1) -> list:
    """Each real stop said 2 s into a long hint, and said again (up to `tries` in all)
    while the line goes on, as a player would who was not heard: (clip, seconds from
    the end of the last word said to the line's silence or None, heard at all, acted
    on as stop, what was heard, times said)."""
    outcomes = []
    for clip in STOP_CLIPS:
        _hint(console, sound)
        time.sleep(2.0)
        for said in range(1, tries + 1):
            ended = play_into(mic, clip)
            silent = silent_since(sound, ended, limit=4.0)
            if silent is not None:
                break
        heard = heard_within(trace, 5.0, passed_on=True)
        stopped = any(e.get("command") == "stop" for e in heard)
        outcomes.append((clip.stem, None if silent is None else round(silent - ended, 2), bool(heard), stopped,
                         [(e.get("command"), e.get("transcript")) for e in heard], said))
        wait_for_silence(console, sound, quiet=1.0, limit=40)
        trace.new()
    return outcomes


def test_with_headphones_every_real_stop_silences_a_long_line(headphones):
    """Nothing of the console in the microphone: every real stop silences the line
    within 1 s (held at its onset), said once or, when it was not heard, once more
    as a player would (the voice detector's state drifts deaf now and then for tens
    of seconds: docs/measurements/barge-in.md; bench_bargein.py counts how often a
    first stop is lost), and it is acted on as stop (one of the two at least: at a
    test machine's load a decode can come too late to count)."""
    outcomes = _stops(*headphones, tries=2)
    assert all(after is not None and after < 1.0 for _, after, _, _, _, _ in outcomes), outcomes
    assert any(stopped for _, _, _, stopped, _, _ in outcomes), outcomes


def test_with_nobody_talking_the_console_does_not_hear_itself(room):
    console, sound, trace, _ = room
    _hint(console, sound)
    started = time.monotonic()
    wait_for_silence(console, sound, quiet=1.0, limit=40)
    heard = _heard(trace)
    assert time.monotonic() - started > 8, f"the hint was cut short: the console heard itself: {heard}"
    assert heard == []


def test_with_the_speakers_in_the_microphone_a_stop_acted_on_silences_a_long_line(room):
    """What holds with the echo really at -6 dB: a stop acted on silences the line
    within 1 s of its end (held at its onset or at its vowel, then the session's stop;
    how soon is bench_bargein.py's to measure: 29 stops acted on in four runs, none
    later than 400 ms, against the issue's 600 ms worst), and the console hears at least one of the real stops (acts on it, asks,
    or says "Say again."). Not yet met (docs/measurements/barge-in.md): every real
    stop said over the console acted on as stop (7 of 12 in a run): the canceller
    takes out the part of the word under the console's voice."""
    outcomes = _stops(*room)
    assert any(heard for _, _, heard, _, _, _ in outcomes), outcomes
    assert all(after is not None and after < 1.0 for _, after, _, stopped, _, _ in outcomes if stopped), outcomes


REAL = Path(__file__).resolve().parent / "real"
WORDS = {"A": "alpha", "B": "bravo", "C": "charlie", "D": "delta", "E": "echo", "F": "foxtrot", "G": "golf"}
NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def _lines_until(console, found, limit: float = 6.0) -> list:
    """The console's lines until one of them is `found(line)`, or `limit` seconds."""
    deadline, lines = time.monotonic() + limit, []
    while time.monotonic() < deadline and not any(found(line) for line in lines):
        lines += [line for _, line in console.take()]
        time.sleep(0.05)
    return lines


def _asked_about(lines: list, point: str) -> bool:
    """A "Did you say ...?" about `point` ("delta five", or "d five") among `lines`."""
    number = NUMBERS[int(point[1:])]
    said = {f"{WORDS[point[0]]} {number}", f"{point[0].lower()} {number}"}
    return any(ASKED.match(line) and ASKED.match(line).group(1) in said for line in lines)


def test_a_point_said_during_a_long_line_is_taken(room, speech):
    """Said while the hint is being spoken, the point is queried: at once, or after
    one "Did you say ...?" about that very point, which a real person's "yes" answers
    (a point said over the console is asked about about half the time: its
    confidence through the canceller sits near the bar; how often it is acted on at
    once is bench_bargein.py's to measure; three tries, as a player would say it
    again, because at a test machine's load a try can be lost). Never another
    point; and the console's answer that follows ("D5 answered 1: ...", just after
    the player's voice) is not heard back as the player's: one run let "D5." through
    the canceller and asked "Did you say D5?" about the console's own words."""
    console, sound, trace, mic = room
    tries = []
    for _ in range(3):
        point = _hint(console, sound)
        time.sleep(1.5)
        wav = REAL / "nato_delta5.wav" if point == "D5" else speech.say(
            f"{WORDS[point[0]]} {NUMBERS[int(point[1:])]}")   # a real person's, if the hint allows
        assert time.monotonic() - sound.last_sound < 0.3, "the hint ended before the point was said: not barge-in"
        play_into(mic, wav)
        lines = _lines_until(console, lambda line: bool(MOVE.match(line) or ASKED.match(line)))
        if _asked_about(lines, point):
            wait_for_silence(console, sound, quiet=0.5, limit=20)
            play_into(mic, REAL / "yes.wav")
            lines += _lines_until(console, lambda line: bool(MOVE.match(line)))
        trace.new()
        wait_for_silence(console, sound, quiet=1.5, limit=40)
        lines += [line for _, line in console.take()]
        tries.append(lines)
        moves = [i for i, line in enumerate(lines) if MOVE.match(line)]
        assert all(lines[i].startswith(point) for i in moves), f"another point was queried: {lines}"
        if moves:
            after = lines[moves[0] + 1:]
            assert not [line for line in after if ASKED.match(line) or line.startswith("Say again")], lines
            assert _heard(trace) == [], f"the console heard its own answer: {lines}"
            return
    raise AssertionError(f"the point said during the hint was not taken, three times: {tries}")
