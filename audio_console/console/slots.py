"""One save slot per game.

The save file (`game.json`, or --save FILE) holds the game played last. When another
game starts while that one is unfinished, the unfinished one is moved beside it
(`game.battleship.json`: the file's name with the game's name before the suffix),
never overwritten, and the menu offers it until it is resumed or replaced. A new game
replaces only its own game's unfinished save, and only after the player said yes.
"""
from __future__ import annotations

import os
from pathlib import Path

from audio_console.console.storage import SavedGame, read_save


def parked_path(save_path: Path, game: str) -> Path:
    return save_path.with_name(f"{save_path.stem}.{game}{save_path.suffix or '.json'}")


def _read(path: Path, games, check=None) -> SavedGame | None:
    try:
        return read_save(path, games, check)
    except Exception:     # missing, damaged, a folder: nothing to offer (resume reports damage)
        return None


def in_progress(save_path: Path, games, check=None) -> list[SavedGame]:
    """The unfinished games with at least one move, the one played last first."""
    found = []
    current = _read(save_path, games, check)
    if current is not None:
        found.append((float("inf"), current))
    for game in games:
        if current is not None and current.game == game:
            continue
        path = parked_path(save_path, game)
        saved = _read(path, games, check)
        if saved is not None and saved.game == game:
            found.append((path.stat().st_mtime, saved))
    found.sort(key=lambda pair: -pair[0])
    return [saved for _, saved in found if saved.actions and not saved.over]


def make_room(save_path: Path, game: str, games) -> str | None:
    """Before `game` is written to the save file: an unfinished save of another game
    is moved to its own slot; this game's other slot is removed (the caller asked).
    Returns the moved game's name, or None."""
    moved = _park_current(save_path, game, games)
    try:
        parked_path(save_path, game).unlink()
    except OSError:
        pass
    return moved


def take_out(save_path: Path, game: str, games) -> None:
    """Before resuming a parked game: make it the save file again (the save file's
    own unfinished game is parked first)."""
    parked = parked_path(save_path, game)
    if not parked.exists():
        return
    _park_current(save_path, game, games)
    try:
        os.replace(parked, save_path)
    except OSError:
        pass


def _park_current(save_path: Path, game: str, games) -> str | None:
    current = _read(save_path, games)
    if current is None or current.game == game or not current.actions or current.over:
        return None
    try:
        os.replace(save_path, parked_path(save_path, current.game))
    except OSError:
        return None       # it stays; the next save reports the problem
    return current.game
