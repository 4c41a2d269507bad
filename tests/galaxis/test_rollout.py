"""The rollout that level 3 rates its candidate queries by: its expected cost must
be exactly the average number of queries the one-step rule needs, played out on
each possible placement one game at a time."""
from __future__ import annotations

import math

import numpy as np
import pytest

from audio_console.galaxis.board import ALL_POINTS, answer, parse_point
from audio_console.galaxis.deduction import FOUND, answer_table, deduce, index_of, placements
from audio_console.galaxis.rollout import rollout_costs, rule_cost


def rule_choice(table, alive, asked, weight):
    """The one-step rule, written plainly: the open point with the best
    information + weight x chance of a ship."""
    n = len(alive)
    best, best_value = None, -math.inf
    for p in range(63):
        if asked[p]:
            continue
        row = table[p, alive]
        ships = int(np.count_nonzero(row == FOUND))
        if not 0 < ships < n:
            continue
        shares = np.bincount(row, minlength=6) / n
        information = -sum(s * math.log2(s) for s in shares if s > 0)
        value = information + weight * ships / n
        if value > best_value + 1e-9:
            best, best_value = p, value
    return best


def play_rule(table, alive, asked, first, truth, weight):
    """Queries the rule needs when the ships stand as in placement `truth`."""
    ships = {ALL_POINTS[i] for i in placements()[truth]}
    asked = asked.copy()
    found = {p for p in range(63) if asked[p] and table[p, truth] == FOUND}
    queries, p = 0, first
    while True:
        if p is not None:
            code = table[p, truth]
            alive = alive[table[p, alive] == code]
            asked[p] = True
            queries += 1
            if code == FOUND:
                found.add(p)
        if len(alive) == 1:
            return queries + len(ships) - len(found)
        certain = [q for q in range(63) if not asked[q] and np.all(table[q, alive] == FOUND)]
        for q in certain:                  # certain ships: one query each, nothing learnt
            asked[q] = True
            found.add(q)
            queries += 1
        p = rule_choice(table, alive, asked, weight)


def test_rollout_cost_is_the_rules_average_over_every_placement():
    table = answer_table()
    ships = [parse_point(t) for t in ("B2", "D5", "F7", "G9")]
    heard = [(parse_point(t), answer(parse_point(t), ships)) for t in ("D5", "C3", "E7", "F2", "B4")]
    d = deduce(heard)
    alive = d.alive
    assert 20 <= len(alive) <= 400            # a small, real mid-game position
    asked = np.zeros(63, dtype=bool)
    for p in d.heard:
        asked[index_of(p)] = True
    left = 4 - len(d.found)
    first = np.array([p for p in range(63) if not asked[p]
                      and 0 < np.count_nonzero(table[p, alive] == FOUND) < len(alive)][:4])
    costs = rollout_costs(table, alive, asked, left, first, 2.5)
    for p, cost in zip(first, costs):
        by_hand = [play_rule(table, alive, asked, int(p), int(t), 2.5) for t in alive]
        assert cost == pytest.approx(sum(by_hand) / len(by_hand), abs=1e-9)


def test_rule_cost_is_the_rules_own_average_over_every_placement():
    table = answer_table()
    ships = [parse_point(t) for t in ("A1", "C5", "E2", "G8")]
    d = deduce([(parse_point(t), answer(parse_point(t), ships)) for t in ("D5", "C3", "E7", "B6", "F4", "B8")])
    alive = d.alive
    assert 20 <= len(alive) <= 600
    asked = np.zeros(63, dtype=bool)
    for p in d.heard:
        asked[index_of(p)] = True
    left = 4 - len(d.found)
    by_hand = [play_rule(table, alive, asked, None, int(t), 2.5) for t in alive]
    assert rule_cost(table, alive, asked, left, 2.5) == pytest.approx(sum(by_hand) / len(by_hand), abs=1e-9)


def test_two_level_cost_is_the_best_next_rollout_after_each_answer():
    # Level 3's two-level rating of a query p: ask p; after each answer, the best
    # of the rule's top 4 next queries by its rollout; then the rule. Built here
    # from one-answer-at-a-time rollouts.
    from audio_console.galaxis.computer import TWO_LEVEL_SHORTLIST, rule_shortlist, _two_level_costs
    from audio_console.galaxis.deduction import answer_counts
    table = answer_table()
    ships = [parse_point(t) for t in ("B2", "D5", "F7", "G9")]
    d = deduce([(parse_point(t), answer(parse_point(t), ships)) for t in ("D5", "C3", "E7", "F2")])
    alive, left = d.alive, 4 - len(d.found)
    asked = np.zeros(63, dtype=bool)
    for p in d.heard:
        asked[index_of(p)] = True
    first = np.array([p for p in range(63) if not asked[p]
                      and 0 < np.count_nonzero(table[p, alive] == FOUND) < len(alive)][:3])
    costs = _two_level_costs(table, alive, asked, left, first, exact_below=0)
    for p, cost in zip(first, costs):
        after = asked.copy()
        after[p] = True
        total = 0.0
        for code in range(6):
            child = alive[table[p, alive] == code]
            child_left = left - (code == FOUND)
            if len(child) <= 1 or child_left == 0:
                total += len(child) * child_left
                continue
            counts = answer_counts(table, child)
            certain = [q for q in range(63) if not after[q] and counts[q, FOUND] == len(child)]
            then = after.copy()
            then[certain] = True
            if child_left == len(certain):
                total += len(child) * len(certain)
                continue
            options = np.array([q for q in range(63) if not then[q] and counts[q, FOUND] > 0])
            nexts = rule_shortlist(counts, len(child), options, TWO_LEVEL_SHORTLIST)
            best = min(rollout_costs(table, child, then, child_left - len(certain), nexts, 2.5))
            total += len(child) * (len(certain) + best)
        assert cost == pytest.approx(1 + total / len(alive), abs=1e-9)
