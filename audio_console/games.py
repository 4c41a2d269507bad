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


def _arkade_create(options: dict, seed: int, settings: Settings, now: float):
    from audio_console.arkade.console import ArkadeConsole
    return ArkadeConsole(options, seed, settings, now)


def _arkade_options(args: argparse.Namespace) -> dict:
    return {"mode": args.mode or "strategy", "alien": args.alien or "human",
            "defence": args.defence or "computer", "level": args.level or 2,
            "board": getattr(args, "board", None), "formation": getattr(args, "formation", None),
            "boosters": getattr(args, "boosters", None), "rolls": getattr(args, "rolls", None),
            "chips": getattr(args, "chips", None), "pace": getattr(args, "pace", None),
            "peng": getattr(args, "peng", False)}


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
    "arkade": GameInfo(
        "arkade", "Arkade", _arkade_create, _arkade_options,
        questions=[
            Question("mode", "Which mode? Strategy: turns. Arcade: both sides at once, in real time.",
                     [("strategy", "strategy"), ("arcade", "arcade")]),
            Question("alien", "Who plays the Alien? Human or computer.",
                     [("human", "human"), ("computer", "computer")]),
            Question("defence", "Who plays the Defence? Human or computer.",
                     [("human", "human"), ("computer", "computer")]),
            Question("level", "How strong is the computer? One, two or three.",
                     [("one", 1), ("two", 2), ("three", 3)],
                     ask_if=lambda a: "computer" in (a.get("alien"), a.get("defence"))),
            Question("difficulty", "Which setting? Normal; beginner alien; pro alien; pro defence; "
                     "beginner defence; easy start, without bonus chips; or experts.",
                     [("normal", "normal"), ("beginner alien", "beginner alien"), ("pro alien", "pro alien"),
                      ("pro defence", "pro defence"), ("beginner defence", "beginner defence"),
                      ("easy start", "easy start"), ("experts", "experts")]),
        ]),
}


def _battleship() -> GameInfo:
    from audio_console.battleship.console import game_info
    return game_info()


GAMES["battleship"] = _battleship()
