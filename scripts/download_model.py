#!/usr/bin/env python3
"""Download the vosk English model into models/ (never committed).

    python scripts/download_model.py [--models models] [--from-file ZIP]

Fetches vosk-model-small-en-us-0.15.zip (about 40 MB) with a progress line,
checks its SHA-256, and unpacks it so that no entry can land outside models/
(absolute paths, "..", links are refused) and no half-unpacked model is ever
left: it unpacks into a temporary directory inside models/ and renames the
finished model into place in one step. --from-file uses a zip you already have.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import stat
import sys
import tempfile
import urllib.request
import zipfile
from pathlib import Path, PurePosixPath

NAME = "vosk-model-small-en-us-0.15"
URL = f"https://alphacephei.com/vosk/models/{NAME}.zip"
SHA256 = "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498"
ROOT = Path(__file__).resolve().parent.parent


class ModelError(Exception):
    pass


def download(url: str, dest: Path, out=sys.stderr) -> None:
    """Fetch url to dest with a one-line progress display (rewritten with \\r only on a terminal)."""
    tmp = dest.with_suffix(dest.suffix + ".part")
    try:
        with urllib.request.urlopen(url, timeout=60) as response, open(tmp, "wb") as f:
            total = int(response.headers.get("Content-Length") or 0)
            done, last = 0, -1
            while chunk := response.read(1 << 16):
                f.write(chunk)
                done += len(chunk)
                percent = done * 100 // total if total else -1
                if percent != last and (percent % 10 == 0 or out.isatty()):
                    last = percent
                    size = f"{done / 1e6:.1f} of {total / 1e6:.1f} MB" if total else f"{done / 1e6:.1f} MB"
                    end = "\r" if out.isatty() else "\n"
                    print(f"Downloading {dest.name}: {percent if total else '?'}% ({size})", end=end, file=out)
        if out.isatty():
            print(file=out)
        os.replace(tmp, dest)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise ModelError(f"download failed: {e}") from e


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def verify(path: Path, expected: str) -> None:
    actual = sha256_of(path)
    if actual != expected.lower():
        raise ModelError(f"{path.name}: SHA-256 is {actual}, expected {expected}; the file is damaged or not the model")


def _safe_members(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """Every entry, checked: relative, no "..", no links or devices."""
    members = archive.infolist()
    for info in members:
        name = info.filename
        parts = PurePosixPath(name.replace("\\", "/")).parts
        if name.startswith(("/", "\\")) or (parts and (":" in parts[0])) or ".." in parts:
            raise ModelError(f"refusing to unpack {name!r}: it would land outside models/")
        kind = stat.S_IFMT(info.external_attr >> 16)   # 0: no Unix type recorded (a plain file)
        if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
            raise ModelError(f"refusing to unpack {name!r}: links and special files are not allowed")
    return members


def unpack(zip_path: Path, models: Path, name: str = NAME) -> Path:
    """Unpack the model's top folder `name` from zip_path to models/name, atomically."""
    models.mkdir(parents=True, exist_ok=True)
    target = models / name
    if target.exists():
        raise ModelError(f"{target} already exists; remove it first to unpack again")
    try:
        archive = zipfile.ZipFile(zip_path)
    except (OSError, zipfile.BadZipFile) as e:
        raise ModelError(f"{zip_path}: not a zip file ({e})") from e
    staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=models))   # same file system: rename is atomic
    try:
        with archive:
            members = _safe_members(archive)
            root = staging.resolve()
            for info in members:
                dest = (staging / info.filename).resolve()
                if root not in dest.parents and dest != root:
                    raise ModelError(f"refusing to unpack {info.filename!r}: it would land outside models/")
                archive.extract(info, staging)
        unpacked = staging / name
        if not (unpacked / "am" / "final.mdl").is_file():
            raise ModelError(f"{zip_path.name} does not hold a vosk model folder named {name}")
        os.rename(unpacked, target)
    except (OSError, zipfile.BadZipFile, RuntimeError) as e:
        raise ModelError(f"unpacking failed: {e}") from e
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=str(ROOT / "models"), help="where models live (default: models/)")
    ap.add_argument("--from-file", help="unpack this zip instead of downloading")
    ap.add_argument("--sha256", default=SHA256, help=argparse.SUPPRESS)
    ap.add_argument("--name", default=NAME, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    models = Path(args.models)
    if (models / args.name / "am" / "final.mdl").is_file():
        print(f"{models / args.name} is already there.")
        return 0
    try:
        if args.from_file:
            zip_path = Path(args.from_file)
        else:
            models.mkdir(parents=True, exist_ok=True)
            zip_path = models / f"{args.name}.zip"
            if not zip_path.is_file():
                download(URL, zip_path)
        verify(zip_path, args.sha256)
        target = unpack(zip_path, models, args.name)
        if not args.from_file:
            zip_path.unlink(missing_ok=True)
    except ModelError as e:
        print(f"download_model: {e}", file=sys.stderr)
        return 1
    print(f"Model ready: {target}. The console uses it from now on (vosk).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
