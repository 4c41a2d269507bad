"""Computer against computer: one seeded game, for the balance script and the tests."""
from __future__ import annotations

import random

from audio_console.arkade.computer import next_action
from audio_console.arkade.rules import ALIEN, ARCADE, DEFENCE, Game, Options

MAX_ACTIONS = 20000   # far beyond any real game; a guard against a stuck player


def player_rng(seed: int, side: str, move: int) -> random.Random:
    """The computer's randomness for one move: derived from the seed and the move number."""
    return random.Random(f"arkade:{seed}:{side}:{move}")


def play(options: Options, seed: int, alien: str = "normal", defence: str = "normal") -> Game:
    """Play one game to its end; returns the finished game."""
    game = Game(options, random.Random(seed))
    levels = {ALIEN: alien, DEFENCE: defence}
    move = 0
    side = ALIEN
    rolled = False
    while not game.finished():
        if move > MAX_ACTIONS:
            raise RuntimeError(f"game {seed} did not end")
        if game.mode != ARCADE:
            side = game.pending.side if game.pending else game.turn
        action = next_action(game, side, levels[side], player_rng(seed, side, move))
        if game.mode == ARCADE and action == "roll" and rolled and not game.pending:
            # simultaneous play at an equal pace: each side uses one roll of its dice
            # while the other uses one of its own
            side, rolled = (DEFENCE if side == ALIEN else ALIEN), False
            continue
        game.act(side, action)
        rolled = rolled or action == "roll"
        move += 1
    return game
