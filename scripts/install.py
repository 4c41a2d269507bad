"""Set up audio_console on Windows, macOS or Linux with nothing but Python 3.11 or newer.

    python scripts/install.py            (Windows: py scripts\\install.py)
    python scripts/install.py --vosk     also the vosk engine, for a vosk model you download

It makes the virtual environment .venv in this folder, installs the console into it
(editable, so models/ and scripts/download_model.py of this folder are the ones it
uses) and prints, as its last line, the one command that starts the console. Every
line it prints is plain text; pip's own output goes to .venv/setup.log, shown only
when a step fails. Running it again updates the installation. On Linux scripts/play
does the same and also installs the Debian packages (espeak-ng, PortAudio).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def say(text: str) -> None:
    print(f"audio-console set-up: {text}", flush=True)


def venv_program(env: Path, name: str) -> Path:
    """A program in the virtual environment (Windows keeps them in Scripts, as .exe)."""
    if sys.platform == "win32":
        return env / "Scripts" / f"{name}.exe"
    return env / "bin" / name


def quietly(command: list[str], log: Path) -> bool:
    """Run a command with its output appended to the log; on failure show the log's end."""
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(command)}\n")
        out.flush()
        done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    if done.returncode == 0:
        return True
    say(f"this step failed: {' '.join(command)}")
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines()[-25:]:
        print(line, flush=True)
    return False


def install(env: Path, extras: list[str]) -> int:
    if sys.version_info < (3, 11):
        say(f"audio_console needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
        return 1
    python = venv_program(env, "python")
    if not python.exists():
        say(f"creating the virtual environment in {env}")
        venv.EnvBuilder(with_pip=True).create(env)
    log = env / "setup.log"
    target = f"{ROOT}[{','.join(extras)}]" if extras else str(ROOT)
    say("installing audio_console and its libraries (the first time takes a few minutes)")
    if not (quietly([str(python), "-m", "pip", "install", "-q", "--upgrade", "pip"], log)
            and quietly([str(python), "-m", "pip", "install", "-q", "-e", target], log)):
        return 1
    console = venv_program(env, "audio-console")
    if not console.exists():
        say(f"the installation finished but {console} is missing; see {log}")
        return 1
    say(f"done. Start the console with: {command_line(console)}")
    return 0


def command_line(program: Path) -> str:
    """The start command as the player types it: quoted when the path has a space."""
    text = str(program)
    return f'"{text}"' if " " in text else text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vosk", action="store_true", help="also install the vosk engine")
    parser.add_argument("--venv", type=Path, default=Path(os.environ.get("AUDIO_CONSOLE_VENV", ROOT / ".venv")),
                        help="where the virtual environment goes (default: .venv here)")
    args = parser.parse_args(argv)
    return install(args.venv.resolve(), ["vosk"] if args.vosk else [])


if __name__ == "__main__":
    sys.exit(main())
