"""The console in a real terminal: a tmux pane on a private tmux server, typed into
with send-keys and read with capture-pane, scrollback included (what a screen
reader's review cursor can reach)."""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time

import pytest

from tests.conftest import ROOT


class Terminal:
    opened = 0      # each terminal its own tmux server

    def __init__(self, tmp_path, args: list[str], width: int = 120, height: int = 40,
                 program: tuple[str, ...] = ("-m", "audio_console")):
        if shutil.which("tmux") is None:
            pytest.fail("tmux is missing: scripts/test installs it (Debian package tmux)")
        Terminal.opened += 1
        self.socket = str(tmp_path / f"tmux{Terminal.opened}.sock")
        home = tmp_path / "home"
        command = " ".join(shlex.quote(part) for part in [
            "env", f"PYTHONPATH={ROOT}", f"AUDIO_CONSOLE_HOME={home}",
            sys.executable, *program, *args])
        # the pane stays open after the console ends, so that its last screen can be read
        self._tmux("new-session", "-d", "-x", str(width), "-y", str(height), "-s", "console",
                   "-c", str(ROOT), command + "; sleep 60")

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True,
                              timeout=20, env={**os.environ, "TMUX": ""})
        assert done.returncode == 0, done.stderr
        return done.stdout

    def screen(self) -> str:
        """Everything the pane holds: its scrollback and its screen."""
        return self._tmux("capture-pane", "-p", "-S", "-", "-t", "console")

    def wait_for(self, text: str, timeout: float = 30.0, count: int = 1) -> str:
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if screen.count(text) >= count:
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"{text!r} never appeared; the pane holds:\n{screen}")
            time.sleep(0.1)

    def type(self, line: str, then: str | None = None) -> str:
        """Type a line and Enter; wait until `then` is on the pane (one more time than before)."""
        before = self.screen().count(then) if then else 0
        self._tmux("send-keys", "-t", "console", "-l", line)
        self._tmux("send-keys", "-t", "console", "Enter")
        return self.wait_for(then, count=before + 1) if then else ""

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=20)
