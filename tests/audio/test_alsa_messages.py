"""ALSA's own stderr lines (read aloud by a screen reader) are kept off the screen."""
import ctypes
import ctypes.util
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(not ctypes.util.find_library("asound"), reason="no libasound (ALSA)")

# alsa-lib complains on stderr about a device that does not exist, as it does about
# an underrun mid-game: "ALSA lib pcm.c:...:(snd_pcm_open_noupdate) Unknown PCM ..."
PROVOKE = """
import ctypes, ctypes.util
{silence}
asound = ctypes.CDLL(ctypes.util.find_library("asound"))
pcm = ctypes.c_void_p()
result = asound.snd_pcm_open(ctypes.byref(pcm), b"no_such_device_here", 0, 0)
print("open failed" if result < 0 else "opened")
"""


def run(silence: str):
    return subprocess.run([sys.executable, "-c", PROVOKE.format(silence=silence)], cwd=ROOT,
                          capture_output=True, text=True, timeout=30)


def test_alsa_lib_writes_its_errors_to_stderr_unless_silenced():
    loud = run("")
    assert loud.stdout.strip() == "open failed" and "ALSA lib" in loud.stderr
    quiet = run("from audio_console.audio.alsa import silence_alsa_messages\n"
                "assert silence_alsa_messages()")
    assert quiet.stdout.strip() == "open failed" and quiet.stderr == ""


def test_opening_the_sound_silences_alsa():
    quiet = run("from audio_console.audio import open_sound\n"
                "open_sound(None, speech=False, signals=True, notify=lambda line: None).close()\n"
                "from audio_console.audio import alsa\nassert alsa._silent_handler is not None")
    assert quiet.stdout.strip() == "open failed" and quiet.stderr == ""
