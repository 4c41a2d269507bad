#!/usr/bin/env python3
"""Voice training benchmark: pocketsphinx before and after adapting to each voice.

For every synthetic voice (espeak-ng variants, flite voices, hibari; the speakers of
scripts/make_speech_corpus.py), in one run:
1. the voice training's prompted phrases (check.VoiceTraining: every letter plain and
   phonetic, numbers, common commands; clean, as a player in a quiet room), spoken by
   that voice at the corpus's paces, adapt the model (adaptation.adapt);
2. held-out commands of the same voice (other phrases, never a training prompt; other
   seed) are decoded in every condition (clean, white noise and babble at 20/10 dB,
   reverb, quiet), by the plain model and by the adapted one;
3. out-of-grammar sentences in that voice and noise-only clips, in every condition,
   count false accepts (adaptation must not raise them).
"right" counts the command finally acted on (outright or after a yes to "Did you say
...?"), "wrong" a wrong command acted on without asking, "FA" a reject clip acted on
("FA+c": or asked about), "naive" the grammar search's best phrase alone.

    python scripts/bench_adaptation.py [--voices espeak:en-us,flite:kal] [--commands 10]
        [--methods mllr+map] [--naive-only] [--seed 11]

For plain and trained pocketsphinx beside another engine (Whisper) on the same
held-out corpus, in one run: scripts/bench_speech.py --trained.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from make_speech_corpus import (DEGRADATIONS, OUT_OF_GRAMMAR, SPEEDS, Speakers, _normalise,  # noqa: E402
                                _pad, degrade, make_babble, noise_clips, pick_phrases)

from audio_console.settings import Settings  # noqa: E402
from audio_console.voice import adaptation  # noqa: E402
from audio_console.commands.vocabulary import NUMBER_WORDS, PHONETIC  # noqa: E402
from audio_console.voice.check import VoiceCheck, VoiceTraining  # noqa: E402
from audio_console.voice.grammars import grammar_for_game  # noqa: E402
from audio_console.voice.sphinx import SphinxRecognizer  # noqa: E402
from audio_console.voice.trust import Heard, decide  # noqa: E402


def pcm16(x: np.ndarray) -> bytes:
    return (np.clip(x, -1, 1) * 32767).astype("<i2").tobytes()


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:5.1f}%" if b else "    -"


def family(speaker: str) -> str:
    return speaker.split(":")[0]


def held_out_phrases(grammar, count: int, rng: random.Random, training: set[str]) -> list[str]:
    """Commands like the corpus's (two thirds coordinates), none a training prompt."""
    phrases = []
    while len(phrases) < count:
        for p in pick_phrases(grammar, count, rng):
            if p not in training and p not in phrases and len(phrases) < count:
                phrases.append(p)
    return phrases


def evaluate(recognizer, grammar, settings, clip: dict, naive_only: bool) -> dict:
    naive = recognizer.decode(clip["pcm"], naive=True)
    parsed = grammar.parse(naive.text) if naive.text else None
    out = {"naive": parsed.text if parsed else None}
    if not naive_only:
        full = recognizer.decode(clip["pcm"])
        heard = decide(full, grammar, settings)
        out.update(command=heard.command.text if heard.command else None, confirm=heard.confirm,
                   seconds=full.seconds)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--voices", help="comma-separated speakers (default: all of the corpus)")
    ap.add_argument("--commands", type=int, default=6, help="held-out commands per voice")
    ap.add_argument("--oog", type=int, default=2, help="out-of-grammar sentences per voice")
    ap.add_argument("--noise", type=int, default=2, help="noise-only clips per voice")
    ap.add_argument("--training", type=int, default=26, help="prompted training phrases per voice")
    ap.add_argument("--check", type=int, default=0,
                    help="adapt on a voice check of this many coordinates instead of the training")
    ap.add_argument("--methods", default=adaptation.DEFAULT_METHOD,
                    help=f"comma-separated, of {', '.join(adaptation.METHODS)}; map@T: MAP with tau T")
    ap.add_argument("--degradations", default=",".join(DEGRADATIONS))
    ap.add_argument("--naive-only", action="store_true", help="grammar search only (fast method comparison)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--json", help="write every clip's result here")
    args = ap.parse_args(argv)

    if adaptation.find_tools() is None:
        print(adaptation.MISSING_TOOLS, file=sys.stderr)
        return 2
    methods = args.methods.split(",")
    hows = args.degradations.split(",")
    grammar = grammar_for_game("galaxis")
    settings = Settings()
    rng = random.Random(args.seed)
    np_rng = np.random.default_rng(args.seed)
    started = time.perf_counter()
    plain = SphinxRecognizer(adaptation=None)
    plain.set_grammar(grammar)
    results = []
    adapt_seconds = []
    with tempfile.TemporaryDirectory(prefix="bench_adaptation_") as tmp:
        speakers = Speakers(tmp)
        names = speakers.names()
        voices = args.voices.split(",") if args.voices else names
        babble = make_babble(speakers, names, rng)
        for v, voice in enumerate(voices):
            # 1. the voice training, clean
            if args.check:
                # the short voice check instead: prompted coordinates ("Say: D5."), said
                # plainly or phonetically; adaptation picks the wording that fits
                check = VoiceCheck(random.Random(args.seed * 100 + v), count=args.check)
                said = set()
                for i, prompt in enumerate(check.prompts):
                    row, number = prompt[0], NUMBER_WORDS[int(prompt[1:]) - 1]
                    said |= {f"{row.lower()} {number}", f"{PHONETIC[row][0]} {number}"}
                    words = f"{PHONETIC[row][0] if i % 2 else row.lower()} {number}"
                    x = _pad(_normalise(speakers.say(voice, words, SPEEDS[i % len(SPEEDS)])), rng)
                    check.record(Heard(words, None, 0.0, False), audio=pcm16(x))
                utterances = check.utterances()
            else:
                training = VoiceTraining(random.Random(args.seed * 100 + v), count=args.training)
                said = set(training.prompts)
                utterances = []
                for i, prompt in enumerate(training.prompts):
                    x = _pad(_normalise(speakers.say(voice, prompt, SPEEDS[i % len(SPEEDS)])), rng)
                    utterances.append(adaptation.Utterance(pcm16(x), prompt))
            # 2./3. held-out clips in every condition
            tests = held_out_phrases(grammar, args.commands, rng, said)
            items = [(p, grammar.parse(p).text, speakers.say(voice, p, SPEEDS[(i + 1) % len(SPEEDS)]))
                     for i, p in enumerate(tests)]
            items = [(p, e, _normalise(x)) for p, e, x in items]
            items += [(s, None, _normalise(speakers.say(voice, s, 1.0)))
                      for s in rng.sample(OUT_OF_GRAMMAR, args.oog)]
            items += [(name, None, x) for name, x in noise_clips(babble, np_rng, args.noise)]
            clips = []
            for text, expected, x in items:
                padded = _pad(x, rng)
                for how in hows:
                    clips.append({"voice": voice, "text": text, "expected": expected, "degradation": how,
                                  "pcm": pcm16(degrade(padded, how, babble, np_rng))})
            recognizers = {"plain": plain}
            for method in methods:
                # "map@5": MAP with tau 5
                name, _, tau = method.partition("@")
                result = adaptation.adapt(utterances, method=name, tau=float(tau or adaptation.MAP_TAU),
                                          out=Path(tmp) / f"adapt-{v}-{method}")
                adapt_seconds.append(result.seconds)
                rec = SphinxRecognizer(adaptation=result)
                rec.set_grammar(grammar)
                recognizers[method] = rec
            for clip in clips:
                row = {k: clip[k] for k in ("voice", "text", "expected", "degradation")}
                for name, rec in recognizers.items():
                    row[name] = evaluate(rec, grammar, settings, clip, args.naive_only)
                results.append(row)
            print(f"{voice}: {len(utterances)} training phrases, {len(clips)} test clips, "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)

    variants = ["plain"] + methods
    print(f"voices: {', '.join(voices)}; {args.commands} held-out commands, {args.oog} out-of-grammar "
          f"sentences and {args.noise} noise clips per voice, in {len(hows)} conditions; "
          f"training: {f'a voice check of {args.check} coordinates' if args.check else f'{args.training} prompted phrases'} per voice (clean); settings confirm={settings.confirm} "
          f"clarity={settings.clarity}. Adaptation time median {statistics.median(adapt_seconds):.1f} s "
          f"(max {max(adapt_seconds):.1f} s). Wall time {time.perf_counter() - started:.0f} s.")
    print_conditions(results, variants, hows, args.naive_only)
    print_families(results, variants, hows, args.naive_only)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


def counts(rows: list[dict], variant: str) -> dict:
    c = defaultdict(int)
    for r in rows:
        v = r[variant]
        if r["expected"]:
            c["commands"] += 1
            c["naive"] += v["naive"] == r["expected"]
            if "command" in v:
                c["right"] += v["command"] == r["expected"]
                c["confirmed"] += v["command"] == r["expected"] and v["confirm"]
                c["wrong"] += v["command"] is not None and v["command"] != r["expected"] and not v["confirm"]
        else:
            c["rejects"] += 1
            c["naive_fa"] += v["naive"] is not None
            if "command" in v:
                c["fa"] += v["command"] is not None and not v["confirm"]
                c["fa_c"] += v["command"] is not None
    return c


def print_conditions(results, variants, hows, naive_only) -> None:
    print()
    print("per condition, all voices: " + ("naive right / naive FA" if naive_only else
          "right (confirmed) wrong FA FA+c | naive right"))
    head = f"{'condition':<10}" + "".join(f" | {v:^38}" for v in variants)
    print(head)
    print("-" * len(head))
    for how in hows + ["all"]:
        rows = [r for r in results if how == "all" or r["degradation"] == how]
        cells = []
        for v in variants:
            c = counts(rows, v)
            if naive_only:
                cells.append(f"{pct(c['naive'], c['commands'])} / {pct(c['naive_fa'], c['rejects'])}")
            else:
                cells.append(f"{pct(c['right'], c['commands'])} ({pct(c['confirmed'], c['commands']).strip()})"
                             f" {pct(c['wrong'], c['commands'])} {pct(c['fa'], c['rejects'])}"
                             f" {pct(c['fa_c'], c['rejects'])} | {pct(c['naive'], c['commands'])}")
        print(f"{how:<10}" + "".join(f" | {cell:^38}" for cell in cells))
    n_cmd = counts([r for r in results if r["degradation"] == hows[0]], "plain")
    print(f"per condition: {n_cmd['commands']} commands, {n_cmd['rejects']} reject clips")


def print_families(results, variants, hows, naive_only) -> None:
    groups = {"espeak": {"espeak"}, "flite": {"flite"}, "hibari": {"hibari"},
              "natural (flite+hibari)": {"flite", "hibari"}, "all voices": {"espeak", "flite", "hibari"}}
    key = "naive" if naive_only else "right"
    for v in variants[1:]:
        print()
        print(f"commands {key} by voice family: plain -> {v}")
        print(f"{'voices':<23}" + "".join(f" {h:>15}" for h in hows + ["all"]))
        for name, fams in groups.items():
            cells = []
            for how in hows + ["all"]:
                rows = [r for r in results if family(r["voice"]) in fams and (how == "all" or r["degradation"] == how)]
                a, b = counts(rows, "plain"), counts(rows, v)
                cells.append(f"{pct(a[key], a['commands']).strip()}->{pct(b[key], b['commands']).strip()}"
                             if a["commands"] else "-")
            if any(c != "-" for c in cells):
                print(f"{name:<23}" + "".join(f" {c:>15}" for c in cells))
        rows = [r for r in results if not r["expected"]]
        a, b = counts(rows, "plain"), counts(rows, v)
        fa = "naive_fa" if naive_only else "fa_c"
        print(f"reject clips acted on or asked about (all conditions): plain {pct(a[fa], a['rejects']).strip()}, "
              f"{v} {pct(b[fa], b['rejects']).strip()}" + ("" if naive_only else
              f"; acted on: plain {pct(a['fa'], a['rejects']).strip()}, {v} {pct(b['fa'], b['rejects']).strip()}"))


if __name__ == "__main__":
    raise SystemExit(main())
