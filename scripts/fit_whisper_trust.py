#!/usr/bin/env python3
"""Fit the Whisper trust layer (trust.WHISPER_WEIGHTS, MARGIN_CAP, WHISPER_ASK_FROM) on TUNING corpora.

Decodes every clip once (cached in --cache, so a refit is instant): the first look and
the same sound at the second look's speeds, so that any constants are replayed as the
engine and `bench_speech.py` decide (the second look taken only where the constants
would not act; second_look.with_second_look on the stored decodes). Each decode's
decision at three confidences (not worth a question, worth one, sure) is found once
through trust.decide; a grid over the logistic's bias and weights, the margin's cap
and the question floor then only moves clips between those (numpy). Limits, per
corpus, against the constants in trust.py now: no more commands acted on wrongly, no
more reject clips acted on or asked about, no fewer commands right, no fewer clean
ones acted on at once. The objective: commands acted on rightly at once, less a
quarter for each question. Prints the constants and per-corpus, per-condition figures
beside today's. Never run it on a held-out corpus.

    python scripts/fit_whisper_trust.py --corpus CORPUS [--corpus CORPUS2] --cache looks.json
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import fields
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from audio_console.base.settings import Settings  # noqa: E402
from audio_console.voice import second_look, trust  # noqa: E402
from audio_console.app.games import grammar_for_game  # noqa: E402
from audio_console.voice.recognizer import Decoded, Evidence  # noqa: E402

FEATURES = ("score", "margin", "no_speech", "agrees")
GRID = {"margin": (0.1, 0.2, 0.3, 0.4, 0.5, 0.6), "agrees": (0.5, 1.0, 1.5, 2.0, 2.5),
        "no_speech": (0.0, -0.5, -1.0, -2.0), "cap": (10.0, 8.0, 6.0), "ask": (0.05, 0.08, 0.1, 0.12, 0.15, 0.2)}
QUESTION_COST = 0.25   # a question to a command or a reject clip, in commands acted on at once
BIASES = np.arange(-3.0, 1.01, 0.1)
SILENCE = b"\0\0" * 3200   # the second look's speeds are replayed from the cache, not this sound
EVIDENCE_FIELDS = {f.name for f in fields(Evidence)}


# --- the looks: decoded once, replayed under any constants -----------------------------

def decode_looks(recognizer, pcm: bytes) -> dict:
    """The first look (the cleaned copy in steady noise, as the engine chooses) and the
    same sound at each of the second look's speeds, whatever the trust layer says."""
    from audio_console.voice.speed import at_speed
    from audio_console.voice.whisper_decoder import one_blas_thread
    with one_blas_thread():
        first, heard = second_look.with_cleaned_copy(pcm, recognizer.decode_all, False, recognizer.options.denoise)
        others = recognizer.decode_all([at_speed(heard, speed) for speed in second_look.SECOND_LOOK_SPEEDS], True)
    return {"first": stored(first), "others": [stored(o) for o in others]}


def stored(decoded: Decoded) -> dict:
    return {"text": decoded.text, "evidence": decoded.evidence.__dict__ if decoded.evidence else None}


def restored(look: dict) -> Decoded:
    e = look["evidence"]
    evidence = Evidence(**{k: v for k, v in e.items() if k in EVIDENCE_FIELDS}) if e else None
    sure = float(np.exp(evidence.score)) if evidence and evidence.command else 0.0
    return Decoded(look["text"], words=[(w, sure) for w in look["text"].split()], evidence=evidence)


def collect(corpora: list[str], cache: Path | None, game: str) -> list[dict]:
    """Every clip of the corpora with its looks, decoding those the cache lacks."""
    known = {r["file"]: r for r in json.loads(cache.read_text())} if cache and cache.is_file() else {}
    rows = []
    for corpus in corpora:
        for line in (Path(corpus) / "manifest.jsonl").read_text().splitlines():
            if line.strip():
                rows.append({**json.loads(line), "corpus": Path(corpus).name})
    todo = [r for r in rows if r["file"] not in known]
    if todo:
        from audio_console.voice.audio import wav_pcm16
        from audio_console.voice.whisper_engine import WhisperRecognizer
        recognizer = WhisperRecognizer()
        recognizer.set_grammar(grammar_for_game(game))
        for i, row in enumerate(todo):
            known[row["file"]] = {**row, "looks": decode_looks(recognizer, wav_pcm16(row["file"]))}
            if cache and (i % 50 == 49 or i == len(todo) - 1):
                cache.write_text(json.dumps(list(known.values())))
            print(f"\r{i + 1}/{len(todo)} decoded", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    return [{**known[r["file"]], "corpus": r["corpus"]} for r in rows]


# --- each decode's decision at three confidences ---------------------------------------

@contextmanager
def confidence_fixed(value: float):
    """trust.decide with every Whisper confidence `value` (0 where no command)."""
    saved = trust.whisper_confidence
    trust.whisper_confidence = lambda evidence, weights=None: 0.0 if evidence.command is None else value
    try:
        yield
    finally:
        trust.whisper_confidence = saved


def at_levels(decoded: Decoded, grammar, settings) -> list[tuple[str, str | None]]:
    """(action, command) when the confidence is below WHISPER_ASK_FROM, between it and
    the acting bar, and above that."""
    sure = trust.accept_threshold(settings.clarity)
    outcomes = []
    for value in (0.0, (trust.WHISPER_ASK_FROM + sure) / 2, (1.0 + sure) / 2):
        with confidence_fixed(value):
            heard = trust.decide(decoded, grammar, settings)
        outcomes.append((heard.action, heard.command.text if heard.command else None))
    return outcomes


def features(decoded: Decoded, grammar) -> list[float]:
    """The logistic's inputs as trust.decide computes them (NaN: no command parsed)."""
    text, evidence = decoded.text.strip(), decoded.evidence
    if evidence is None or evidence.command is None or not text or grammar.parse(text) is None:
        return [float("nan")] * len(FEATURES)
    named = trust.whisper_features(trust._heard_alike(evidence, text))
    named["margin"] = evidence.margin   # uncapped: the grid tries caps
    return [named[f] for f in FEATURES]


def second_looked(row: dict, grammar) -> Decoded:
    """The decode the second look keeps when it is taken (the best scoring speed)."""
    saved = second_look.worth_a_second_look
    second_look.worth_a_second_look = lambda decoded, grammar: True
    try:
        others = [restored(o) for o in row["looks"]["others"]]
        return second_look.with_second_look(restored(row["looks"]["first"]), SILENCE, lambda pcms, voiced: others,
                                            second_look.SECOND_LOOK_SPEEDS, grammar)
    finally:
        second_look.worth_a_second_look = saved


class Replay:
    """The clips' decisions under any weights and cap, without calling trust.decide."""

    def __init__(self, rows: list[dict], grammar, settings):
        self.settings = settings
        codes: dict[tuple, int] = {}
        first, later, self.outcomes = [], [], []
        for row in rows:
            decoded, looked = restored(row["looks"]["first"]), second_looked(row, grammar)
            first.append(features(decoded, grammar))
            later.append(features(looked, grammar))
            self.outcomes.append([[codes.setdefault(o, len(codes)) for o in at_levels(d, grammar, settings)]
                                  for d in (decoded, looked)])
        self.first, self.later = np.array(first), np.array(later)
        self.table = np.array(self.outcomes)          # clip, look, level -> outcome code
        named = sorted(codes, key=codes.get)
        self.acts = np.array([o[0] == "act" for o in named])
        self.asks = np.array([o[0] == "confirm" for o in named])
        self.command = np.array([o[1] or "" for o in named], dtype=object)
        e = [row["looks"]["first"]["evidence"] for row in rows]
        # trust.worth_a_second_look's own conditions; the rest is "not acted on"
        self.may_look = np.array([x is not None and x["no_speech"] < trust.WHISPER_ASK_NO_SPEECH
                                  and x["talk_words"] < trust.TALK_WORDS for x in e])
        self.expected = np.array([row["expected"] or "" for row in rows], dtype=object)
        self.is_command = np.array([bool(row["expected"]) for row in rows])
        self.corpus = np.array([row["corpus"] for row in rows])
        self.condition = np.array([row["degradation"] for row in rows])

    def levels(self, x: np.ndarray, weights: dict, cap: float, ask: float) -> np.ndarray:
        z = np.full(len(x), -99.0)
        has = ~np.isnan(x[:, 0])
        capped = x.copy()
        capped[:, 1] = np.clip(x[:, 1], -cap, cap)
        z[has] = weights["bias"] + capped[has] @ np.array([weights[f] for f in FEATURES])
        sure = trust.accept_threshold(self.settings.clarity)
        return np.where(z >= np.log(sure / (1 - sure)), 2, np.where(z >= np.log(ask / (1 - ask)), 1, 0))

    def decide(self, weights: dict, cap: float, ask: float | None = None) -> np.ndarray:
        """Each clip's outcome code: the first look's, or where that is not acted on
        and a second look may be taken, the kept look's."""
        clips, ask = np.arange(len(self.first)), trust.WHISPER_ASK_FROM if ask is None else ask
        now = self.table[clips, 0, self.levels(self.first, weights, cap, ask)]
        looked = self.table[clips, 1, self.levels(self.later, weights, cap, ask)]
        return np.where(self.may_look & ~self.acts[now], looked, now)

    def figures(self, outcome: np.ndarray, corpus: str | None = None, condition: str | None = None) -> dict:
        keep = np.ones(len(outcome), bool)
        if corpus:
            keep &= self.corpus == corpus
        if condition:
            keep &= self.condition == condition
        act, ask = self.acts[outcome], self.asks[outcome]
        said = self.command[outcome] == self.expected
        cmd, other = keep & self.is_command, keep & ~self.is_command
        return {"cmds": int(cmd.sum()), "once": int((cmd & act & said).sum()),
                "right": int((cmd & (act | ask) & said).sum()), "asked": int((cmd & ask).sum()),
                "wrong": int((cmd & act & ~said).sum()), "others": int(other.sum()),
                "acted": int((other & act).sum()), "others_asked": int((other & ask).sum())}


def fit(replay: Replay, today: np.ndarray) -> tuple[dict, float, float] | None:
    """The weights, cap and question floor acting on the most commands rightly at once,
    less QUESTION_COST for each question, each corpus within today's wrong acts, reject
    clips acted on and questions to them, with no fewer commands right in all nor acted
    on at once on clean speech."""
    corpora = sorted(set(replay.corpus))
    limits = {c: (replay.figures(today, c), replay.figures(today, c, "clean")) for c in corpora}
    best, best_value = None, -np.inf
    names = [k for k in GRID if k not in ("cap", "ask")]
    for values in itertools.product(*(GRID[k] for k in names)):
        for cap, ask, bias in itertools.product(GRID["cap"], GRID["ask"], BIASES):
            weights = {"bias": round(float(bias), 2), "score": 1.0, **dict(zip(names, values))}
            outcome = replay.decide(weights, cap, ask)
            got = {c: replay.figures(outcome, c) for c in corpora}
            if not all(within(got[c], replay.figures(outcome, c, "clean"), *limits[c]) for c in corpora):
                continue
            value = sum(g["once"] - QUESTION_COST * (g["asked"] + g["others_asked"]) for g in got.values())
            if value > best_value + 1e-9:
                best, best_value = (weights, cap, ask), value
    return best


def within(got: dict, clean: dict, limit: dict, clean_limit: dict) -> bool:
    return (got["wrong"] <= limit["wrong"] and got["acted"] <= limit["acted"] and got["right"] >= limit["right"]
            and got["others_asked"] <= limit["others_asked"] and clean["once"] >= clean_limit["once"])


def report(replay: Replay, today: np.ndarray, fitted: np.ndarray) -> None:
    print("right / at once / asked / wrong (commands) | reject clips acted on / asked: today -> fitted")
    for corpus in sorted(set(replay.corpus)):
        for condition in sorted(set(replay.condition[replay.corpus == corpus])) + [None]:
            cells = []
            for outcome in (today, fitted):
                f = replay.figures(outcome, corpus, condition)
                cells.append(f"{f['right']}/{f['once']}/{f['asked']}/{f['wrong']} of {f['cmds']} | "
                             f"{f['acted']}/{f['others_asked']} of {f['others']}")
            print(f"{corpus:<14} {condition or 'all':<10} {cells[0]:<32} -> {cells[1]}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", action="append", required=True)
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--game", default="galaxis")
    args = ap.parse_args(argv)
    rows = collect(args.corpus, args.cache, args.game)
    grammar, settings = grammar_for_game(args.game), Settings()
    replay = Replay(rows, grammar, settings)
    today = replay.decide(trust.WHISPER_WEIGHTS, trust.MARGIN_CAP)
    found = fit(replay, today)
    if found is None:
        print("no weights within today's wrong acts and reject clips acted on", file=sys.stderr)
        return 1
    weights, cap, ask = found
    print("WHISPER_WEIGHTS = {" + ", ".join(f'"{k}": {v}' for k, v in weights.items()) + "}")
    print(f"MARGIN_CAP = {cap}")
    print(f"WHISPER_ASK_FROM = {ask}")
    report(replay, today, replay.decide(weights, cap, ask))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
