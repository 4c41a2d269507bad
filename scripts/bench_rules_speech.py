"""How long a listener hears a game's start and its rules in short, with the real
speech engine (espeak-ng through pyttsx3) at the default rate: for each game's
introduction, each page of `rules` (as the session pages them) and, as the baseline
in the same run, the whole rules unpaged, the seconds of speech the engine renders
(its samples: the same under any load) and the seconds they take to play into
PulseAudio (from the first line handed over until the last is said: medians of
--trials runs, longer under load). Prints each page's words and the words a second
of the slowest page, what console/pager.py's PAGE_WORDS rests on.

    .venv/bin/python scripts/bench_rules_speech.py [--trials 3] [--games arkade] [--rendered-only]

Needs PulseAudio unless --rendered-only (speech plays into the default sink: a null
sink keeps it quiet)."""
from __future__ import annotations

import argparse
import statistics
import time

from audio_console.audio.engine import AudioEngine
from audio_console.audio.tts import Speech
from audio_console.console.pager import paged
from audio_console.app.games import GAMES
from audio_console.base.settings import Settings

CASES = [("galaxis", {"option": 1}), ("galaxis", {"option": 3, "time_limit": 60.0}),
         ("battleship", {"opponent": "computer"}),
         ("arkade", {"mode": "strategy"}), ("arkade", {"mode": "arcade"})]
RATE = 22050


def played_seconds(engine: AudioEngine, lines: list[str]) -> float:
    """From the first line handed to the engine until it has said the last."""
    began = time.monotonic()
    for line in lines:
        engine.speak(line)
    time.sleep(0.2)                      # the engine takes the first line
    while engine.busy():
        time.sleep(0.02)
    return time.monotonic() - began


def parts(game: str, options: dict) -> dict[str, list[str]]:
    console = GAMES[game].create(options, 1, Settings(), 0.0)
    rules = console.rules_summary()
    reply = paged(rules)
    pages = [[m.text for m in reply.messages]] + [[m.text for m in page] for page in reply.more]
    found = {"introduction": [m.text for m in console.start().messages], "whole rules (baseline)": rules}
    found.update({f"rules page {n}": page for n, page in enumerate(pages, 1)})
    return found


def report(game: str, options: dict, speech: Speech, engine: AudioEngine | None, trials: int) -> None:
    print(f"{game} {options}:")
    pages = []
    for name, lines in parts(game, options).items():
        words = sum(len(line.split()) for line in lines)
        rendered = sum(len(speech.render(line, timeout=60)) for line in lines) / RATE
        played = "" if engine is None else \
            f", played in {statistics.median(played_seconds(engine, lines) for _ in range(trials)):.1f} s"
        print(f"  {name}: {rendered:.1f} s of speech{played} ({words} words)", flush=True)
        if name.startswith("rules page"):
            pages.append((rendered, words))
    print(f"  longest page: {max(s for s, w in pages):.1f} s of speech; "
          f"slowest: {min(w / s for s, w in pages):.2f} words a second", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--games", nargs="*", default=None, help="only these games (default: all)")
    parser.add_argument("--rendered-only", action="store_true", help="the speech's length only: no playing")
    args = parser.parse_args()
    settings = Settings()
    speech = Speech(RATE, rate=settings.speech_rate)
    engine = None if args.rendered_only else AudioEngine(settings, signals=False, notify=lambda line: None)
    try:
        for game, options in CASES:
            if not args.games or game in args.games:
                report(game, options, speech, engine, args.trials)
    finally:
        if engine is not None:
            engine.close()


if __name__ == "__main__":
    main()
