"""One player's board memory: what that player knows, apart from what the game knows.

On the plastic game a player sees the pegs in their tracking rows and columns, their
own fleet with its red pegs, and hears the ships announced vaporized. This keeps
exactly that, fed with the rules' events, and reads it back in words: "status",
"read sector 2", "my fleet", "my sector 1", "what about sector 2 row D".
"""
from __future__ import annotations

from audio_console.battleship.footprints import SHIP_NAMES
from audio_console.base.board_words import RULED_OUT_LONG, UNKNOWN
from audio_console.base.wording import noun
from audio_console.battleship.board import ALL_LINES, ROW, ROWS, SECTORS, Cell, Line, Placement
from audio_console.battleship.events import HIT, ShipPlaced, ShipRemoved, ShipVaporized, ShotFired


def describe_cells(cells) -> str:
    """Holes of one sector row by row, top to bottom, each row left to right, so that a
    listener can picture the shape: 'B3 to B6, then C3 to C6', 'E4, E5, E6' is said
    'E4 to E6', and a ship down from E4 'E4 to E6, then F5, then G5, then H5'."""
    rows: dict[int, list] = {}
    for cell in sorted(cells, key=lambda c: (c.row, c.column)):
        rows.setdefault(cell.row, []).append(cell)
    said = []
    for row in rows.values():
        runs = [[row[0]]]
        for cell in row[1:]:
            if cell.column == runs[-1][-1].column + 1:
                runs[-1].append(cell)
            else:
                runs.append([cell])
        said.append(", ".join(f"{run[0].name} to {run[-1].name}" if len(run) > 2
                              else ", ".join(c.name for c in run) for run in runs))
    return ", then ".join(said)


def describe_placement(placement: Placement) -> str:
    """'Quadron in sector 1, across from B3: B3 to B6, C3 to C6'."""
    return (f"{placement.ship} in sector {placement.sector}, {placement.heading}, box from "
            f"{placement.corner}: holes {describe_cells(placement.cells())}")


def join_words(words: list[str], empty: str = "none") -> str:
    if not words:
        return empty
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


class BoardMemory:
    """What `player` knows: their own shots and answers, their own fleet and its
    damage, the enemy shots at them, and the ships vaporized on both sides."""

    def __init__(self, player: int):
        self.player = player
        self.shots: dict[Line, str] = {}          # my calls at the enemy, in order
        self.enemy_shots: dict[Line, str] = {}    # the enemy's calls at me
        self.fleet: dict[str, Placement] = {}     # my ships
        self.damage: dict[str, set[Cell]] = {}    # my ship -> holes hit
        self.enemy_vaporized: list[str] = []
        self.own_vaporized: list[str] = []

    # --- learning -----------------------------------------------------------------
    def record(self, event) -> None:
        if isinstance(event, ShipPlaced) and event.player == self.player:
            self.fleet[event.placement.ship] = event.placement
            self.damage[event.placement.ship] = set()
        elif isinstance(event, ShipRemoved) and event.player == self.player:
            self.fleet.pop(event.placement.ship, None)
            self.damage.pop(event.placement.ship, None)
        elif isinstance(event, ShotFired):
            if event.player == self.player:
                self.shots[event.line] = event.result
            else:
                self.enemy_shots[event.line] = event.result
                for ship, cell in event.new_hits:
                    self.damage.setdefault(ship, set()).add(cell)
        elif isinstance(event, ShipVaporized):
            (self.own_vaporized if event.owner == self.player else self.enemy_vaporized).append(event.ship)

    # --- readouts -----------------------------------------------------------------
    # The words of every board view (board_words.py): "ruled out" is what the answers
    # prove (a line whose every hole lies on a missed line is a miss for sure), "unknown"
    # a line not called that may still hit.
    def ruled_out(self, line: Line) -> bool:
        """Not called, and every hole of it lies on a line that missed."""
        missed = [l for l, r in self.shots.items() if r != HIT and l.sector == line.sector]
        empty = {cell for l in missed for cell in l.cells()}
        return line not in self.shots and set(line.cells()) <= empty

    def what_about(self, line: Line) -> str:
        if line in self.shots:
            return f"Sector {line.sector} {line.name}: {self.shots[line]}."
        if self.ruled_out(line):
            return (f"Sector {line.sector} {line.name}: {RULED_OUT_LONG}, not called: "
                    "every hole on it lies on a line that missed.")
        return f"Sector {line.sector} {line.name}: {UNKNOWN}, not called yet."

    def read_sector(self, sector: int) -> str:
        calls = [(line, result) for line, result in self.shots.items() if line.sector == sector]
        if not calls:
            return f"Sector {sector}: nothing called yet; every line {UNKNOWN}."
        parts = []
        for result in ("hit", "miss"):
            for kind in ("row", "column"):
                names = [str(ROWS[l.position]) if kind == ROW else str(l.position + 1)
                         for l, r in sorted(calls, key=lambda c: c[0].position)
                         if r == result and l.kind == kind]
                if names:
                    label = noun(len(names), kind)
                    parts.append(f"{'hits' if result == HIT else 'misses'} on {label} {join_words(names)}")
        out = [line.name for line in sorted(ALL_LINES, key=lambda l: (l.kind != ROW, l.position))
               if line.sector == sector and self.ruled_out(line)]
        if out:
            parts.append(f"{RULED_OUT_LONG}, not called: {join_words(out)}")
        return f"Sector {sector}: " + "; ".join(parts) + f"; the other lines {UNKNOWN}."

    def my_fleet(self) -> list[str]:
        if not self.fleet:
            return ["Your fleet: no ship placed yet."]
        lines = []
        for ship in SHIP_NAMES:
            if ship not in self.fleet:
                continue
            placement = self.fleet[ship]
            hit = sorted(self.damage.get(ship, ()))
            holes = len(placement.cells())
            if ship in self.own_vaporized:
                state = "vaporized"
            elif hit:
                state = f"{len(hit)} of {holes} holes hit at {join_words([c.name for c in hit])}"
            else:
                state = f"unhurt, {holes} holes"
            lines.append(f"{ship}: {state}; sector {placement.sector}, {placement.heading}, box from "
                         f"{placement.corner}: holes {describe_cells(placement.cells())}.")
        missing = [s for s in SHIP_NAMES if s not in self.fleet]
        if missing:
            lines.append(f"Not placed yet: {join_words(missing)}.")
        return lines

    def my_sector(self, sector: int) -> str:
        ships = [p for s, p in self.fleet.items() if p.sector == sector]
        if not ships:
            return f"Your sector {sector}: empty."
        parts = [f"{p.ship} at {describe_cells(p.cells())}" for p in sorted(ships, key=lambda p: min(p.cells()))]
        return f"Your sector {sector}: " + "; ".join(parts) + "."

    def status(self) -> list[str]:
        hits = sum(1 for r in self.shots.values() if r == HIT)
        intact = sum(len(p.cells()) - len(self.damage.get(s, ())) for s, p in self.fleet.items())
        total = sum(len(p.cells()) for p in self.fleet.values())
        return [
            f"Shots: {len(self.shots)} called, {hits} hit{'' if hits == 1 else 's'}. Enemy ships vaporized: "
            f"{len(self.enemy_vaporized)} of {len(SHIP_NAMES)}: {join_words(self.enemy_vaporized)}.",
            f"Your fleet: {intact} of {total} holes unhit; vaporized: {join_words(self.own_vaporized)}; "
            f"enemy calls at you: {len(self.enemy_shots)}.",
        ]

    def sectors_summary(self) -> str:
        """Where my ships lie, sector by sector, ship names only."""
        parts = []
        for sector in SECTORS:
            names = [s for s in SHIP_NAMES if s in self.fleet and self.fleet[s].sector == sector]
            parts.append(f"sector {sector}: {join_words(names)}")
        return "; ".join(parts)
