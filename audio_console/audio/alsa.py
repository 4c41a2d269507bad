"""Keep ALSA's own diagnostics off the player's screen.

alsa-lib prints lines such as "ALSA lib pcm.c:8570:(snd_pcm_recover) underrun
occurred" straight to standard error from C, whenever a stream hiccups under load.
A screen reader reads every one of them aloud in the middle of the game, and none
of them needs the player: a stream that really fails is reported by the engine and
the listener in one plain line of their own. So alsa-lib's error handler is
replaced by one that says nothing. Without libasound (no ALSA) nothing is done.
"""
from __future__ import annotations

import ctypes
import ctypes.util

# void handler(const char *file, int line, const char *function, int err, const char *fmt, ...)
_HANDLER_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                                 ctypes.c_int, ctypes.c_char_p)
_silent_handler = None   # kept alive for as long as alsa-lib may call it


def silence_alsa_messages() -> bool:
    """Install the silent handler once; True if alsa-lib is present and now silent."""
    global _silent_handler
    if _silent_handler is not None:
        return True
    name = ctypes.util.find_library("asound")
    if not name:
        return False
    try:
        asound = ctypes.CDLL(name)
        handler = _HANDLER_TYPE(lambda *args: None)
        asound.snd_lib_error_set_handler(handler)
    except (OSError, AttributeError):
        return False
    _silent_handler = handler
    return True
