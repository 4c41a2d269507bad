#!/usr/bin/env python3
"""Arkade transcript: everything seeded Arkade games produce, as tagged lines, so that
a rework of the rules core can be proved to change no behaviour (diff two runs).

Tags: SELF (computer against computer: winner, turns, a hash of the final state, for
both modes and every level), LEGAL (at every step of some games: each side's legal
actions and the refusal of each candidate action), LOG (the --log events), REC (the
recorded actions), MSG (every printed line with its speech, signal and side), CLI
(the stdout of the real command line). A wording change alters MSG and CLI lines only;
the JSON log (LOG) is a public contract and must stay the same.

    python scripts/arkade_transcript.py --seeds 30 > before.txt
    ... change the code ...
    python scripts/arkade_transcript.py --seeds 30 > after.txt
    diff <(grep -v '^MSG\\|^CLI' before.txt) <(grep -v '^MSG\\|^CLI' after.txt)
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from audio_console.arkade.actions import NotAnAction, Roll, parse_action  # noqa: E402
from audio_console.arkade.board import cell_name  # noqa: E402
from audio_console.arkade.computer import next_action, player_rng  # noqa: E402
from audio_console.arkade.console import ArkadeConsole  # noqa: E402
from audio_console.arkade.rules import ALIEN, ARCADE, DEFENCE, SIDES, Game, IllegalAction, Options  # noqa: E402
from audio_console.arkade.commands import spoken  # noqa: E402

VARIANTS = [{}, {"formation": "pairs"}, {"side": "expert"}, {"boosters": 4}, {"chips": False},
            {"max_rolls": 2}, {"chips": True}]
QUESTIONS = ["where are my saucers", "nearest saucers", "what can I do", "read row C", "column three",
             "dice", "where is the spaceship", "chips", "board", "listen to column three", "what is at C3"]
EXTRA = ["roll 3", "reroll", "reroll first", "reroll flight", "fly", "fly B3", "fly B3 back", "fly Z9 forward",
         "fly B3 to D3", "ship 9", "ship", "ship 2", "shoot outpost", "plasma", "plasma pink", "gps 2",
         "choose", "choose A1", "choose pink A1", "clear magnet A1", "clear", "sacrifice A1", "sacrifice",
         "done", "keep", "jump", "booster up"]


def state(game: Game) -> str:
    parts = game.snapshot()
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:16]


def log_form(event) -> dict:
    return event.log() if hasattr(event, "log") else event


def selfplay(seeds: int, out) -> None:
    from scripts.measure.arkade_selfplay import play
    for mode in ("strategy", "arcade"):
        for v, variant in enumerate(VARIANTS):
            for alien, defence in (("normal", "normal"), ("easy", "hard"), ("hard", "easy")):
                for seed in range(seeds):
                    game = play(Options(mode=mode, **variant), seed, alien, defence,
                                2.0 if mode == ARCADE and seed % 2 else 1.0)
                    print(f"SELF {mode} v{v} {alien}/{defence} {seed} {game.winner} {game.turns} {state(game)}",
                          file=out)


def candidates(game: Game) -> list[str]:
    result = ["roll", "keep", "reroll both", "done", "reroll first", "reroll second", "reroll flight",
              "reroll shot", "booster left", "booster right", "shoot", "shoot outpost"]
    for s in game.saucers:
        if s.cell is None:
            continue
        here = cell_name(s.cell)
        for first in ("forward", "left", "right"):
            result.append(f"fly {here} {first}")
            for second in ("forward", "left", "right"):
                result.append(f"fly {here} {first} {second}")
        result.append(f"sacrifice {here}")
        result.append(f"choose {here}")
        result.append(f"choose yellow {here}")
    result += [f"ship {n}" for n in range(1, 7)] + [f"gps {n}" for n in range(1, 7)]
    result += [f"plasma {c}" for c in ("yellow", "pink", "purple")]
    result += [f"choose {cell_name((r, c))}" for r in (0, game.board.last_row) for c in range(6)]
    result += [f"clear magnet {cell_name(m)}" for m in game.magnets]
    return result + EXTRA


def legality(seeds: int, out) -> None:
    """At every step of some self-played games: what each side may do, and why not."""
    for mode in ("strategy", "arcade"):
        for seed in range(seeds):
            game = Game(Options(mode=mode, chips=True), random.Random(seed))
            move, side = 0, ALIEN
            while not game.finished() and move < 400:
                for who in SIDES:
                    legal = game.legal_actions(who)
                    print(f"LEGAL {mode} {seed} {move} {who} {'|'.join(a.text() for a in legal)}", file=out)
                    for action in candidates(game):
                        trial = game.copy()
                        try:
                            typed = parse_action(action)
                        except NotAnAction as error:   # malformed text never reaches the rules core
                            print(f"LEGAL {mode} {seed} {move} {who} {action}: not an action: {error}", file=out)
                            continue
                        try:
                            events = trial.act(who, typed)
                            verdict = "ok " + json.dumps([log_form(e) for e in events])
                        except IllegalAction as error:
                            verdict = f"no {error}"
                        print(f"LEGAL {mode} {seed} {move} {who} {action}: {verdict}", file=out)
                if mode == "strategy":
                    side = game.pending.side if game.pending else game.turn
                else:
                    side = SIDES[(move // 5) % 2] if not game.pending else game.pending.side
                action = next_action(game, side, "normal", player_rng(seed, side, move))
                if action is None:
                    side = SIDES[1 - SIDES.index(side)]
                    action = next_action(game, side, "normal", player_rng(seed, side, move)) or Roll()
                try:
                    game.act(side, action)
                except IllegalAction:
                    game.act(side, Roll())
                move += 1


def show(tag: str, reply, out) -> None:
    for m in reply.messages:
        print(f"MSG {tag} {m.text!r} {m.speech!r} {m.signal} {m.side} {m.cells!r}", file=out)
    for e in reply.events:
        print(f"LOG {tag} {json.dumps(e)}", file=out)
    for r in reply.record:
        print(f"REC {tag} {r}", file=out)


def watched(seeds: int, out) -> None:
    """The console in process, the computer on both sides, a clock stepped by hand."""
    for mode in ("strategy", "arcade"):
        for seed in range(seeds):
            options = {"mode": mode, "alien": "computer", "defence": "computer", "pace": 2.0,
                       "level": 1 + seed % 3, "peng": seed % 4 == 0}
            console = ArkadeConsole(options, seed, now=0.0)
            tag = f"watch {mode} {seed}"
            show(tag, console.start(), out)
            now = 0.0
            if mode == "arcade":
                show(tag, console.handle(console.grammar().parse("go"), now), out)
            steps = 0
            while not console.finished() and steps < 5000:
                now += 0.5
                show(tag, console.tick(now), out)
                steps += 1
            print(f"MSG {tag} prompt {console.prompt()!r} {console.status()!r}", file=out)


def typed(seeds: int, out) -> None:
    """A human side typed in words (the computer's choice, phrased), questions between."""
    for mode in ("strategy", "arcade"):
        for human in SIDES:
            for seed in range(seeds):
                computer = DEFENCE if human == ALIEN else ALIEN
                console = ArkadeConsole({"mode": mode, human: "human", computer: "computer", "pace": 1.0}, seed)
                grammar = console.grammar()
                tag = f"typed {mode} {human} {seed}"
                show(tag, console.start(), out)
                now = 0.0
                if mode == "arcade":
                    show(tag, console.handle(grammar.parse("go"), now), out)
                rng = random.Random(seed)
                count = 0
                while not console.finished() and count < 3000:
                    now += 0.4
                    show(tag, console.tick(now), out)
                    if console.finished():
                        break
                    if count % 5 == 0:
                        question = QUESTIONS[(count // 5) % len(QUESTIONS)]
                        show(tag + " " + question, console.handle(grammar.parse(question), now), out)
                        print(f"MSG {tag} prompt {console.prompt()!r} help {console.help()!r} "
                              f"status {console.status()!r}", file=out)
                    side = console.human_side()
                    action = next_action(console.core, side, "normal", rng)
                    if action is None:
                        count += 1
                        continue
                    saucer_colour = {s.cell: s.colour for s in console.core.alive()}.get
                    line = spoken(action, saucer_colour)
                    command = grammar.parse(line)
                    try:
                        show(tag + " " + line, console.handle(command, now), out)
                    except Exception as error:   # InputError: a refusal is part of the transcript
                        print(f"MSG {tag} refused {line!r}: {type(error).__name__} {error}", file=out)
                    count += 1


def cli(seeds: int, out) -> None:
    """The real command line, the computer on both sides (Strategy Mode runs to the end)."""
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(seeds):
            log = Path(tmp) / f"{seed}.jsonl"
            env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(Path(tmp) / "home")}
            result = subprocess.run(
                [sys.executable, "-m", "audio_console", "--game", "arkade", "--alien", "computer",
                 "--defence", "computer", "--seed", str(seed), "--level", str(1 + seed % 3), "--text",
                 "--log", str(log), "--save", str(Path(tmp) / "s.json")],
                input="status\nquit\n", capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
            for line in result.stdout.splitlines():
                print(f"CLI {seed} {line}", file=out)
            for line in log.read_text().splitlines():
                print(f"LOG cli {seed} {line}", file=out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="seeds per kind of game")
    parser.add_argument("--parts", default="self,legal,watch,typed,cli")
    args = parser.parse_args(argv)
    parts = args.parts.split(",")
    out = sys.stdout
    if "self" in parts:
        selfplay(args.seeds * 3, out)
    if "legal" in parts:
        legality(max(1, args.seeds // 5), out)
    if "watch" in parts:
        watched(args.seeds, out)
    if "typed" in parts:
        typed(args.seeds, out)
    if "cli" in parts:
        cli(max(1, args.seeds // 3), out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
