"""Run audio_console as if on another platform: `python elsewhere.py win32|darwin ARGS`.

Linux cannot become Windows or macOS, but the console's own code can be made to
meet what it would meet there: sys.platform says "win32" or "darwin", the
console's Linux-only helpers (ALSA, the PortAudio stderr filter) and the
stdlib modules that platform lacks cannot be imported (each attempt is reported
on stderr as "blocked import: NAME" and fails), and Windows has no SIGHUP.
Libraries that pick their native parts when imported (sounddevice's PortAudio,
subprocess) are imported first, as their own platform's build would be: what is
tested is the console, not a Linux library pretending to be a Windows one.
"""
import importlib.abc
import runpy
import signal
import sys

CONSOLE_LINUX_ONLY = {"audio_console.audio.alsa", "audio_console.audio.stderr_filter"}
MISSING = {
    "win32": CONSOLE_LINUX_ONLY | {"fcntl", "termios", "tty", "pty", "pwd", "grp", "resource",
                                   "readline", "crypt", "syslog", "posix"},
    "darwin": CONSOLE_LINUX_ONLY,
}
# Imported before sys.platform changes: they choose their native parts when imported
# (prismatoid adds its DLL folder on Windows).
FIRST = ["subprocess", "asyncio", "ctypes.util", "numpy", "sounddevice", "prism"]


class Blocked(importlib.abc.MetaPathFinder):
    def __init__(self, names):
        self.names = names

    def find_spec(self, name, path=None, target=None):
        if name in self.names:
            print(f"blocked import: {name}", file=sys.stderr, flush=True)
            raise ModuleNotFoundError(f"No module named {name!r} (not on this platform)", name=name)
        return None


def become(platform: str) -> None:
    for name in FIRST:
        try:
            __import__(name)
        except ImportError:
            pass
    missing = MISSING[platform]
    for name in missing:
        if name != "posix":              # os itself is built on it; only new imports fail
            sys.modules.pop(name, None)
    sys.meta_path.insert(0, Blocked(missing))
    sys.platform = platform
    if platform == "win32":
        for name in ("SIGHUP", "SIGQUIT", "SIGTSTP", "SIGUSR1", "SIGUSR2"):
            if hasattr(signal, name):
                delattr(signal, name)


if __name__ == "__main__":
    become(sys.argv[1])
    sys.argv = ["audio-console", *sys.argv[2:]]
    runpy.run_module("audio_console", run_name="__main__", alter_sys=True)
