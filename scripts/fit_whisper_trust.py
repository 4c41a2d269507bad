#!/usr/bin/env python3
"""Fit the Whisper trust layer (trust.WHISPER_WEIGHTS, WHISPER_ASK_FROM) on TUNING corpora.

Decodes every clip once with the grammar-constrained Whisper engine (cached in
--cache, so a refit is instant), fits a logistic model of "the best phrase is the
command said" on the evidence (score, margin, no-speech probability, transcript
agreement) by a grid search: the weights and bias that act on the most commands
rightly at the default clarity while acting on at most --max-wrong of commands
wrongly and --max-fa of chatter and noise; then it picks the lowest confidence worth a question so that at most --max-ask of
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
from audio_console.base.settings import Settings  # noqa: E402
from audio_console.voice import trust  # noqa: E402
from audio_console.app.games import grammar_for_game  # noqa: E402
from audio_console.voice.recognizer import Decoded, Evidence  # noqa: E402

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
        from audio_console.app.games import grammar_for_game
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
    rows = [known[r["file"]] for r in rows]
    # the transcript agreement as the engine computes it now (cheap to redo)
    from audio_console.app.games import grammar_for_game
    from audio_console.voice.phrase_trie import transcript_command
    grammar = grammar_for_game(game)
    for r in rows:
        e = r["evidence"]
        if e:
            e["agrees"] = transcript_command(grammar, e["transcript"]) == e["command"]
    return rows


def outcome(rows, weights, ask_from, settings, grammar, ask_no_speech=1.0):
    """Per degradation, as trust.decide rules with these constants: commands, right
    (acted on, or confirmed: the player answers yes), confirmed, wrong outright;
    rejects (chatter, out-of-grammar talk, noise), FA (acted on), FA+c (or asked)."""
    saved = dict(trust.WHISPER_WEIGHTS), trust.WHISPER_ASK_FROM, trust.WHISPER_ASK_NO_SPEECH
    trust.WHISPER_WEIGHTS.update(weights)
    trust.WHISPER_ASK_FROM, trust.WHISPER_ASK_NO_SPEECH = ask_from, ask_no_speech
    try:
        stats = defaultdict(lambda: defaultdict(int))
        for r in rows:
            s = stats[r["degradation"]]
            e = r["evidence"]
            decoded = Decoded(r["heard"], evidence=Evidence(**e) if e else None)
            heard = trust.decide(decoded, grammar, settings).action if e else "reject"
            command = e["command"] if e else None
            if r["expected"]:
                s["cmds"] += 1
                s["right"] += heard != "reject" and command == r["expected"]
                s["confirmed"] += heard == "confirm" and command == r["expected"]
                s["wrong"] += heard == "act" and command != r["expected"]
            else:
                s["rejects"] += 1
                s["fa"] += heard == "act"
                s["fa_c"] += heard != "reject"
        return stats
    finally:
        trust.WHISPER_WEIGHTS.clear()
        trust.WHISPER_WEIGHTS.update(saved[0])
        trust.WHISPER_ASK_FROM, trust.WHISPER_ASK_NO_SPEECH = saved[1], saved[2]


def totals(stats):
    t = defaultdict(int)
    for s in stats.values():
        for k, v in s.items():
            t[k] += v
    return t


def fit_weights(rows, act_at: float, max_wrong: float, max_fa: float) -> dict | None:
    """z = bias + score + w . (margin, no_speech, agrees): a grid over the weights (the
    score's weight fixed at 1 sets the scale), the bias from the limits; the objective
    counts commands acted on right, outright. None when no weights meet the limits."""
    usable = [r for r in rows if r["evidence"] is not None]
    x = np.array([[trust.whisper_features(Evidence(**r["evidence"]))[f] for f in FEATURES] for r in usable])
    right = np.array([bool(r["expected"]) and r["evidence"]["command"] == r["expected"] for r in usable])
    command = np.array([bool(r["expected"]) for r in usable])
    n_cmds, n_rejects = sum(bool(r["expected"]) for r in rows), sum(not r["expected"] for r in rows)
    best = None
    for w_margin in (-0.2, -0.1, 0.0, 0.1, 0.2, 0.4):
        for w_ns in (-4.0, -2.0, -1.0, 0.0):
            for w_agree in (0.0, 1.0, 2.0, 3.0, 4.0):
                z0 = x[:, 0] + w_margin * x[:, 1] + w_ns * x[:, 2] + w_agree * x[:, 3]
                logit_at = np.log(act_at / (1 - act_at))
                for bias in np.arange(-2.0, 10.01, 0.1):
                    act = z0 + bias >= logit_at
                    wrong = int((act & command & ~right).sum())
                    fa = int((act & ~command).sum())
                    if wrong <= max_wrong * n_cmds and fa <= max_fa * n_rejects:
                        got = int((act & right).sum())
                        if best is None or got > best[1]:
                            best = ({"bias": round(float(bias), 2), "score": 1.0, "margin": w_margin,
                                     "no_speech": w_ns, "agrees": w_agree}, got)
    return best[0] if best else None


def fit_ask(rows, weights: dict, act_at: float, settings, grammar, max_ask: float) -> tuple[float, float]:
    """The lowest ask-to-confirm floor (and no-speech cap) whose confirmations of
    rejects stay within max_ask; without one, asking starts where acting does."""
    best_ask = None
    for cap in (0.5, 0.6, 0.7, 0.8, 0.9, 1.0):
        for floor in np.arange(0.02, act_at, 0.01):
            t = totals(outcome(rows, weights, float(floor), settings, grammar, cap))
            if t["fa_c"] <= max_ask * t["rejects"]:
                if best_ask is None or t["right"] > best_ask[2]:
                    best_ask = (float(floor), cap, t["right"])
                break
    return (best_ask[0], best_ask[1]) if best_ask else (act_at, 1.0)


def report(rows, corpora, weights: dict, ask_from: float, ask_no_speech: float, settings, grammar) -> None:
    print("WHISPER_WEIGHTS = {" + ", ".join(f'"{k}": {v:.3f}' for k, v in weights.items()) + "}")
    print(f"WHISPER_ASK_FROM = {ask_from:.2f}")
    print(f"WHISPER_ASK_NO_SPEECH = {ask_no_speech:.1f}")
    stats = outcome(rows, weights, ask_from, settings, grammar, ask_no_speech)
    print(f"{len(rows)} clips; default settings (confirm={settings.confirm}, clarity={settings.clarity})")
    print(f"{'condition':<10} {'cmds':>4} {'right':>6} {'(conf.)':>7} {'wrong':>6} {'FA':>6} {'FA+c':>6}")
    for how, s in list(stats.items()) + [("all", totals(stats))]:
        print(f"{how:<10} {s['cmds']:>4} {pc(s['right'], s['cmds']):>6} {pc(s['confirmed'], s['cmds']):>7} "
              f"{pc(s['wrong'], s['cmds']):>6} {pc(s['fa'], s['rejects']):>6} {pc(s['fa_c'], s['rejects']):>6}")
    for corpus in corpora:   # each corpus on its own, for comparing with bench_speech.py
        mine = [r for r in rows if Path(r["file"]).resolve().is_relative_to(Path(corpus).resolve())]
        for how, s in outcome(mine, weights, ask_from, settings, grammar, ask_no_speech).items():
            print(f"{Path(corpus).name:<14} {how:<10} {s['cmds']:>4} {pc(s['right'], s['cmds']):>6} "
                  f"{pc(s['confirmed'], s['cmds']):>7} {pc(s['wrong'], s['cmds']):>6} "
                  f"{pc(s['fa'], s['rejects']):>6} {pc(s['fa_c'], s['rejects']):>6}")


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
    grammar = grammar_for_game(args.game)
    settings = Settings()
    act_at = trust.accept_threshold(settings.clarity)
    weights = fit_weights(rows, act_at, args.max_wrong, args.max_fa)
    if weights is None:
        print("no weights meet the limits", file=sys.stderr)
        return 1
    ask_from, ask_no_speech = fit_ask(rows, weights, act_at, settings, grammar, args.max_ask)
    report(rows, args.corpus, weights, ask_from, ask_no_speech, settings, grammar)
    return 0


def pc(a, b) -> str:
    return f"{100 * a / b:5.1f}%" if b else "    -"


if __name__ == "__main__":
    raise SystemExit(main())
