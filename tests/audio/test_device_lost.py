"""A device that disappears mid-game: a private PulseAudio server is killed under the
engine (in a child process). One plain message, then the game goes on in text."""
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import sys, time
from audio_console.audio.engine import AudioEngine
from audio_console.base.settings import Settings
messages = []
engine = AudioEngine(Settings(), speech=False, notify=messages.append)
print("output", engine.output, flush=True)
engine.play_signal("own_ship")
sys.stdin.readline()                       # the server is gone now
start = time.monotonic()
while not messages and time.monotonic() - start < 8:
    engine.play_signal("answer_1")         # the game goes on, playing its signals
    time.sleep(0.1)
engine.speak("answer one")
print("busy", engine.busy(), flush=True)
engine.close()
for m in messages:
    print("message", m, flush=True)
"""


@pytest.fixture
def private_pulseaudio(tmp_path):
    if shutil.which("pulseaudio") is None:
        pytest.skip("pulseaudio is not installed")
    run = tmp_path / "run"
    run.mkdir()
    env = {**os.environ, "HOME": str(tmp_path), "PULSE_RUNTIME_PATH": str(run), "XDG_RUNTIME_DIR": str(run)}
    socket = run / "native"
    subprocess.run(["pulseaudio", "-D", "-n", "--exit-idle-time=-1", "--use-pid-file=yes",
                    f"--load=module-native-protocol-unix socket={socket} auth-anonymous=1",
                    "--load=module-null-sink sink_name=lost_out"],
                   env=env, capture_output=True, timeout=20)
    for _ in range(50):
        if (run / "pid").exists() and socket.exists():
            break
        time.sleep(0.1)
    else:
        pytest.skip("a private PulseAudio server did not start")
    pid = int((run / "pid").read_text().split()[0])
    yield f"unix:{socket}", pid
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.mark.audio
def test_server_killed_mid_game_gives_one_message_and_no_crash(private_pulseaudio):
    server, pid = private_pulseaudio
    env = {**os.environ, "PULSE_SERVER": server, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", CHILD], env=env, cwd=ROOT, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout.readline().strip() == "output device"
    time.sleep(0.5)                      # the own-ship tone is playing
    os.kill(pid, signal.SIGTERM)         # the sound server goes away
    time.sleep(0.5)
    out, err = child.communicate("go\n", timeout=30)
    assert child.returncode == 0, err
    lines = out.splitlines()
    assert lines[0] == "busy False"
    assert [line for line in lines if line.startswith("message")] == [
        "message Sound stopped: the audio device went away. The game goes on in text."]
