"""The saved game when the console starts: resumed (--resume), a damaged one said and
kept aside under a name of its own before a new game could replace it, a save path
that is not a file (a device, a named pipe) said in one line with play going on
unsaved (docs/files.md)."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from audio_console.console.save_options import options_checker
from audio_console.console.session import Session
from audio_console.console.storage import SaveError, read_save, set_aside
from audio_console.contract.base import InputError
from audio_console.base.files import not_a_file, reason


def open_saved(session: Session, resume_it: bool) -> bool:
    """True when the saved game was resumed; else a new game or the menu is to come."""
    if not save_usable(session):
        return False
    if resume_it:
        return resume(session)
    keep_damaged_save(session)
    return False


def save_usable(session: Session) -> bool:
    """False, said in one line before the game, when the save path is a device, a named
    pipe or a socket: nothing is read from it or replaces it, and play goes on unsaved."""
    kind = not_a_file(session.save_path)
    if kind is not None:
        session.save_problem = f"that path is {kind}, not a file ({session.save_path})"
        session.tell(f"Your game cannot be saved: {session.save_problem}; "
                     "play goes on unsaved, or start again with --save FILE.")
    return kind is None


def resume(session: Session) -> bool:
    """Resume the saved game; False (with a line saying why) when a new one starts instead."""
    try:
        saved = read_save(session.save_path, session.games, options_checker(session.games))
    except FileNotFoundError:
        session.tell(f"No saved game at {session.save_path}; starting a new one.", signal=None)
        return False
    except SaveError as error:
        session.tell(f"The saved game cannot be resumed: {error}. {kept_aside(session.save_path)}")
        return False
    try:
        session.open_game(session.games[saved.game], saved.options, saved.seed, saved.actions, saved.log)
        return True
    except (InputError, KeyError, ValueError, TypeError, IndexError, AttributeError) as error:
        session.tell(f"The saved game cannot be replayed: {str(error)[:80]}. {kept_aside(session.save_path)}")
        return False


def keep_damaged_save(session: Session) -> None:
    """A damaged save is said and kept aside before a new game can replace it (the menu
    offers only games it can read, and a new game's save would overwrite it unsaid).
    Only a regular file: a folder is left to the first save, which says what it is (a
    link was resolved at the start, a device or a pipe said by save_usable)."""
    try:
        if not stat.S_ISREG(os.lstat(session.save_path).st_mode):
            return
        read_save(session.save_path, session.games, options_checker(session.games))
    except OSError:      # no save yet (or it cannot be looked at): nothing to keep
        return
    except SaveError as error:
        session.tell(f"The saved game cannot be resumed: {error}. {kept_aside(session.save_path)}")


def kept_aside(path: Path) -> str:
    try:
        return f"It was kept as {set_aside(path)}; starting a new one."
    except OSError as error:
        return f"It stays at {path} ({reason(error)}); starting a new one."
