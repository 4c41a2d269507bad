import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def private_home(tmp_path, monkeypatch):
    """Every test gets its own settings and save folder."""
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path / "home"))


def run_console(args, lines, tmp_path, timeout=60, **kwargs):
    """Run `python -m audio_console ARGS` with LINES on standard input, as a player would type them."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home")}
    stdin = "".join(line + "\n" for line in lines)
    return subprocess.run([sys.executable, "-m", "audio_console", *args], input=stdin, text=True,
                          capture_output=True, timeout=timeout, env=env, cwd=ROOT, **kwargs)
