"""Arkade, computer against computer: one seeded game played to its end without a
console, for scripts/balance_arkade.py and the tests."""
from __future__ import annotations

import random

from audio_console.arkade.actions import Roll
from audio_console.arkade.computer import next_action, player_rng
from audio_console.arkade.rules import ALIEN, ARCADE, DEFENCE, Game, Options

MAX_ACTIONS = 20000   # far beyond any real game; a guard against a stuck player


def play(options: Options, seed: int, alien: str = "normal", defence: str = "normal",
         defence_speed: float = 1.0) -> Game:
    """Play one game to its end; returns the finished game.

    Arcade Mode is simultaneous; here each side uses one roll of its dice at a time,
    and `defence_speed` is how many rolls the Defence uses for each roll of the Alien
    (the pace of real-time play)."""
    game = Game(options, random.Random(seed))
    levels = {ALIEN: alien, DEFENCE: defence}
    clock = {ALIEN: 0.0, DEFENCE: 0.0}
    cycle = {ALIEN: 1.0, DEFENCE: 1.0 / defence_speed}
    move = 0
    side = ALIEN
    rolled = False
    while not game.finished():
        if move > MAX_ACTIONS:
            raise RuntimeError(f"game {seed} did not end")
        if game.mode != ARCADE:
            side = game.pending.side if game.pending else game.turn
        action = next_action(game, side, levels[side], player_rng(seed, side, move))
        if game.mode == ARCADE and action == Roll() and rolled and not game.pending:
            # this side's roll is used up: the side whose clock is behind goes next
            clock[side] += cycle[side]
            side, rolled = min((clock[ALIEN], 0, ALIEN), (clock[DEFENCE], 1, DEFENCE))[2], False
            continue
        game.act(side, action)
        rolled = rolled or action == Roll()
        move += 1
    return game
