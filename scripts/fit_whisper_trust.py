#!/usr/bin/env python3
"""Fit the Whisper trust layer (trust.WHISPER_WEIGHTS, WHISPER_ASK_FROM) on TUNING corpora.

Decodes every clip once with the grammar-constrained Whisper engine (cached in
--cache, so a refit is instant), fits a logistic model of "the best phrase is the
command said" on the evidence (score, margin, no-speech probability, transcript
agreement), then shifts its bias so that at the default clarity the tuning corpus
acts on at most --max-wrong of commands wrongly and --max-fa of chatter and noise,
and picks the lowest confidence worth a question so that at most --max-ask of
chatter and noise is asked about. Prints the constants and per-condition figures.
Never run it on a held-out corpus.

    python scripts/fit_whisper_trust.py --corpus CORPUS [--corpus CORPUS2] --cache evidence.json
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from audio_console.settings import Settings  # noqa: E402
from audio_console.voice import trust  # noqa: E402
from audio_console.voice.recognizer import Evidence  # noqa: E402

FEATURES = ("score", "margin", "no_speech", "agrees")


def collect(corpora, cache: Path | None, game: str) -> list[dict]:
    known = {}
    if cache and cache.is_file():
        known = {r["file"]: r for r in json.loads(cache.read_text())}
    rows = []
    for corpus in corpora:
        for line in (Path(corpus) / "manifest.jsonl").read_text().splitlines():
            if line.strip():
                rows.append(json.loads(line))
    todo = [r for r in rows if r["file"] not in known]
    if todo:
        from audio_console.voice.audio import wav_pcm16
        from audio_console.voice.grammars import grammar_for_game
        from audio_console.voice.whisper_engine import WhisperRecognizer
        recognizer = WhisperRecognizer()
        recognizer.set_grammar(grammar_for_game(game))
        for i, row in enumerate(todo):
            decoded = recognizer.decode(wav_pcm16(row["file"]))
            e = decoded.evidence
            known[row["file"]] = {**row, "text": row.get("text"), "heard": decoded.text,
                                  "evidence": e.__dict__ if e else None, "seconds": decoded.seconds}
            if cache and i % 25 == 24:
                cache.write_text(json.dumps(list(known.values())))
            print(f"\r{i + 1}/{len(todo)} decoded", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        if cache:
            cache.write_text(json.dumps(list(known.values())))
    return [known[r["file"]] for r in rows]


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 0.01, steps: int = 4000) -> np.ndarray:
    """Weights (bias first) by gradient descent on the mean log-loss + l2."""
    x1 = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(x1.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x1 @ w, -60, 60)))
        grad = x1.T @ (p - y) / len(y) + l2 * np.r_[0.0, w[1:]]
        w -= 0.5 * grad
    return w


def outcome(rows, weights, ask_from, settings):
    """Per degradation: commands, right, confirmed, wrong outright; rejects, FA, FA+c."""
    saved = dict(trust.WHISPER_WEIGHTS), trust.WHISPER_ASK_FROM
    trust.WHISPER_WEIGHTS.update(weights)
    trust.WHISPER_ASK_FROM = ask_from
    try:
        stats = defaultdict(lambda: defaultdict(int))
        for r in rows:
            s = stats[r["degradation"]]
            e = r["evidence"]
            if e is None:
                conf, command = 0.0, None
            else:
                conf = trust.whisper_confidence(Evidence(**e))
                command = e["command"]
            heard = None
            if command is not None and conf >= ask_from:
                sure = conf >= trust.accept_threshold(settings.clarity)
                heard = "act" if sure else ("confirm" if settings.confirm != "never" else None)
            if r["expected"]:
                s["cmds"] += 1
                s["right"] += heard is not None and command == r["expected"]
                s["confirmed"] += heard == "confirm" and command == r["expected"]
                s["wrong"] += heard == "act" and command != r["expected"]
            else:
                s["rejects"] += 1
                s["fa"] += heard == "act"
                s["fa_c"] += heard is not None
        return stats
    finally:
        trust.WHISPER_WEIGHTS.clear()
        trust.WHISPER_WEIGHTS.update(saved[0])
        trust.WHISPER_ASK_FROM = saved[1]


def totals(stats):
    t = defaultdict(int)
    for s in stats.values():
        for k, v in s.items():
            t[k] += v
    return t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", action="append", required=True)
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--game", default="galaxis")
    ap.add_argument("--max-wrong", type=float, default=0.005)
    ap.add_argument("--max-fa", type=float, default=0.01)
    ap.add_argument("--max-ask", type=float, default=0.10)
    args = ap.parse_args(argv)
    rows = collect(args.corpus, args.cache, args.game)
    usable = [r for r in rows if r["evidence"] is not None]
    x = np.array([[trust.whisper_features(Evidence(**r["evidence"]))[f] for f in FEATURES] for r in usable])
    y = np.array([1.0 if r["expected"] and r["evidence"]["command"] == r["expected"] else 0.0 for r in usable])
    w = fit_logistic(x, y)
    weights = {"bias": float(w[0]), **{f: float(v) for f, v in zip(FEATURES, w[1:])}}
    settings = Settings()
    best = None
    for shift in np.arange(-6.0, 6.01, 0.1):   # the bias that meets the limits and keeps most right
        trial = {**weights, "bias": weights["bias"] + shift}
        t = totals(outcome(rows, trial, 0.0, Settings(confirm="never")))
        if t["wrong"] <= args.max_wrong * t["cmds"] and t["fa"] <= args.max_fa * t["rejects"]:
            if best is None or t["right"] > best[1]:
                best = (trial, t["right"])
    if best is None:
        print("no bias meets the limits", file=sys.stderr)
        return 1
    weights = best[0]
    ask_from = trust.accept_threshold(settings.clarity)
    for floor in np.arange(0.02, ask_from, 0.01):
        t = totals(outcome(rows, weights, float(floor), settings))
        if t["fa_c"] <= args.max_ask * t["rejects"]:
            ask_from = float(floor)
            break
    print("WHISPER_WEIGHTS = {" + ", ".join(f'"{k}": {v:.3f}' for k, v in weights.items()) + "}")
    print(f"WHISPER_ASK_FROM = {ask_from:.2f}")
    stats = outcome(rows, weights, ask_from, settings)
    print(f"{len(rows)} clips; default settings (confirm={settings.confirm}, clarity={settings.clarity})")
    print(f"{'condition':<10} {'cmds':>4} {'right':>6} {'(conf.)':>7} {'wrong':>6} {'FA':>6} {'FA+c':>6}")
    for how, s in list(stats.items()) + [("all", totals(stats))]:
        pc = lambda a, b: f"{100 * a / b:5.1f}%" if b else "    -"  # noqa: E731
        print(f"{how:<10} {s['cmds']:>4} {pc(s['right'], s['cmds']):>6} {pc(s['confirmed'], s['cmds']):>7} "
              f"{pc(s['wrong'], s['cmds']):>6} {pc(s['fa'], s['rejects']):>6} {pc(s['fa_c'], s['rejects']):>6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
