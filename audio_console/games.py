"""The games the console offers: how to make each, its command-line options and
the questions the menu asks for it. Each game registers one GameInfo here."""
from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Callable

from audio_console.console.base import GameConsole
from audio_console.settings import Settings


@dataclass
class Question:
    """A menu question: a spoken/typed answer picks one value."""
    key: str
    prompt: str
    choices: list[tuple[str, object]]          # (words to say, value)
    ask_if: Callable[[dict], bool] = lambda answers: True


@dataclass
class GameInfo:
    name: str
    title: str
    # (options, seed, settings, now) -> a GameConsole; raises InputError for bad options.
    create: Callable[[dict, int, Settings, float], GameConsole]
    options_from_args: Callable[[argparse.Namespace], dict]
    questions: list[Question] = field(default_factory=list)


def _galaxis_create(options: dict, seed: int, settings: Settings, now: float):
    # The deduction assistant, computer team and practice modes (docs/deduction.md).
    from audio_console.galaxis.assistant import AssistedConsole
    from audio_console.galaxis.practice import PRACTICE_MODES, create_practice
    option, opponent = options.get("option", 2), options.get("opponent")
    practice = options.get("practice") or (option if option in PRACTICE_MODES else None)
    if practice:
        return create_practice(practice, seed)
    if isinstance(option, str) and option.endswith(" computer"):   # a menu choice
        option, opponent = int(option.split()[0]), "computer"
    return AssistedConsole(option=option, seed=seed,
                           time_limit=options.get("time_limit"), settings=settings, now=now,
                           opponent=opponent or "human", level=options.get("level") or 3)


def _galaxis_options(args: argparse.Namespace) -> dict:
    return {"option": args.option or 2, "time_limit": args.time_limit,
            "opponent": getattr(args, "opponent", None), "level": getattr(args, "level", None),
            "practice": getattr(args, "practice", None)}


GAMES: dict[str, GameInfo] = {
    "galaxis": GameInfo(
        "galaxis", "Galaxis", _galaxis_create, _galaxis_options,
        questions=[
            Question("option", "Which option? One: two teams hunt the same ships. "
                     "Two: one player alone. Three: each team hides ships for the other. "
                     "Or: one against the computer, three against the computer, demonstration, "
                     "ear training, long ear training, tutorial.",
                     [("one", 1), ("two", 2), ("three", 3),
                      ("one against the computer", "1 computer"), ("three against the computer", "3 computer"),
                      ("demonstration", "2 computer"), ("ear training", "ear"),
                      ("long ear training", "ear-long"), ("tutorial", "tutorial")]),
            Question("level", "Computer level? One: beginner. Two: greedy. Three: strong.",
                     [("one", 1), ("two", 2), ("three", 3)],
                     ask_if=lambda a: str(a.get("option")).endswith("computer")),
            Question("time_limit", "A time limit of 60 seconds a turn? Yes or no.",
                     [("yes", 60.0), ("no", None)],
                     ask_if=lambda a: a.get("option") in (1, 3, "1 computer", "3 computer")),
        ]),
}
