"""A computer team for Galaxis, at three levels.

1  beginner: rules points out the rulebook's way (beams of a 0 answer; a buoy whose
   sighted ships are all found) and picks at random among the rest.
2  greedy: one step, the query with the most information + a bonus for the chance
   of finding a ship outright (every ship must be queried once anyway).
3  strong: a certain ship first; the end game solved exactly when few placements are
   left (endgame.py); otherwise level 2's six best candidates are rated by a rollout: the exact
   expected number of queries to finish if level 2's rule plays on after each
   (rollout.py), over every placement left, or over a fixed sample of them while
   very many are left; from a few thousand placements down two levels deep (after
   each answer, the best of four next queries by their rollouts).

A player sees only its own team's Deduction (what that team has heard), so it can
never use the other team's secrets. Its choices are deterministic: any randomness
comes from a random.Random seeded from (seed, team, move number).
"""
from __future__ import annotations

import random
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from audio_console.galaxis.board import ALL_POINTS, SHIPS, Point, beams
from audio_console.galaxis.deduction import FOUND, N_CODES, SHIP_WEIGHT, Deduction, index_of, rule_values
from audio_console.galaxis.endgame import exact_best
from audio_console.galaxis.rollout import branch_costs, point_mask, rollout_costs

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
    """Level 2, one step: a certain ship first, else the candidate the rule values
    most (information + SHIP_WEIGHT x chance); ties to the likelier ship, then
    board order. `avoid`: points to keep off if any other is possible."""
    counts = deduction.counts()
    n = deduction.count
    candidates, certain = query_candidates(counts, n, _points_mask(deduction.heard), _points_mask(avoid))
    if len(certain):
        return ALL_POINTS[int(certain[0])]
    return ALL_POINTS[int(rule_shortlist(counts, n, candidates, 1)[0])]


def _points_mask(points) -> np.ndarray:
    """(63,) bool: True at these points."""
    mask = np.zeros(len(ALL_POINTS), dtype=bool)
    for p in points:
        mask[index_of(p)] = True
    return mask


def query_candidates(counts: np.ndarray, n: int, queried: np.ndarray, avoided: np.ndarray):
    """(candidates, certain ships among them) as point indices: the points not queried
    that may be a ship, kept off `avoided` if any other is possible. `avoid` is a
    wish, not knowledge: plans may still count on querying those points later; only
    the query made now keeps off them (if it can)."""
    candidates = np.flatnonzero((counts[:, FOUND] > 0) & ~queried)
    preferred = candidates[~avoided[candidates]]
    if len(preferred):
        candidates = preferred
    return candidates, candidates[counts[candidates, FOUND] == n]


# Level 3's settings, tuned on seeded boards apart from the benchmark's
# (docs/deduction.md has the figures).
EXACT_BELOW = 12       # placements left at which the end game is solved exactly
MEMORY = 4096          # decisions remembered
ROLL_SHORTLIST = 6     # candidates (best by the rule) rated by a rollout
ROLL_MAX = 15_000      # above this many placements the rollout runs over ...
ROLL_SAMPLE = 15_000   # ... a fixed sample of this many of them (time)
TWO_LEVEL_MAX = 3_000  # from this many placements down, each answer's next query is
TWO_LEVEL_SHORTLIST = 4  # itself chosen among this many by their rollouts (two levels)


_STRONG_MEMORY: dict = {}


class StrongChooser:
    """Level 3. Stateless between calls; works on index arrays, not Deduction copies."""

    def __init__(self, exact_below: int = EXACT_BELOW):
        self.exact_below = exact_below

    def choose(self, deduction: Deduction, avoid=frozenset()) -> Point:
        avoid = frozenset(avoid)
        # Shared by every chooser with the same settings: the openings are the same.
        settings = (self.exact_below, SHIP_WEIGHT, ROLL_MAX, ROLL_SHORTLIST, ROLL_SAMPLE,
                    TWO_LEVEL_MAX, TWO_LEVEL_SHORTLIST)
        memory = _STRONG_MEMORY.setdefault(settings, Memo())
        return memory.get(deduction, avoid, lambda: self._choose(deduction, avoid))

    def _choose(self, deduction: Deduction, avoid=frozenset()) -> Point:
        alive = deduction.alive if deduction.alive is not None else np.arange(deduction.count, dtype=np.int32)
        left = SHIPS - len(deduction.found)
        return ALL_POINTS[strong_choice(deduction.table, alive, _points_mask(deduction.heard), left,
                                        deduction.counts(), _points_mask(avoid), self.exact_below)]


def strong_choice(table: np.ndarray, alive: np.ndarray, queried: np.ndarray, left: int,
                  counts: np.ndarray, avoided: np.ndarray, exact_below: int = EXACT_BELOW) -> int:
    """Level 3's query (a point index) for the placements `alive`, with `queried`
    and `avoided` as (63,) bool, `left` ships not yet found and `counts` the
    (63, 6) answer counts over `alive`."""
    n = len(alive)
    candidates, certain = query_candidates(counts, n, queried, avoided)
    if len(certain):
        return int(certain[0])
    if n <= exact_below:
        best, _ = exact_best(table, alive, np.flatnonzero(queried), left)
        if not avoided[best]:
            return best
    if n > ROLL_MAX:
        # a fixed draw per position (seeded by its size): deterministic
        pick = np.random.default_rng(n).choice(n, size=min(n, ROLL_SAMPLE), replace=False)
        alive = alive[np.sort(pick)]
    shortlist = rule_shortlist(counts, n, candidates, ROLL_SHORTLIST)
    if n <= TWO_LEVEL_MAX:
        costs = _two_level_costs(table, alive, queried, left, shortlist, exact_below)
    else:
        costs = rollout_costs(table, alive, queried, left, shortlist, SHIP_WEIGHT)
    return int(shortlist[int(np.argmin(costs))])


_CELLS = (np.arange(len(ALL_POINTS)) * N_CODES)[:, None]     # point p's answer c counts at p*6+c


def _two_level_costs(table, alive, queried, left: int, first: np.ndarray, exact_below: int) -> np.ndarray:
    """Expected queries if a point of `first` is asked now and, after each answer,
    the best of a few next queries (each rated by its rollout; a small end game
    solved exactly) is asked next, the rule playing on after that. Every rollout
    of every answer runs in one walk (rollout.branch_costs)."""
    sub = np.ascontiguousarray(table[:, alive])
    n, k = sub.shape[1], len(first)
    member = np.tile(np.arange(n, dtype=np.int64), k)
    codes = sub[first].reshape(-1).astype(np.int64)
    key = np.repeat(np.arange(k, dtype=np.int64), n) * N_CODES + codes
    nodes, inverse, sizes = np.unique(key, return_inverse=True, return_counts=True)
    flat = (inverse[None, :] * (len(ALL_POINTS) * N_CODES) + _CELLS + sub[:, member]).ravel()
    counts = np.bincount(flat, minlength=len(nodes) * len(ALL_POINTS) * N_CODES).reshape(
        len(nodes), len(ALL_POINTS), N_CODES)
    total = np.ones(k)                       # the first query
    walks = []                               # (node, member, first, left, mask) per rollout
    for u, node in enumerate(nodes):
        i, code, m = int(node) // N_CODES, int(node) % N_CODES, int(sizes[u])
        child_left = left - (code == FOUND)
        if m == 1 or child_left == 0:
            total[i] += m * child_left / n
            continue
        asked = queried.copy()
        asked[first[i]] = True
        certain = np.flatnonzero((counts[u, :, FOUND] == m) & ~asked)
        asked[certain] = True                # one query each, whenever taken
        child_left -= len(certain)
        total[i] += m * len(certain) / n
        if child_left == 0:
            continue
        child = member[inverse == u]
        if m <= exact_below:
            total[i] += m * exact_best(table, alive[child], np.flatnonzero(asked), child_left)[1] / n
            continue
        options = np.flatnonzero((counts[u, :, FOUND] > 0) & ~asked)
        for q in rule_shortlist(counts[u], m, options, TWO_LEVEL_SHORTLIST):
            walks.append((u, child, int(q), child_left, point_mask(asked)))
    if walks:
        sizes_w = [len(w[1]) for w in walks]
        cost = branch_costs(sub, np.concatenate([w[1] for w in walks]),
                            np.repeat(np.arange(len(walks)), sizes_w),
                            np.repeat([w[2] for w in walks], sizes_w),
                            np.repeat([w[3] for w in walks], sizes_w),
                            np.repeat(np.array([w[4] for w in walks], dtype=np.uint64), sizes_w),
                            len(walks), SHIP_WEIGHT)
        best: dict[int, float] = {}
        for (u, *_), c in zip(walks, cost):
            best[u] = min(best.get(u, np.inf), float(c))
        for u, c in best.items():
            total[int(nodes[u]) // N_CODES] += c / n
    return total


def rule_shortlist(counts: np.ndarray, n: int, candidates: np.ndarray, size: int) -> np.ndarray:
    """The `size` candidates the rule values most; ties to the likelier ship, then
    board order."""
    value = rule_values(counts, n)
    chance = counts[:, FOUND] / n
    order = candidates[np.lexsort((candidates, -chance[candidates], -value[candidates]))]
    return order[:size].astype(np.int64)


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

