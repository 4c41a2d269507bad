"""The sound server's echo canceller (voice/server_echo_cancel.py), through a real
PulseAudio: the console's speech played into the module's sink reaches the microphone
at -6 dB (module-loopback, the speakers in the room), and the module's source must
give the microphone with that speech taken out and a real person's "stop" said over
it kept. Unloading leaves the server as it was."""
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))
from bench_barge_in_parts import STOP_CLIPS, Recorder, SpeakersIntoMicrophone, pactl  # noqa: E402

from audio_console.voice import server_echo_cancel  # noqa: E402
from audio_console.voice.audio import read_wav, resample, write_wav  # noqa: E402

pytestmark = pytest.mark.audio

LINE = ("Hint 3: query delta five. The answer is two, because two ships are seen from there; "
        "foxtrot one is empty and golf nine answered three.")


@pytest.fixture
def room(monkeypatch):
    """Sinks of our own, the output looped into the microphone at -6 dB, and the
    process pointed at them as a player's default devices."""
    if not shutil.which("paplay") or subprocess.run(["pactl", "info"], capture_output=True).returncode:
        pytest.skip("no PulseAudio server (pactl info failed); scripts/test starts one")
    out, mic = f"aec_out_{os.getpid()}", f"aec_mic_{os.getpid()}"
    modules = [pactl("load-module", "module-null-sink", f"sink_name={name}").strip() for name in (out, mic)]
    monkeypatch.setenv("PULSE_SINK", out)
    monkeypatch.setenv("PULSE_SOURCE", f"{mic}.monitor")
    try:
        with SpeakersIntoMicrophone(out, mic, -6.0):
            yield out, mic
    finally:
        for module in modules:
            subprocess.run(["pactl", "unload-module", module], capture_output=True)


def _db(x: np.ndarray) -> float:
    y = x.astype(np.float32) / 32768
    return float(10 * np.log10(np.mean(y * y) + 1e-12))


def _modules() -> str:
    return pactl("list", "short", "modules")


def test_the_consoles_speech_is_taken_out_and_a_real_stop_kept(room, speech, tmp_path):
    out, mic = room
    server = server_echo_cancel.load(lambda line: pytest.fail(line))
    assert server is not None
    try:
        assert os.environ["PULSE_SINK"] == server.sink and os.environ["PULSE_SOURCE"] == server.source
        x, rate = read_wav(speech.say(LINE, "espeak:en"))
        line = tmp_path / "line.wav"
        write_wav(line, resample(x, rate, 16000) * 0.8, 16000)
        stop = STOP_CLIPS[0]
        raw, cleaned = Recorder(f"{mic}.monitor"), Recorder(server.source)
        try:
            time.sleep(0.3)
            player = subprocess.Popen(["paplay", f"--device={server.sink}", str(line)])
            time.sleep(3.0)                 # the canceller has converged by then
            echo_from = time.monotonic()
            time.sleep(2.0)
            echo_to = word_from = time.monotonic()
            subprocess.run(["paplay", f"--device={mic}", str(stop)], check=True, timeout=30)
            word_to = time.monotonic()
            player.wait(timeout=30)
            echo = [_db(r.between(echo_from, echo_to)) for r in (raw, cleaned)]
            word = [_db(r.between(word_from, word_to)) for r in (raw, cleaned)]
        finally:
            raw.close()
            cleaned.close()
        assert echo[0] > -35, f"no echo reached the microphone: {echo}"
        assert echo[0] - echo[1] >= 15, f"the console's speech was not taken out: raw, cleaned {echo} dB"
        # the player's word over the console: louder than the echo left, not taken out with it
        assert word[1] - echo[1] >= 10, f"the stop was lost with the echo: word {word}, echo {echo} dB"
        assert word[0] - word[1] < 6, f"the stop was taken out with the echo: raw, cleaned {word} dB"
    finally:
        module = server.module
        server.unload()
    assert f"{module}\tmodule-echo-cancel" not in _modules()


def test_only_for_a_voice_player_with_speakers():
    assert server_echo_cancel.wanted(voice=True, headphones=False) is True
    assert server_echo_cancel.wanted(voice=True, headphones=True) is False
    assert server_echo_cancel.wanted(voice=False, headphones=False) is False


class _Speaking:
    """A sink that is speaking, and whose hold is recorded."""

    def __init__(self):
        self.held = []

    def busy(self):
        return True

    def hold(self, on):
        self.held.append(on)


def _frames(db: float, n: int = 6) -> list[bytes]:
    rng = np.random.default_rng(1)
    return [(rng.standard_normal(480) * 32768 * 10 ** (db / 20)).astype("<i2").tobytes() for _ in range(n)]


@pytest.mark.parametrize("db, holds", [(-64.0, False), (-30.0, True)])
def test_with_the_servers_canceller_only_a_voice_over_the_room_holds_the_console(db, holds):
    """The microphone comes in cleaned by the server: the canceller only keeps levels,
    and an onset 6 dB over a -70 dB room (what the server left of the console's voice)
    must not silence the console, a player's word at -30 dB must."""
    from audio_console.audio.echo_reference import EchoReference
    from audio_console.voice.echo_cancel import EchoCanceller, Hold
    canceller = EchoCanceller(EchoReference(48000), cancel=False)
    for frame in _frames(db):
        assert canceller.clean(frame) == frame
    sink = _Speaking()
    Hold(sink, canceller, room_db=lambda: -70.0).onset(0.0)
    assert sink.held == ([True] if holds else [])


def test_a_faint_onset_is_held_when_the_word_grows_loud():
    """Over the console the canceller takes out what of a word is under its voice, so
    the onset is often faint (the "st" of "stop", or its leftover just before): not
    held then, but as soon as the utterance's last two frames are as loud as a
    player's word (30 dB over the room), and not at all while it stays at the
    leftover's level."""
    from audio_console.audio.echo_reference import EchoReference
    from audio_console.voice.echo_cancel import EchoCanceller, Hold
    canceller = EchoCanceller(EchoReference(48000), cancel=False)
    sink = _Speaking()
    hold = Hold(sink, canceller, room_db=lambda: -70.0)
    for frame in _frames(-55.0):
        canceller.clean(frame)
    hold.onset(0.0)
    for frame in _frames(-43.0, 3):    # 27 dB over the room: the canceller's leftover reaches that
        canceller.clean(frame)
        assert not hold.louder(0.1)
    assert sink.held == []
    canceller.clean(_frames(-28.0, 1)[0])
    assert hold.louder(0.2) and sink.held == [True] and hold.holding
    hold.ended()
    canceller.clean(_frames(-28.0, 1)[0])
    assert not hold.louder(0.3) and sink.held == [True]
