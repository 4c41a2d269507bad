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
    from audio_console.galaxis.console import GalaxisConsole
    return GalaxisConsole(option=options.get("option", 2), seed=seed,
                          time_limit=options.get("time_limit"), settings=settings, now=now)


def _galaxis_options(args: argparse.Namespace) -> dict:
    return {"option": args.option or 2, "time_limit": args.time_limit}


GAMES: dict[str, GameInfo] = {
    "galaxis": GameInfo(
        "galaxis", "Galaxis", _galaxis_create, _galaxis_options,
        questions=[
            Question("option", "Which option? One: two teams hunt the same ships. "
                     "Two: one player alone. Three: each team hides ships for the other.",
                     [("one", 1), ("two", 2), ("three", 3)]),
            Question("time_limit", "A time limit of 60 seconds a turn? Yes or no.",
                     [("yes", 60.0), ("no", None)], ask_if=lambda a: a.get("option") in (1, 3)),
        ]),
}
