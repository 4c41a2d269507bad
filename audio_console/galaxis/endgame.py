"""The Galaxis end game solved exactly: the fewest expected queries to find every
ship when few placements are left (level 3 of the computer team, galaxis.computer).

The compiled solver of scripts/measure (exact_solver.c) has the same meaning and the
same overhead estimate, and is checked against this one."""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from audio_console.galaxis.board import ALL_POINTS
from audio_console.galaxis.deduction import FOUND, N_CODES

def _one_step_costs(counts: np.ndarray, n: int, left: int) -> np.ndarray:
    """A rough expected cost of each query whose answer counts are the rows of
    `counts`, valuing each answer's outcome as ships left + _overhead(placements
    left): the exact solver tries queries in this order, best first."""
    counts = counts.astype(np.float64)
    lefts = np.full(N_CODES, left, dtype=np.float64)
    lefts[FOUND] -= 1
    est = lefts + _overhead(counts)
    return 1.0 + (counts * est).sum(axis=1) / n


# Queries beyond the ships themselves, measured on the solver's own games: about
# OVERHEAD_SLOPE per bit of uncertainty plus OVERHEAD_BASE while more than one
# placement is left.
OVERHEAD_SLOPE = 0.39
OVERHEAD_BASE = 0.22


def _overhead(n) -> np.ndarray:
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore"):
        return np.where(n > 1, OVERHEAD_BASE + OVERHEAD_SLOPE * np.log2(np.maximum(n, 1.0)), 0.0)


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
        # Worth asking: may be a ship, and not certainly one (taken above).
        usable &= counts[:, FOUND] > 0
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


def exact_best(table, alive, queried, left):
    return _solver().best(alive, queried, left)


def _placement_points(i: int) -> np.ndarray:
    from audio_console.galaxis.deduction import placements
    return placements()[i]
