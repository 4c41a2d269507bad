"""Keep ALSA's own diagnostics off the player's screen.

alsa-lib prints lines such as "ALSA lib pcm.c:8570:(snd_pcm_recover) underrun
occurred" straight to standard error from C, whenever a stream hiccups under load.
A screen reader reads every one of them aloud in the middle of the game, and none
of them needs the player: a stream that really fails is reported by the engine and
the listener in one plain line of their own. So alsa-lib's error handler is
replaced by one that says nothing. Without libasound (no ALSA) nothing is done.

PortAudio's device scan opens every PCM that ALSA's configuration defines, and
alsa-lib keeps each plugin's library loaded after the probe: with Debian's
libasound2-plugins, the a52 encoder brings libavcodec and some hundred libraries
with it (about 11 MB resident, docs/measurements/memory.md). release_plugins()
lets go of those no open stream uses.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import functools

# void handler(const char *file, int line, const char *function, int err, const char *fmt, ...)
_HANDLER_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                                 ctypes.c_int, ctypes.c_char_p)
_silent_handler = None   # kept alive for as long as alsa-lib may call it


def _asound():
    name = ctypes.util.find_library("asound")
    return ctypes.CDLL(name) if name else None


def silence_alsa_messages() -> bool:
    """Install the silent handler once; True if alsa-lib is present and now silent."""
    global _silent_handler
    if _silent_handler is not None:
        return True
    try:
        asound = _asound()
        if asound is None:
            return False
        handler = _HANDLER_TYPE(lambda *args: None)
        asound.snd_lib_error_set_handler(handler)
    except (OSError, AttributeError):
        return False
    _silent_handler = handler
    return True


@functools.cache
def release_plugins() -> bool:
    """Once, after PortAudio's device scan: unload the ALSA plugin libraries that only
    the scan opened. alsa-lib frees its global configuration (read again by the next
    open) and closes the cached plugin libraries no open stream holds; streams open
    and running are untouched. True if alsa-lib was asked."""
    try:
        asound = _asound()
        return asound is not None and asound.snd_config_update_free_global() == 0
    except (OSError, AttributeError):
        return False
