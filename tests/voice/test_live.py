"""The live path: speech played into the PulseAudio null sink "console_mic", whose
monitor is the default source, i.e. the listener's microphone (scripts/setup.sh
start_pulseaudio sets this up). The listener must hand over the spoken coordinate,
stay silent on noise, and not listen while the console itself is making sound."""
import queue
import shutil
import subprocess
import time

import pytest

from audio_console.output.sink import NullSink
from audio_console.base.settings import Settings
from audio_console.voice import open_listener

pytestmark = [pytest.mark.audio, pytest.mark.slow]


def _pactl(*args):
    return subprocess.run(["pactl", *args], capture_output=True, text=True, timeout=10)


@pytest.fixture(scope="module")
def microphone():
    if not shutil.which("pactl") or not shutil.which("paplay"):
        pytest.skip("pulseaudio-utils (pactl, paplay) are not installed")
    if _pactl("info").returncode != 0:
        pytest.skip("no PulseAudio server (pactl info failed); scripts/test starts one")
    if "console_mic" not in _pactl("list", "short", "sinks").stdout.split():
        _pactl("load-module", "module-null-sink", "sink_name=console_mic")
    _pactl("set-default-source", "console_mic.monitor")
    return "console_mic"


class BusySink(NullSink):
    """The console speaking the whole time (for the self-hearing test)."""
    def busy(self) -> bool:
        return True


def play(path, sink="console_mic"):
    subprocess.run(["paplay", f"--device={sink}", str(path)], check=True, timeout=30)


def listen(settings, sink, grammar, play_files, wait=4.0, until=None, at_most=15.0):
    """What the listener heard of `play_files` within `wait` seconds after them; with
    `until` (a test of the Heards so far), as long as `at_most` seconds for it to come
    true, then one second more for anything after it (a loaded machine decodes slowly:
    a fixed 4 s failed a test in the full suite)."""
    messages, heard = [], queue.Queue()
    listener = open_listener(settings, sink, messages.append)
    assert listener is not None, messages
    listener.set_grammar(grammar)
    listener.start(heard.put)
    try:
        time.sleep(0.5)
        for path in play_files:
            play(path)
        deadline = time.monotonic() + (wait if until is None else at_most)
        got: list = []
        while time.monotonic() < deadline:
            try:
                got.append(heard.get(timeout=0.2))
            except queue.Empty:
                pass
            if until is not None and until(got):
                deadline, until = min(deadline, time.monotonic() + 1.0), None
        return got, messages
    finally:
        listener.stop()


def test_a_spoken_coordinate_reaches_the_session(microphone, speech, galaxis_grammar):
    got, messages = listen(Settings(), NullSink(), galaxis_grammar, [speech.say("delta five", "flite:slt")],
                           until=lambda got: any(h.command is not None for h in got))
    assert messages[0].startswith("Voice: Whisper"), messages   # the console's recognizer
    commands = [h.command.text for h in got if h.command is not None]
    assert commands == ["query D5"], got


def test_a_command_said_with_a_pause_inside_is_one_command(microphone, speech, galaxis_grammar, tmp_path):
    """A player who pauses between letter and number ("golf ... nine") is heard once,
    as the whole command, not as two halves (each misheard as a command of its own)."""
    import numpy as np
    from audio_console.voice.audio import read_wav, write_wav
    pieces = []
    for text in ("echo four", "golf", "nine"):
        x, rate = read_wav(speech.say(text, "flite:slt"))
        loud = np.flatnonzero(np.abs(x) > 0.02 * np.abs(x).max())
        pieces.append(x[loud[0]:loud[-1] + 1])
    silence = lambda seconds: np.zeros(int(seconds * rate), np.float32)  # noqa: E731
    paused = tmp_path / "paused.wav"   # "echo four", a second later "golf ... nine"
    write_wav(paused, np.concatenate([pieces[0], silence(1.2), pieces[1], silence(0.35), pieces[2],
                                      silence(0.3)]), rate)
    got, _ = listen(Settings(), NullSink(), galaxis_grammar, [paused],
                    until=lambda got: any(h.command is not None and h.command.text == "query G9" for h in got))
    commands = [h.command.text for h in got if h.command is not None]
    # (Whisper may not catch flite's "echo four"; never a half command of "golf ... nine")
    assert commands[-1:] == ["query G9"] and set(commands) <= {"query E4", "query G9"}, got


def test_a_muted_microphone_is_told_to_the_player(microphone, galaxis_grammar, monkeypatch):
    """PulseAudio's mute on the real default source: the listener says so (after 2 s of
    the digital silence here, MUTED_AFTER in play)."""
    from audio_console.voice import microphone as mic
    monkeypatch.setattr(mic, "MUTED_AFTER", 2.0)
    source = f"{microphone}.monitor"
    assert _pactl("set-source-mute", source, "1").returncode == 0
    try:
        notices = []
        listener = open_listener(Settings(), NullSink(), notices.append)
        assert listener is not None, notices
        listener.set_grammar(galaxis_grammar)
        listener.start(lambda heard: None, on_notice=notices.append)
        try:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not any("muted" in line for line in notices):
                time.sleep(0.2)
        finally:
            listener.stop()
    finally:
        _pactl("set-source-mute", source, "0")
    assert [line for line in notices if "muted" in line] == [
        "The microphone sends only silence: if it is muted, unmute it; or type your commands."]


def test_played_noise_is_not_a_command(microphone, speech, galaxis_grammar):
    got, _ = listen(Settings(), NullSink(), galaxis_grammar,
                    [speech.noise(1.5, 0.15, seed=7), speech.noise(0.8, 0.3, seed=8)], wait=3.0)
    assert [h for h in got if h.command is not None] == []


def test_the_microphone_is_deaf_while_the_console_speaks(microphone, speech, galaxis_grammar):
    said = speech.say("bravo three", "flite:slt")
    got, _ = listen(Settings(headphones=False), BusySink(), galaxis_grammar, [said], wait=3.0)
    assert got == []
    got, _ = listen(Settings(headphones=True), BusySink(), galaxis_grammar, [said],
                    until=lambda got: any(h.command is not None for h in got))
    assert [h.command.text for h in got if h.command] == ["query B3"]


def test_push_to_talk_hears_only_while_the_key_is_held(microphone, speech, galaxis_grammar):
    said = speech.say("golf four", "flite:slt")
    messages, heard = [], queue.Queue()
    listener = open_listener(Settings(listening="push"), NullSink(), messages.append)
    listener.set_grammar(galaxis_grammar)
    listener.start(heard.put)
    try:
        time.sleep(0.5)
        play(said)                      # key not held: not heard
        time.sleep(1.0)
        assert heard.empty()
        listener.talk(True)
        play(said)
        time.sleep(0.3)
        listener.talk(False)            # key released: the utterance is complete
        got = heard.get(timeout=5)
        assert got.command is not None and got.command.text == "query G4"
    finally:
        listener.stop()


def test_the_console_plays_a_spoken_coordinate_and_ignores_noise(microphone, speech, tmp_path):
    """The whole way through: `audio-console --input voice` hears "delta five" from
    the microphone and queries D5 (the log says so); played noise queries nothing.
    The voice trace says what was heard."""
    import json
    import os
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    log, trace = tmp_path / "log.jsonl", tmp_path / "voice.jsonl"
    env = dict(os.environ, PYTHONPATH=str(root), AUDIO_CONSOLE_HOME=str(tmp_path))
    env.pop("VOSK_MODEL_PATH", None)
    said, noise = speech.say("delta five", "flite:slt"), speech.noise(1.5, 0.15, seed=9)
    console = subprocess.Popen([sys.executable, "-m", "audio_console", "--game", "galaxis", "--option", "2",
                                "--seed", "1", "--input", "voice", "--text", "--log", str(log),
                                "--voice-trace", str(trace)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               cwd=tmp_path, env=env, text=True)

    def answers():
        if not log.exists():
            return []
        return [e for e in map(json.loads, log.read_text().splitlines()) if e["event"] == "answer"]

    def wait_for(predicate, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not predicate():
            time.sleep(0.2)
        return predicate()

    try:
        time.sleep(6)   # start-up: model loading, microphone opening
        play(said)
        assert wait_for(lambda: len(answers()) == 1, 10), "the spoken coordinate was not played"
        assert answers()[0]["point"] == "D5"
        play(noise)
        time.sleep(4)
        assert len(answers()) == 1, answers()
    finally:
        console.terminate()
        output, _ = console.communicate(timeout=20)
    assert "Voice: Whisper" in output and "D5" in output
    heard = [e for e in map(json.loads, trace.read_text().splitlines()) if e["event"] == "heard"]
    assert heard and heard[0]["best"] == "query D5" and heard[0]["action"] in ("act", "confirm")


def test_chatter_and_noise_played_into_the_microphone_change_nothing(microphone, speech, galaxis_grammar, tmp_path):
    """Three people chatting (12 s, as loud as a player) and everyday noise: nothing
    acted on, and at most one "Did you say ...?" (the issue allows questions, not
    actions: held-out, 1.8 % of chatter, talk and noise clips get one). Where the
    cutter splits the talk depends on the load: once, in a full CI run, one piece got
    a question at confidence 0.056, just above the floor of 0.05."""
    from audio_console.voice.audio import write_wav
    room = tmp_path / "chatter.wav"
    write_wav(room, speech.chatter(12, -20, seed=3), 16000)
    got, _ = listen(Settings(), NullSink(), galaxis_grammar, [room, speech.noise(1.5, 0.15, seed=4)], wait=3.0)
    assert [h for h in got if h.action == "act"] == [], got
    assert len([h for h in got if h.action == "confirm"]) <= 1, got


def test_a_command_said_over_people_chatting_is_played(microphone, speech, galaxis_grammar, tmp_path):
    """The player says "delta five" while three people chat 10 dB lower: the
    utterance is cut out of the talk and the move is heard (once)."""
    import numpy as np
    from audio_console.voice.audio import read_wav, resample, write_wav
    x, rate = read_wav(speech.say("delta five", "flite:slt"))
    x = resample(x, rate, 16000)
    loud = np.flatnonzero(np.abs(x) > 0.02 * np.abs(x).max())
    x = x[loud[0]:loud[-1] + 1]
    x = x * 10 ** (-20 / 20) / np.sqrt(np.mean(x[np.abs(x) > 0.02 * np.abs(x).max()] ** 2))
    room = speech.chatter(8, -30, seed=5)
    room[int(4 * 16000):int(4 * 16000) + len(x)] += x
    mixed = tmp_path / "over_chatter.wav"
    write_wav(mixed, np.clip(room, -1, 1), 16000)
    got, _ = listen(Settings(), NullSink(), galaxis_grammar, [mixed], wait=3.0)
    assert "query D5" in [h.command.text for h in got if h.command is not None], got
    # the chatter itself is never acted on (at most asked about)
    assert all(h.confirm for h in got if h.command is not None and h.command.text != "query D5"), got
