#!/usr/bin/env python3
"""Whisper decode time against a baseline engine, same clips, same run: top-1 command
accuracy per condition, median decode time (wall, and CPU per decode, which the
machine's other load inflates less) and how far the evidence moved.

    python scripts/bench_whisper_speed.py --corpus CORPUS [--corpus CORPUS2] [--limit N]
        [--baseline REV] [--configs t2,t1] [--all-kinds]

The baseline is whisper_engine.py as committed at REV (git show), at its own default
threads (a REV whose engine imports modules this checkout changed is not loadable);
configs are this checkout's engine: "tN" = N CTranslate2 threads, "ct2" = the search on
CTranslate2 instead of our decoder, "-fK" = K free transcript tokens, "-bFN" = beam F
for the first word, N after, "-wP/S" = encoder window of the utterance + P s rounded up
to S s.
Clips are decoded by every engine in turn, so load hits them alike. Tuning corpora only.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from audio_console.voice import whisper_engine, whisper_search  # noqa: E402
from audio_console.voice.audio import wav_pcm16  # noqa: E402
from audio_console.games import grammar_for_game  # noqa: E402


def baseline_module(rev: str):
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:audio_console/voice/whisper_engine.py"],
                            check=True, capture_output=True, text=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location("whisper_engine_baseline", f.name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    Path(f.name).unlink()
    return module


def make(config: str, grammar):
    options = {"threads": whisper_engine.THREADS, "own_decoder": True}
    for part in config.split("-"):
        if part == "ct2":
            options["own_decoder"] = False
        elif part.startswith("t"):
            options["threads"] = int(part[1:])
        elif part.startswith("f"):
            options["free_tokens"] = int(part[1:])
        elif part.startswith("b"):
            options["constants"] = {"BEAM_FIRST": int(part[1]), "BEAM": int(part[2])}
        elif part.startswith("w"):
            options["window"] = tuple(float(x) for x in part[1:].split("/"))
    recognizer = whisper_engine.WhisperRecognizer(threads=options["threads"], own_decoder=options["own_decoder"])
    if "free_tokens" in options:
        recognizer.free_tokens = options["free_tokens"]
    recognizer.constants = options.get("constants", {})
    if "window" in options:
        recognizer.window_pad, recognizer.window_step = options["window"]
    recognizer.set_grammar(grammar)
    return recognizer


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", action="append", required=True)
    ap.add_argument("--game", default="galaxis")
    ap.add_argument("--limit", type=int, default=0, help="at most this many command clips per corpus (spread evenly)")
    ap.add_argument("--baseline", default="main", help="git revision of the baseline engine")
    ap.add_argument("--configs", default="t2,t1")
    ap.add_argument("--all-kinds", action="store_true",
                    help="chatter, other talk and noise clips too (right = no command for them)")
    args = ap.parse_args(argv)
    rows = []
    for corpus in args.corpus:
        part = [json.loads(line) for line in (Path(corpus) / "manifest.jsonl").read_text().splitlines() if line.strip()]
        part = [r for r in part if args.all_kinds or r.get("expected")]
        if args.limit and len(part) > args.limit:
            part = part[:: max(1, len(part) // args.limit)][: args.limit]
        rows += part
    grammar = grammar_for_game(args.game)
    old = baseline_module(args.baseline).WhisperRecognizer()
    old.set_grammar(grammar)
    engines = {f"baseline {args.baseline}": old}
    engines.update((c, make(c, grammar)) for c in args.configs.split(","))
    results = {name: [] for name in engines}
    for i, row in enumerate(rows):
        pcm = wav_pcm16(row["file"])
        for name, recognizer in engines.items():
            saved = {k: getattr(whisper_search, k) for k in getattr(recognizer, "constants", {})}
            for k, v in getattr(recognizer, "constants", {}).items():
                setattr(whisper_search, k, v)
            wall, cpu = time.perf_counter(), time.process_time()
            decoded = recognizer.decode(pcm)
            for k, v in saved.items():
                setattr(whisper_search, k, v)
            e = decoded.evidence
            results[name].append({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                                  "ok": e.command == row.get("expected"), "e": e, "cond": row["degradation"],
                                  "calls": decoded.detail.get("calls", 0)})
        print(f"\r{i + 1}/{len(rows)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    base = results[f"baseline {args.baseline}"]
    print(f"{len(rows)} {'clips' if args.all_kinds else 'command clips'} ({', '.join(args.corpus)})")
    print(f"{'engine':<16} {'right':>6} {'wall ms':>8} {'cpu ms':>7} {'speed-up':>8} {'calls':>5} {'same':>5} {'d score':>8} "
          f"{'d margin':>8} {'agrees≠':>7}   per condition")
    for name, rs in results.items():
        per = {}
        for r in rs:
            good, total = per.get(r["cond"], (0, 0))
            per[r["cond"]] = (good + r["ok"], total + 1)
        same = sum(r["e"].command == b["e"].command for r, b in zip(rs, base))
        d_score = max(abs(r["e"].score - b["e"].score) for r, b in zip(rs, base))
        d_margin = statistics.median(abs(r["e"].margin - b["e"].margin) for r, b in zip(rs, base))
        agrees = sum(r["e"].agrees != b["e"].agrees for r, b in zip(rs, base))
        cells = " ".join(f"{d} {100 * g / t:.0f}" for d, (g, t) in per.items())
        # per clip, baseline wall time over this engine's on the same clip, then the median
        speedup = statistics.median(b["wall"] / r["wall"] for r, b in zip(rs, base))
        print(f"{name:<16} {100 * sum(r['ok'] for r in rs) / len(rs):5.1f}% "
              f"{statistics.median(r['wall'] for r in rs) * 1000:8.0f} {statistics.median(r['cpu'] for r in rs) * 1000:7.0f} {speedup:7.2f}x "
              f"{statistics.mean(r['calls'] for r in rs):5.1f} {same:5d} {d_score:8.3f} {d_margin:8.3f} {agrees:7d}   {cells}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
