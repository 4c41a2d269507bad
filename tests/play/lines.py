"""A console run as a process, its output read line by line as it arrives, each line
with its time: for tests of the real clock (Arcade Mode) through the real console."""
import os
import queue
import subprocess
import sys
import threading
import time

from tests.conftest import ROOT


class Lines:
    """The console's output lines as they arrive, each with its time."""

    def __init__(self, stream):
        self.arrived: queue.Queue = queue.Queue()
        self.seen: list[tuple[float, str]] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in stream:
            self.arrived.put((time.monotonic(), line.rstrip("\n")))

    def wait_for(self, start: str, timeout: float = 40.0) -> float:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                at, line = self.arrived.get(timeout=0.2)
            except queue.Empty:
                continue
            self.seen.append((at, line))
            if line.startswith(start):
                return at
        raise AssertionError(f"no line starting {start!r}; seen: {[l for _, l in self.seen][-20:]}")

    def until(self, moment: float) -> list[tuple[float, str]]:
        while time.monotonic() < moment:
            try:
                self.seen.append(self.arrived.get(timeout=0.1))
            except queue.Empty:
                pass
        return self.seen


class Running:
    """`python -m audio_console ARGS` as a process: typed into line by line, its output in `lines`."""

    def __init__(self, tmp_path, args: list[str]):
        env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home")}
        self.process = subprocess.Popen([sys.executable, "-m", "audio_console", *args],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env=env, cwd=ROOT)
        self.lines = Lines(self.process.stdout)

    def type(self, text: str) -> float:
        """Type a line and Enter; the moment it was typed."""
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()
        return time.monotonic()

    def since(self, moment: float, until: float) -> list[str]:
        """The lines that arrived after `moment`, waiting until `until`."""
        return [line for at, line in self.lines.until(until) if at > moment]

    def quit(self) -> None:
        if self.process.poll() is None:
            self.type("quit")
            try:
                self.process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.communicate()
