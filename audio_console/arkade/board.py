"""The Arkade board as data: both sides, formations, dice and chips (boards.json).

The board is a RECONSTRUCTION (the rulebook's figures are missing): its colours,
number of rows and bonus spaces live in boards.json and can be changed without
touching code. Cells are (row, column) pairs counted from 0; row 0 is row A on the
Alien's side, the last row lies next to the defence line; column 0 is column 1,
on the left as the Defence sees the board.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

LETTERS = "ABCDEFGHIJ"
COLUMNS = 6
SAUCER_COLOURS = ("yellow", "pink", "purple")
SPACE_COLOURS = ("blue", "orange", "green")

Cell = tuple[int, int]


class BoardError(ValueError):
    """A cell name that does not exist on this board."""


@lru_cache(maxsize=1)
def load_data() -> dict:
    return json.loads(Path(__file__).with_name("boards.json").read_text())


def cell_name(cell: Cell) -> str:
    return f"{LETTERS[cell[0]]}{cell[1] + 1}"


class Space(NamedTuple):
    """A cell as a command names it ("B3"): a (row, column) pair that prints as its name."""
    row: int
    column: int

    def __str__(self) -> str:
        return cell_name(self)

    @classmethod
    def at(cls, letter: str, number: int) -> "Space":
        return cls(LETTERS.index(letter), number - 1)


@dataclass(frozen=True)
class Board:
    side: str                           # "classic" or "expert"
    title: str
    rows: int
    columns: int
    colours: tuple[tuple[str, ...], ...]   # colours[row][column]: "blue", "orange", "green"
    bonus: tuple[tuple[Cell, str], ...]    # outlined spaces: cell -> saucer colour

    @property
    def last_row(self) -> int:
        return self.rows - 1

    def colour(self, cell: Cell) -> str:
        return self.colours[cell[0]][cell[1]]

    def bonus_colour(self, cell: Cell) -> str | None:
        return dict(self.bonus).get(cell)

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.columns

    def cells(self):
        for row in range(self.rows):
            for column in range(self.columns):
                yield (row, column)

    def cell_at(self, letter: str, number: int) -> Cell:
        """('B', 3) -> (1, 2); BoardError with a plain reason for a space off this board."""
        row = LETTERS.find(letter.upper()) if len(letter) == 1 else -1
        column = number - 1
        if not (0 <= row < self.rows):
            raise BoardError(f"There is no row {letter.upper()}: rows run from A to {LETTERS[self.last_row]}.")
        if not (0 <= column < self.columns):
            raise BoardError(f"There is no column {column + 1}: columns run from 1 to {self.columns}.")
        return (row, column)

    def on_board(self, space: Cell) -> Cell:
        """A space an action names as this board's (row, column); BoardError when off it."""
        row, column = space
        return self.cell_at(LETTERS[row] if 0 <= row < len(LETTERS) else "?", column + 1)

    def row_letter(self, row: int) -> str:
        return LETTERS[row]


def load_board(side: str = "classic", rows: int | None = None) -> Board:
    """One side of the board with `rows` rows (default: the reconstruction's choice)."""
    data = load_data()
    if side not in data["sides"]:
        raise BoardError(f"unknown board side {side!r}")
    spec = data["sides"][side]
    rows = rows or data["rows"]
    if not 8 <= rows <= len(spec["layout"]):
        raise BoardError(f"the board has 8 to {len(spec['layout'])} rows, not {rows}")
    names = data["space_colours"]
    # A shorter board keeps rows A, B, ... as named in the data and drops rows at the
    # defence end, so bonus space names in boards.json stay literal.
    colours = tuple(tuple(names[ch] for ch in line) for line in spec["layout"][:rows])
    bonus = []
    for name, colour in spec["bonus"].items():
        row = LETTERS.index(name[0])
        if 2 <= row < rows - 1:       # never in the start rows or the last row
            bonus.append(((row, int(name[1:]) - 1), colour))
    return Board(side, spec["title"], rows, data["columns"], colours, tuple(sorted(bonus)))


def formation(name: str) -> dict[Cell, str]:
    """Start cells of the twelve saucers: cell -> saucer colour."""
    data = load_data()
    if name not in data["formations"]:
        raise BoardError(f"unknown formation {name!r}")
    result = {}
    for letter, line in data["formations"][name]["rows"].items():
        for column, code in enumerate(line):
            result[(LETTERS.index(letter), column)] = data["saucer_colours"][code]
    return result
