"""Galaxis as the console offers it: how it is made, its options, its menu questions."""
from __future__ import annotations

from audio_console.contract.game_options import LEVEL, OPPONENT, PRACTICE, Option, read_options, seconds
from audio_console.contract.gameinfo import GameInfo, Question
from audio_console.base.settings import Settings


def create(options: dict, seed: int, settings: Settings, now: float):
    # The deduction assistant, computer team and practice modes (docs/deduction.md).
    from audio_console.galaxis.console import GalaxisConsole
    from audio_console.galaxis.practice import PRACTICE_MODES, create_practice
    option, opponent = read_options(OPTIONS, options)["option"], options.get("opponent")
    practice = options.get("practice") or (option if option in PRACTICE_MODES else None)
    if practice:
        return create_practice(practice, seed)
    if isinstance(option, str) and option.endswith(" computer"):   # a menu choice
        option, opponent = int(option.split()[0]), "computer"
    return GalaxisConsole(option=option, seed=seed,
                          time_limit=options.get("time_limit"), settings=settings, now=now,
                          opponent=opponent or "human", level=options.get("level") or 3)


TIME_LIMITS = (1.0, 3600.0)   # --time-limit: seconds a turn
# --opponent and --level stay None when not given: a menu's "1 computer" names the
# opponent, and create() gives the defaults (human, level 3).
OPTIONS = (
    Option("--option", type=int, choices=(1, 2, 3), group="Galaxis", help="game option (default 2)",
           default=2),
    Option("--time-limit", nargs="?", type=seconds(*TIME_LIMITS), const=60.0, metavar="SECONDS",
           group="Galaxis", help="options 1 and 3: seconds a turn (default 60)"),
    PRACTICE, OPPONENT, LEVEL)

GAME = GameInfo(
    "galaxis", "Galaxis", create, options=OPTIONS,
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
    ])
