"""Fetching and unpacking speech models so that nothing half-done is ever used.

Downloads go to `<file>.part`: a file is renamed into place only when its length
and SHA-256 are right; a failed download deletes its `.part`. Only a kill or
Ctrl+C leaves one behind, and the next run resumes it only through a range the
server confirms (206 with the exact Content-Range), the whole file still hashed
at the end. Zip archives unpack into `models/.unpack-<pid>-*` with every entry
checked (no escape from the folder, no links) and a byte budget; folders of
processes that are gone are removed at the next start. Progress is a plain text
line as each file starts, every 10 % of a large one, and for any file a line after
10 s without one, even while the server sends nothing (a screen reader reads lines:
no carriage returns, no redraws). Every file has a deadline (and so has every model:
deadline()), kept by a watchdog that shuts the connection, so a server that trickles
a byte at a time, its headers included, cannot keep the download running for ever; a
slow link can allow more time (SPEED_ENV, START_ENV: docs/files.md, "Downloading a model").
Every failure is one line of printable text, whatever bytes the server sent (a
server's words are never printed raw).
"""
from __future__ import annotations

import hashlib
import http.client
import os
import re
import shutil
import stat
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
import zlib
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from audio_console.base.files import sha256_of
from audio_console.voice.download_watch import Progress, Watchdog, human_size

CHUNK = 1 << 16
UNPACK_PREFIX = ".unpack-"
SLOWEST = 50_000          # bytes a second a download may average, after a start-up allowance
START_UP = 120.0          # seconds allowed on top of that (connecting, a slow start)
SPEED_ENV = "AUDIO_CONSOLE_DOWNLOAD_SPEED"    # the slowest average allowed, kB/s (a slow link: lower)
START_ENV = "AUDIO_CONSOLE_DOWNLOAD_START"    # the start-up allowance, seconds
MAX_LINE = 300            # characters of a message at most


def one_line(text: str) -> str:
    """Text as one printable line: control bytes (NUL, a carriage return) shown as '?',
    line breaks and runs of blanks as one space, at most MAX_LINE characters."""
    text = "".join(c if c.isprintable() or c.isspace() else "?" for c in text)
    text = " ".join(text.split())
    return text if len(text) <= MAX_LINE else text[:MAX_LINE - 3] + "..."


class ModelError(Exception):
    """Why a model could not be fetched or installed, in one printable line."""

    def __init__(self, message: str):
        super().__init__(one_line(message))


def _setting(name: str, default: float) -> float:
    """A positive number from the environment, or the default."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if 0 < value < float("inf") else default


def deadline(size: int | None) -> float:
    """time.monotonic() by which a download of size bytes must be done."""
    slowest = _setting(SPEED_ENV, SLOWEST / 1000) * 1000
    return time.monotonic() + _setting(START_ENV, START_UP) + (size or 0) / slowest


def _content_length(response, label: str) -> int | None:
    raw = response.headers.get("Content-Length")
    if raw is None:
        return None
    if not raw.strip().isdigit():
        raise ModelError(f"{label}: the server sent a broken Content-Length ({raw[:40]!r}); nothing was kept, try again later")
    return int(raw)


def _resumed_offset(response, have: int, size: int | None, label: str) -> int:
    """Where the body starts: `have` for a confirmed range, 0 for a whole file."""
    status = getattr(response, "status", 200)
    length = _content_length(response, label)
    if status == 200:
        if size is not None and length is not None and length != size:
            raise ModelError(f"{label}: the server sends {length} bytes, the pinned file has {size}; nothing was kept")
        return 0
    if status == 206 and have:
        m = re.fullmatch(r"bytes (\d+)-(\d+)/(\d+)", (response.headers.get("Content-Range") or "").strip())
        if (m and int(m[1]) == have and int(m[2]) + 1 == int(m[3])
                and (size is None or int(m[3]) == size)
                and (length is None or length == int(m[3]) - have)):
            return have
        raise ModelError(f"{label}: the server's answer to the resume does not fit the partial download; "
                         "it was deleted, run again to start afresh")
    raise ModelError(f"{label}: the server answered {status}, not the file")


def _describe(error: BaseException, url: str) -> str:
    if isinstance(error, http.client.IncompleteRead):
        return f"the connection was cut off after {len(error.partial)} bytes of a piece"
    if isinstance(error, urllib.error.HTTPError) and 300 <= error.code < 400:   # urllib: a loop, or too many
        return f"the server answered {error.code}, redirects that go round in a loop, for {url}"
    if isinstance(error, urllib.error.HTTPError):
        return f"the server answered {error.code} {error.reason} for {url}"
    if isinstance(error, urllib.error.URLError):
        return f"cannot reach {url}: {error.reason}"
    if isinstance(error, http.client.BadStatusLine):     # its text is the server's raw bytes
        return f"the server at {url} does not answer in HTTP"
    if isinstance(error, TimeoutError):
        return "the server sent nothing for too long"
    return str(error) or type(error).__name__


def download_file(url: str, dest: Path, sha256: str, size: int | None = None, out=None,
                  max_bytes: int | None = None, timeout: float = 60, until: float | None = None) -> None:
    """Fetch url to dest: right length and SHA-256, or an error and no file.
    size: the pinned length (None when unknown; max_bytes then bounds the body).
    until: the time.monotonic() by which it must be done (at the latest deadline(size));
    timeout: seconds one read may wait for the server."""
    label = dest.name
    until = min(until, deadline(size or max_bytes)) if until is not None else deadline(size or max_bytes)
    part = dest.with_name(dest.name + ".part")
    have = part.stat().st_size if part.is_file() else 0
    if have and (size is None or have >= size):
        part.unlink()        # cannot be a verified prefix: start again
        have = 0
    headers = {"Range": f"bytes={have}-"} if have else {}
    if not have:
        print(f"{label}: downloading{f' {human_size(size)}' if size else ''}.", file=out, flush=True)
    progress = Progress(label, size, out, have)
    watchdog = Watchdog(until, progress)
    try:
        request = urllib.request.Request(url, headers=headers)
        with watchdog.opener().open(request, timeout=max(1.0, min(timeout, until - time.monotonic()))) as response:
            digest = _receive(response, part, have, size, max_bytes, progress, until)
        if digest != sha256.lower():
            raise ModelError(f"{label}: SHA-256 is {digest}, expected {sha256}; "
                             "the file is damaged or not the model, nothing was kept")
        os.replace(part, dest)
    except ModelError:
        part.unlink(missing_ok=True)
        raise
    except (OSError, http.client.HTTPException, ValueError) as e:
        part.unlink(missing_ok=True)
        if watchdog.expired or time.monotonic() >= until:
            raise _too_slow(progress) from e
        raise ModelError(f"{label}: download failed: {_describe(e, url)}; nothing was kept") from e
    finally:
        watchdog.close()
    print(f"{label}: {human_size(progress.done)}, SHA-256 correct.", file=out, flush=True)


def _too_slow(progress: Progress) -> ModelError:
    return ModelError(f"{progress.label}: the server is too slow ({human_size(progress.done)} in "
                      f"{progress.elapsed():.0f} s); nothing was kept, try again later (on a slow link, set "
                      f"{SPEED_ENV} to the kB a second it manages)")


def _receive(response, part: Path, have: int, size: int | None, max_bytes: int | None,
             progress: Progress, until: float) -> str:
    """The body into part (appended after a confirmed range); its whole SHA-256."""
    label = progress.label
    offset = _resumed_offset(response, have, size, label)
    length = _content_length(response, label)
    total = size if size is not None else (offset + length if length is not None else None)
    limit = size if size is not None else max_bytes
    h = hashlib.sha256()
    if offset:
        with open(part, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        print(f"{label}: resuming at {human_size(offset)}", file=progress.out, flush=True)
    progress.done = done = offset
    progress.set_total(total)
    with open(part, "ab" if offset else "wb") as f:
        while chunk := response.read1(CHUNK):     # read1: what has come, not a full CHUNK
            done += len(chunk)
            if limit is not None and done > limit:
                raise ModelError(f"{label}: the server sends more than the {human_size(limit)} expected; nothing was kept")
            f.write(chunk)
            h.update(chunk)
            progress.update(done)
            if time.monotonic() > until:
                raise _too_slow(progress)
    if time.monotonic() >= until:      # the watchdog shut the connection: the end came early
        raise _too_slow(progress)
    if total is not None and done != total:
        raise ModelError(f"{label}: the download was cut off at {human_size(done)} of {human_size(total)}; "
                         "nothing was kept, run again")
    return h.hexdigest()


def verify(path: Path, expected: str) -> None:
    actual = sha256_of(path)
    if actual != expected.lower():
        raise ModelError(f"{path.name}: SHA-256 is {actual}, expected {expected}; the file is damaged or not the model")


# --- unpacking ---------------------------------------------------------------------------------

def _pid_alive(pid: int) -> bool:
    if sys.platform == "win32":
        # os.kill(pid, 0) would end that process on Windows (TerminateProcess): a folder
        # left by a kill is kept instead (hidden, never used as a model).
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_stale(models: Path) -> list[Path]:
    """Remove `.unpack-*` folders whose process is gone (a kill during unpacking)."""
    removed: list[Path] = []
    if not models.is_dir():
        return removed
    for child in models.iterdir():
        if not child.name.startswith(UNPACK_PREFIX) or not child.is_dir():
            continue
        m = re.match(rf"{re.escape(UNPACK_PREFIX)}(\d+)-", child.name)
        if m and int(m[1]) != os.getpid() and _pid_alive(int(m[1])):
            continue         # another run is unpacking right now
        shutil.rmtree(child, ignore_errors=True)
        removed.append(child)
    return removed


@contextmanager
def unpack_folder(models: Path):
    """A fresh hidden folder inside models/ (same file system: renames are atomic),
    removed on the way out whatever happens."""
    models.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{UNPACK_PREFIX}{os.getpid()}-", dir=models))
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _checked_members(archive: zipfile.ZipFile, budget: int) -> list[zipfile.ZipInfo]:
    """Every entry, checked: relative, no "..", no links or devices, within the budget."""
    members = archive.infolist()
    for info in members:
        name = info.filename
        parts = PurePosixPath(name.replace("\\", "/")).parts
        if name.startswith(("/", "\\")) or (parts and ":" in parts[0]) or ".." in parts:
            raise ModelError(f"refusing to unpack {name!r}: it would land outside models/")
        kind = stat.S_IFMT(info.external_attr >> 16)   # 0: no Unix type recorded (a plain file)
        if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
            raise ModelError(f"refusing to unpack {name!r}: links and special files are not allowed")
    declared = sum(info.file_size for info in members)
    if declared > budget:
        raise ModelError(f"refusing to unpack: the archive would fill {human_size(declared)}, "
                         f"more than the {human_size(budget)} a model of this kind needs")
    return members


def unpack_zip(zip_path: Path, staging: Path, budget: int) -> None:
    """Unpack zip_path into staging, refusing escapes, links and more than budget bytes
    (counted as written, not only as declared)."""
    try:
        archive = zipfile.ZipFile(zip_path)
    except (OSError, zipfile.BadZipFile) as e:
        raise ModelError(f"{zip_path.name}: not a zip file ({e})") from e
    root = staging.resolve()
    written = 0
    try:
        with archive:
            for info in _checked_members(archive, budget):
                dest = (staging / info.filename.replace("\\", "/")).resolve()
                if root not in dest.parents and dest != root:
                    raise ModelError(f"refusing to unpack {info.filename!r}: it would land outside models/")
                if info.is_dir():
                    dest.mkdir(parents=True, exist_ok=True)
                    continue
                dest.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(info) as src, open(dest, "wb") as f:
                    while block := src.read(CHUNK):
                        written += len(block)
                        if written > budget:
                            raise ModelError(f"refusing to unpack: more than {human_size(budget)} came out of "
                                             f"{zip_path.name}; it is not a model of this kind")
                        f.write(block)
    except (OSError, zipfile.BadZipFile, zlib.error, RuntimeError, EOFError, NotImplementedError) as e:
        raise ModelError(f"unpacking {zip_path.name} failed: {e}") from e
