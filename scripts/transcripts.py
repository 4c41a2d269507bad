#!/usr/bin/env python3
"""Seeded games typed through the real command line, kept as transcripts, so that a
refactoring can be shown to change nothing a player or a tool sees.

For each scenario: the printed lines, the --log JSON lines and the saved actions; then
the same game resumed (--resume, status, quit). Record once, change the code, compare:

    python scripts/transcripts.py record before/      # before the change
    python scripts/transcripts.py record after/       # after it (same inputs)
    python scripts/transcripts.py compare before/ after/   # "same" or the differences

`record DIR --inputs OLD` reuses OLD's typed lines (the Arkade games are typed by a
stand-in player, phrased once, when first recorded).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SWEEP = [f"sector {s} row {r}" for s in (1, 2, 3) for r in "ABCDEFGHIJ"] + \
        [f"sector {s} column {c}" for s in (1, 2, 3) for c in range(1, 11)]
POINTS = [f"{r}{c}" for r in "ABCDEFG" for c in range(1, 10)]
REVIEW_G = ["what is at D5", "read row D", "read column 5", "listen to row C", "summary", "status",
            "mark A1", "unmark A1", "mark B2", "undo", "K12", "caution spaceship D5", "read row H",
            "banana", "chance of D5", "which points are ruled out", "how many placements are left"]


def galaxis_scenarios() -> dict:
    s = {}
    s["g2_seed5"] = (["--game", "galaxis", "--option", "2", "--seed", "5"],
                     REVIEW_G + ["hint", "auto mark on"] + POINTS[:40] + ["review", "status"])
    s["g2_demo"] = (["--game", "galaxis", "--option", "2", "--opponent", "computer", "--seed", "11"],
                    ["next"] * 30 + ["review", "D5"])
    for level in (1, 2, 3):
        s[f"g1_computer_l{level}"] = (
            ["--game", "galaxis", "--option", "1", "--opponent", "computer", "--level", str(level), "--seed", "3"],
            ["hint"] + POINTS[::2] + ["status", "review"])
        s[f"g3_computer_l{level}"] = (
            ["--game", "galaxis", "--option", "3", "--opponent", "computer", "--level", str(level), "--seed", "7"],
            ["B2", "C5", "E7", "F3", "caution spaceship B2", "hint"] + POINTS[1::2] + ["status", "review"])
    s["g1_humans"] = (["--game", "galaxis", "--option", "1", "--seed", "4"],
                      ["D5", "ready", "D5", "ready", "E4", "status", "ready", "hint", "B2", "ready", "C3",
                       "ready", "summary", "A1", "ready", "A2"])
    s["g3_humans"] = (["--game", "galaxis", "--option", "3", "--seed", "9"],
                      ["A1", "B2", "ready", "C3", "ready", "D4", "ready", "E5", "ready", "F6", "ready", "G7",
                       "ready", "A8", "ready", "B9", "ready", "caution spaceship A1", "ready", "D5", "ready",
                       "E5", "ready", "G7"])
    s["g_ear"] = (["--game", "galaxis", "--practice", "ear", "--seed", "2"],
                  ["answer 1", "play again", "discovered", "skip", "2", "3 beeps", "search", "0", "4", "1",
                   "discovered", "2", "2", "3", "status"])
    s["g_tutorial"] = (["--game", "galaxis", "--practice", "tutorial", "--seed", "2"],
                       ["next", "play again", "back", "next", "next", "next", "banana"])
    return s


def battleship_scenarios() -> dict:
    s = {}
    for level in (1, 2, 3):
        s[f"b_computer_l{level}"] = (["--game", "battleship", "--level", str(level), "--seed", "1"],
                                     ["my fleet", "hint", "sector 2", "row D", "read", "what about row D",
                                      "sector 1 row A", "sector 1 row A", "sector 4 row A", "sector 1 row K",
                                      "read sector 1", "my sector 2", "status"] + SWEEP + ["status"])
    s["b_manual"] = (["--game", "battleship", "--placement", "manual", "--seed", "2"],
                     ["sector 1 row A", "quadron sector 1 B3 across", "turn it", "move to C4", "move to sector 2",
                      "place", "remove quadron", "undo", "place quadron sector 1 B3 across",
                      "rocket raider sector 3 A1 down", "place", "random", "my fleet", "remove dueler", "undo",
                      "random", "status", "done", "position quadron 1 B3 across", "sector 2 row D", "row E",
                      "undo"] + SWEEP[:12])
    s["b_humans"] = (["--game", "battleship", "--opponent", "human", "--seed", "3"],
                     ["sector 1 row A", "ready", "sector 1 row A", "ready", "sector 2 row B", "status", "ready",
                      "sector 3 column 4", "ready", "my fleet", "sector 1 row C", "ready", "hint", "row D"])
    s["b_humans_manual"] = (["--game", "battleship", "--opponent", "human", "--placement", "manual", "--seed", "3"],
                            ["random", "done", "ready", "random", "done", "ready", "sector 1 row A", "ready",
                             "sector 1 row B"])
    return s


def arkade_scenarios(inputs: dict) -> dict:
    s = {}
    games = [("a_alien", {"alien": "human", "defence": "computer"}, 4),
             ("a_defence", {"alien": "computer", "defence": "human"}, 6),
             ("a_both", {"alien": "human", "defence": "human"}, 8)]
    for name, options, seed in games:
        args = ["--game", "arkade", "--seed", str(seed)] + [f"--{k}={v}" for k, v in options.items()]
        if name in inputs:
            lines = inputs[name]
        else:
            sys.path.insert(0, str(ROOT))
            from tests.arkade.typist import type_a_game
            lines, _ = type_a_game(options, seed, limit=120)
        extra = ["where are my saucers", "nearest saucers", "read row C", "column three", "dice",
                 "what can I do", "chips", "board", "status", "fly K9 forward", "banana"]
        if name in inputs:
            s[name] = (args, lines)
        elif options["alien"] == "computer":   # its first turn comes on a tick: questions after the game
            s[name] = (args, list(lines) + extra)
        else:
            s[name] = (args, extra[:6] + list(lines) + extra[6:])
    return s


def run(args, lines, home: Path, log: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "audio_console", *args, "--text", "--log", str(log)],
                          input="".join(line + "\n" for line in lines), text=True, capture_output=True,
                          timeout=600, env=env, cwd=ROOT)
    return done.stdout + ("\n--- stderr ---\n" + done.stderr if done.stderr else "")


def record(out: Path, inputs_from: Path | None, only: str | None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    inputs = {}
    if inputs_from is not None:
        inputs = json.loads((inputs_from / "inputs.json").read_text())
    scenarios = {**galaxis_scenarios(), **battleship_scenarios(), **arkade_scenarios(inputs)}
    (out / "inputs.json").write_text(json.dumps({k: v[1] for k, v in scenarios.items()}, indent=0))
    for name, (args, lines) in scenarios.items():
        if only and only not in name:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            home, log = Path(tmp) / "home", Path(tmp) / "log.jsonl"
            text = run(args, lines + ["quit"], home, log)
            save = home / "game.json"
            saved = json.loads(save.read_text()) if save.exists() else None
            resumed = run(["--resume"], ["status", "quit"], home, log)
            (out / f"{name}.out").write_text(text)
            (out / f"{name}.log").write_text(log.read_text() if log.exists() else "")
            (out / f"{name}.save").write_text(json.dumps(saved, indent=1, sort_keys=True).replace(tmp, "TMP"))
            (out / f"{name}.resumed").write_text(resumed.replace(tmp, "TMP"))
        print(name, flush=True)


def compare(before: Path, after: Path) -> int:
    """Print each transcript file that differs (a unified diff); 0 when none does."""
    import difflib
    differ = 0
    for old in sorted(before.iterdir()):
        new = after / old.name
        if old.name == "inputs.json" or not new.exists():
            continue
        a, b = old.read_text().splitlines(), new.read_text().splitlines()
        if a != b:
            differ += 1
            print("\n".join(difflib.unified_diff(a, b, str(old), str(new), lineterm="", n=1)))
    print("same" if not differ else f"{differ} files differ")
    return 1 if differ else 0


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["record", "compare"])
    parser.add_argument("out", type=Path)
    parser.add_argument("after", type=Path, nargs="?", help="compare: the second recording")
    parser.add_argument("--inputs", type=Path, help="reuse the typed lines of an earlier recording")
    parser.add_argument("--only", help="only scenarios whose name contains this")
    options = parser.parse_args()
    if options.mode == "compare":
        sys.exit(compare(options.out, options.after))
    record(options.out, options.inputs, options.only)
