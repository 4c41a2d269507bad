#!/usr/bin/env python3
"""Speech benchmark: the console's recognizer + trust layer beside a naive baseline.

Reads corpus/manifest.jsonl (scripts/make_speech_corpus.py). For every clip, in the
same run:
- naive: one JSGF grammar, the best hypothesis acted on as is whenever it parses;
- console: the same engine with its guard and the trust layer (Settings defaults
  unless --confirm/--clarity), exactly as live play and `recognize` decide.
Per degradation it prints, for commands: right (acted on correctly: outright, or
after a "Did you say ...?" that the player answers yes), how many needed that
confirmation, wrong acted on outright (the dangerous number), and for
out-of-grammar speech and noise clips: false accepts (acted on outright; "+c": also
asked about). RTF = decode time / audio time (median per clip).

    python scripts/bench_speech.py [--corpus corpus] [--model PATH] [--clarity 0.5]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from audio_console.settings import Settings  # noqa: E402
from audio_console.voice.audio import wav_pcm16  # noqa: E402
from audio_console.voice.engines import select_recognizer  # noqa: E402
from audio_console.voice.grammars import grammar_for_game  # noqa: E402
from audio_console.voice.trust import decide  # noqa: E402


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:5.1f}%" if b else "    - "


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="corpus")
    ap.add_argument("--game", default="galaxis")
    ap.add_argument("--model", help="a vosk model (default: the console's own choice)")
    ap.add_argument("--clarity", type=float, default=Settings.clarity)
    ap.add_argument("--confirm", default=Settings.confirm, choices=["unsure", "always", "never"])
    ap.add_argument("--degradations", help="comma-separated subset")
    ap.add_argument("--json", help="write every clip's result here")
    args = ap.parse_args(argv)

    manifest = Path(args.corpus) / "manifest.jsonl"
    if not manifest.is_file():
        print(f"no corpus at {manifest}: run scripts/make_speech_corpus.py first", file=sys.stderr)
        return 2
    rows = [json.loads(line) for line in manifest.read_text().splitlines() if line.strip()]
    if args.degradations:
        keep = set(args.degradations.split(","))
        rows = [r for r in rows if r["degradation"] in keep]

    grammar = grammar_for_game(args.game)
    recognizer, why = select_recognizer(args.model)
    recognizer.set_grammar(grammar)
    settings = Settings(clarity=args.clarity, confirm=args.confirm)
    print(why)
    print(f"{len(rows)} clips; settings confirm={settings.confirm} clarity={settings.clarity}")

    stats: dict = defaultdict(lambda: defaultdict(int))
    times: dict = defaultdict(lambda: defaultdict(list))
    results = []
    started = time.perf_counter()
    for row in rows:
        pcm = wav_pcm16(row["file"])
        audio_seconds = len(pcm) / 32000
        naive = recognizer.decode(pcm, naive=True)
        full = recognizer.decode(pcm)
        heard = decide(full, grammar, settings)
        naive_cmd = grammar.parse(naive.text) if naive.text else None
        naive_cmd = naive_cmd.text if naive_cmd else None
        cmd = heard.command.text if heard.command else None
        s = stats[row["degradation"]]
        times[row["degradation"]]["naive"].append(naive.seconds / audio_seconds)
        times[row["degradation"]]["console"].append(full.seconds / audio_seconds)
        if row["expected"]:
            s["commands"] += 1
            s["naive_right"] += naive_cmd == row["expected"]
            s["right"] += cmd == row["expected"]
            s["confirmed"] += cmd == row["expected"] and heard.confirm
            s["wrong_outright"] += cmd is not None and cmd != row["expected"] and not heard.confirm
            s["naive_wrong"] += naive_cmd is not None and naive_cmd != row["expected"]
        else:
            s["rejects"] += 1
            s["naive_fa"] += naive_cmd is not None
            s["fa"] += cmd is not None and not heard.confirm
            s["fa_confirm"] += cmd is not None
        results.append({**row, "naive": naive_cmd, "heard": full.text, "command": cmd,
                        "confirm": heard.confirm, "confidence": heard.confidence})
    elapsed = time.perf_counter() - started

    header = (f"{'degradation':<11} {'cmds':>4} | {'naive right':>11} {'naive wrong':>11} {'naive FA':>8} | "
              f"{'right':>6} {'(confirmed)':>11} {'wrong':>6} {'FA':>6} {'FA+c':>6} | {'RTF naive':>9} {'RTF':>6}")
    print(header)
    print("-" * len(header))
    total: dict = defaultdict(int)
    for how in sorted(stats, key=lambda h: list(stats).index(h)):
        s = stats[how]
        for k, v in s.items():
            total[k] += v
        print(f"{how:<11} {s['commands']:>4} | {pct(s['naive_right'], s['commands']):>11} "
              f"{pct(s['naive_wrong'], s['commands']):>11} {pct(s['naive_fa'], s['rejects']):>8} | "
              f"{pct(s['right'], s['commands']):>6} {pct(s['confirmed'], s['commands']):>11} "
              f"{pct(s['wrong_outright'], s['commands']):>6} {pct(s['fa'], s['rejects']):>6} "
              f"{pct(s['fa_confirm'], s['rejects']):>6} | "
              f"{statistics.median(times[how]['naive']):>9.3f} {statistics.median(times[how]['console']):>6.3f}")
    s = total
    print(f"{'all':<11} {s['commands']:>4} | {pct(s['naive_right'], s['commands']):>11} "
          f"{pct(s['naive_wrong'], s['commands']):>11} {pct(s['naive_fa'], s['rejects']):>8} | "
          f"{pct(s['right'], s['commands']):>6} {pct(s['confirmed'], s['commands']):>11} "
          f"{pct(s['wrong_outright'], s['commands']):>6} {pct(s['fa'], s['rejects']):>6} "
          f"{pct(s['fa_confirm'], s['rejects']):>6} |")
    print(f"right: the command acted on is the one said (outright or after a yes to a confirmation); "
          f"wrong: a wrong command acted on without asking; FA: out-of-grammar speech or noise acted on "
          f"(FA+c: or asked about). Rejects per degradation: {stats[next(iter(stats))]['rejects'] if stats else 0}. "
          f"Wall time {elapsed:.0f} s.")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
