"""The compiled exact solver: it must find the same least expected number of
queries as the plain Python solver (endgame.ExactSolver) on many small positions,
never do worse than the one-step rule, keep to its node budget, and with empty
buoys allowed match a plain exhaustive search."""
from __future__ import annotations

import random

import numpy as np
import pytest

from audio_console.galaxis.board import ALL_POINTS, answer
from audio_console.galaxis.endgame import ExactSolver
from audio_console.galaxis.deduction import SHIP_WEIGHT, Deduction, answer_table, index_of
from audio_console.galaxis.rollout import rule_cost
from scripts.measure import exact
from scripts.measure.galaxis_boards import random_board

# Skipped only without a compiler: with one, a solver that fails to build fails here.
pytestmark = pytest.mark.skipif(exact.find_compiler() is None,
                                reason="no C compiler (cc or gcc) for the exact solver, a measuring tool; "
                                       "scripts/test installs gcc")


def position(rng: random.Random, low: int, high: int) -> Deduction:
    """A position of low..high placements reached by a mix of good and random queries."""
    while True:
        ships = random_board(rng)
        d = Deduction()
        while d.count > high and not d.finished():
            point = d.best_query().point if rng.random() < 0.6 else rng.choice(d.candidates())
            d.observe(point, answer(point, ships))
        if low <= d.count <= high and not d.finished():
            return d


def queried(d: Deduction) -> list[int]:
    return [index_of(p) for p in d.heard]


def test_agrees_with_the_python_solver_on_many_small_positions():
    table = answer_table()
    rng = random.Random("exact-cross-check")
    for i in range(50):
        d = position(rng, 1, 25)
        left = 4 - len(d.found)
        point, cost = ExactSolver(table).best(d.alive, queried(d), left)
        solution = exact.solve(table, d.alive, queried(d))
        assert solution.cost == pytest.approx(cost, abs=1e-9)
        if i % 5 == 0:    # its own query is worth that cost (asked first, the rest optimal)
            assert ExactSolver(table).best(d.alive, queried(d), left)[1] == pytest.approx(
                _cost_after(table, d, solution.point), abs=1e-9)


def _cost_after(table, d: Deduction, point: int) -> float:
    """Expected queries if `point` is asked now and the rest is played optimally."""
    alive, left = d.alive, 4 - len(d.found)
    asked = queried(d) + [point]
    codes = table[point, alive]
    total = 1.0
    for c in np.unique(codes):
        child = alive[codes == c]
        child_left = left - (c == 5)
        if child_left:
            total += len(child) / len(alive) * ExactSolver(table).best(child, asked, child_left)[1]
    return total


def test_a_certain_ship_is_asked_first_and_one_placement_costs_its_ships():
    table = answer_table()
    d = Deduction()
    ships = [ALL_POINTS[i] for i in (3, 20, 40, 60)]
    for p in ships[:2]:
        d.observe(p, answer(p, ships))
    one = np.array([int(np.flatnonzero((table[[3, 20, 40, 60]] == 5).all(axis=0))[0])], dtype=np.int32)
    solution = exact.solve(table, one, queried(d))
    assert solution.cost == 2.0 and solution.point == 40


def test_the_optimum_never_loses_to_the_one_step_rule_and_keeps_to_its_budget():
    table = answer_table()
    rng = random.Random("exact-vs-rule")
    for _ in range(6):
        d = position(rng, 80, 200)
        mask = np.zeros(63, dtype=bool)
        mask[queried(d)] = True
        solution = exact.solve(table, d.alive, queried(d))
        assert solution.cost <= rule_cost(table, d.alive, mask, 4 - len(d.found), SHIP_WEIGHT) + 1e-9
        assert solution.cost >= 4 - len(d.found)
        assert exact.solve(table, d.alive, queried(d), budget=max(1, solution.nodes // 2)) is None
        again = exact.solve(table, d.alive, queried(d), budget=solution.nodes)
        assert (again.point, again.cost) == (solution.point, solution.cost)


def _plain_optimum(table, alive: tuple, asked: frozenset, buoys: bool, memo: dict) -> float:
    """The least expected number of queries, by plain recursion over every query
    (a reference for tiny positions; with `buoys` known-empty points may be asked)."""
    block = table[:, list(alive)]
    # an asked point that is not a ship answers the same everywhere: only the
    # found ships among the asked points matter
    key = (alive, frozenset(p for p in asked if (block[p] == 5).all()))
    if key in memo:
        return memo[key]
    ships = [p for p in range(63) if p not in asked and (block[p] == 5).all()]
    if ships:                                   # a certain ship: taken at once
        result = 1.0 + _plain_optimum(table, alive, asked | {ships[0]}, buoys, memo)
    elif len(alive) == 1:
        result = 0.0
    else:
        result = float("inf")
        for p in range(63):
            row = block[p]
            if p in asked or len(set(row.tolist())) == 1 or (not buoys and not (row == 5).any()):
                continue
            cost = 1.0
            for c in set(row.tolist()):
                child = tuple(a for a, r in zip(alive, row) if r == c)
                cost += len(child) / len(alive) * _plain_optimum(table, child, asked | {p}, buoys, memo)
            result = min(result, cost)
    memo[key] = result
    return result


def test_with_empty_buoys_it_matches_a_plain_search_and_never_costs_more():
    table = answer_table()
    rng = random.Random("exact-buoys")
    for _ in range(12):
        d = position(rng, 3, 6)
        asked = frozenset(queried(d))
        with_buoys = exact.solve(table, d.alive, queried(d), buoys=True)
        plain = _plain_optimum(table, tuple(int(a) for a in d.alive), asked, True, {})
        assert with_buoys.cost == pytest.approx(plain, abs=1e-9)
        without = exact.solve(table, d.alive, queried(d)).cost
        assert with_buoys.cost <= without + 1e-9
        assert without == pytest.approx(_plain_optimum(table, tuple(int(a) for a in d.alive), asked,
                                                       False, {}), abs=1e-9)
