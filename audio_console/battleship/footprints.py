"""The five spaceships' footprints, loaded from footprints.json (a reconstruction:
the rulebook's drawings are missing; see docs/rules.md).

A footprint is the set of holes (row, column) of a ship laid "across". It may be
turned a quarter, a half or three quarters clockwise ("down", "left", "up"), never
mirrored: a plastic piece cannot be flipped onto its pegs.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DATA_FILE = Path(__file__).with_name("footprints.json")

# Quarter turns clockwise. The heading names the way the top row of the drawing
# runs once the ship is turned: across (left to right), down, left, up.
HEADINGS = ("across", "down", "left", "up")


@dataclass(frozen=True)
class Footprint:
    name: str
    holes: tuple[tuple[int, int], ...]   # (row, column) laid across, top-left at (0, 0)

    def turned(self, heading: str) -> tuple[tuple[int, int], ...]:
        """The holes after turning the ship to `heading`, shifted so that the top-left
        corner of its box is (0, 0), sorted in reading order."""
        return _turn(self.holes, HEADINGS.index(heading))

    def size(self, heading: str) -> tuple[int, int]:
        """(height, width) of the ship's box at `heading`."""
        holes = self.turned(heading)
        return max(r for r, _ in holes) + 1, max(c for _, c in holes) + 1


@lru_cache(maxsize=None)
def _turn(holes: tuple[tuple[int, int], ...], quarters: int) -> tuple[tuple[int, int], ...]:
    turned = list(holes)
    for _ in range(quarters):
        turned = [(c, -r) for r, c in turned]   # a quarter turn clockwise
    top = min(r for r, _ in turned)
    left = min(c for _, c in turned)
    return tuple(sorted((r - top, c - left) for r, c in turned))


def parse_pattern(name: str, pattern: list[str]) -> Footprint:
    holes = tuple((r, c) for r, line in enumerate(pattern) for c, ch in enumerate(line) if ch == "#")
    if not holes:
        raise ValueError(f"footprint of {name} has no holes")
    return Footprint(name, _turn(holes, 0))


@lru_cache(maxsize=None)
def load_footprints(path: str | None = None) -> tuple[Footprint, ...]:
    """The fleet in the data file's order (largest first in the shipped file)."""
    data = json.loads(Path(path or DATA_FILE).read_text(encoding="utf-8"))
    fleet = []
    for ship in data["ships"]:
        footprint = parse_pattern(ship["name"], ship["pattern"])
        if "holes" in ship and ship["holes"] != len(footprint.holes):
            raise ValueError(f"{ship['name']}: pattern has {len(footprint.holes)} holes, "
                             f"the data file says {ship['holes']}")
        fleet.append(footprint)
    return tuple(fleet)


FLEET: tuple[Footprint, ...] = load_footprints()
SHIP_NAMES: tuple[str, ...] = tuple(f.name for f in FLEET)
FOOTPRINTS: dict[str, Footprint] = {f.name: f for f in FLEET}
