"""What the Battleship rules core answers with: typed events (a ship placed or
removed, a fleet ready, a shot and its result, a ship vaporized, the fleet destroyed)
and what a shooter learnt (Observation). The cues, the board memories and the
computer read these; nothing here acts."""
from __future__ import annotations

from dataclasses import dataclass

from audio_console.battleship.board import Cell, Line, Placement

HIT, MISS = "hit", "miss"


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
