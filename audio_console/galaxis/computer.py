"""A computer team for Galaxis, at three levels.

1  beginner: rules points out the rulebook's way (beams of a 0 answer; a buoy whose
   sighted ships are all found) and picks at random among the rest.
2  greedy: the query whose answer tells the most (expected information, one step).
3  strong: a certain ship first; the end game solved exactly when few placements are
   left; otherwise a shortlist (information + a bonus for the chance of finding a
   ship outright) is rated by a rollout: the exact expected number of queries to
   finish if the one-step rule plays on after each candidate (rollout.py), over
   every placement left, or over a fixed sample of them while very many are left.

A player sees only its own team's Deduction (what that team has heard), so it can
never use the other team's secrets. Its choices are deterministic: any randomness
comes from a random.Random seeded from (seed, team, move number).
"""
from __future__ import annotations

import math
import random
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from audio_console.galaxis.board import ALL_POINTS, SHIPS, Point, answer, beams
from audio_console.galaxis.deduction import (FOUND, N_CODES, Deduction, _answer_counts,
                                             index_of)
from audio_console.galaxis.rollout import rollout_costs

LEVELS = (1, 2, 3)
LEVEL_NAMES = {1: "beginner", 2: "greedy", 3: "strong"}


def move_rng(seed: int, team: int, move: int) -> random.Random:
    """The RNG for one decision: the same seed, team and move always give the same one."""
    return random.Random(f"galaxis-computer:{seed}:{team}:{move}")


# --- the three ways to choose --------------------------------------------------------

def rulebook_empty(deduction: Deduction) -> set[Point]:
    """The info pegs a beginner places by the rulebook's two rules: every beam of a
    buoy that answered 0 is empty; when a buoy's answer equals the found ships on
    distinct beams of it, its other beams are empty."""
    found = deduction.found
    empty: set[Point] = set()
    for buoy, code in deduction.heard.items():
        if code == FOUND:
            continue
        rays = beams(buoy)
        seen = [ray for ray in rays if any(p in found for p in ray)]
        if code == len(seen):
            for ray in rays:
                if ray not in seen:
                    empty.update(ray)
    return empty


def choose_random(deduction: Deduction, rng: random.Random, avoid=frozenset()) -> Point:
    """Level 1, a beginner: at random among the points the rulebook's evaluation
    leaves open (it does not combine answers the way the deduction does)."""
    empty = rulebook_empty(deduction) | deduction.known_empty
    open_points = [p for p in ALL_POINTS if p not in deduction.heard and p not in empty]
    candidates = [p for p in open_points if p not in avoid] or open_points
    return rng.choice(candidates)


def choose_greedy(deduction: Deduction, rng: random.Random | None = None, avoid=frozenset()) -> Point:
    """One-step greedy: the most expected information; ties to the likelier ship."""
    candidates = [p for p in deduction.candidates() if p not in avoid] or deduction.candidates()
    information, _ = deduction.scores()
    probabilities = deduction.probabilities()
    return max(candidates, key=lambda p: (round(float(information[index_of(p)]), 9),
                                          float(probabilities[index_of(p)]), -index_of(p)))


# Level 3's settings, tuned on 300 seeded boards apart from the benchmark's. The
# shortlist ranks candidates by bits of information + SHIP_WEIGHT x chance of a ship.
SHIP_WEIGHT = 2.5
SHORTLIST = 2          # candidates examined two choices deep (more measured worse: the
                       # estimate is rough, and the more it chooses among, the more it errs)
EXACT_BELOW = 12       # placements left at which the end game is solved exactly
MEMORY = 4096          # decisions remembered
# Switches for experiments, measured and left off (docs/deduction.md has the figures):
DEEP = 2               # choices searched ahead while many placements are left ...
DEEP_ABOVE = 50_000    # ... above this many (3 at the opening: no better)
INNER_SHORTLIST = 4    # candidates examined at each deeper choice (DEEP > 2)
EXACT_LEAVES = False   # solve the lookahead's small branches exactly: no better
INFO_SHORTLIST = 0     # add this many empty points (pure buoys) to the shortlist: no better
ANY_BUOY = False       # let the lookahead consider empty points as buoys: no better
ANY_BUOY_EXACT = False # the same in the exact end game: far slower
# Rollout (rollout.py), tuned on 2 x 600-1000 boards apart from the benchmark's: from
# ROLL_MAX placements down, the shortlist's queries are rated by the exact expected cost
# of playing on with the one-step rule (information + ROLL_WEIGHT x chance). The
# OPENING_*, ROLL2_* and ROLL_SINGLE switches measured no better and are left off.
ROLL_MAX = 15_000
ROLL_SHORTLIST = 6
ROLL_WEIGHT = SHIP_WEIGHT
OPENING_ABOVE = 10**9  # above this many placements (the first moves, shared by every
OPENING_SAMPLE = 60_000 # game and remembered) the rollout draws this many placements
OPENING_SHORTLIST = 8  # and rates this many candidates
ROLL2_MAX = 0          # from this many placements down, each answer's next choice is
ROLL2_SHORTLIST = 4    # itself rated by rollouts among this many candidates (two levels)
ROLL_SINGLE = 0.0      # the rule's bonus per answer that leaves one placement
ROLL_SAMPLE = 15_000   # above ROLL_MAX: rate by a rollout over this many placements drawn
                       # from those left (0: use the two-choice search there instead)


def _scores(counts: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    shares = counts / n
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(shares > 0, np.log2(np.where(shares > 0, shares, 1.0)), 0.0)
    information = -(shares * logs).sum(axis=1)
    return information, shares[:, FOUND]


def _open_points(table: np.ndarray, alive: np.ndarray, queried: np.ndarray,
                 counts: np.ndarray) -> np.ndarray:
    """Indices of points not queried and possibly a ship; with ANY_BUOY also the
    empty points whose answer is still uncertain (they are buoys all the same)."""
    possible = counts[:, FOUND] > 0
    if ANY_BUOY:
        possible |= (counts > 0).sum(axis=1) > 1
    return np.flatnonzero(possible & ~queried)


def _one_step_costs(counts: np.ndarray, n: int, left: int) -> np.ndarray:
    """Expected cost of each query whose answer counts are the rows of `counts`,
    valuing each answer's outcome as ships left + _overhead(placements left)."""
    counts = counts.astype(np.float64)
    lefts = np.full(N_CODES, left, dtype=np.float64)
    lefts[FOUND] -= 1
    est = lefts + _overhead(counts)
    return 1.0 + (counts * est).sum(axis=1) / n


# Queries beyond the ships themselves, measured on this solver's own games: about
# OVERHEAD_SLOPE per bit of uncertainty plus OVERHEAD_BASE while more than one
# placement is left (scripts/bench_galaxis.py keeps it honest).
OVERHEAD_SLOPE = 0.39
OVERHEAD_BASE = 0.22


def _overhead(n) -> np.ndarray:
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore"):
        return np.where(n > 1, OVERHEAD_BASE + OVERHEAD_SLOPE * np.log2(np.maximum(n, 1.0)), 0.0)


_STRONG_MEMORY: dict = {}


class StrongChooser:
    """Level 3. Stateless between calls; works on index arrays, not Deduction copies."""

    def __init__(self, shortlist: int = SHORTLIST, exact_below: int = EXACT_BELOW):
        self.shortlist = shortlist
        self.exact_below = exact_below


    def choose(self, deduction: Deduction, avoid=frozenset()) -> Point:
        avoid = frozenset(avoid)
        # Shared by every chooser with the same settings: the openings are the same.
        settings = (self.shortlist, self.exact_below, SHIP_WEIGHT, OVERHEAD_SLOPE, OVERHEAD_BASE,
                    DEEP, DEEP_ABOVE, INFO_SHORTLIST, EXACT_LEAVES, ROLL_MAX, ROLL_SHORTLIST,
                    ROLL_WEIGHT, ROLL_SAMPLE, ROLL_SINGLE,
                    OPENING_ABOVE, OPENING_SAMPLE, OPENING_SHORTLIST, ROLL2_MAX, ROLL2_SHORTLIST)
        memory = _STRONG_MEMORY.setdefault(settings, Memo())
        return memory.get(deduction, avoid, lambda: self._choose(deduction, avoid))

    def _choose(self, deduction: Deduction, avoid=frozenset()) -> Point:
        table = deduction.table
        alive = deduction.alive if deduction.alive is not None else np.arange(deduction.count, dtype=np.int32)
        queried = np.zeros(len(ALL_POINTS), dtype=bool)
        for p in deduction.heard:
            queried[index_of(p)] = True
        avoided = np.zeros(len(ALL_POINTS), dtype=bool)
        for p in avoid:
            avoided[index_of(p)] = True
        left = SHIPS - len(deduction.found)
        counts = deduction.counts()
        n = deduction.count
        # `avoid` is a wish, not knowledge: plans may still count on querying those
        # points later; only the query made now keeps off them (if it can).
        candidates = _open_points(table, alive, queried, counts)
        preferred = candidates[~avoided[candidates]]
        if len(preferred):
            candidates = preferred
        certain = candidates[counts[candidates, FOUND] == n]
        if len(certain):
            return ALL_POINTS[int(certain[0])]
        if n <= self.exact_below:
            best, _ = _exact(table, alive, np.flatnonzero(queried), left)
            if not avoided[best]:
                return ALL_POINTS[best]
        if n <= ROLL2_MAX:
            shortlist = self._shortlist(counts, n, candidates, ROLL_SHORTLIST)
            costs = [self._two_level_cost(table, alive, queried, left, int(p)) for p in shortlist]
            return ALL_POINTS[int(shortlist[int(np.argmin(costs))])]
        if n <= ROLL_MAX:
            shortlist = self._shortlist(counts, n, candidates, ROLL_SHORTLIST)
            costs = rollout_costs(table, alive, queried, left, shortlist, ROLL_WEIGHT, ROLL_SINGLE)
            return ALL_POINTS[int(shortlist[int(np.argmin(costs))])]
        if ROLL_SAMPLE:
            # a fixed draw per position (seeded by its size): deterministic
            opening = n > OPENING_ABOVE
            size = OPENING_SAMPLE if opening else ROLL_SAMPLE
            pick = np.random.default_rng(n).choice(n, size=min(n, size), replace=False)
            sample = alive[np.sort(pick)]
            shortlist = self._shortlist(counts, n, candidates,
                                        OPENING_SHORTLIST if opening else ROLL_SHORTLIST)
            costs = rollout_costs(table, sample, queried, left, shortlist, ROLL_WEIGHT, ROLL_SINGLE)
            return ALL_POINTS[int(shortlist[int(np.argmin(costs))])]
        depth = DEEP if n >= DEEP_ABOVE else 2
        best_point, _ = self._best(table, alive, queried, left, counts, candidates, depth, top=True)
        return ALL_POINTS[best_point]

    def _two_level_cost(self, table, alive, queried, left, p) -> float:
        """Expected queries if p is asked now and, after each answer, the best of a
        shortlist (each rated by its rollout) is asked next, the rule playing on."""
        row = table[p, alive]
        n = len(alive)
        after = queried.copy()
        after[p] = True
        total = 0.0
        for code in np.flatnonzero(np.bincount(row.view(np.uint8), minlength=N_CODES)):
            child = alive[row == code]
            child_left = left - (code == FOUND)
            m = len(child)
            if m == 1 or child_left == 0:
                total += m * child_left
                continue
            child_counts = _answer_counts(table, child)
            ships = child_counts[:, FOUND]
            open_ = np.flatnonzero((ships > 0) & (ships < m) & ~after)
            short = self._shortlist(child_counts, m, open_, ROLL2_SHORTLIST)
            costs = rollout_costs(table, child, after, child_left, short, ROLL_WEIGHT, ROLL_SINGLE)
            total += m * float(np.min(costs))
        return 1.0 + total / n

    def _shortlist(self, counts: np.ndarray, n: int, candidates: np.ndarray, size: int,
                   buoys: np.ndarray | None = None) -> np.ndarray:
        """The candidates worth a deeper look: most information, a likely ship counting
        extra; plus the best few pure buoys (`buoys`: empty points still worth asking)."""
        information, chance = _scores(counts.astype(np.float64), n)
        value = information + SHIP_WEIGHT * chance
        order = candidates[np.lexsort((candidates, -chance[candidates], -value[candidates]))]
        chosen = list(order[:size])
        if buoys is not None and INFO_SHORTLIST:
            extra = buoys[np.lexsort((buoys, -information[buoys]))]
            chosen += [b for b in extra[:INFO_SHORTLIST] if b not in chosen]
        return np.array(chosen, dtype=np.int64)

    def _best(self, table, alive, queried, left, counts, candidates, depth,
              top: bool = False) -> tuple[int, float]:
        best_point, best_cost = -1, math.inf
        buoys = None
        if INFO_SHORTLIST:
            unqueried = np.flatnonzero(~queried & ((counts > 0).sum(axis=1) > 1))
            buoys = unqueried[counts[unqueried, FOUND] == 0]
        size = self.shortlist if top else INNER_SHORTLIST
        for p in self._shortlist(counts, len(alive), candidates, size, buoys):
            cost = self._query_cost(table, alive, queried, int(p), left, depth)
            if cost < best_cost - 1e-9:
                best_point, best_cost = int(p), cost
        return best_point, best_cost

    def _query_cost(self, table, alive, queried, p, left, depth) -> float:
        """Expected queries to finish if p is queried now and `depth - 1` more choices
        are searched after it (the last by the one-step estimate)."""
        row = table[p, alive]
        n = len(alive)
        after = queried.copy()
        after[p] = True
        total = 0.0
        for code in np.flatnonzero(np.bincount(row.view(np.uint8), minlength=N_CODES)):
            child = alive[row == code]
            total += len(child) * self._cost(table, child, after, left - (code == FOUND), depth - 1)
        return 1.0 + total / n

    def _cost(self, table, alive, queried, left, depth) -> float:
        """Expected queries to finish from a position (searched `depth` choices deep)."""
        m = len(alive)
        if left == 0:
            return 0.0
        if m == 1:
            return float(left)
        if EXACT_LEAVES and m <= self.exact_below:
            return _exact(table, alive, np.flatnonzero(queried), left)[1]
        counts = _answer_counts(table, alive)
        candidates = _open_points(table, alive, queried, counts)
        if np.any(counts[candidates, FOUND] == m):
            # a certain ship costs one query whenever it is taken; take it now
            return 1.0 + self._cost(table, alive, queried, left - 1, depth)
        if depth <= 1:
            return float(np.min(_one_step_costs(counts[candidates], m, left)))
        return self._best(table, alive, queried, left, counts, candidates, depth)[1]


class ExactSolver:
    """Fewest expected queries to find every ship, searched exhaustively for a small
    set of placements (the end game). Branch and bound: queries are tried best-first
    by the one-step estimate, and a query is dropped as soon as its cost so far plus
    the ships still to find in each answer's branch cannot beat the best one."""

    def __init__(self, table: np.ndarray, memory: int = 50_000):
        self.table = table
        self.memory = memory
        self.memo: dict = {}

    def best(self, alive, queried, left: int) -> tuple[int, float]:
        if len(self.memo) > self.memory:
            self.memo.clear()
        return self._solve(tuple(sorted(int(a) for a in alive)), frozenset(int(q) for q in queried), left)

    def _solve(self, alive: tuple[int, ...], queried: frozenset, left: int) -> tuple[int, float]:
        if left == 0:
            return -1, 0.0
        if len(alive) == 1:
            ships = [int(s) for s in _placement_points(alive[0]) if int(s) not in queried]
            return ships[0], float(len(ships))
        key = (alive, queried)
        if key in self.memo:
            return self.memo[key]
        n = len(alive)
        block = self.table[:, list(alive)]
        counts = (block[:, :, None] == np.arange(N_CODES)).sum(axis=1)
        usable = np.ones(len(ALL_POINTS), dtype=bool)
        usable[list(queried)] = False
        certain = np.flatnonzero(usable & (counts[:, FOUND] == n))
        if len(certain):        # a certain ship costs one query whenever it is taken
            p = int(certain[0])
            _, cost = self._solve(alive, queried | {p}, left - 1)
            result = (p, 1.0 + cost)
            self.memo[key] = result
            return result
        # Worth asking: may be a ship, or (ANY_BUOY) an empty buoy with an uncertain answer.
        if not ANY_BUOY_EXACT:
            usable &= counts[:, FOUND] > 0
        usable &= (counts > 0).sum(axis=1) > 1
        options = np.flatnonzero(usable)
        order = options[np.argsort(_one_step_costs(counts[options], n, left), kind="stable")]
        best_point, best_cost = int(order[0]), math.inf
        for p in order:
            p = int(p)
            row = block[p]
            codes = [c for c in range(N_CODES) if counts[p, c]]
            bound = 1.0 + sum(counts[p, c] * (left - (c == FOUND)) for c in codes) / n
            if bound >= best_cost - 1e-12:
                continue
            cost = bound
            for c in codes:
                child = tuple(a for a, r in zip(alive, row) if r == c)
                child_left = left - (c == FOUND)
                _, child_cost = self._solve(child, queried | {p}, child_left)
                cost += len(child) / n * (child_cost - child_left)
                if cost >= best_cost - 1e-12:
                    break
            if cost < best_cost - 1e-12:
                best_point, best_cost = p, cost
        result = (best_point, best_cost)
        self.memo[key] = result
        return result


@lru_cache(maxsize=None)
def _solver() -> ExactSolver:
    from audio_console.galaxis.deduction import answer_table
    return ExactSolver(answer_table())


def _exact(table, alive, queried, left):
    return _solver().best(alive, queried, left)


def _placement_points(i: int) -> np.ndarray:
    from audio_console.galaxis.deduction import placements
    return placements()[i]


# --- the team ------------------------------------------------------------------------

class Memo:
    """Remembers recent decisions by knowledge state. A choice depends only on what
    the team has heard, and every game opens through the same few states."""

    def __init__(self, size: int = MEMORY):
        self.size = size
        self._seen: OrderedDict = OrderedDict()

    def get(self, deduction: Deduction, avoid: frozenset, compute) -> Point:
        key = (frozenset(deduction.heard.items()), frozenset(deduction.known_empty),
               frozenset(deduction.known_ships), avoid)
        if key in self._seen:
            self._seen.move_to_end(key)
            return self._seen[key]
        point = compute()
        self._seen[key] = point
        if len(self._seen) > self.size:
            self._seen.popitem(last=False)
        return point


@lru_cache(maxsize=None)
def _greedy_memory() -> Memo:
    return Memo()


@dataclass(frozen=True)
class Choice:
    point: Point
    caution: bool = False     # option 3: "Caution! Spaceship!" before querying an own position


@dataclass
class ComputerTeam:
    """One computer team: its level, its seed and which team it plays."""
    level: int = 3
    seed: int = 0
    team: int = 2

    def __post_init__(self):
        if self.level not in LEVELS:
            raise ValueError(f"level {self.level} does not exist; choose 1, 2 or 3")
        self._strong = StrongChooser()

    @property
    def name(self) -> str:
        return f"computer level {self.level} ({LEVEL_NAMES[self.level]})"

    def choose_query(self, deduction: Deduction, move: int, avoid=frozenset()) -> Point:
        """The next point to query, from this team's own deduction only. `avoid`:
        points it would rather not query (option 3: its own stored ships)."""
        avoid = frozenset(avoid)
        if self.level == 1:
            return choose_random(deduction, move_rng(self.seed, self.team, move), avoid)
        if self.level == 2:
            return _greedy_memory().get(deduction, avoid, lambda: choose_greedy(deduction, None, avoid))
        return self._strong.choose(deduction, avoid)

    def choose(self, deduction: Deduction, move: int, own_ships=()) -> Choice:
        """Option 3: keep off its own stored positions, unless one of them is certainly
        also a target; then say "Caution! Spaceship!" and query it."""
        own = frozenset(own_ships)
        if self.level > 1:
            for point in deduction.certain_ships():
                if point in own and point not in deduction.heard:
                    return Choice(point, caution=True)
        point = self.choose_query(deduction, move, avoid=own)
        return Choice(point, caution=point in own)

    def store_positions(self) -> list[Point]:
        """Four positions to store for the other team (option 3)."""
        rng = move_rng(self.seed, self.team, -1)
        return sorted(rng.sample(ALL_POINTS, SHIPS))


# --- playing a whole board (benchmarks and tests) -------------------------------------------

def random_board(rng: random.Random) -> list[Point]:
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
