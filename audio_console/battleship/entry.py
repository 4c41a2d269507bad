"""Battleship: Outer Space as the console offers it: how it is made, its options, its
menu questions."""
from __future__ import annotations

import argparse

from audio_console.contract.game_options import LEVEL, OPPONENT, OTHERS, Option
from audio_console.contract.gameinfo import GameInfo, Question
from audio_console.settings import Settings


def create(options: dict, seed: int, settings: Settings, now: float):
    from audio_console.battleship.console import BattleshipConsole
    return BattleshipConsole(opponent=options.get("opponent", "computer"),
                             placement=options.get("placement", "random"),
                             level=int(options.get("level", 2)), seed=seed, settings=settings)


def options_from_args(args: argparse.Namespace) -> dict:
    return {"opponent": args.opponent or "computer", "placement": args.placement or "random",
            "level": args.level or 2}


OPTIONS = (OPPONENT, LEVEL,
           Option("--placement", choices=("random", "manual"), group=OTHERS,
                  help="Battleship: place your fleet ship by ship (manual) or at random (default)"))

GAME = GameInfo("battleship", "Battleship: Outer Space", create, options_from_args, options=OPTIONS, questions=[
    Question("opponent", "Against whom? Computer, or a friend at this console.",
             [("computer", "computer"), ("friend", "human")]),
    Question("level", "Which level? One, cadet; two, pilot; three, commander.",
             [("one", 1), ("two", 2), ("three", 3)], ask_if=lambda a: a.get("opponent") == "computer"),
    Question("placement", "Place the fleet at random, or by hand? Random or hand.",
             [("random", "random"), ("hand", "manual")]),
])
