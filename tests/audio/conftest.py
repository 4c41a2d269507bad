import os
import subprocess

import pytest


def pulseaudio_running() -> bool:
    try:
        return subprocess.run(["pactl", "info"], capture_output=True, timeout=5).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture
def pulse():
    """The PulseAudio server with the console_out null sink as default (scripts/test starts it)."""
    if not pulseaudio_running():
        pytest.skip("no PulseAudio server (pactl info failed); scripts/test starts one")
    sinks = subprocess.run(["pactl", "list", "short", "sinks"], capture_output=True, text=True).stdout
    if "console_out" not in sinks:
        pytest.skip("PulseAudio has no console_out null sink; scripts/test loads it")
    return os.environ.get("AUDIO_CONSOLE_TEST_SINK", "console_out")


@pytest.fixture
def messages():
    return []
