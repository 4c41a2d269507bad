"""How long a listener hears a game's start and its rules in short, with the real
speech engine into PulseAudio: seconds of speech for each game's introduction, each
page of `rules` (as the session pages them) and, as the baseline in the same run, the
whole rules unpaged. Prints medians of --trials runs, each page's words and the words
a second of the slowest page (what console/pager.py's PAGE_WORDS rests on).

    .venv/bin/python scripts/bench_rules_speech.py [--trials 3] [--games arkade]

Needs PulseAudio (speech plays into the default sink: a null sink keeps it quiet)."""
from __future__ import annotations

import argparse
import statistics
import time

from audio_console.audio.engine import AudioEngine
from audio_console.console.pager import paged
from audio_console.app.games import GAMES
from audio_console.base.settings import Settings

CASES = [("galaxis", {"option": 1}), ("galaxis", {"option": 3, "time_limit": 60.0}),
         ("battleship", {"opponent": "computer"}),
         ("arkade", {"mode": "strategy"}), ("arkade", {"mode": "arcade"})]


def spoken_seconds(engine: AudioEngine, lines: list[str]) -> float:
    """From the first line handed to the engine until it has said the last."""
    began = time.monotonic()
    for line in lines:
        engine.speak(line)
    time.sleep(0.2)                      # the engine takes the first line
    while engine.busy():
        time.sleep(0.02)
    return time.monotonic() - began


def measure(engine: AudioEngine, game: str, options: dict, trials: int) -> dict[str, tuple[float, int]]:
    """Each part's median seconds and its words."""
    console = GAMES[game].create(options, 1, Settings(), 0.0)
    rules = console.rules_summary()
    reply = paged(rules)
    pages = [[m.text for m in reply.messages]] + [[m.text for m in page] for page in reply.more]
    parts = {"introduction": [m.text for m in console.start().messages], "whole rules (baseline)": rules}
    parts.update({f"rules page {n}": page for n, page in enumerate(pages, 1)})
    return {name: (statistics.median(spoken_seconds(engine, lines) for _ in range(trials)),
                   sum(len(line.split()) for line in lines))
            for name, lines in parts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--games", nargs="*", default=None, help="only these games (default: all)")
    args = parser.parse_args()
    engine = AudioEngine(Settings(), signals=False, notify=lambda line: None)
    try:
        for game, options in CASES:
            if args.games and game not in args.games:
                continue
            seconds = measure(engine, game, options, args.trials)
            whole = seconds["whole rules (baseline)"][0]
            print(f"{game} {options}:")
            for name, (value, words) in seconds.items():
                share = f", {value / whole:.0%} of the whole rules" if name.startswith("rules page") else ""
                print(f"  {name}: {value:.1f} s ({words} words{share})")
            pages = [(value, words) for name, (value, words) in seconds.items() if name.startswith("rules page")]
            print(f"  longest page: {max(v for v, w in pages):.1f} s; "
                  f"slowest: {min(w / v for v, w in pages):.2f} words a second", flush=True)
    finally:
        engine.close()


if __name__ == "__main__":
    main()
