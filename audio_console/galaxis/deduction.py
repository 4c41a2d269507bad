"""What one team can deduce from what it has heard: the exact set of ship placements.

Every way to hide four ships on the 63 points (C(63,4) = 595,665 placements) is
kept in one table, built once with numpy: ANSWER_TABLE[p, i] is the code buoy p
would answer if the ships stood as in placement i (0-4, or 5 for "discovered").
Everything a team can learn is a condition on one row of that table:

- a query of p that answered a  ->  row p == a
- a point known empty (option 3: the other team queried it, so it is not one of
  their ships)                    ->  row p != 5
- a point known to be a ship (option 3: the opponent's own-ship tone) -> row p == 5

A Deduction holds the indices of the placements still possible and filters them
after each fact, so an update costs one pass over what is left. From what is left
come the points certainly empty, the certain ships, each point's chance of being a
ship, and the best next query (information and the chance of a ship).

The module is pure: no printing, no clock, no randomness.
"""
from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from audio_console.galaxis.board import ALL_POINTS, DISCOVERED, SHIPS, Point, beams, format_point

N_POINTS = len(ALL_POINTS)          # 63
FOUND = 5                           # the answer code for "discovered"
N_CODES = 6                         # answers 0-4 and FOUND
# The one-step rule's weight of a ship's chance against bits of information (the hint
# and computer levels 2 and 3; exact means: weights 2.0-2.75 all within 0.003 of 2.5).
SHIP_WEIGHT = 2.5


def index_of(point: Point) -> int:
    return point[0] * 9 + point[1]


def code_of(answer: int | str) -> int:
    """A buoy answer (0-4 or "discovered") -> its code 0-5."""
    if answer == DISCOVERED:
        return FOUND
    if isinstance(answer, (int, np.integer)) and not isinstance(answer, bool) and 0 <= answer <= 4:
        return int(answer)
    raise ValueError(f"{answer!r} is not a buoy answer; answers are 0 to 4 or discovered")


def answer_of(code: int) -> int | str:
    return DISCOVERED if code == FOUND else int(code)


class InconsistentKnowledge(ValueError):
    """A fact that no placement of four ships agrees with (nothing is changed)."""


# --- the table ------------------------------------------------------------------

@lru_cache(maxsize=None)
def beam_table() -> np.ndarray:
    """BEAM[p, q]: which of buoy p's eight beams point q lies on, -1 if none (or q == p)."""
    table = np.full((N_POINTS, N_POINTS), -1, dtype=np.int8)
    for p, point in enumerate(ALL_POINTS):
        for b, ray in enumerate(beams(point)):
            for q in ray:
                table[p, index_of(q)] = b
    return table


@lru_cache(maxsize=None)
def placements() -> np.ndarray:
    """All placements as a (595665, 4) array of point indices, in the order of
    board.all_placements()."""
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(N_POINTS), SHIPS)),
                       dtype=np.uint8)
    return flat.reshape(-1, SHIPS)


_TABLE_LOCK = threading.Lock()


def answer_table() -> np.ndarray:
    """(63, 595665) int8: the code each buoy answers for each placement (built once,
    in about a second; safe to build from a background thread)."""
    with _TABLE_LOCK:
        return _answer_table()


@lru_cache(maxsize=None)
def _answer_table() -> np.ndarray:
    """The answer table itself.

    A buoy's answer is the number of its beams that meet a ship (a beam counts once,
    whatever lies in its radio shadow), so it is the popcount of the OR of one bit
    per ship, the bit of the beam that ship lies on.
    """
    ships = placements()
    bits = np.where(beam_table() >= 0, np.left_shift(1, beam_table().astype(np.int16)), 0).astype(np.uint8)
    popcount = np.array([bin(v).count("1") for v in range(256)], dtype=np.int8)
    table = np.empty((N_POINTS, len(ships)), dtype=np.int8)
    for p in range(N_POINTS):
        seen = bits[p][ships]                              # (N, 4) beam bit of each ship
        union = seen[:, 0] | seen[:, 1] | seen[:, 2] | seen[:, 3]
        table[p] = popcount[union]
        table[p][(ships == p).any(axis=1)] = FOUND
    return table


def information_bits(counts: np.ndarray, n: float) -> np.ndarray:
    """Bits of information in each buoy's answer, from its (63, 6) answer counts
    over `n` placements."""
    shares = counts.astype(np.float64) / n
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(shares > 0, np.log2(np.where(shares > 0, shares, 1.0)), 0.0)
    return -(shares * logs).sum(axis=1)


def rule_values(counts: np.ndarray, n: float, weight: float = SHIP_WEIGHT) -> np.ndarray:
    """The one-step rule's value of each buoy (the hint, computer levels 2 and 3):
    bits of information in its answer + `weight` x its chance of being a ship. A
    likely ship is cheap to ask: every ship must be queried once anyway, so only the
    empty queries add to the count."""
    return information_bits(counts, n) + weight * counts[:, FOUND] / n


# --- one team's knowledge --------------------------------------------------------------

@dataclass(frozen=True)
class Suggestion:
    """A query worth making, and why."""
    point: Point
    information: float          # expected bits learnt from its answer
    expected_left: float        # expected placements left after its answer
    chance: float               # chance it is a ship
    certain_ship: bool

    def reason(self, left: int, best: bool = True) -> str:
        """One plain sentence a player can act on. `best`: it is the hint's choice."""
        name = format_point(self.point)
        if self.certain_ship:
            return f"{name} is certainly a ship: query it to find it."
        if left == 1:
            return f"only one placement is left, and {name} is one of its ships."
        share = self.expected_left / left if left else 0.0
        head = f"{name} is the best query now: of the {left:,} placements left, " if best else \
            f"of the {left:,} placements left, "
        return (f"{head}its answer should leave about {self.expected_left:,.0f} "
                f"({share:.0%}), and it is a ship with chance {self.chance:.0%}.")


class Deduction:
    """The placements consistent with everything one team has heard."""

    def __init__(self) -> None:
        self.alive: np.ndarray | None = None       # None: every placement (no copy needed)
        self.heard: dict[Point, int] = {}           # queried point -> answer code
        self.known_empty: set[Point] = set()
        self.known_ships: set[Point] = set()
        self._stats: tuple | None = None

    @property
    def table(self) -> np.ndarray:
        return answer_table()

    # -- facts ----------------------------------------------------------------------

    def observe(self, point: Point, answer: int | str) -> int:
        """This team queried `point` and heard `answer`. Returns placements left."""
        point = Point(*point)
        code = code_of(answer)
        if point in self.heard:
            if self.heard[point] != code:
                raise InconsistentKnowledge(f"{format_point(point)} already answered "
                                            f"{answer_of(self.heard[point])}")
            return self.count
        self._filter(point, lambda row: row == code, f"{format_point(point)} answering {answer}")
        self.heard[point] = code
        return self.count

    def mark_empty(self, point: Point) -> int:
        """`point` is known not to hide a ship (option 3: the other team queried it)."""
        point = Point(*point)
        if point not in self.known_empty:
            self._filter(point, lambda row: row != FOUND, f"{format_point(point)} being empty")
            self.known_empty.add(point)
        return self.count

    def mark_ship(self, point: Point) -> int:
        """`point` is known to hide a ship (option 3: the opponent's own-ship tone)."""
        point = Point(*point)
        if point not in self.known_ships:
            self._filter(point, lambda row: row == FOUND, f"a ship at {format_point(point)}")
            self.known_ships.add(point)
        return self.count

    def _filter(self, point: Point, keep, fact: str) -> None:
        row = self.table[index_of(point)]
        if self.alive is None:
            alive = np.flatnonzero(keep(row)).astype(np.int32)
        else:
            alive = self.alive[keep(row[self.alive])]
        if len(alive) == 0:
            raise InconsistentKnowledge(f"no placement of four ships agrees with {fact} "
                                        "and what was heard before")
        self.alive = alive
        self._stats = None

    def copy(self) -> "Deduction":
        other = Deduction.__new__(Deduction)
        other.alive = self.alive
        other.heard = dict(self.heard)
        other.known_empty = set(self.known_empty)
        other.known_ships = set(self.known_ships)
        other._stats = self._stats
        return other

    # -- what follows ------------------------------------------------------------------

    @property
    def count(self) -> int:
        """How many placements are left."""
        return self.table.shape[1] if self.alive is None else len(self.alive)

    @property
    def found(self) -> set[Point]:
        return {p for p, c in self.heard.items() if c == FOUND}

    def counts(self) -> np.ndarray:
        """(63, 6): for each buoy, how many placements left give each answer code."""
        if self._stats is None:
            self._stats = (answer_counts(self.table, self.alive),)
        return self._stats[0]

    def probabilities(self) -> np.ndarray:
        """Each point's chance of hiding a ship (63 floats, summing to 4)."""
        return self.counts()[:, FOUND] / self.count

    def chance(self, point: Point) -> float:
        return float(self.probabilities()[index_of(point)])

    def certain_empty(self) -> list[Point]:
        """Points that hold a ship in no placement left (queried non-ships included)."""
        ship_counts = self.counts()[:, FOUND]
        return [ALL_POINTS[i] for i in np.flatnonzero(ship_counts == 0)]

    def ruled_out(self) -> list[Point]:
        """Certainly empty points that were not queried: where info pegs belong."""
        return [p for p in self.certain_empty() if p not in self.heard]

    def certain_ships(self) -> list[Point]:
        """Points that hold a ship in every placement left (found ones included)."""
        ship_counts = self.counts()[:, FOUND]
        return [ALL_POINTS[i] for i in np.flatnonzero(ship_counts == self.count)]

    def possible_placements(self, limit: int = 50) -> list[tuple[Point, ...]]:
        """The placements left, if there are at most `limit` of them (else [])."""
        if self.count > limit:
            return []
        chosen = placements() if self.alive is None else placements()[self.alive]
        return [tuple(ALL_POINTS[i] for i in row) for row in chosen]

    def candidates(self) -> list[Point]:
        """Points a hint may name: not queried and possibly a ship."""
        ship_counts = self.counts()[:, FOUND]
        return [ALL_POINTS[i] for i in np.flatnonzero(ship_counts > 0)
                if ALL_POINTS[i] not in self.heard]

    def scores(self) -> tuple[np.ndarray, np.ndarray]:
        """(information in bits, expected placements left) for every buoy."""
        counts = self.counts().astype(np.float64)
        n = float(self.count)
        expected_left = (counts * counts).sum(axis=1) / n
        return information_bits(counts, n), expected_left

    def suggestion(self, point: Point) -> Suggestion:
        information, expected_left = self.scores()
        i = index_of(point)
        chance = float(self.probabilities()[i])
        return Suggestion(Point(*point), float(information[i]), float(expected_left[i]),
                          chance, chance >= 1.0)

    def best_query(self, exclude=()) -> Suggestion | None:
        """The hint: a certain ship first, since it must be queried anyway and gives
        the turn back; else the candidate with the most information + SHIP_WEIGHT x
        its chance of being a ship (a query that finds a ship is never wasted: this
        rule needs 11.76 queries on average, the most information alone 11.98).
        `exclude`: points to leave out unless they are certain ships (option 3: the
        team's own positions). None when every ship has been found."""
        probabilities = self.probabilities()
        exclude = set(exclude)
        candidates = [p for p in self.candidates()
                      if p not in exclude or probabilities[index_of(p)] >= 1.0]
        if not candidates:
            return None
        for point in candidates:
            if probabilities[index_of(point)] >= 1.0:
                return self.suggestion(point)
        value = rule_values(self.counts(), self.count)
        # The best value; among equals the likelier ship; then board order.
        best = max(candidates, key=lambda p: (round(float(value[index_of(p)]), 9),
                                              float(probabilities[index_of(p)]), -index_of(p)))
        return self.suggestion(best)

    def finished(self) -> bool:
        return len(self.found) == SHIPS


def answer_counts(table: np.ndarray, alive: np.ndarray | None) -> np.ndarray:
    """(63, 6) counts of each answer code per buoy among the live placements.

    Compare-and-count per code is several times faster than np.bincount here, which
    would widen every int8 to a machine word first; np.take gathers faster than
    fancy indexing."""
    rows = table if alive is None else np.take(table, alive, axis=1)
    n = rows.shape[1]
    counts = np.empty((N_POINTS, N_CODES), dtype=np.int64)
    for p in range(N_POINTS):
        row = rows[p]
        for code in range(N_CODES - 1):
            counts[p, code] = np.count_nonzero(row == code)
        counts[p, N_CODES - 1] = n - counts[p, :N_CODES - 1].sum()
    return counts


def deduce(history: list[tuple[Point, int | str]], empty=(), ships=()) -> Deduction:
    """A Deduction from a list of (point, answer) plus known-empty and known-ship points."""
    d = Deduction()
    for point, answer in history:
        d.observe(point, answer)
    for point in empty:
        d.mark_empty(point)
    for point in ships:
        d.mark_ship(point)
    return d
