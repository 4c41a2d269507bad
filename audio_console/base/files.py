"""Reading and writing the console's files safely (docs/files.md): one way to read,
one way to write, used by every layer (saves, the event log, settings, the voice
trace, a recording).

read_limited reads only a regular file, never blocks and never reads more than its
limit (a FIFO or /dev/zero cannot hang or fill the console); write_atomically writes
through a temporary file of its own (random name, O_EXCL, never a planted symlink),
through a symlinked path to its target, and refuses a device or any other path that
is not a file; open_to_write opens a path of the kinds its caller allows (a log only a
regular file, the recording a pipe with a reader too), never blocking on a FIFO.
A failure is told in one plain line: WriteError, and reason() for any OSError.
"""
from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


# Flags Windows lacks (0 there: its folders hold no FIFOs or device files to guard
# against); O_BINARY only Windows has (0 elsewhere), so that bytes are read as they are.
NONBLOCK, CLOEXEC, NOFOLLOW, NOCTTY, BINARY = (getattr(os, name, 0) for name in
                                               ("O_NONBLOCK", "O_CLOEXEC", "O_NOFOLLOW", "O_NOCTTY", "O_BINARY"))


class WriteError(Exception):
    """A file that cannot be written; the message says why plainly, then the path."""


REASONS = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is full",
           errno.EACCES: "permission denied", errno.EPERM: "permission denied",
           errno.EROFS: "the disk is read-only", errno.EISDIR: "that path is a folder",
           errno.ENOTDIR: "a part of that path is a file, not a folder",
           errno.ENOENT: "a folder on that path does not exist",
           errno.ENAMETOOLONG: "the name is too long",
           errno.EEXIST: "a part of that path is a file, not a folder",   # EEXIST: from mkdir
           errno.ELOOP: "that path is a loop of symbolic links"}

# What a path that is not a regular file is, in the words of REASONS.
KINDS = {stat.S_IFIFO: "a named pipe", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device",
         stat.S_IFSOCK: "a socket", stat.S_IFLNK: "a symbolic link"}


class NotAFile(OSError):
    """A path that is a device, a FIFO or a socket: never read or replaced."""

    def __init__(self, mode: int):
        self.kind = KINDS.get(stat.S_IFMT(mode), "something else")
        super().__init__(errno.EINVAL, f"that path is {self.kind}, not a file")


class FileTooLarge(OSError):
    def __init__(self, limit: int):
        super().__init__(errno.EFBIG, f"the file is larger than {limit:,} bytes")
        self.limit = limit


def reason(error: OSError) -> str:
    if error.errno in REASONS:
        return REASONS[error.errno]
    return (error.strerror or error.__class__.__name__).lower()


# The kinds of path a write may open (S_IFMT values): a regular file only (a log, the
# voice trace), or a stream as well (the recording: a pipe with a reader, /dev/null).
FILE_ONLY = frozenset({stat.S_IFREG})
FILE_OR_STREAM = FILE_ONLY | {stat.S_IFIFO, stat.S_IFCHR}


def check_file(mode: int, kinds: frozenset[int] = FILE_ONLY) -> None:
    """Raise unless mode is of one of kinds, a regular file's by default (a folder:
    "that path is a folder"; a disk, a socket or anything else: NotAFile)."""
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder")
    if stat.S_IFMT(mode) not in kinds:
        raise NotAFile(mode)


def not_a_file(path: Path) -> str | None:
    """What path is when it exists and is neither a file nor a folder ("a device", "a
    named pipe", "a socket"; a symlink is followed), else None: a path no read or write
    of the console will use."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):     # missing, or not a path at all: another check's business
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return NotAFile(mode).kind


def resolved(path: Path) -> Path:
    """The path a symbolic link leads to (to the end of a chain of them), else path:
    the file that is read and replaced, so that the link itself stays."""
    return Path(os.path.realpath(path)) if os.path.islink(path) else path


def read_limited(path: Path, limit: int, start: int = 0) -> bytes:
    """The bytes of the regular file at path (a symlink followed) from start on, at most
    limit of them. Opened without blocking (a FIFO cannot hang) and checked on the open
    descriptor (no race with the path), read with a hard limit (a device reports size 0
    and never ends; the size stat reports is never trusted).
    Raises FileNotFoundError, NotAFile, FileTooLarge or another OSError (see reason)."""
    check_file(os.stat(path).st_mode)      # a device is not even opened (a watchdog or a tape acts on open)
    fd = os.open(path, os.O_RDONLY | NONBLOCK | CLOEXEC | NOCTTY | BINARY)
    try:
        check_file(os.fstat(fd).st_mode)
        if start:
            os.lseek(fd, start, os.SEEK_SET)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
        raise FileTooLarge(limit)
    finally:
        os.close(fd)


def open_to_write(path: Path, flags: int = 0, kinds: frozenset[int] = FILE_ONLY) -> int:
    """A descriptor to write to path with (a file created if missing), flags added to
    O_WRONLY. Path must be of one of kinds: checked before the open (a device refused is
    not even opened) and again on the open descriptor (a path swapped since is still
    refused). Opened without blocking: a named pipe nobody reads is said at once
    (OSError), never waited for; the descriptor itself then blocks as usual."""
    try:
        check_file(os.stat(path).st_mode, kinds)
    except FileNotFoundError:
        pass
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | flags | NONBLOCK | CLOEXEC | NOCTTY | BINARY, 0o644)
    except OSError as error:
        if error.errno == errno.ENXIO and stat.S_ISFIFO(os.stat(path).st_mode):
            raise OSError(errno.ENXIO, "nothing reads that named pipe") from error
        raise
    try:
        check_file(os.fstat(fd).st_mode, kinds)
        if NONBLOCK:         # Windows has no O_NONBLOCK (nor os.set_blocking for files in 3.11)
            os.set_blocking(fd, True)
    except OSError:
        os.close(fd)
        raise
    return fd


def open_for_append(path: Path):
    """A regular file opened to append text lines (created if missing)."""
    return os.fdopen(open_to_write(path, os.O_APPEND), "a", encoding="utf-8")


def write_new(path: Path, data: bytes) -> None:
    """A new file at path holding data, readable by its owner only. FileExistsError if
    the name is taken by anything, a symlink above all (never followed)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | CLOEXEC | NOFOLLOW | BINARY, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    except OSError:
        os.unlink(path)
        raise


def _write_target(path: Path) -> tuple[Path, int | None]:
    """Where a write to path lands, and that file's permissions (None: a new file).
    A symlink is written through to its target, never replaced by a file of its own."""
    path = resolved(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return path, None
    check_file(mode)
    return path, stat.S_IMODE(mode)


def write_atomically(path: Path, text: str) -> None:
    """Replace the file at path with text, whole or not at all; WriteError says why not.
    The temporary file is new (a random name created with O_EXCL in the target's
    folder), so a name planted beforehand, a symlink above all, is never written."""
    tmp = None
    try:
        target, mode = _write_target(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            if mode is not None:
                os.fchmod(fd, mode)
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except OSError as error:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise WriteError(f"{reason(error)} ({path})") from error


def sha256_of(path: Path) -> str:
    """The file's SHA-256 in hex. hashlib is imported here, not at the top: a model is
    checked at every start (whisper_model.py) and hashed only when its check is not
    remembered, and hashlib loads OpenSSL's library (3 MB)."""
    import hashlib
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
