"""Keep the audio libraries' C-level diagnostics off the player's screen.

When the audio server dies, PortAudio prints lines such as "Expression
'alsa_snd_pcm_poll_descriptors_revents( ... )' failed in
'src/hostapi/alsa/pa_linux_alsa.c', line: 3667" straight to file descriptor 2 from
C, and it offers no exported switch to turn them off. A screen reader reads each
one aloud. So descriptor 2 becomes a pipe whose lines are copied to the real
standard error, except those diagnostics; Python's own sys.stderr writes to the
real standard error directly, so a traceback is never held up or lost.
"""
from __future__ import annotations

import atexit
import os
import re
import sys
import threading

NOISE = re.compile(rb"^(Expression '.*' failed in '|ALSA lib |PaAlsaStream|AlsaRestart|PortAudio: )")
_installed = False


def filter_stderr() -> bool:
    """Install the filter once; True when it is in place."""
    global _installed
    if _installed:
        return True
    try:
        sys.stderr.flush()
        real = os.dup(2)
        read_end, write_end = os.pipe()
        os.dup2(write_end, 2)
        os.close(write_end)
        sys.stderr = open(real, "w", buffering=1, encoding=getattr(sys.stderr, "encoding", None) or "utf-8",
                          errors="backslashreplace", closefd=False)
    except (OSError, ValueError, AttributeError):
        return False
    thread = threading.Thread(target=_copy, args=(read_end, real), name="stderr-filter", daemon=True)
    thread.start()
    atexit.register(_drain, thread)
    _installed = True
    return True


def _drain(thread: threading.Thread) -> None:
    """At exit: pass on what is still in the pipe (close our end; wait briefly)."""
    try:
        os.close(2)
    except OSError:
        return
    thread.join(timeout=0.5)


def _copy(read_end: int, real: int) -> None:
    with open(read_end, "rb") as pipe:
        for line in pipe:
            if not NOISE.match(line):
                try:
                    os.write(real, line)
                except OSError:
                    return
