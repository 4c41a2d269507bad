#!/usr/bin/env python3
"""Word commands and menu answers by voice: accepted right, rejected, or taken wrong.

The speech corpus (make_speech_corpus.py) is mostly coordinates, so short word
commands ("repeat", "help", "status", "yes", ...) and the menu's answers
("galaxis", "two", "computer", ...) get their own clips here: each phrase spoken by
several of the corpus's voices (espeak-ng, flite, hibari) and degraded the same
ways (noise, babble, reverb, a quiet speaker). Word commands are decoded with the
Galaxis game grammar plus the common words (what live play listens for), menu
answers with that menu question's grammar plus the common words (as the session
does). The noise and out-of-grammar clips of a corpus (--rejects) are decoded with
the game grammar to count false accepts.

For every phrase it prints, for each engine (--engines, default: the console's
embedded Whisper; "whisper,vosk" compares them in the same run): right (acted on,
outright or after "Did you say ...?" - yes), rejected ("Say again." or silence),
wrong (a wrong command acted on without asking), and for the reject clips: FA
(acted on) and FA+c (acted on or asked). (Until issue 15 it compared pocketsphinx
with and without its word guard.)

    python scripts/bench_words.py [--seed 1] [--voices 3] [--rejects corpus] [--engines whisper]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_speech_corpus as corpus  # noqa: E402
from audio_console.commands.grammar import Grammar  # noqa: E402
from audio_console.commands.vocabulary import common_grammar  # noqa: E402
from audio_console.console.menu import MenuConsole  # noqa: E402
from audio_console.app.games import GAMES  # noqa: E402
from audio_console.base.settings import Settings  # noqa: E402
from audio_console.voice.audio import to_pcm16, wav_pcm16  # noqa: E402
from audio_console.app.games import grammar_for_game  # noqa: E402
from audio_console.voice.engines import open_engine  # noqa: E402
from audio_console.voice.trust import decide  # noqa: E402

WORD_COMMANDS = ["repeat", "help", "status", "undo", "yes", "no", "cancel", "stop", "quit", "hint",
                 "louder", "softer", "faster", "slower", "summary", "new game", "quick signals",
                 "voice check", "push to talk", "headphones on", "confirm never"]


def menu_grammars() -> dict[str, Grammar]:
    """Each menu question's grammar (plus the common words), keyed by an answer
    phrase it accepts; the first question that offers a phrase is used."""
    out: dict[str, Grammar] = {}
    common = common_grammar()
    menu = MenuConsole(GAMES)
    questions = [(None, menu._question())]
    for info in GAMES.values():
        questions += [(info, q) for q in info.questions]
    for info, question in questions:
        m = MenuConsole(GAMES)
        m.info = info
        m._question = lambda q=question: q   # the grammar of this one question
        grammar = m.grammar() + common
        for words, _ in question.choices:
            out.setdefault(words, grammar)
    return out


def make_clips(seed: int, voices_per_phrase: int, degradations: list[str], phrases: list[str]):
    """(phrase, speaker, degradation, pcm) for each phrase x voices x degradations."""
    rng = random.Random(seed)
    np_rng = np.random.default_rng(seed)
    clips = []
    with tempfile.TemporaryDirectory() as tmp:
        speakers = corpus.Speakers(tmp)
        names = speakers.names()
        babble = corpus.make_babble(speakers, names, rng)
        offset = rng.randrange(len(names))
        for i, phrase in enumerate(phrases):
            step = max(1, len(names) // voices_per_phrase)
            for k in range(voices_per_phrase):
                speaker = names[(offset + i + k * step) % len(names)]
                speed = corpus.SPEEDS[(i + k) % len(corpus.SPEEDS)]
                said = corpus._normalise(speakers.say(speaker, phrase, speed))
                for how in degradations:
                    x = corpus.degrade(corpus._pad(said, rng), how, babble, np_rng)
                    clips.append((phrase, f"{speaker}@{speed}", how, to_pcm16(x, corpus.RATE)))
    return clips


def outcome(heard, expected: str | None) -> str:
    """right / rejected / wrong (acted on outright) / asked (a wrong command asked about)."""
    got = heard.command.text if heard.command else None
    if expected is None:
        return "rejected" if got is None else ("asked" if heard.confirm else "wrong")
    if got == expected:
        return "right"
    if got is None:
        return "rejected"
    return "asked" if heard.confirm else "wrong"


def gather_clips(args, game: Grammar, menus: dict[str, Grammar]):
    """The phrases to say, the degradations, every clip (and the rejects' clips of
    --rejects) and each phrase's grammar."""
    phrases = WORD_COMMANDS + [p for p in menus if p not in WORD_COMMANDS]
    if args.only:
        phrases = [p for p in phrases if p in args.only.split(",")]
    degradations = args.degradations.split(",")
    clips = make_clips(args.seed, args.voices, degradations, phrases)
    grammar_of = {p: (game if p in WORD_COMMANDS else menus[p]) for p in phrases}
    if args.rejects:
        manifest = Path(args.rejects) / "manifest.jsonl"
        for row in map(json.loads, manifest.read_text().splitlines()):
            if row["expected"] is None and row["degradation"] in degradations:
                clips.append((None, row["speaker"], row["degradation"], wav_pcm16(row["file"])))
    return phrases, degradations, clips, grammar_of


def decode_clips(clips, engines: dict, grammar_of: dict, game: Grammar):
    """Every clip through every engine, as the console decides: the counts per
    (engine, phrase or degradation) and each clip's result."""
    settings = Settings()
    current: dict = {}
    counts: dict = defaultdict(lambda: defaultdict(int))
    results = []
    for phrase, speaker, how, pcm in clips:
        grammar = grammar_of.get(phrase, game)
        row = {"phrase": phrase, "speaker": speaker, "degradation": how}
        for name, engine in engines.items():
            if current.get(name) is not grammar:
                engine.set_grammar(grammar)
                current[name] = grammar
            decoded = engine.decode(pcm)
            heard = decide(decoded, grammar, settings)
            expected = grammar.parse(phrase).text if phrase else None
            result = outcome(heard, expected)
            key = phrase if phrase else "(noise, talk)"
            counts[name, key][result] += 1
            counts[name, key]["n"] += 1
            counts[name, "deg:" + how + (":rej" if phrase is None else "")][result] += 1
            counts[name, "deg:" + how + (":rej" if phrase is None else "")]["n"] += 1
            row[name] = {"result": result, "heard": decoded.text, "confirm": heard.confirm,
                         "confidence": heard.confidence, "detail": decoded.detail,
                         "seconds": round(decoded.seconds, 3)}
        results.append(row)
    return counts, results


def print_tables(counts: dict, engines: dict, phrases: list[str], degradations: list[str],
                 rejects: bool) -> None:
    """Per phrase, then per degradation: each engine's right, rejected, wrong, asked."""
    def cells(name, key):
        c = counts[name, key]
        n = c["n"] or 1
        return (f"{100 * c['right'] / n:5.0f}% {100 * c['rejected'] / n:5.0f}% "
                f"{100 * c['wrong'] / n:5.0f}% {100 * c['asked'] / n:4.0f}%")

    last = list(engines)[-1]
    header = " | ".join(f"{name}: right  rej. wrong asked" for name in engines)
    print(f"\n{'phrase':<28} {'n':>3} | {header}")

    def row(label, key):
        if counts[last, key]["n"]:
            print(f"{label:<28} {counts[last, key]['n']:>3} | "
                  + " | ".join(" " * (len(name) - 4) + cells(name, key) for name in engines))
    keys = [p for p in phrases] + ["(noise, talk)"] if rejects else list(phrases)
    for key in keys:
        row(key, key)
    print("\nby degradation (word commands and menu answers; rejects: wrong = FA, asked = FA+c - FA)")
    for how in degradations:
        for suffix in ("", ":rej"):
            row(how + (" rejects" if suffix else ""), "deg:" + how + suffix)


def print_totals(results: list[dict], engines: dict) -> None:
    for name in engines:
        words = [r for r in results if r["phrase"]]
        right = sum(r[name]["result"] == "right" for r in words)
        wrong = sum(r[name]["result"] == "wrong" for r in words)
        rej = [r for r in results if not r["phrase"]]
        fa = sum(r[name]["result"] == "wrong" for r in rej)
        fac = fa + sum(r[name]["result"] == "asked" for r in rej)
        print(f"{name:>6}: phrases right {right}/{len(words)} ({100 * right / max(1, len(words)):.1f} %), "
              f"wrong acted on {wrong}; rejects acted on {fa}/{len(rej)}, acted on or asked {fac}/{len(rej)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1, help="1: tuning, 2: held-out")
    ap.add_argument("--voices", type=int, default=3, help="voices per phrase")
    ap.add_argument("--degradations", default=",".join(corpus.DEGRADATIONS))
    ap.add_argument("--rejects", help="a corpus whose noise and out-of-grammar clips count false accepts")
    ap.add_argument("--only", help="comma-separated phrases (default: all)")
    ap.add_argument("--no-menu", action="store_true")
    ap.add_argument("--json", help="write every clip's result here")
    ap.add_argument("--engines", default="whisper", help="engines to compare: whisper, vosk")
    ap.add_argument("--model", help="a model folder for the engines (default: each one's own)")
    args = ap.parse_args(argv)

    game = grammar_for_game("galaxis")
    menus = {} if args.no_menu else menu_grammars()
    phrases, degradations, clips, grammar_of = gather_clips(args, game, menus)
    print(f"{len(clips)} clips ({len(phrases)} phrases x {args.voices} voices x {len(degradations)} "
          f"degradations, plus rejects); seed {args.seed}")

    engines = {name: open_engine(name, args.model) for name in args.engines.split(",")}
    started = time.perf_counter()
    counts, results = decode_clips(clips, engines, grammar_of, game)
    elapsed = time.perf_counter() - started
    print_tables(counts, engines, phrases, degradations, bool(args.rejects))
    print_totals(results, engines)
    print(f"wall time {elapsed:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
