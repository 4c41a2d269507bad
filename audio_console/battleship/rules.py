"""The rules of Battleship: Outer Space, as a pure library.

Each player has three sectors (1-3) of 10 x 10 holes, rows A-J and columns 1-10,
and a fleet of five spaceships; every ship lies wholly inside one sector and no two
overlap. A shot names a sector and a whole row or column: it is a hit when any hole
of any ship lies on that line, and every hole on it is hit. The answer is only "hit"
or "miss". A ship whose holes are all hit is vaporized and announced by name; the
player who vaporizes the whole enemy fleet wins. Turns alternate, one shot each. A
line called again is answered from memory and does not use the turn.

No printing, sound, clock or randomness of its own: random placement takes a
random.Random. Every action is checked first; an illegal one raises a
BattleshipError and changes nothing. Actions return typed events.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from audio_console.battleship.footprints import FOOTPRINTS, HEADINGS, SHIP_NAMES
from audio_console.wording import counted

ROWS = "ABCDEFGHIJ"
SIZE = 10
SECTORS = (1, 2, 3)
PLAYERS = (1, 2)
ROW, COLUMN = "row", "column"
HIT, MISS = "hit", "miss"
PLACING, SHOOTING, OVER = "placing", "shooting", "over"


def other(player: int) -> int:
    return 3 - player


# --- value types ---------------------------------------------------------------

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


# --- events ----------------------------------------------------------------------

@dataclass(frozen=True)
class ShipPlaced:
    player: int
    placement: Placement


@dataclass(frozen=True)
class ShipRemoved:
    player: int
    placement: Placement


@dataclass(frozen=True)
class FleetReady:
    player: int


@dataclass(frozen=True)
class BattleBegins:
    first: int


@dataclass(frozen=True)
class ShotFired:
    """`player` shot at `line` of the other player's sectors. `new_hits` are the holes
    this shot hit for the first time, with their ships: the target's secret."""
    player: int
    line: Line
    result: str                                   # HIT or MISS
    new_hits: tuple[tuple[str, Cell], ...] = ()


@dataclass(frozen=True)
class ShotRecalled:
    """A line called again: answered from memory; nothing changes, the turn stays."""
    player: int
    line: Line
    result: str


@dataclass(frozen=True)
class ShipVaporized:
    owner: int
    ship: str
    by: int


@dataclass(frozen=True)
class FleetDestroyed:
    winner: int
    loser: int
    shots: tuple[tuple[int, int], ...]            # ((1, 17), (2, 16))


@dataclass(frozen=True)
class Observation:
    """What a shooter learnt from one shot: the line, hit or miss, and the ships the
    shot vaporized. The computer players reason from these alone."""
    line: Line
    hit: bool
    vaporized: tuple[str, ...] = ()


# --- random placement ------------------------------------------------------------

def random_fleet(rng: random.Random, fleet: dict[str, Placement] | None = None) -> dict[str, Placement]:
    """Complete `fleet` (ship -> Placement) with a legal placement for every missing
    ship, largest first, each chosen uniformly among the places still free."""
    result = dict(fleet or {})
    taken = set().union(*(p.cells() for p in result.values())) if result else set()
    for ship in SHIP_NAMES:
        if ship in result:
            continue
        options = [p for s in SECTORS for p in placements_in_sector(ship, s) if not (p.cells() & taken)]
        if not options:
            raise PlacementError(f"there is no room left for the {ship}")
        choice = rng.choice(options)
        result[ship] = choice
        taken |= choice.cells()
    return result


# --- the game ---------------------------------------------------------------------

class Game:
    """One game between players 1 and 2. Player `first` shoots first."""

    def __init__(self, first: int = 1):
        if first not in PLAYERS:
            raise BattleshipError("the first player is 1 or 2")
        self.fleets: dict[int, dict[str, Placement]] = {1: {}, 2: {}}
        self.ready: dict[int, bool] = {1: False, 2: False}
        self.first = first
        self.to_move = first
        self.called: dict[int, dict[Line, str]] = {1: {}, 2: {}}       # shooter -> line -> result
        self.hits: dict[int, set[Cell]] = {1: set(), 2: set()}         # owner -> holes hit
        self.vaporized: dict[int, list[str]] = {1: [], 2: []}          # owner -> ships, in order
        self.observations: dict[int, list[Observation]] = {1: [], 2: []}
        self.winner: int | None = None

    # --- state ----------------------------------------------------------------
    @property
    def phase(self) -> str:
        if self.winner is not None:
            return OVER
        return SHOOTING if self.ready[1] and self.ready[2] else PLACING

    def shots(self, player: int) -> int:
        """Shots that used a turn (a line called again does not count)."""
        return len(self.called[player])

    def snapshot(self) -> tuple:
        """Everything the game knows, comparable: for tests that nothing changed."""
        return (tuple(tuple(sorted(self.fleets[p].items())) for p in PLAYERS),
                tuple(self.ready.items()), self.to_move,
                tuple(tuple(self.called[p].items()) for p in PLAYERS),
                tuple(frozenset(self.hits[p]) for p in PLAYERS),
                tuple(tuple(self.vaporized[p]) for p in PLAYERS),
                tuple(tuple(self.observations[p]) for p in PLAYERS), self.winner)

    def occupied(self, player: int) -> dict[Cell, str]:
        return {cell: ship for ship, p in self.fleets[player].items() for cell in p.cells()}

    def damage(self, player: int) -> dict[str, tuple[int, int]]:
        """ship -> (holes hit, holes) for the player's own placed ships."""
        return {ship: (len(p.cells() & self.hits[player]), len(p.cells()))
                for ship, p in self.fleets[player].items()}

    # --- placing ----------------------------------------------------------------
    def check_placement(self, player: int, placement: Placement) -> None:
        """Raise PlacementError with the reason if `placement` may not be made now."""
        self._check_player(player)
        if self.phase != PLACING or self.ready[player]:
            raise PhaseError("the fleets are already placed")
        check_on_grid(placement)
        if placement.ship in self.fleets[player]:
            raise PlacementError(f"the {placement.ship} is already placed; remove it first")
        occupied = self.occupied(player)
        clash = sorted((c for c in placement.cells() if c in occupied))
        if clash:
            ships = sorted({occupied[c] for c in clash})
            raise PlacementError(f"the {placement.ship} would overlap the {' and the '.join(ships)} "
                                 f"at {', '.join(c.name for c in clash)}")

    def place(self, player: int, placement: Placement) -> list:
        self.check_placement(player, placement)
        self.fleets[player][placement.ship] = placement
        return [ShipPlaced(player, placement)]

    def remove(self, player: int, ship: str) -> list:
        self._check_player(player)
        if self.phase != PLACING or self.ready[player]:
            raise PhaseError("the fleets are already placed")
        if ship not in self.fleets[player]:
            raise PlacementError(f"the {ship} is not placed")
        placement = self.fleets[player].pop(ship)
        return [ShipRemoved(player, placement)]

    def finish_placing(self, player: int) -> list:
        """Declare the player's fleet complete; when both are, the battle begins."""
        self._check_player(player)
        if self.phase != PLACING or self.ready[player]:
            raise PhaseError(f"player {player}'s fleet is already placed")
        missing = [s for s in SHIP_NAMES if s not in self.fleets[player]]
        if missing:
            raise PlacementError(f"still to place: {', '.join(missing)}")
        self.ready[player] = True
        events: list = [FleetReady(player)]
        if self.ready[other(player)]:
            events.append(BattleBegins(self.first))
        return events

    # --- shooting -------------------------------------------------------------------
    def shoot(self, player: int, line: Line) -> list:
        self._check_player(player)
        if self.phase == PLACING:
            raise PhaseError("the fleets are not placed yet")
        if self.phase == OVER:
            raise PhaseError(f"the game is over; player {self.winner} won")
        if player != self.to_move:
            raise ShotError(f"it is player {self.to_move}'s turn")
        if not isinstance(line, Line) or line not in ALL_LINES:
            raise ShotError(f"{line!r} is not a row or column of a sector")
        if line in self.called[player]:
            return [ShotRecalled(player, line, self.called[player][line])]

        target = other(player)
        occupied = self.occupied(target)
        on_line = [(occupied[c], c) for c in line.cells() if c in occupied]
        new_hits = tuple((ship, c) for ship, c in on_line if c not in self.hits[target])
        result = HIT if on_line else MISS

        self.called[player][line] = result
        self.hits[target].update(c for _, c in new_hits)
        events: list = [ShotFired(player, line, result, new_hits)]
        vaporized = []
        for ship in sorted({ship for ship, _ in new_hits}, key=SHIP_NAMES.index):
            if self.fleets[target][ship].cells() <= self.hits[target]:
                self.vaporized[target].append(ship)
                vaporized.append(ship)
                events.append(ShipVaporized(target, ship, player))
        self.observations[player].append(Observation(line, result == HIT, tuple(vaporized)))
        if len(self.vaporized[target]) == len(SHIP_NAMES):
            self.winner = player
            events.append(FleetDestroyed(player, target, tuple((p, self.shots(p)) for p in PLAYERS)))
        else:
            self.to_move = target
        return events

    def _check_player(self, player: int) -> None:
        if player not in PLAYERS:
            raise BattleshipError(f"there is no player {player}; players are 1 and 2")


def fleet_cells(fleet: dict[str, Placement]) -> dict[str, list[str]]:
    """ship -> its holes as '1B3' strings (the log's reveal form), in fleet order."""
    return {ship: [str(c) for c in sorted(fleet[ship].cells())] for ship in SHIP_NAMES if ship in fleet}
