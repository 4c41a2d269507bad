#!/usr/bin/env python3
"""Galaxis deduction and computer-team benchmark.

1. Speed: median time to update the deduction after an answer and to choose the
   best next query, at the opening and in mid-game (target: under 100 ms each).
2. Strength: queries needed to find all four ships on N seeded option-2 boards
   (default 1000), for each computer level, two more one-step greedy baselines
   (most information; fewest expected placements left) and a random player (any
   point not yet queried), all on the same boards in one run. For the one-step
   rules it also prints their exact mean over all 595,665 placements (no sampling).

Run from the repository root:  .venv/bin/python scripts/bench_galaxis.py [--boards N]
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
from audio_console.galaxis.computer import SHIP_WEIGHT, ComputerTeam  # noqa: E402
from audio_console.galaxis.deduction import Deduction, answer_table, index_of  # noqa: E402
from audio_console.galaxis.rollout import rule_cost  # noqa: E402
from scripts.measure.galaxis_boards import play_board, random_board  # noqa: E402


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def mid_game_state(rng: random.Random, queries: int = 3) -> tuple[Deduction, list, tuple]:
    """A position after `queries` informative queries, and a next query with its answer."""
    ships = random_board(rng)
    d = Deduction()
    for _ in range(queries):
        point = d.best_query().point if rng.random() < 0.5 else rng.choice(d.candidates())
        d.observe(point, answer(point, ships))
    point = rng.choice(d.candidates())
    return d, ships, (point, answer(point, ships))


def time_speed(repeats: int) -> None:
    start = time.perf_counter()
    answer_table()
    build = time.perf_counter() - start
    print(f"answer table built once in {build * 1000:.0f} ms (63 x 595,665)")
    rng = random.Random(99)
    rows = [time_opening(rng, repeats)] + time_positions(rng, repeats)
    print(f"\nSpeed, median of {repeats} (ms):")
    print(f"{'position':24} {'placements':>10} {'update':>8} {'best query':>11}")
    for label, size, update, choose in rows:
        print(f"{label:24} {size:>10,} {median_ms(update):>8.1f} {median_ms(choose):>11.1f}")
    time_strong(rng, max(3, repeats // 2))


def time_opening(rng: random.Random, repeats: int):
    """Opening: every placement is alive; the update filters all 595,665."""
    update, choose = [], []
    for i in range(repeats):
        point = rng.choice(ALL_POINTS)
        ships = random_board(rng)
        d = Deduction()
        t = time.perf_counter()
        d.observe(point, answer(point, ships))
        update.append(time.perf_counter() - t)
        d = Deduction()
        t = time.perf_counter()
        d.best_query()
        choose.append(time.perf_counter() - t)
    return ("opening", 595_665, update, choose)


def time_positions(rng: random.Random, repeats: int) -> list:
    """An update and a best query after 1, 3 and 6 queries, from scratch."""
    rows = []
    for label, queries in (("after 1 query", 1), ("mid-game (3 queries)", 3), ("late (6 queries)", 6)):
        update, choose, sizes = [], [], []
        for i in range(repeats):
            d, ships, (point, heard) = mid_game_state(rng, queries)
            d._stats = None
            sizes.append(d.count)
            t = time.perf_counter()
            d.observe(point, heard)
            update.append(time.perf_counter() - t)
            d._stats = None               # choose from scratch: count every answer again
            t = time.perf_counter()
            d.best_query()
            choose.append(time.perf_counter() - t)
        rows.append((label, int(statistics.median(sizes)), update, choose))
    return rows


def time_strong(rng: random.Random, games: int) -> None:
    """The strongest level's decision, from scratch (no remembered decisions)."""
    strong = []
    for i in range(games):
        d, ships, (point, heard) = mid_game_state(rng, 2)
        team = ComputerTeam(level=3, seed=i)
        t = time.perf_counter()
        team.choose_query(d, 3)
        strong.append(time.perf_counter() - t)
    print(f"{'level 3 decision, 2 queries in':40} {median_ms(strong):>11.1f}")
    # Every level 3 decision of whole games, each from scratch (nothing remembered;
    # in play the first moves are remembered, and the opening is thought out at warm-up).
    from audio_console.galaxis import computer
    team = ComputerTeam(level=3, seed=0)
    every, first_moves = [], []

    def timed(d, move):
        computer._STRONG_MEMORY.clear()
        t = time.perf_counter()
        point = team.choose_query(d, move)
        every.append(time.perf_counter() - t)
        if move <= 3:
            first_moves.append(every[-1])
        return point
    for i in range(games):
        play_board(timed, random_board(random.Random(f"galaxis-timing:{i}")))
    print(f"level 3, every decision of {games} games from scratch: median "
          f"{median_ms(every):.1f} ms over {len(every)} decisions; moves 1-3 median "
          f"{median_ms(first_moves):.0f} ms, slowest {max(every) * 1000:.0f} ms")


def greedy_most_information(deduction: Deduction, move: int):
    """Baseline (level 2 until November 2026): one step, the most expected
    information; ties to the likelier ship, then board order."""
    information, _ = deduction.scores()
    probabilities = deduction.probabilities()
    return max(deduction.candidates(), key=lambda p: (round(float(information[index_of(p)]), 9),
                                                      float(probabilities[index_of(p)]), -index_of(p)))


def greedy_fewest_left(deduction: Deduction, move: int):
    """Baseline: one step, the candidate leaving the fewest placements on average."""
    _, expected_left = deduction.scores()
    probabilities = deduction.probabilities()
    return min(deduction.candidates(),
               key=lambda p: (expected_left[index_of(p)], -probabilities[index_of(p)], index_of(p)))


def random_player(seed: int):
    def choose(deduction: Deduction, move: int):
        rng = random.Random(f"random-player:{seed}:{move}")
        return rng.choice([p for p in ALL_POINTS if p not in deduction.heard])
    return choose


def play_all(players, boards) -> dict:
    results = {}
    for name, make in players:
        start = time.perf_counter()
        queries = [play_board(make(i), ships) for i, ships in enumerate(boards)]
        results[name] = (queries, time.perf_counter() - start)
        print(f"  {name}: done in {results[name][1]:.0f} s", file=sys.stderr, flush=True)
    return results


LEVEL_2 = "level 2 (greedy, info + 2.5 x ship)"
LEVEL_3 = "level 3 (strong)"
MOST_INFORMATION = "baseline: greedy, most information"


def exact_rule_means() -> dict:
    """The one-step rules' exact mean over every placement: the rule's whole decision
    tree walked once (rollout.rule_cost), no boards, no sampling error."""
    table = answer_table()
    everything = np.arange(table.shape[1], dtype=np.int32)
    nothing = np.zeros(len(ALL_POINTS), dtype=bool)
    return {LEVEL_2: rule_cost(table, everything, nothing, SHIPS, SHIP_WEIGHT),
            # a hair of ship weight: ties to the likelier ship, as the player breaks
            # them (with no tie-break at all the mean is 11.999)
            MOST_INFORMATION: rule_cost(table, everything, nothing, SHIPS, 1e-7)}


def strength(n_boards: int, skip_random: bool, save: str | None, against: str | None,
             only_level_3: bool = False, first_board: int = 0) -> None:
    boards = [random_board(random.Random(f"galaxis-board:{i}"))
              for i in range(first_board, first_board + n_boards)]
    teams = {level: ComputerTeam(level=level, seed=0, team=1) for level in (1, 2, 3)}
    players = [
        ("level 1 (beginner)", lambda i: (lambda d, m: teams[1].choose_query(d, m + 100 * i))),
        (LEVEL_2, lambda i: (lambda d, m: teams[2].choose_query(d, m))),
        (LEVEL_3, lambda i: (lambda d, m: teams[3].choose_query(d, m))),
        (MOST_INFORMATION, lambda i: greedy_most_information),
        ("baseline: greedy, fewest left", lambda i: greedy_fewest_left),
    ]
    if not skip_random:
        players.append(("baseline: random unqueried point", lambda i: random_player(i)))
    if only_level_3:
        players = [player for player in players if player[0] == LEVEL_3]
    start = time.perf_counter()
    results = play_all(players, boards)
    print(f"\nStrength: queries to find all four ships, {n_boards} seeded option-2 boards "
          f"(galaxis-board:{first_board}..{first_board + n_boards - 1}) "
          f"(same boards for every player), {time.perf_counter() - start:.0f} s in all")
    exact = exact_rule_means()
    print(f"{'player':36} {'mean':>6} {'sd':>5} {'+-95%':>6} {'min':>4} {'median':>6} {'max':>4} "
          f"{'s/board':>8} {'exact':>6}")
    for name, (queries, seconds) in results.items():
        mean = statistics.mean(queries)
        sd = statistics.pstdev(queries)
        half = 1.96 * sd / len(queries) ** 0.5
        exact_mean = f"{exact[name]:>6.3f}" if name in exact else f"{'':>6}"
        print(f"{name:36} {mean:>6.2f} {sd:>5.2f} {half:>6.2f} {min(queries):>4} "
              f"{statistics.median(queries):>6.1f} {max(queries):>4} {seconds / len(queries):>8.3f} "
              f"{exact_mean}")
    print("(exact: the one-step rule's mean over all 595,665 placements, no sampling error)")
    if LEVEL_2 in results:
        diff, se = paired("level 3 minus level 2", results[LEVEL_3][0], results[LEVEL_2][0])
        # level 2's exact mean is known; the paired difference carries it over to level 3
        # (the boards' luck cancels, as far as the two play alike)
        print(f"level 3's exact mean, estimated: level 2's exact {exact[LEVEL_2]:.3f} "
              f"{diff:+.3f} = {exact[LEVEL_2] + diff:.3f} (standard error {se:.3f})")
    if against:
        with open(against) as f:
            paired(f"level 3 minus {against}", results[LEVEL_3][0], json.load(f)[:n_boards])
    if save:
        with open(save, "w") as f:
            json.dump(results[LEVEL_3][0], f)


def paired(label: str, a: list[int], b: list[int]) -> tuple[float, float]:
    """Print and return the mean paired difference a - b and its standard error."""
    diff = [x - y for x, y in zip(a, b)]
    mean = statistics.mean(diff)
    se = statistics.pstdev(diff) / len(diff) ** 0.5
    print(f"{label}, on the same boards: {mean:+.3f} "
          f"(standard error {se:.3f}); better on {sum(d < 0 for d in diff)}, "
          f"worse on {sum(d > 0 for d in diff)} boards")
    return mean, se


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000, help="seeded option-2 boards (default 1000)")
    parser.add_argument("--repeats", type=int, default=15, help="timing repeats per position")
    parser.add_argument("--no-random", action="store_true", help="leave out the random baseline")
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--first-board", type=int, default=0,
                        help="first board's number (default 0; others for more, fresh boards)")
    parser.add_argument("--only-level-3", action="store_true",
                        help="play level 3 alone (with --save/--against: a quick paired comparison)")
    parser.add_argument("--save", help="write level 3's queries per board to this JSON file")
    parser.add_argument("--against", help="a JSON file from --save: level 3's paired difference to it")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    print(f"Galaxis benchmark; load average {load[0]:.2f} on {os.cpu_count()} cores")
    time_speed(args.repeats)
    if not args.speed_only:
        strength(args.boards, args.no_random, args.save, args.against, args.only_level_3,
                 args.first_board)


if __name__ == "__main__":
    main()
