"""Checking a saved game's options against what the command line and the menu can
set, so that a damaged save (an Arkade level 9, a side called "robot") is refused
before it is replayed instead of crashing or freezing the game later. What the command
line can set is what each game declares (GameInfo.options)."""
from __future__ import annotations

import argparse

from audio_console.console.storage import SaveError


def _same(value, choice) -> bool:
    return value == choice and type(value) is type(choice)   # True is not the level 1


def allowed_values(games) -> dict:
    """{game: {option key: test(value) -> bool}} from the choices and types of the
    options each game declares (as argparse reads them) and the menu's answers."""
    result = {}
    for name, info in games.items():
        declared = {option.dest: option.add_to(argparse.ArgumentParser(add_help=False))
                    for option in info.options}
        menu = {q.key: [value for _, value in q.choices] for q in info.questions}
        result[name] = {key: _test(declared.get(key), menu.get(key, [])) for key in set(declared) | set(menu)}
    return result


def _test(action, menu_values: list):
    own_choices = list(getattr(action, "choices", None) or [])
    choices = own_choices + menu_values
    kind = getattr(action, "type", None)
    flag = action is not None and action.nargs == 0     # store_true, --chips/--no-chips

    def test(value) -> bool:
        if value is None or any(_same(value, c) for c in choices):
            return True
        if flag:
            return isinstance(value, bool)
        if callable(kind) and not own_choices and isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                kind(str(value))        # the command line's own range check
                return True
            except (argparse.ArgumentTypeError, ValueError):
                return False
        return False
    return test


def options_checker(games):
    """check(game, options): raises SaveError naming the first option out of range."""
    allowed = allowed_values(games)

    def check(game: str, options: dict) -> None:
        tests = allowed[game]
        for key, value in options.items():
            if key not in tests:
                raise SaveError(f"it is damaged: {game} has no option {key!r}"[:120])
            if not tests[key](value):
                raise SaveError(f"it is damaged: option {key} cannot be {value!r}"[:120])
    return check
