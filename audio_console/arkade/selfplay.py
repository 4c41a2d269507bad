"""The computer's randomness in Arkade, one seeded RNG per move, so that a saved game
replays exactly. (Whole self-played games, for the balance script and the tests, are
scripts/measure/arkade_selfplay.py.)"""
from __future__ import annotations

import random


def player_rng(seed: int, side: str, move: int) -> random.Random:
    """The computer's randomness for one move: derived from the seed and the move number."""
    return random.Random(f"arkade:{seed}:{side}:{move}")
