"""Seeded Galaxis boards played to the end by a chooser alone (option 2, no
console): the strength benchmark, the exact-gap measurement and the tests."""
from __future__ import annotations

import random

from audio_console.galaxis.board import ALL_POINTS, SHIPS, Point, answer
from audio_console.galaxis.deduction import Deduction


def random_board(rng: random.Random) -> list[Point]:
    """Four ship positions drawn with `rng`."""
    return rng.sample(ALL_POINTS, SHIPS)


def play_board(choose, ships, limit: int = 63) -> int:
    """Queries `choose(deduction, move)` needs to find all four `ships` (option 2)."""
    deduction = Deduction()
    for move in range(1, limit + 1):
        point = choose(deduction, move)
        deduction.observe(point, answer(point, ships))
        if deduction.finished():
            return move
    raise RuntimeError("no solution within the query limit")
