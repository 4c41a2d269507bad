#!/usr/bin/env python3
"""Benchmark the Battleship: Outer Space computer players.

Over N seeded fleets (default 1000), each computer level and two baselines shoot at
the same fleet until it is destroyed:
  sweep   every row of every sector in turn (A-J of sector 1, then 2, then 3)
  random  a random line not called before
Prints the mean (and median, worst) shots to win for each, the ratio to the sweep
measured in the same run, and the median and 95th-percentile time of one computer
move. Run from the repository root:

    .venv/bin/python scripts/bench_battleship.py --games 100
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from audio_console.battleship.computer import LEVELS, choose_line, move_rng  # noqa: E402
from audio_console.battleship.board import ALL_LINES, PLAYERS, ROW  # noqa: E402
from audio_console.battleship.events import ShotFired  # noqa: E402
from audio_console.battleship.rules import Game, random_fleet  # noqa: E402


def fleet_game(seed: int) -> Game:
    """A game whose player 2 has a fleet seeded by `seed`; player 1 only shoots."""
    game = Game(first=1)
    for player in PLAYERS:
        for placement in random_fleet(random.Random(f"bench-fleet:{seed}:{player}")).values():
            game.place(player, placement)
        game.finish_placing(player)
    return game


def shots_to_win(game: Game, choose) -> tuple[int, list[float]]:
    """Player 1 shoots alone (player 2's turns are skipped) until player 2's fleet is
    destroyed; returns the shots and the time each choice took."""
    times = []
    move = 0
    while game.winner is None:
        started = time.perf_counter()
        line = choose(game, move)
        times.append(time.perf_counter() - started)
        events = game.shoot(1, line)
        if not any(isinstance(e, ShotFired) for e in events):
            raise RuntimeError(f"the strategy called {line} twice")
        if game.winner is None:
            game.to_move = 1          # a one-sided race: only player 1's shots count
        move += 1
    return game.shots(1), times


SWEEP = [line for s in (1, 2, 3) for line in ALL_LINES if line.sector == s and line.kind == ROW]


def sweep(game: Game, move: int):
    return SWEEP[move]


def random_line(seed):
    def choose(game: Game, move: int):
        rng = random.Random(f"bench-random:{seed}:{move}")
        return rng.choice([line for line in ALL_LINES if line not in game.called[1]])
    return choose


def computer(level: int, seed: int):
    def choose(game: Game, move: int):
        return choose_line(game.observations[1], level, move_rng(seed, 1, move))
    return choose


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="seeded fleets to play against (default 1000)")
    parser.add_argument("--levels", default="1,2,3", help="computer levels to run (default 1,2,3)")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",") if x]

    strategies = {"sweep (baseline)": lambda seed: sweep, "random line": random_line}
    for level in levels:
        strategies[f"level {level} {LEVELS[level]}"] = lambda seed, level=level: computer(level, seed)

    results = {name: [] for name in strategies}
    timings = {name: [] for name in strategies}
    started = time.time()
    for seed in range(args.games):
        for name, make in strategies.items():
            shots, times = shots_to_win(fleet_game(seed), make(seed))
            results[name].append(shots)
            timings[name].extend(times)
        if (seed + 1) % 50 == 0:
            print(f"... {seed + 1} fleets, {time.time() - started:.0f} s", file=sys.stderr, flush=True)
    elapsed = time.time() - started

    base = statistics.mean(results["sweep (baseline)"])
    print(f"Battleship: Outer Space, {args.games} seeded fleets, {elapsed:.0f} s, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'strategy':<22} {'mean shots':>10} {'median':>7} {'worst':>6} {'vs sweep':>9} "
          f"{'median move ms':>15} {'p95 move ms':>12}")
    for name in strategies:
        shots = results[name]
        t = sorted(timings[name])
        p95 = t[int(0.95 * (len(t) - 1))] * 1000
        print(f"{name:<22} {statistics.mean(shots):>10.2f} {statistics.median(shots):>7.1f} "
              f"{max(shots):>6} {statistics.mean(shots) / base:>9.2f} "
              f"{statistics.median(t) * 1000:>15.2f} {p95:>12.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
