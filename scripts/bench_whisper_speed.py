#!/usr/bin/env python3
"""Whisper decode time against a baseline engine, same clips, same run: top-1 command
accuracy per condition, median decode time (wall, and CPU per decode, which the
machine's other load inflates less) and how far the evidence moved.

    python scripts/bench_whisper_speed.py --corpus CORPUS [--corpus CORPUS2] [--limit N]
        [--baseline REV] [--configs default] [--all-kinds]

The baseline is the whole package as committed at REV (`git archive` into a temporary
folder), imported in a process of its own, at its engine's own defaults: nothing of
this checkout is loaded beside it. Configs are this checkout's engine, each in its own
process too: "default" = its defaults, parts joined by "-": "fK" = K free transcript
tokens, "bFN" = beam F for the first word, N after (whisper_search's BEAM_FIRST and BEAM in that process), "wP/S" = encoder
window of the utterance + P s rounded up to S s.
Clips are decoded by every engine in turn, so load hits them alike. Tuning corpora only.
"""
from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# --- the worker: one engine of one tree, in its own process --------------------------

def _engine(config: str, game: str):
    """The recognizer of the tree on sys.path[0]: its defaults ("baseline") or a config."""
    from audio_console.app.games import grammar_for_game
    from audio_console.voice import whisper_engine, whisper_search
    if config == "baseline":
        recognizer = whisper_engine.WhisperRecognizer()
    else:
        options = whisper_engine.WhisperOptions()
        for part in config.split("-"):
            if part.startswith("f"):
                options.free_tokens = int(part[1:])
            elif part.startswith("b"):     # this process's search, so no other engine sees it
                whisper_search.BEAM_FIRST, whisper_search.BEAM = int(part[1]), int(part[2])
            elif part.startswith("w"):
                options.window_pad, options.window_step = (float(x) for x in part[1:].split("/"))
        recognizer = whisper_engine.WhisperRecognizer(options=options)
    recognizer.set_grammar(grammar_for_game(game))
    for load in ("backend", "decoder"):   # this tree's, or an older one's
        if hasattr(recognizer, load):
            getattr(recognizer, load)()   # its background load done before the first clip is timed
            break
    return recognizer


def worker(tree: str, config: str, game: str) -> int:
    """Decode each WAV file named on stdin; answer one JSON line each on stdout."""
    sys.path.insert(0, tree)
    import audio_console
    sys.path.insert(1, str(Path(__file__).resolve().parent))      # scripts/: old_layout
    from old_layout import alias_moved_modules
    alias_moved_modules()
    loaded = Path(audio_console.__file__).resolve()
    if not loaded.is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"audio_console came from {loaded}, not from {tree}")
    from audio_console.voice.audio import wav_pcm16
    recognizer = _engine(config, game)
    print(json.dumps({"ready": str(loaded.parent)}), flush=True)
    for line in sys.stdin:
        pcm = wav_pcm16(line.strip())
        wall, cpu = time.perf_counter(), time.process_time()
        decoded = recognizer.decode(pcm)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        e = decoded.evidence
        print(json.dumps({"wall": wall, "cpu": cpu, "command": e.command, "score": e.score,
                          "margin": e.margin, "agrees": e.agrees,
                          "calls": decoded.detail.get("calls", 0)}), flush=True)
    if hasattr(recognizer, "close"):
        recognizer.close()
    return 0


# --- the bench: engines as processes, clips in turn ----------------------------------

class Engine:
    """A worker process: one engine, fed one clip at a time."""

    def __init__(self, tree: Path, config: str, game: str):
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", str(tree), "--config", config,
             "--game", game], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tree)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.send, self.receive = self.process.stdin, self.process.stdout
        self.loaded_from = self._answer()["ready"]

    def _answer(self) -> dict:
        line = self.receive.readline()
        if not line:
            raise SystemExit(f"an engine's process ended (exit code {self.process.wait()})")
        return json.loads(line)

    def decode(self, path: str) -> dict:
        self.send.write(path + "\n")
        self.send.flush()
        return self._answer()

    def close(self) -> None:
        self.send.close()
        self.process.wait(timeout=60)


def baseline_tree(rev: str, into: Path) -> Path:
    """The package as committed at `rev`, unpacked into `into`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "audio_console"],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def clips(corpora: list[str], limit: int, all_kinds: bool) -> list[dict]:
    rows = []
    for corpus in corpora:
        part = [json.loads(line) for line in (Path(corpus) / "manifest.jsonl").read_text().splitlines() if line.strip()]
        part = [r for r in part if all_kinds or r.get("expected")]
        if limit and len(part) > limit:
            part = part[:: max(1, len(part) // limit)][:limit]
        rows += part
    return rows


def report(results: dict[str, list[dict]], rows: list[dict], base_name: str) -> None:
    base = results[base_name]
    print(f"{'engine':<16} {'right':>6} {'wall ms':>8} {'cpu ms':>7} {'speed-up':>8} {'calls':>5} {'same':>5} {'d score':>8} "
          f"{'d margin':>8} {'agrees≠':>7}   per condition")
    for name, rs in results.items():
        per: dict[str, tuple[int, int]] = {}
        for r, row in zip(rs, rows):
            good, total = per.get(row["degradation"], (0, 0))
            per[row["degradation"]] = (good + (r["command"] == row.get("expected")), total + 1)
        same = sum(r["command"] == b["command"] for r, b in zip(rs, base))
        d_score = max(abs(r["score"] - b["score"]) for r, b in zip(rs, base))
        d_margin = statistics.median(abs(r["margin"] - b["margin"]) for r, b in zip(rs, base))
        agrees = sum(r["agrees"] != b["agrees"] for r, b in zip(rs, base))
        cells = " ".join(f"{d} {100 * g / t:.0f}" for d, (g, t) in per.items())
        right = sum(r["command"] == row.get("expected") for r, row in zip(rs, rows))
        # per clip, baseline wall time over this engine's on the same clip, then the median
        speedup = statistics.median(b["wall"] / r["wall"] for r, b in zip(rs, base))
        print(f"{name:<16} {100 * right / len(rs):5.1f}% "
              f"{statistics.median(r['wall'] for r in rs) * 1000:8.0f} {statistics.median(r['cpu'] for r in rs) * 1000:7.0f} "
              f"{speedup:7.2f}x {statistics.mean(r['calls'] for r in rs):5.1f} {same:5d} {d_score:8.3f} "
              f"{d_margin:8.3f} {agrees:7d}   {cells}", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", action="append")
    ap.add_argument("--game", default="galaxis")
    ap.add_argument("--limit", type=int, default=0, help="at most this many command clips per corpus (spread evenly)")
    ap.add_argument("--baseline", default="main", help="git revision of the baseline package")
    ap.add_argument("--configs", default="default")
    ap.add_argument("--all-kinds", action="store_true",
                    help="chatter, other talk and noise clips too (right = no command for them)")
    ap.add_argument("--worker", metavar="TREE", help=argparse.SUPPRESS)
    ap.add_argument("--config", default="baseline", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker(args.worker, args.config, args.game)
    if not args.corpus:
        ap.error("--corpus is required")
    rows = clips(args.corpus, args.limit, args.all_kinds)
    base_name = f"baseline {args.baseline}"
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as folder:
        engines = {base_name: Engine(baseline_tree(args.baseline, Path(folder)), "baseline", args.game)}
        engines.update((c, Engine(ROOT, c, args.game)) for c in args.configs.split(","))
        for name, engine in engines.items():
            print(f"{name}: audio_console from {engine.loaded_from}", file=sys.stderr)
        results: dict[str, list[dict]] = {name: [] for name in engines}
        for i, row in enumerate(rows):
            for name, engine in engines.items():
                results[name].append(engine.decode(str(Path(row["file"]).resolve())))
            print(f"\r{i + 1}/{len(rows)}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        for engine in engines.values():
            engine.close()
    print(f"{len(rows)} {'clips' if args.all_kinds else 'command clips'} ({', '.join(args.corpus)})")
    report(results, rows, base_name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
