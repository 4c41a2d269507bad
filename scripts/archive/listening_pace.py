#!/usr/bin/env python3
"""Arkade Arcade Mode: can a player who listens to every event keep up with the
computer's pace? Plays seeded arcade games with the computer on both sides through
the real console (the lines a player hears, with the console's own choice of what is
spoken), renders each spoken line with espeak-ng at the default speech rate, and
prints, per pace window (each side rolls once in it) the seconds of speech: median,
90th and 99th percentile, the share of windows whose speech is longer than the
pace, and the longest a listener falls behind (speech queued when the next roll comes).

    python scripts/archive/listening_pace.py --games 20 [--seed 1] [--pace 3] [--rate 175]
"""
from __future__ import annotations

import argparse
import io
import random
import os
import subprocess
import sys
import time
import wave

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from audio_console.arkade.actions import Roll  # noqa: E402
from audio_console.arkade.computer import next_action  # noqa: E402
from audio_console.arkade.console import ArkadeConsole  # noqa: E402
from audio_console.base.settings import Settings  # noqa: E402

GAP = 0.15     # seconds between two spoken lines (the engine's queue)


def speech_seconds(text: str, rate: int, cache: dict) -> float:
    if text not in cache:
        wav = subprocess.run(["espeak-ng", "-s", str(rate), "--stdout", text], capture_output=True,
                             check=True).stdout
        with wave.open(io.BytesIO(wav)) as w:     # to a pipe the header's length is a placeholder
            bytes_per_second = w.getframerate() * w.getsampwidth() * w.getnchannels()
        cache[text] = (len(wav) - 44) / bytes_per_second
    return cache[text]


def window_speech(games: int, seed: int, pace: float, rate: int, cache: dict, lines: dict) -> list[float]:
    """Seconds of the computer Defence's speech after each of its rolls, at the default
    setting (a human Alien, here played by the computer's normal level through the
    same commands, one roll and its moves each pace)."""
    windows = []
    for i in range(games):
        console = ArkadeConsole({"mode": "arcade", "alien": "human", "defence": "computer",
                                 "pace": pace}, seed + i, Settings())
        g = console.grammar()
        console.handle(g.parse("go"), -3.0)
        console.tick(0.0)
        now, rng = 0.0, random.Random(seed + i)
        while not console.finished() and now < 100_000:
            now += pace
            reply = console.tick(now)          # the Defence's roll and all it does with it
            spoken = [m.spoken for m in reply.messages if m.spoken]
            for text in spoken:
                lines[text] = lines.get(text, 0) + 1
            windows.append(sum(speech_seconds(text, rate, cache) + GAP for text in spoken))
            rolled = False
            for _ in range(50):                # the Alien: one roll and what it does with it
                if console.finished():
                    break
                action = next_action(console.core, "alien", "normal", rng)
                if action is None or (action == Roll() and rolled):
                    break
                rolled = rolled or action == Roll()
                console.apply_recorded(f"alien {action.text()}")
    return windows


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pace", type=float, default=3.0)
    parser.add_argument("--rate", type=int, default=Settings().speech_rate)
    args = parser.parse_args(argv)
    start, cache = time.perf_counter(), {}
    lines: dict = {}
    windows = window_speech(args.games, args.seed, args.pace, args.rate, cache, lines)
    print(f"Arcade Mode, a player's Alien against the computer's Defence, pace {args.pace:g} s, speech {args.rate} words a minute, "
          f"{args.games} games (seeds {args.seed}..{args.seed + args.games - 1}), {len(windows)} pace windows")
    late = sum(s > args.pace for s in windows) / max(1, len(windows))
    print(f"  the Defence's speech per roll: median {percentile(windows, 0.5):.2f} s, "
          f"90th {percentile(windows, 0.9):.2f} s, 99th {percentile(windows, 0.99):.2f} s, "
          f"max {max(windows, default=0):.2f} s; longer than the pace: {late * 100:.1f} %")
    backlog = worst = 0.0
    for seconds in windows:             # speech queued and not yet heard when the next roll comes
        backlog = max(0.0, backlog + seconds - args.pace)
        worst = max(worst, backlog)
    print(f"  the longest a listener falls behind: {worst:.1f} s")
    common = sorted(lines.items(), key=lambda kv: -kv[1])[:3]
    print("  most heard: " + "; ".join(f"{n}x '{text}' ({cache[text]:.1f} s)" for text, n in common))
    print(f"{len(cache)} distinct lines rendered; {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
