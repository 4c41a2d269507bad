"""scripts/install.py, the Windows and macOS set-up, run for real into a fresh virtual
environment. Only the console itself is installed (PIP_NO_DEPS: its libraries are the
wheel check's business, and installing them all would take minutes); what matters
here is that the script makes the environment, installs, and ends with the one
command that starts the console, all in plain lines."""
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.slow
def test_install_makes_the_environment_and_ends_with_the_start_command(tmp_path):
    env = {**os.environ, "PIP_NO_DEPS": "1"}
    env.pop("PYTHONPATH", None)
    target = tmp_path / "env"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "install.py"), "--venv", str(target)],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert all(line.startswith("audio-console set-up: ") for line in lines), lines
    console = target / ("Scripts/audio-console.exe" if sys.platform == "win32" else "bin/audio-console")
    assert lines[-1] == f"audio-console set-up: done. Start the console with: {console}"
    assert os.access(console, os.X_OK)
    python = target / "bin" / "python"
    where = subprocess.run([str(python), "-c", "import audio_console; print(audio_console.__file__)"],
                           capture_output=True, text=True, env=env)
    assert where.stdout.strip() == str(ROOT / "audio_console" / "__init__.py")   # editable: this folder
    assert (target / "setup.log").is_file() and "pip" in (target / "setup.log").read_text()
