"""Clearing a Windows console, where NVDA and JAWS users play: its terminal sequences
work only once the program has turned on the console's "virtual terminal
processing" (Windows 10 and later; Windows Terminal and cmd.exe alike), which
Python does not do by itself; without it ESC[H ESC[2J ESC[3J would be printed as
stray characters and nothing would be cleared. Where it cannot be turned on (an
older console) `cls` clears the whole console buffer, the scrollback included.
Elsewhere the sequences always work. Not tried on a real Windows PC (docs/platforms.md)."""
from __future__ import annotations

import subprocess
import sys

VIRTUAL_TERMINAL = 0x0004      # ENABLE_VIRTUAL_TERMINAL_PROCESSING, a console output mode


def sequences_work(out) -> bool:
    """True when `out` takes terminal sequences (on Windows: once turned on here)."""
    if sys.platform != "win32":
        return True
    try:
        import ctypes
        import msvcrt
        kernel32 = ctypes.windll.kernel32
        handle = msvcrt.get_osfhandle(out.fileno())
        mode = ctypes.c_uint32()
        if not kernel32.GetConsoleMode(handle, ctypes.byref(mode)):
            return False          # not a console after all
        return bool(mode.value & VIRTUAL_TERMINAL
                    or kernel32.SetConsoleMode(handle, mode.value | VIRTUAL_TERMINAL))
    except (ImportError, AttributeError, OSError, ValueError):
        return False


def clear_with_cls() -> bool:
    """Clear the console this process writes to with cmd's `cls`; False if that failed."""
    try:
        return subprocess.run("cls", shell=True, stderr=subprocess.DEVNULL, timeout=5).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
