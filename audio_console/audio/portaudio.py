"""sounddevice (PortAudio) for the engine's output and the microphone, imported once."""
from __future__ import annotations

import sys


def sounddevice_module():
    """sounddevice, imported (PortAudio scans the devices as it loads); on Linux the
    ALSA plugin libraries that only the scan used are let go (alsa.release_plugins).
    Raises what the import raises (OSError without PortAudio)."""
    import sounddevice
    if sys.platform.startswith("linux"):
        from audio_console.audio.alsa import release_plugins
        release_plugins()
    return sounddevice
