"""Arkade as the console offers it: how it is made, its options, its menu questions."""
from __future__ import annotations

import argparse

from audio_console.contract.base import InputError
from audio_console.contract.game_options import LEVEL, OTHERS, PRACTICE, Option, seconds
from audio_console.contract.gameinfo import GameInfo, Question
from audio_console.base.settings import Settings


def create(options: dict, seed: int, settings: Settings, now: float):
    from audio_console.arkade.console import ArkadeConsole
    from audio_console.arkade.tutorial import ArkadeWalkthrough
    practice = options.get("practice") or ("tutorial" if options.get("mode") == "tutorial" else None)
    if practice == "tutorial":
        return ArkadeWalkthrough(seed, settings, now)
    if practice:
        raise InputError(f"Arkade has no {practice} practice; --practice tutorial is its first-game walkthrough")
    return ArkadeConsole(options, seed, settings, now)


def other_side_plays(options: dict) -> dict:
    """The side not named is the other player: --alien computer alone means you play the
    Defence (not the computer playing both); name both sides to watch the computer."""
    other = {"human": "computer", "computer": "human"}
    alien, defence = options["alien"], options["defence"]
    if alien is None:
        alien = other[defence] if defence else "human"
    return {**options, "alien": alien, "defence": defence or other[alien]}


def _a_game(answers: dict) -> bool:
    """The walkthrough sets its own sides and difficulty: no more questions for it."""
    return answers.get("mode") != "tutorial"


PACES = (0.1, 60.0)           # --pace: seconds between the computer's rolls
# --alien and --defence have no default of their own: other_side_plays gives them.
OPTIONS = (
    PRACTICE,
    Option("--mode", choices=("strategy", "arcade"), group=OTHERS, default="strategy",
           help="Arkade: take turns (strategy, default) or the Defence rolls on its own clock (arcade)"),
    Option("--alien", choices=("human", "computer"), group=OTHERS,
           help="Arkade: who plays the Alien side (default human)"),
    Option("--defence", choices=("human", "computer"), group=OTHERS,
           help="Arkade: who plays the Defence side (default computer)"),
    LEVEL.defaulting(2),
    Option("--board", choices=("classic", "expert"), group="Arkade", help="board side"),
    Option("--formation", choices=("offset", "pairs"), group="Arkade",
           help="saucer start formation: colour-offset or colour pairs"),
    Option("--boosters", type=int, choices=(4, 5, 6, 7, 8), group="Arkade",
           help="Defence starting boosters (4 high, 6 normal, 8 low difficulty)"),
    Option("--rolls", type=int, choices=(2, 3), group="Arkade", help="rolls a turn (experts: 2)"),
    Option("--chips", action=argparse.BooleanOptionalAction, group="Arkade",
           help="bonus chips (default: on in strategy, off in arcade)"),
    Option("--pace", type=seconds(*PACES), group="Arkade",
           help="arcade: seconds between the computer's rolls (default 3)"),
    Option("--peng", action="store_true", group="Arkade", help="every Defence shot is a loud Peng!"))

GAME = GameInfo(
    "arkade", "Arkade", create, options=OPTIONS, cross_rule=other_side_plays,
    questions=[
        Question("mode", "Which mode? Strategy: turns. Arcade: both sides at once, in real time. "
                 "Or walkthrough: a first game, explained step by step.",
                 [("strategy", "strategy"), ("arcade", "arcade"), ("walkthrough", "tutorial")]),
        Question("alien", "Who plays the Alien? Human or computer.",
                 [("human", "human"), ("computer", "computer")], ask_if=_a_game),
        Question("defence", "Who plays the Defence? Human or computer.",
                 [("human", "human"), ("computer", "computer")], ask_if=_a_game),
        Question("level", "How strong is the computer? One, two or three.",
                 [("one", 1), ("two", 2), ("three", 3)],
                 ask_if=lambda a: _a_game(a) and "computer" in (a.get("alien"), a.get("defence"))),
        Question("difficulty", "Which setting? Normal; beginner alien; pro alien; pro defence; "
                 "beginner defence; easy start, without bonus chips; or experts.",
                 [("normal", "normal"), ("beginner alien", "beginner alien"), ("pro alien", "pro alien"),
                  ("pro defence", "pro defence"), ("beginner defence", "beginner defence"),
                  ("easy start", "easy start"), ("experts", "experts")], ask_if=_a_game),
    ])
