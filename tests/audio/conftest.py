import os
import subprocess

import pytest


def pulseaudio_running() -> bool:
    try:
        return subprocess.run(["pactl", "info"], capture_output=True, timeout=5).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture(scope="session")
def _test_sink():
    """A null sink of our own for this test run, so that nothing else playing into
    console_out (another test, another program) is heard in our recordings. Falls back
    to console_out (scripts/test makes it the default sink) if it cannot be loaded."""
    if not pulseaudio_running():
        yield None
        return
    name = f"audio_test_{os.getpid()}"
    loaded = subprocess.run(["pactl", "load-module", "module-null-sink", f"sink_name={name}"],
                            capture_output=True, text=True)
    if loaded.returncode == 0:
        yield name
        subprocess.run(["pactl", "unload-module", loaded.stdout.strip()], capture_output=True)
        return
    sinks = subprocess.run(["pactl", "list", "short", "sinks"], capture_output=True, text=True).stdout
    yield "console_out" if "console_out" in sinks else None


@pytest.fixture
def pulse(_test_sink, monkeypatch):
    """The engine plays into a PulseAudio null sink (its name is returned); tests record
    its monitor. PULSE_SINK makes it this process's default sink."""
    if _test_sink is None:
        pytest.skip("no PulseAudio server with a null sink (pactl info failed); scripts/test starts one")
    monkeypatch.setenv("PULSE_SINK", _test_sink)
    return _test_sink


@pytest.fixture
def messages():
    return []
