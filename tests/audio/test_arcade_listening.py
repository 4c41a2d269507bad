"""Issue 30 item 4, with real speech: in Arcade Mode the computer Defence does not roll
while the player hears `what can I do` spoken by the real engine into PulseAudio, and
rolls again once the player cuts it off (typing stops the speech)."""
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


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


@pytest.mark.audio
@pytest.mark.slow
def test_the_defence_waits_while_what_can_i_do_is_spoken(tmp_path, pulse):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home")}
    process = subprocess.Popen(
        [sys.executable, "-m", "audio_console", "--game", "arkade", "--mode", "arcade", "--alien", "human",
         "--defence", "computer", "--pace", "0.5", "--seed", "4", "--no-signals", "--save", str(tmp_path / "s.json")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    lines = Lines(process.stdout)

    def type_line(text):
        process.stdin.write(text + "\n")
        process.stdin.flush()
    try:
        lines.wait_for("Arcade Mode: say go")
        type_line("go")
        lines.wait_for("Start!")
        type_line("roll")
        lines.wait_for("Alien")
        lines.until(time.monotonic() + 1.5)
        type_line("what can I do")
        listed = lines.wait_for("You can:")
        seen = lines.until(listed + 4.0)                 # eight paces, while the list is spoken
        during = [line for at, line in seen if at > listed and line.startswith("Defence")]
        assert during == [], during
        type_line("stop")                                # cut off: the clock goes on
        cut = time.monotonic()
        seen = lines.until(cut + 3.0)
        assert [line for at, line in seen if at > cut and line.startswith("Defence")]
        type_line("quit")
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
