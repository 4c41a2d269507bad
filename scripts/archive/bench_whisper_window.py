#!/usr/bin/env python3
"""Whisper encoder window vs accuracy and time: the constrained decoder's best command
on a corpus's command clips, for several windows, in the same run.

    python scripts/archive/bench_whisper_window.py --corpus CORPUS [--game galaxis] [--limit N]

Windows: the utterance plus a pad, rounded up to a step (0: not rounded); "30 s" is
Whisper's full window. Prints right % per window and the median decode time (wall,
and CPU per decode, which the machine's other load does not inflate as much).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from audio_console.voice.audio import wav_pcm16  # noqa: E402
from audio_console.app.games import grammar_for_game  # noqa: E402
from audio_console.voice.whisper_engine import WhisperRecognizer  # noqa: E402

WINDOWS = {"exact+0.2s": (0.2, 0.0), "exact+0.5s": (0.5, 0.0), "+0.5s/1s-steps": (0.5, 1.0),
           "+0.5s/2s-steps": (0.5, 2.0), "3s": (0.0, 3.0), "30s": (0.0, 30.0)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--game", default="galaxis")
    ap.add_argument("--limit", type=int, default=0, help="at most this many command clips (spread evenly)")
    ap.add_argument("--windows", help="comma-separated subset of: " + ", ".join(WINDOWS))
    ap.add_argument("--model", help="a CTranslate2 Whisper folder (default: the embedded tiny.en)")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in (Path(args.corpus) / "manifest.jsonl").read_text().splitlines() if line.strip()]
    rows = [r for r in rows if r.get("expected")]
    if args.limit and len(rows) > args.limit:
        rows = rows[:: max(1, len(rows) // args.limit)][: args.limit]
    names = args.windows.split(",") if args.windows else list(WINDOWS)
    recognizer = WhisperRecognizer(args.model)
    recognizer.set_grammar(grammar_for_game(args.game))
    clips = [(r, wav_pcm16(r["file"])) for r in rows]
    print(f"{len(clips)} command clips, {recognizer.describe()}")
    print(f"{'window':<18} {'right':>6} {'wall ms':>8} {'cpu ms':>7}   per condition")
    for name in names:
        recognizer.options.window_pad, recognizer.options.window_step = WINDOWS[name]
        right, walls, cpus, per = 0, [], [], {}
        for row, pcm in clips:
            wall, cpu = time.perf_counter(), time.process_time()
            decoded = recognizer.decode(pcm)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            ok = decoded.evidence is not None and decoded.evidence.command == row["expected"]
            right += ok
            good, total = per.get(row["degradation"], (0, 0))
            per[row["degradation"]] = (good + ok, total + 1)
        cells = " ".join(f"{d} {100 * g / t:.0f}" for d, (g, t) in per.items())
        print(f"{name:<18} {100 * right / len(clips):5.1f}% {statistics.median(walls) * 1000:8.0f} "
              f"{statistics.median(cpus) * 1000:7.0f}   {cells}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
