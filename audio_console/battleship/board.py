"""Battleship: Outer Space's board as values: each player's three sectors (1-3) of
10 x 10 holes, rows A-J and columns 1-10; a hole (Cell), a ship's corner (Square), a
line a shot names (Line) and a ship in a sector (Placement), with the checks that
a line and a placement are on the grid. Pure: the rules core and everything above
it build on these."""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from audio_console.battleship.footprints import FOOTPRINTS, HEADINGS, SHIP_NAMES
from audio_console.base.wording import counted

ROWS = "ABCDEFGHIJ"
SIZE = 10
SECTORS = (1, 2, 3)
PLAYERS = (1, 2)
ROW, COLUMN = "row", "column"


def other(player: int) -> int:
    return 3 - player


class Cell(NamedTuple):
    sector: int   # 1-3
    row: int      # 0 = A
    column: int   # 0 = column 1

    def __str__(self) -> str:
        return f"{self.sector}{ROWS[self.row]}{self.column + 1}"

    @property
    def name(self) -> str:
        """'B3' (without the sector)."""
        return f"{ROWS[self.row]}{self.column + 1}"


class Square(NamedTuple):
    """A hole of a sector's grid, the sector aside: the corner of a ship's box ("B3")."""
    row: int      # 0 = A
    column: int   # 0 = column 1

    def __str__(self) -> str:
        return f"{ROWS[self.row]}{self.column + 1}"

    @classmethod
    def at(cls, letter: str, number: int) -> "Square":
        return cls(ROWS.index(letter), number - 1)


class Line(NamedTuple):
    """A whole row or column of one sector: what a shot names."""
    sector: int
    kind: str     # ROW or COLUMN
    position: int  # 0-9: row A-J or column 1-10 (not `index`: that is tuple.index)

    @property
    def name(self) -> str:
        """'row D' or 'column 3' (without the sector)."""
        return f"row {ROWS[self.position]}" if self.kind == ROW else f"column {self.position + 1}"

    def __str__(self) -> str:
        return f"sector {self.sector} {self.name}"

    def covers(self, cell) -> bool:
        return cell.sector == self.sector and (cell.row if self.kind == ROW else cell.column) == self.position

    def cells(self) -> tuple[Cell, ...]:
        if self.kind == ROW:
            return tuple(Cell(self.sector, self.position, c) for c in range(SIZE))
        return tuple(Cell(self.sector, r, self.position) for r in range(SIZE))


ALL_LINES: tuple[Line, ...] = tuple(Line(s, k, i) for s in SECTORS for k in (ROW, COLUMN) for i in range(SIZE))


class BattleshipError(ValueError):
    """An action the rules do not allow; the message says why, plainly."""


class PlacementError(BattleshipError):
    pass


class ShotError(BattleshipError):
    pass


class PhaseError(BattleshipError):
    pass


def make_line(sector: int, kind: str, value: str | int) -> Line:
    """(2, 'row', 'D') or (1, 'column', 3) -> Line. Raises ShotError with a reason."""
    if sector not in SECTORS:
        raise ShotError(f"there is no sector {sector}; sectors go from 1 to 3")
    if kind == ROW:
        letter = str(value).upper()
        if len(letter) != 1 or letter not in ROWS:
            raise ShotError(f"there is no row {value}; rows go from A to J")
        return Line(sector, ROW, ROWS.index(letter))
    if kind == COLUMN:
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ShotError(f"there is no column {value}; columns go from 1 to 10") from None
        if not 1 <= number <= SIZE:
            raise ShotError(f"there is no column {value}; columns go from 1 to 10")
        return Line(sector, COLUMN, number - 1)
    raise ShotError(f"a shot names a row or a column, not {kind!r}")


def parse_cell(sector: int, text: str) -> tuple[int, int]:
    """'B3' -> (1, 2): row and column indices within a sector."""
    cleaned = "".join(str(text).split()).upper()
    if len(cleaned) < 2 or cleaned[0] not in ROWS or not cleaned[1:].isdigit():
        raise PlacementError(f"{text!r} is not a hole; say a row A to J and a column 1 to 10, like B3")
    number = int(cleaned[1:])
    if not 1 <= number <= SIZE:
        raise PlacementError(f"column {number} is off the grid; columns go from 1 to 10")
    return ROWS.index(cleaned[0]), number - 1


class Placement(NamedTuple):
    """A ship in a sector: (row, column) is the top-left corner of its box."""
    ship: str
    sector: int
    row: int
    column: int
    heading: str = "across"

    def cells(self) -> frozenset[Cell]:
        return _cells(self)

    def __str__(self) -> str:
        return f"{self.ship} {self.sector} {ROWS[self.row]}{self.column + 1} {self.heading}"

    @property
    def corner(self) -> str:
        return f"{ROWS[self.row]}{self.column + 1}"


@lru_cache(maxsize=None)
def _cells(placement: Placement) -> frozenset[Cell]:
    holes = FOOTPRINTS[placement.ship].turned(placement.heading)
    return frozenset(Cell(placement.sector, placement.row + r, placement.column + c) for r, c in holes)


def check_on_grid(placement: Placement) -> None:
    """Raise PlacementError unless the placement names a real ship, sector and heading
    and lies wholly on the grid of its sector."""
    if placement.ship not in FOOTPRINTS:
        raise PlacementError(f"there is no ship called {placement.ship}; the fleet is {', '.join(SHIP_NAMES)}")
    if placement.sector not in SECTORS:
        raise PlacementError(f"there is no sector {placement.sector}; sectors go from 1 to 3")
    if placement.heading not in HEADINGS:
        raise PlacementError(f"a ship lies {', '.join(HEADINGS)}; not {placement.heading!r}")
    if not (0 <= placement.row < SIZE and 0 <= placement.column < SIZE):
        raise PlacementError("the corner is off the grid; rows go from A to J and columns from 1 to 10")
    height, width = FOOTPRINTS[placement.ship].size(placement.heading)
    over_bottom = placement.row + height - SIZE
    over_right = placement.column + width - SIZE
    if over_bottom > 0 or over_right > 0:
        parts = []
        if over_bottom > 0:
            parts.append(f"{counted(over_bottom, 'row')} past row J")
        if over_right > 0:
            parts.append(f"{counted(over_right, 'column')} past column 10")
        raise PlacementError(f"the {placement.ship} {placement.heading} from {placement.corner} "
                             f"is {height} rows by {width} columns and would stick out "
                             f"{' and '.join(parts)}")


@lru_cache(maxsize=None)
def placements_in_sector(ship: str, sector: int) -> tuple[Placement, ...]:
    """Every on-grid placement of a ship in one sector, all headings."""
    result = []
    for heading in HEADINGS:
        height, width = FOOTPRINTS[ship].size(heading)
        for row in range(SIZE - height + 1):
            for column in range(SIZE - width + 1):
                result.append(Placement(ship, sector, row, column, heading))
    return tuple(result)


def fleet_cells(fleet: dict[str, Placement]) -> dict[str, list[str]]:
    """ship -> its holes as '1B3' strings (the log's reveal form), in fleet order."""
    return {ship: [str(c) for c in sorted(fleet[ship].cells())] for ship in SHIP_NAMES if ship in fleet}
