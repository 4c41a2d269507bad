#!/usr/bin/env python3
"""Yes and no as answers: the usual bar and the answers' bar side by side.

While "Did you say D5?" waits, the console takes a yes or no by the answers' own bar
(audio_console/voice/answers.py). Per condition, from the same decodes: the real yes
and no clips acted on at once as said, by the usual bar and as answers; answers taken
as the other answer (a "no" taken as "yes" makes the move the player refused); every
other clip (other commands, other words, chatter) acted on as a yes or no.

    python scripts/bench_speech.py --corpus WORDS --as-answer ...   # prints this at the end
    python scripts/bench_answers.py RESULTS.json     # a bench_speech --json run, decided again
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from audio_console.app.games import grammar_for_game  # noqa: E402
from audio_console.base.settings import Settings  # noqa: E402
from audio_console.voice.answers import with_answer  # noqa: E402
from audio_console.voice.recognizer import Decoded, Evidence  # noqa: E402
from audio_console.voice.trust import decide  # noqa: E402

ANSWERS = ("yes", "no")
BARS = {"usual": lambda e: (e["command"], e["action"]), "as answer": lambda e: (e["answer"]["command"],
                                                                                  e["answer"]["action"])}


def tally(rows: list[dict], engine: str) -> Counter:
    """Per bar: answers right at once, answers taken as the other, other clips taken as answers."""
    c: Counter = Counter()
    for r in rows:
        e = r["engines"][engine]
        if "answer" not in e:
            continue
        said = r["expected"]
        for bar, of in BARS.items():
            command, action = of(e)
            acted = command if action == "act" else None
            if said in ANSWERS:
                c["answers"] += bar == "usual"
                c[bar, "right"] += acted == said
                c[bar, f"{said}->{acted}"] += acted in ANSWERS and acted != said
            else:
                c["others"] += bar == "usual"
                c[bar, "other"] += acted in ANSWERS
                c[bar, "other as yes"] += acted == "yes"
    return c


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}" if b else "-"


def print_answers(results: list[dict], engines: list[str], hows: list[str]) -> None:
    print()
    print("yes and no as answers to \"Did you say ...?\": the usual bar -> the answers' bar, the same decodes")
    print(f"{'condition':<10} {'engine':<12} {'yes+no':>6} | {'right at once %':>17} | {'no->yes':>7} {'yes->no':>7} "
          f"| {'others':>6} {'taken as answers':>17} {'(as yes)':>9}")
    for how in hows + ["all"]:
        rows = [r for r in results if how == "all" or r["degradation"] == how]
        for engine in engines:
            c = tally(rows, engine)
            if not c["answers"] and not c["others"]:
                continue
            u, a = "usual", "as answer"
            print(f"{how:<10} {engine:<12} {c['answers']:>6} | {pct(c[u, 'right'], c['answers']):>7} -> "
                  f"{pct(c[a, 'right'], c['answers']):>6} | {c[u, 'no->yes']:>3}->{c[a, 'no->yes']:<3} "
                  f"{c[u, 'yes->no']:>3}->{c[a, 'yes->no']:<3} | {c['others']:>6} {c[u, 'other']:>8} -> "
                  f"{c[a, 'other']:<6} {c[u, 'other as yes']:>3}->{c[a, 'other as yes']:<3}")
    print("right at once: a real yes or no acted on as said; no->yes, yes->no: taken as the other answer; "
          "others: clips of every other kind (other commands, other words, chatter, noise) acted on as yes or no")


def decided_again(results: list[dict], grammar, settings) -> list[dict]:
    """Every engine's stored evidence decided again by both bars of this tree."""
    for r in results:
        for e in r["engines"].values():
            if e.get("evidence") is None:
                e["answer"] = {"command": e["command"], "action": e["action"]}
                continue
            decoded = Decoded(e["heard"], [], 0.0, dict(e.get("detail") or {}), Evidence(**e["evidence"]))
            heard = decide(decoded, grammar, settings)
            answer = with_answer(heard, decoded, grammar, settings).as_answer or heard
            e["command"], e["action"] = (heard.command.text if heard.command else None), heard.action
            e["answer"] = {"command": answer.command.text if answer.command else None, "action": answer.action}
    return results


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", help="a bench_speech.py --json file (its decodes are decided again here)")
    ap.add_argument("--game", default="galaxis")
    args = ap.parse_args(argv)
    results = json.loads(Path(args.results).read_text())
    results = decided_again(results, grammar_for_game(args.game), Settings())
    hows = list(dict.fromkeys(r["degradation"] for r in results))
    print_answers(results, list(results[0]["engines"]), hows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
