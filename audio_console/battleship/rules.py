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
BattleshipError and changes nothing. Actions return typed events (events.py); the
value types (a hole, a line, a placement) are in board.py.
"""
from __future__ import annotations

import random

from audio_console.battleship.board import (ALL_LINES, PLAYERS, SECTORS, BattleshipError, Cell, Line,
                                            PhaseError, Placement, PlacementError, ShotError,
                                            check_on_grid, other, placements_in_sector)
from audio_console.battleship.events import (HIT, MISS, BattleBegins, FleetDestroyed, FleetReady,
                                             Observation, ShipPlaced, ShipRemoved, ShipVaporized,
                                             ShotFired, ShotRecalled)
from audio_console.battleship.footprints import SHIP_NAMES

PLACING, SHOOTING, OVER = "placing", "shooting", "over"



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
