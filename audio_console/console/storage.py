"""Saved games and the event log.

A save is a replay: the game, its options, its seed and the canonical actions
taken so far. It is written atomically (temporary file, fsync, rename) after every
move, so a closed terminal or a power cut loses nothing; a write that fails
(a full disk, a folder that cannot be written) removes its temporary file and
leaves the previous save as it was.

Saves and the log are read and written through the file helpers of
audio_console/base/files.py (docs/files.md): a FIFO, a device or a planted symlink can
neither hang the console nor be overwritten.

The save is written before the move's events are logged, and holds those events
with the log's size before them ("log"), so that a resume after a kill between
the two writes logs exactly the events that are missing: none twice, none lost.
"""
from __future__ import annotations

import errno
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from audio_console.base.files import (FileTooLarge, check_file, open_for_append, read_limited, reason, write_atomically,
                                 write_new)

FORMAT = "audio_console save"
VERSION = 1
MAX_SAVE_BYTES = 1_000_000     # a finished game is a few kilobytes
MAX_ACTIONS = 20_000
MAX_ACTION_CHARS = 200
MAX_SEED = 2 ** 64
MAX_LOG_TAIL = 1_000_000       # a resume reads back only the last move's lines of the log
MAX_LOG_OFFSET = 2 ** 62       # where in the log a save's last events go: any real file's size


class SaveError(Exception):
    """A save file that cannot be used; the message says why, plainly."""


@dataclass
class SavedGame:
    game: str
    options: dict
    seed: int
    actions: list[str] = field(default_factory=list)
    # The last move's events and where in which log they go: {"path", "offset", "events"}.
    log: dict | None = None
    over: bool = False     # the game has ended: nothing to offer to resume

    def to_json(self) -> str:
        data = {"format": FORMAT, "version": VERSION, "game": self.game,
                "options": self.options, "seed": self.seed, "actions": self.actions}
        if self.log:
            data["log"] = self.log
        if self.over:
            data["over"] = True
        return json.dumps(data, indent=1)


def write_save(path: Path, saved: SavedGame) -> None:
    """Replace the save atomically; raise WriteError (the old save kept) when that fails."""
    write_atomically(path, saved.to_json())


def read_save(path: Path, known_games, check_options=None) -> SavedGame:
    """The save at path, checked completely; SaveError says what is wrong.
    check_options(game, options) raises SaveError for an option out of range."""
    try:
        raw = json.loads(read_limited(path, MAX_SAVE_BYTES).decode("utf-8"))
    except FileNotFoundError:
        raise
    except FileTooLarge as error:
        raise SaveError(f"it is too large for a saved game (over {error.limit:,} bytes)") from error
    except OSError as error:
        raise SaveError(f"it cannot be read: {reason(error)}") from error
    except UnicodeDecodeError as error:
        raise SaveError("it is damaged: not text") from error
    except (ValueError, RecursionError) as error:
        raise SaveError("it is damaged: not valid JSON") from error
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise SaveError("it is not an audio_console saved game")
    if raw.get("version") != VERSION:
        raise SaveError(f"it was written by another version (format {raw.get('version')!r})")
    game, options, seed, actions = (raw.get(k) for k in ("game", "options", "seed", "actions"))
    if not isinstance(game, str) or game not in known_games:
        raise SaveError(f"it is for an unknown game {game!r}"[:120])
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise SaveError("it is damaged: its options are malformed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not -MAX_SEED < seed < MAX_SEED:
        raise SaveError("it is damaged: its seed is missing or malformed")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise SaveError("it is damaged: its actions are missing or too many")
    if not all(isinstance(a, str) and 0 < len(a) <= MAX_ACTION_CHARS for a in actions):
        raise SaveError("it is damaged: an action is not a short line of text")
    if check_options is not None:
        check_options(game, options)
    return SavedGame(game, options, seed, actions, _log_part(raw.get("log")), raw.get("over") is True)


def _log_part(log) -> dict | None:
    """The save's record of its last move's events; a malformed one is ignored (the game
    itself is sound). The offset is range-checked: a seek to 10**400 would not fit."""
    if (isinstance(log, dict) and isinstance(log.get("path"), str) and type(log.get("offset")) is int
            and 0 <= log["offset"] <= MAX_LOG_OFFSET
            and isinstance(log.get("events"), list) and all(isinstance(e, dict) for e in log["events"])):
        return log
    return None


def aside_names(path: Path):
    """The names a damaged save may be kept under: PATH.damaged-STAMP, then -2, -3, ..."""
    stamp = time.strftime('%Y%m%d-%H%M%S')
    for n in range(1, 1000):
        yield path.with_name(f"{path.name}.damaged-{stamp}" + (f"-{n}" if n > 1 else ""))


def set_aside(path: Path) -> Path:
    """Keep a damaged save under a name of its own instead of overwriting it. Only a
    regular file: never a folder (`--save ~/Documents --resume` must not rename it), a
    device (as root, `--save /dev/null --resume` would move the system's /dev/null), a
    named pipe (another program may be using it) or a link (the session resolves it)."""
    check_file(os.lstat(path).st_mode)
    for target in aside_names(path):
        try:
            os.link(path, target)       # fails if that name is taken: never overwrite
        except FileExistsError:
            continue
        except OSError:                  # a file system without hard links
            if target.exists():
                continue
            os.replace(path, target)
            return target
        os.unlink(path)
        return target
    raise OSError(errno.EEXIST, "too many damaged saves set aside this second")


def copy_aside(path: Path) -> Path | None:
    """Keep a copy of a save under a .damaged- name (the save itself stays); None if impossible."""
    try:
        data = read_limited(path, MAX_SAVE_BYTES)
        for target in aside_names(path):
            try:
                write_new(target, data)
                return target
            except FileExistsError:
                continue
    except OSError:
        pass
    return None


class EventLog:
    """JSON lines, one object per game event, flushed at once (docs/architecture.md, "The event log").
    A log that cannot be opened or written is turned off; `problem` says why, once."""

    def __init__(self, path: Path | None):
        self.path = path
        self.file = None
        self.problem: str | None = None
        if path is not None:
            try:
                self.file = open_for_append(path)
            except OSError as error:
                self._fail(error)

    def _fail(self, error: OSError) -> None:
        self.problem = f"The game log cannot be written: {reason(error)} ({self.path})"
        file, self.file = self.file, None
        if file is not None:
            try:
                file.close()
            except OSError:
                pass

    def take_problem(self) -> str | None:
        """The line to tell the player, once."""
        problem, self.problem = self.problem, None
        return problem

    def offset(self) -> int | None:
        """The log's size now (where the next event goes); None without a log."""
        if self.file is None:
            return None
        try:
            return os.fstat(self.file.fileno()).st_size
        except OSError:
            return None

    def write(self, game: str, event: dict) -> None:
        if self.file:
            try:
                self.file.write(json.dumps({**event, "game": game}) + "\n")
                self.file.flush()
            except OSError as error:
                self._fail(error)

    def catch_up(self, game: str, pending: dict | None) -> None:
        """After a resume: log those of the save's last events that did not reach this log."""
        if (self.file is None or self.path is None or not pending
                or os.path.abspath(pending["path"]) != os.path.abspath(self.path)):
            return
        start, events = pending["offset"], pending["events"]
        try:
            lines = read_limited(self.path, MAX_LOG_TAIL, start).split(b"\n")   # beyond the end: [b""]
            if lines[-1]:                          # a line cut off by the kill: remove it
                self.file.flush()
                os.ftruncate(self.file.fileno(), start + sum(len(line) + 1 for line in lines[:-1]))
        except FileTooLarge:
            return      # not this save's last move (another log now): left as it is
        except OSError as error:
            self._fail(error)
            return
        done = len(lines) - 1                      # complete lines after the offset
        for event in events[done:]:
            self.write(game, event)

    def close(self) -> None:
        if self.file:
            try:
                self.file.close()
            except OSError:
                pass
