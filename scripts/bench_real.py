"""bench_speech.py's tables for a corpus of real people (scripts/make_real_corpus.py):
what the player meets, per condition, per kind of command and per speaker.

For commands: right at once (acted on without a question), right after a question
("Did you say ...?" answered yes), asked in all (every question, right or not),
wrong acted on at once; for reject clips: acted on at once, and asked about."""
from __future__ import annotations

from collections import defaultdict

# issue 28's targets
AT_ONCE_TARGET, ASKED_TARGET, WRONG_TARGET, REJECT_ACTED_TARGET = 90.0, 5.0, 0.5, 1.0
REJECT_FAMILIES = {"address": "addresses", "word": "other words", "noise": "noise"}


def header(head: str) -> None:
    print(head)
    print("-" * len(head))


def by_condition(results: list[dict], hows: list[str]):
    """(condition, its clips) for each condition, then ("all", every clip)."""
    for how in hows + ["all"]:
        yield how, [r for r in results if how == "all" or r["degradation"] == how]


def tally(rows: list[dict], engine: str) -> dict:
    t: dict = defaultdict(int)
    for r in rows:
        e = r["engines"][engine]
        if r["expected"]:
            right = e["command"] == r["expected"]
            t["cmds"] += 1
            t["at_once"] += right and e["action"] == "act"
            t["after_q"] += right and e["action"] == "confirm"
            t["asked"] += e["action"] == "confirm"
            t["wrong"] += not right and e["action"] == "act"
        else:
            t["rejects"] += 1
            t["r_acted"] += e["action"] == "act"
            t["r_asked"] += e["action"] == "confirm"
    return t


def _pc(a: int, b: int) -> str:
    return f"{100.0 * a / b:5.1f}" if b else "    -"


def _line(label: str, t: dict) -> str:
    return (f"{label:<34} {t['cmds']:>4} {_pc(t['at_once'], t['cmds'])} {_pc(t['after_q'], t['cmds'])} "
            f"{_pc(t['at_once'] + t['after_q'], t['cmds'])} {_pc(t['asked'], t['cmds'])} "
            f"{_pc(t['wrong'], t['cmds'])} | {t['rejects']:>4} {_pc(t['r_acted'], t['rejects'])} "
            f"{_pc(t['r_asked'], t['rejects'])}")


def print_real(results: list[dict], engines: list[str], hows: list[str], counts=None) -> None:
    print()
    print("real speech, % (at once: acted on without a question; after q.: right after \"Did you say ...?\"; "
          "asked: every question; wrong: another command acted on at once):")
    head = (f"{'condition / engine / kind':<34} {'cmds':>4} {'once':>5} {'aftq':>5} {'right':>5} {'asked':>5} "
            f"{'wrong':>5} | {'rej.':>4} {'acted':>5} {'asked':>5}")
    header(head)
    for how, rows in by_condition(results, hows):
        for engine in engines:
            print(_line(f"{how} {engine}", tally(rows, engine)))
            for family in ("point", "nato", "short"):   # plain-letter points, NATO points, yes/no/stop
                mine = [r for r in rows if r.get("family") == family and r["expected"]]
                if mine:
                    print(_line(f"  {family}", tally(mine, engine)))
            for family, name in REJECT_FAMILIES.items():
                t = tally([r for r in rows if r.get("family") == family and not r["expected"]], engine)
                if not t["rejects"]:
                    continue   # a corpus of points alone (--kind nato)
                print(f"{'  ' + name:<34} {'':>4} {'':>5} {'':>5} {'':>5} {'':>5} {'':>5} | {t['rejects']:>4} "
                      f"{_pc(t['r_acted'], t['rejects'])} {_pc(t['r_asked'], t['rejects'])}")
    print_speakers(results, engines, hows)
    print_verdict(results, engines)


def print_speakers(results: list[dict], engines: list[str], hows: list[str]) -> None:
    """Commands right at once / right in all, per speaker and condition."""
    speakers = sorted({r["speaker"] for r in results if r["expected"]})
    print()
    print("per speaker, commands right at once / right in all (%), " + " | ".join(engines) + ":")
    print(f"{'speaker':<26} {'cmds':>4} " + " ".join(f"{h:>{12 * len(engines)}}" for h in hows + ["all"]))
    for speaker in speakers:
        mine = [r for r in results if r["speaker"] == speaker and r["expected"]]
        cells = []
        for how in hows + ["all"]:
            rows = [r for r in mine if how == "all" or r["degradation"] == how]
            parts = []
            for engine in engines:
                t = tally(rows, engine)
                parts.append(f"{_pc(t['at_once'], t['cmds']).strip()}/{_pc(t['at_once'] + t['after_q'], t['cmds']).strip()}")
            cells.append(" ".join(f"{p:>11}" for p in parts))
        clean = [r for r in mine if r["degradation"] == hows[0]]
        print(f"{speaker:<26} {len(clean):>4} " + " ".join(f"{c:>{12 * len(engines)}}" for c in cells))


def print_verdict(results: list[dict], engines: list[str]) -> None:
    print()
    print("against issue 28's targets (clean: at once >= 90 %, asked <= 5 %; wrong <= 0.5 %; "
          "reject clips acted on <= 1 %):")
    for engine in engines:
        clean = tally([r for r in results if r["degradation"] == "clean"], engine)
        every = tally(results, engine)
        misses = []
        if 100.0 * clean["at_once"] / max(1, clean["cmds"]) < AT_ONCE_TARGET:
            misses.append(f"clean at once {_pc(clean['at_once'], clean['cmds']).strip()}")
        if 100.0 * clean["asked"] / max(1, clean["cmds"]) > ASKED_TARGET:
            misses.append(f"clean asked {_pc(clean['asked'], clean['cmds']).strip()}")
        if 100.0 * every["wrong"] / max(1, every["cmds"]) > WRONG_TARGET:
            misses.append(f"wrong {_pc(every['wrong'], every['cmds']).strip()}")
        if 100.0 * every["r_acted"] / max(1, every["rejects"]) > REJECT_ACTED_TARGET:
            misses.append(f"rejects acted on {_pc(every['r_acted'], every['rejects']).strip()}")
        print(f"{engine}: " + ("all met" if not misses else "misses: " + ", ".join(misses)))
