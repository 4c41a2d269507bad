"""The Galaxis board: points A1..G9, their search beams and a buoy's answer.

Rows A-G (A nearest the player), columns 1-9: 63 buoys. A point is a pair of
indices (row 0-6, column 0-8); `parse_point` and `format_point` convert to and
from the "D5" form.
"""
from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Iterable, NamedTuple

ROWS = "ABCDEFG"
COLUMNS = 9
SHIPS = 4
DISCOVERED = "discovered"

# The eight search beams of a buoy: along its row, its column and both diagonals.
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


class Point(NamedTuple):
    row: int     # 0 = A
    column: int  # 0 = column 1

    def __str__(self) -> str:
        return format_point(self)


ALL_POINTS: list[Point] = [Point(r, c) for r in range(len(ROWS)) for c in range(COLUMNS)]


class PointError(ValueError):
    """A coordinate that is not a point of the Galaxis board."""


def parse_point(text: str) -> Point:
    """'D5', 'd5' or 'D 5' -> Point(3, 4). Raises PointError with a plain reason."""
    cleaned = "".join(str(text).split()).upper()
    if len(cleaned) < 2 or not cleaned[0].isalpha() or not cleaned[1:].isdigit():
        raise PointError(f"{text!r} is not a coordinate; say a row A to G and a column 1 to 9, like D5")
    return point_at(cleaned[0], int(cleaned[1:]))


def point_at(letter: str, number: int) -> Point:
    """('D', 5) -> Point(3, 4). Raises PointError with a plain reason (the row first)."""
    letter = letter.upper()
    if letter not in ROWS or len(letter) != 1:
        raise PointError(f"row {letter} is off the board; rows go from A to G")
    if not 1 <= number <= COLUMNS:
        raise PointError(f"column {number} is off the board; columns go from 1 to {COLUMNS}")
    return Point(ROWS.index(letter), number - 1)


def format_point(point: Point) -> str:
    return f"{ROWS[point[0]]}{point[1] + 1}"


def on_board(row: int, column: int) -> bool:
    return 0 <= row < len(ROWS) and 0 <= column < COLUMNS


@lru_cache(maxsize=None)
def beams(point: Point) -> tuple[tuple[Point, ...], ...]:
    """The eight beams from a buoy, each the points from nearest to the edge."""
    result = []
    for dr, dc in DIRECTIONS:
        ray = []
        r, c = point[0] + dr, point[1] + dc
        while on_board(r, c):
            ray.append(Point(r, c))
            r, c = r + dr, c + dc
        result.append(tuple(ray))
    return tuple(result)


def answer(point: Point, ships: Iterable[Point]) -> int | str:
    """The buoy's radio answer: DISCOVERED on a ship, else how many beams meet a ship.

    A ship hides whatever lies behind it on the same beam (radio shadow), so a beam
    counts once however many ships it crosses; the answer is 0-4.
    """
    ship_set = set(ships)
    if point in ship_set:
        return DISCOVERED
    return sum(1 for ray in beams(point) if any(p in ship_set for p in ray))


def line_points(kind: str, index: int) -> list[Point]:
    """The points of a row (index 0-6) or a column (index 0-8), in reading order."""
    if kind == "row":
        return [Point(index, c) for c in range(COLUMNS)]
    if kind == "column":
        return [Point(r, index) for r in range(len(ROWS))]
    raise ValueError(kind)


def all_placements() -> Iterable[tuple[Point, ...]]:
    """Every way to hide four ships on distinct points: C(63, 4) = 595,665."""
    return itertools.combinations(ALL_POINTS, SHIPS)
