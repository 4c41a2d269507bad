"""Saved games and the event log.

A save is a replay: the game, its options, its seed and the canonical actions
taken so far. It is written atomically (temporary file, fsync, rename) after every
move, so a closed terminal or a power cut loses nothing.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

FORMAT = "audio_console save"
VERSION = 1


class SaveError(Exception):
    """A save file that cannot be used; the message says why, plainly."""


@dataclass
class SavedGame:
    game: str
    options: dict
    seed: int
    actions: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "version": VERSION, "game": self.game,
                           "options": self.options, "seed": self.seed, "actions": self.actions},
                          indent=1)


def write_save(path: Path, saved: SavedGame) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w") as f:
        f.write(saved.to_json())
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_save(path: Path, known_games) -> SavedGame:
    try:
        raw = json.loads(path.read_text())
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as error:
        raise SaveError(f"it cannot be read ({error.__class__.__name__})") from error
    except ValueError as error:
        raise SaveError("it is damaged: not valid JSON") from error
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise SaveError("it is not an audio_console saved game")
    if raw.get("version") != VERSION:
        raise SaveError(f"it was written by another version (format {raw.get('version')!r})")
    game, options, seed, actions = (raw.get(k) for k in ("game", "options", "seed", "actions"))
    if game not in known_games:
        raise SaveError(f"it is for an unknown game {game!r}")
    if not isinstance(options, dict) or not isinstance(seed, int) or not isinstance(actions, list) \
            or not all(isinstance(a, str) for a in actions):
        raise SaveError("it is damaged: options, seed or actions are missing or malformed")
    return SavedGame(game, options, seed, actions)


def set_aside(path: Path) -> Path:
    """Keep a damaged save under another name instead of overwriting it."""
    target = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    os.replace(path, target)
    return target


class EventLog:
    """JSON lines, one object per game event, flushed at once (ARCHITECTURE.md)."""

    def __init__(self, path: Path | None):
        self.file = open(path, "a", encoding="utf-8") if path else None

    def write(self, game: str, event: dict) -> None:
        if self.file:
            self.file.write(json.dumps({**event, "game": game}) + "\n")
            self.file.flush()

    def close(self) -> None:
        if self.file:
            self.file.close()
