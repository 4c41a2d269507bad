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


def voice_family(speaker: str) -> str:
    return speaker.split(":")[0] if ":" in speaker else "none"


def print_voices(results: list[dict]) -> None:
    """Commands right per voice family and degradation (console, naive in brackets),
    and the same for the natural-sounding voices alone (flite, hibari): espeak-ng's
    robotic voices are the hardest, and a real speaker is closer to the others."""
    groups = {"espeak": {"espeak"}, "flite": {"flite"}, "hibari": {"hibari"},
              "natural (flite+hibari)": {"flite", "hibari"}, "all voices": {"espeak", "flite", "hibari"}}
    hows = list(dict.fromkeys(r["degradation"] for r in results))
    print("commands right by voice, console (naive):")
    print(f"{'voices':<23} " + " ".join(f"{h:>13}" for h in hows + ["all"]))
    for name, families in groups.items():
        cells = []
        for how in hows + ["all"]:
            rs = [r for r in results if r["expected"] and voice_family(r["speaker"]) in families
                  and (how == "all" or r["degradation"] == how)]
            right = sum(r["command"] == r["expected"] for r in rs)
            naive = sum(r["naive"] == r["expected"] for r in rs)
            cells.append(f"{pct(right, len(rs)).strip():>6} ({pct(naive, len(rs)).strip():>5})" if rs else "-")
        print(f"{name:<23} " + " ".join(f"{c:>13}" for c in cells))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="corpus")
    ap.add_argument("--game", default="galaxis")
    ap.add_argument("--model", help="a vosk model (default: the console's own choice)")
    ap.add_argument("--clarity", type=float, default=Settings.clarity)
    ap.add_argument("--confirm", default=Settings.confirm, choices=["unsure", "always", "never"])
    ap.add_argument("--degradations", help="comma-separated subset")
    ap.add_argument("--json", help="write every clip's result here")
    ap.add_argument("--before", action="store_true",
                    help="pocketsphinx: also decode without the word guard (docs/listen.md), in the same run")
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
    before = None
    if args.before and recognizer.name == "pocketsphinx":
        from audio_console.voice.sphinx import SphinxRecognizer
        before = SphinxRecognizer(word_guard=False)
        before.set_grammar(grammar)
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
        if before is not None:
            old = decide(before.decode(pcm), grammar, settings)
            old_cmd = old.command.text if old.command else None
            if row["expected"]:
                s["b_right"] += old_cmd == row["expected"]
                s["b_confirmed"] += old_cmd == row["expected"] and old.confirm
                s["b_wrong"] += old_cmd is not None and old_cmd != row["expected"] and not old.confirm
            else:
                s["b_fa"] += old_cmd is not None and not old.confirm
                s["b_fa_confirm"] += old_cmd is not None
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
    if before is not None:
        print("before (the same engine without the word guard), same run:")
        for how in list(stats) + ["all"]:
            b = total if how == "all" else stats[how]
            print(f"{how:<11} {b['commands']:>4} | right {pct(b['b_right'], b['commands'])} "
                  f"(confirmed {pct(b['b_confirmed'], b['commands'])}) wrong {pct(b['b_wrong'], b['commands'])} "
                  f"FA {pct(b['b_fa'], b['rejects'])} FA+c {pct(b['b_fa_confirm'], b['rejects'])}")
    print_voices(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
