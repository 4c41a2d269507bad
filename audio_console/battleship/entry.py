"""Battleship: Outer Space as the console offers it: how it is made, its options, its
menu questions."""
from __future__ import annotations

from audio_console.contract.game_options import LEVEL, OPPONENT, OTHERS, Option, read_options
from audio_console.contract.gameinfo import GameInfo, Question
from audio_console.base.settings import Settings


def create(options: dict, seed: int, settings: Settings, now: float):
    from audio_console.battleship.console import BattleshipConsole
    chosen = read_options(OPTIONS, options)      # the menu asks no level against a friend
    return BattleshipConsole(opponent=chosen["opponent"], placement=chosen["placement"],
                             level=int(chosen["level"]), seed=seed, settings=settings)


OPTIONS = (OPPONENT.defaulting("computer"), LEVEL.defaulting(2),
           Option("--placement", choices=("random", "manual"), group=OTHERS, default="random",
                  help="Battleship: place your fleet ship by ship (manual) or at random (default)"))

GAME = GameInfo("battleship", "Battleship: Outer Space", create, options=OPTIONS, questions=[
    Question("opponent", "Against whom? Computer, or a friend at this console.",
             [("computer", "computer"), ("friend", "human")]),
    Question("level", "Which level? One, cadet; two, pilot; three, commander.",
             [("one", 1), ("two", 2), ("three", 3)], ask_if=lambda a: a.get("opponent") == "computer"),
    Question("placement", "Place the fleet at random, or by hand? Random or hand.",
             [("random", "random"), ("hand", "manual")]),
])
