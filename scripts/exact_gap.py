#!/usr/bin/env python3
"""How far is level 3 from optimal in the Galaxis mid game?

From mid-game positions that level 3 itself reaches on tuning boards (seeds
"galaxis-tune:N", apart from the benchmark's), three exact expected costs (queries
still needed to find every ship, averaged over every placement still possible):

- optimum: the compiled exact solver (scripts/measure/exact.py);
- level 3: its whole decision tree walked, its own choice evaluated at every node;
- level 2: the one-step rule's tree (rollout.rule_cost).

Positions are binned by placements left; from each board the first position of
each bin is taken. Prints one line per position and, per bin, the means, the
paired gaps with their standard errors, and the solver's time.

Run from the repository root:
    nice -n 5 .venv/bin/python scripts/exact_gap.py --boards 40 --bins 100-300 300-1000
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from audio_console.galaxis.board import ALL_POINTS, SHIPS, answer  # noqa: E402
from audio_console.galaxis.computer import (ComputerTeam, query_candidates, rule_shortlist,  # noqa: E402
                                            strong_choice)
from audio_console.galaxis.deduction import (FOUND, SHIP_WEIGHT, Deduction, answer_counts,  # noqa: E402
                                             answer_table, index_of)
from audio_console.galaxis.rollout import rule_cost  # noqa: E402
from scripts.measure import exact  # noqa: E402
from scripts.measure.galaxis_boards import random_board  # noqa: E402


def policy_cost(choose, table, alive, queried, left) -> tuple[float, int]:
    """Exact expected queries if `choose(alive, queried, left, counts)` picks every
    query from here (its whole tree walked); and how many decisions that took."""
    if left == 0:
        return 0.0, 0
    if len(alive) == 1:
        return float(left), 0
    counts = answer_counts(table, alive)
    return cost_after(choose, table, alive, queried, left, choose(alive, queried, left, counts))


def cost_after(choose, table, alive, queried, left, p) -> tuple[float, int]:
    """Exact expected queries if `p` is queried now and `choose` picks every query
    after it; and how many decisions that took."""
    codes = table[p, alive]
    asked = queried.copy()
    asked[p] = True
    total, decisions = 1.0, 1
    for c in np.unique(codes):
        child = alive[codes == c]
        cost, d = policy_cost(choose, table, child, asked, left - (c == FOUND))
        total += len(child) / len(alive) * cost
        decisions += d
    return total, decisions


def first_query_costs(table, alive, queried, candidates, budget: int):
    """For each candidate query: 1 + the optimum after each of its answers (the
    compiled solver on each answer's placements); None where a child ran over the
    budget. For positions too big to solve whole."""
    asked = list(np.flatnonzero(queried))
    costs = {}
    for q in candidates:
        codes = table[q, alive]
        total = 1.0
        for c in np.unique(codes):
            child = alive[codes == c]
            solution = exact.solve(table, child, asked + [int(q)], budget=budget)
            if solution is None:
                total = None
                break
            total += len(child) / len(alive) * solution.cost
        costs[int(q)] = total
    return costs


def level_3(table):
    nothing = np.zeros(len(ALL_POINTS), dtype=bool)

    def choose(alive, queried, left, counts):
        return strong_choice(table, alive, queried, left, counts, nothing)
    return choose


def positions(boards: int, bins: list[tuple[int, int]], start: int = 0):
    """(board, bin, Deduction) for the first position of each bin in level 3's game
    on each tuning board."""
    team = ComputerTeam(level=3, seed=0, team=1)
    for i in range(start, start + boards):
        ships = random_board(random.Random(f"galaxis-tune:{i}"))
        d = Deduction()
        taken = set()
        for move in range(1, 64):
            for b, (lo, hi) in enumerate(bins):
                if b not in taken and lo <= d.count <= hi and not d.finished():
                    taken.add(b)
                    yield i, b, d.copy()
            if d.finished() or d.count < bins[-1][0] and len(taken) == len(bins):
                break
            point = team.choose_query(d, move)
            d.observe(point, answer(point, ships))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--start", type=int, default=0, help="first tuning board")
    parser.add_argument("--bins", nargs="+", default=["100-300", "300-1000"],
                        help="placement ranges, e.g. 100-300 300-1000 1000-5000")
    parser.add_argument("--budget", type=int, default=0, help="solver node budget (0: none)")
    parser.add_argument("--no-level-3", action="store_true", help="leave out level 3's tree (slow)")
    parser.add_argument("--first-decision", action="store_true",
                        help="positions too big to solve: rate level 3's query and the rule's "
                             "6 best by 1 + the optimum after each answer")
    parser.add_argument("--improvement", type=int, metavar="K",
                        help="positions too big to solve: one step of policy improvement, "
                             "rating level 3's query and the rule's K best each by 1 + level 3's "
                             "own exact cost after each answer (no solver)")
    parser.add_argument("--out", help="append one JSON line per position to this file")
    args = parser.parse_args(argv)
    bins = [tuple(int(x) for x in b.split("-")) for b in args.bins]
    load = os.getloadavg()
    print(f"exact gap; load average {load[0]:.2f} on {os.cpu_count()} cores", flush=True)
    table = answer_table()
    exact.solve(table, np.arange(2, dtype=np.int32), [])        # build the library first
    choose3 = level_3(table)
    rows = {b: [] for b in range(len(bins))}
    for board, b, d in positions(args.boards, bins, args.start):
        alive = d.alive
        queried = np.zeros(len(ALL_POINTS), dtype=bool)
        for p in d.heard:
            queried[index_of(p)] = True
        left = SHIPS - len(d.found)
        if args.improvement:
            rows[b].append(improvement(table, choose3, board, args.bins[b], alive, queried, left,
                                       args.improvement, args.out))
            continue
        if args.first_decision:
            first_decision(table, choose3, board, args.bins[b], alive, queried, left, args.budget, args.out)
            continue
        t = time.perf_counter()
        solution = exact.solve(table, alive, np.flatnonzero(queried), budget=args.budget)
        t_opt = time.perf_counter() - t
        if solution is None:
            print(f"board {board}: {d.count} placements: over the node budget", flush=True)
            continue
        rule = rule_cost(table, alive, queried, left, SHIP_WEIGHT)
        row = {"board": board, "bin": args.bins[b], "placements": d.count, "left": left,
               "optimum": solution.cost, "rule": rule, "nodes": solution.nodes, "seconds": t_opt}
        if not args.no_level_3:
            t = time.perf_counter()
            row["level3"], row["decisions"] = policy_cost(choose3, table, alive, queried, left)
            row["level3_seconds"] = time.perf_counter() - t
        rows[b].append(row)
        report(row, args.out)
    for b, name in enumerate(args.bins):
        summarise(name, rows[b])


def queries_to_rate(table, choose3, alive, queried, left, size) -> tuple[int, list[int]]:
    """Level 3's query here, and the rule's `size` best (best first)."""
    counts = answer_counts(table, alive)
    mine = int(choose3(alive, queried, left, counts))
    candidates, _ = query_candidates(counts, len(alive), queried, np.zeros(len(ALL_POINTS), dtype=bool))
    return mine, [int(q) for q in rule_shortlist(counts, len(alive), candidates, size)]


def report(row: dict, out: str | None) -> None:
    """Print one position's result, and append it to `out` as a JSON line."""
    print(json.dumps(row), flush=True)
    if out:
        with open(out, "a") as f:
            f.write(json.dumps(row) + "\n")


def improvement(table, choose3, board, bin_name, alive, queried, left, size, out) -> dict:
    """Would level 3 gain by choosing differently here, if it played on as itself?
    A gain near 0 at every position means level 3 is a fixed point of policy
    iteration there: close to optimal for the queries rated."""
    t = time.perf_counter()
    mine, shortlist = queries_to_rate(table, choose3, alive, queried, left, size)
    rated = sorted(set(shortlist) | {mine})
    costs = {q: cost_after(choose3, table, alive, queried, left, q)[0] for q in rated}
    best = min(costs, key=costs.get)
    row = {"board": board, "bin": bin_name, "placements": len(alive), "left": left,
           "level3_query": mine, "level3": costs[mine], "best_query": best,
           "gain": costs[best] - costs[mine], "rule": rule_cost(table, alive, queried, left, SHIP_WEIGHT),
           "costs": costs, "seconds": time.perf_counter() - t}
    report(row, out)
    return row


def first_decision(table, choose3, board, bin_name, alive, queried, left, budget, out) -> None:
    t = time.perf_counter()
    mine, shortlist = queries_to_rate(table, choose3, alive, queried, left, 6)
    costs = first_query_costs(table, alive, queried, sorted(set(shortlist) | {mine}), budget)
    known = {q: c for q, c in costs.items() if c is not None}
    row = {"board": board, "bin": bin_name, "placements": len(alive), "left": left,
           "level3_query": mine, "rule_query": shortlist[0], "costs": costs,
           "seconds": time.perf_counter() - t}
    if costs.get(mine) is not None and known:
        row["regret"] = costs[mine] - min(known.values())
    if costs.get(shortlist[0]) is not None and known:
        row["rule_regret"] = costs[shortlist[0]] - min(known.values())
    report(row, out)


def summarise(name: str, rows: list[dict]) -> None:
    if not rows:
        print(f"{name}: no positions")
        return
    n = len(rows)

    def mean_se(values):
        return statistics.mean(values), (statistics.stdev(values) / n ** 0.5 if n > 1 else 0.0)
    if "gain" in rows[0]:
        m, se = mean_se([r["gain"] for r in rows])
        print(f"\n{name} placements: {n} positions; level 3 {statistics.mean(r['level3'] for r in rows):.4f}, "
              f"level 2 {statistics.mean(r['rule'] for r in rows):.4f}; one step of policy improvement "
              f"{m:+.4f} (se {se:.4f}), at {sum(r['gain'] < 0 for r in rows)} positions")
        return
    print(f"\n{name} placements: {n} positions (median {statistics.median(r['placements'] for r in rows):.0f})")
    for key in ("optimum", "level3", "rule"):
        if all(key in r for r in rows):
            print(f"  {key:8} mean {statistics.mean(r[key] for r in rows):.4f}")
    if all("level3" in r for r in rows):
        m, se = mean_se([r["level3"] - r["optimum"] for r in rows])
        print(f"  level 3 - optimum {m:+.4f} (se {se:.4f}); max {max(r['level3'] - r['optimum'] for r in rows):.4f}")
    m, se = mean_se([r["rule"] - r["optimum"] for r in rows])
    print(f"  level 2 - optimum {m:+.4f} (se {se:.4f})")
    secs = [r["seconds"] for r in rows]
    print(f"  solver: median {statistics.median(secs):.3f} s, max {max(secs):.3f} s, "
          f"median nodes {statistics.median(r['nodes'] for r in rows):,.0f}")


if __name__ == "__main__":
    main()
