"""The command line's game options, this checkout beside a baseline revision, case for
case: a refactoring of how options are declared and read can be shown to change
nothing a player or a save sees.

    python scripts/compare_options.py --baseline REV [--pairs N] [--show N]

Each revision runs in a process of its own (the baseline is the package at REV, from
`git archive`) over the same cases and prints one JSON line a case; the lines are
compared one by one. The cases:
- argument lists, good and bad: every game option alone with every value worth trying
  (its choices, and numbers, words and ranges it must refuse), under every game and
  none, then N seeded pairs of them: the exit code and every line printed, the options
  the game is given (keys in order), and what the game says when it is made from them
  (its opening and help lines, or the one-line refusal);
- `--help`, each `--game G --help` and `recognize --help`;
- every path through each game's menu questions: the game it makes, its opening lines;
- saved options, good and damaged, through the save's options check.
It prints the number of cases compared and each difference (up to --show of them)."""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]     # a worker imports the package from PYTHONPATH

GAMES = (None, "galaxis", "battleship", "arkade")
# Every game option with the values worth trying: its choices, and what it must refuse.
NUMBERS = ("0", "1", "2", "3", "4", "5", "6", "8", "9", "-1", "1.5", "x", "", "nan", "inf")
SECONDS = ("0", "0.05", "0.1", "1", "3", "59.5", "60", "61", "3600", "3601", "nan", "inf", "-1", "x", "")
WORDS = ("human", "computer", "random", "manual", "strategy", "arcade", "tutorial", "ear",
         "ear-long", "classic", "expert", "offset", "pairs", "robot", "")
VALUES = {
    "--option": NUMBERS, "--time-limit": (None,) + SECONDS, "--practice": WORDS,
    "--opponent": WORDS, "--level": NUMBERS, "--placement": WORDS, "--mode": WORDS,
    "--alien": WORDS, "--defence": WORDS, "--board": WORDS, "--formation": WORDS,
    "--boosters": NUMBERS, "--rolls": NUMBERS, "--chips": (None,), "--no-chips": (None,),
    "--pace": SECONDS, "--peng": (None,), "--resume": (None,), "--seed": ("3", "x"),
}
BAD_SAVED = (9, 0, "robot", True, False, None, 1.5, "", [1], {"a": 1}, 60.0, 1e9)


def option_args() -> list[list[str]]:
    """Each option alone, with each of its values: ["--level", "9"], ["--peng"]."""
    return [[flag] if value is None else [flag, value] for flag, values in VALUES.items() for value in values]


def cases(pairs: int) -> list[dict]:
    alone = option_args()
    argvs = [[]] + [(["--game", g] if g else []) + a for g in GAMES for a in [[]] + alone]
    rng = random.Random(29)
    for _ in range(pairs):
        game = rng.choice(GAMES)
        argvs.append((["--game", game] if game else []) + rng.choice(alone) + rng.choice(alone))
    result = [{"kind": "argv", "argv": a} for a in argvs]
    result += [{"kind": "help", "argv": a} for a in
               [["--help"], ["recognize", "--help"]] + [["--game", g, "--help"] for g in GAMES if g]]
    result += [{"kind": "menu", "game": g} for g in GAMES if g]
    result += [{"kind": "saved", "argv": a} for a in argvs[: 1 + len(GAMES) * (len(alone) + 1)]]
    return result


def captured(call):
    """(exit code, stdout, stderr, value) of call(), SystemExit caught."""
    out, err = io.StringIO(), io.StringIO()
    code, value = 0, None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            value = call()
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
    return code, out.getvalue(), err.getvalue(), value


def made(info, options: dict) -> dict:
    """What the game says when it is made from these options, or its refusal."""
    from audio_console.contract.base import InputError
    from audio_console.base.settings import Settings
    try:
        console = info.create(dict(options), 7, Settings(), 0.0)
    except InputError as error:
        return {"refused": str(error)}
    except Exception as error:     # a traceback in play: compared, and shown
        return {"crashed": f"{type(error).__name__}: {error}"}
    return {"made": type(console).__name__, "start": [m.text for m in console.start().messages],
            "help": console.help()}


def run_argv(argv: list[str]) -> dict:
    from audio_console.app import cli
    from audio_console.app.games import GAMES as INFOS
    code, out, err, args = captured(lambda: cli.parse_args(argv))
    row: dict = {"code": code, "out": out, "err": err}
    if args is not None and args.game:
        info = INFOS[args.game]
        options = info.options_from_args(args)
        row["options"] = json.dumps(options, sort_keys=True)     # a dict: its order is no behaviour
        row.update(made(info, options))
    return row


def menu_paths(info) -> list[dict]:
    """Every set of answers the game's menu questions can give, in the menu's order."""
    paths: list[dict] = [{}]
    for question in info.questions:
        grown = []
        for answers in paths:
            if question.ask_if(answers):
                grown += [{**answers, question.key: value} for _, value in question.choices]
            else:
                grown.append(answers)
        paths = grown
    return paths


def run_menu(name: str) -> dict:
    """What each path through the menu makes. The options are not compared: since
    02503c1 the menu gives each game every option it declares, not only those it asked."""
    from audio_console.console.menu import MenuConsole
    from audio_console.app.games import GAMES as INFOS
    menu = MenuConsole(INFOS)
    menu.info = info = INFOS[name]

    def chosen(answers: dict) -> dict:       # what the session opens the game with
        menu.answers = dict(answers)
        return menu.chosen_options() if hasattr(menu, "chosen_options") else menu.answers
    return {"paths": [[json.dumps(a), made(info, chosen(a))] for a in menu_paths(info)]}


def run_saved(argv: list[str]) -> dict:
    """The save's options check on the options these arguments give, and on each of them
    damaged, and on an option the game does not have."""
    from audio_console.app import cli
    from audio_console.console.save_options import options_checker
    from audio_console.console.storage import SaveError
    from audio_console.app.games import GAMES as INFOS
    code, _, _, args = captured(lambda: cli.parse_args(argv))
    if args is None or not args.game:
        return {"skipped": code}
    try:
        check = options_checker(INFOS)
    except TypeError:       # before the checker read the games' declarations
        check = options_checker(cli.build_parser(), INFOS)
    options = INFOS[args.game].options_from_args(args)
    tried = [options] + [{**options, key: bad} for key in sorted(options) for bad in BAD_SAVED]
    tried.append({**options, "colour": "red"})
    verdicts = []
    for saved in tried:
        try:
            check(args.game, saved)
            verdicts.append("ok")
        except SaveError as error:
            verdicts.append(str(error))
    return {"verdicts": verdicts}


def run_case(case: dict) -> dict:
    kind = case["kind"]
    if kind == "argv":
        return run_argv(case["argv"])
    if kind == "help":
        from audio_console.app import cli
        code, out, err, _ = captured(lambda: cli.main(case["argv"]))
        return {"code": code, "out": out, "err": err}
    if kind == "menu":
        return run_menu(case["game"])
    return run_saved(case["argv"])


def worker(path: str) -> None:
    import audio_console
    sys.path.insert(1, str(Path(__file__).resolve().parent))      # scripts/: old_layout
    from old_layout import alias_moved_modules
    alias_moved_modules()
    print(Path(audio_console.__file__).parent, flush=True)     # which package answered
    for case in json.loads(Path(path).read_text()):
        print(json.dumps(run_case(case)), flush=True)


def results(tree: Path, case_file: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "HOME": tempfile.mkdtemp(prefix="compare-home-")}
    done = subprocess.run([sys.executable, "-P", __file__, "--worker", str(case_file)], cwd=tree, env=env,
                          check=True, capture_output=True, text=True)
    package, *lines = done.stdout.splitlines()
    if not Path(package).is_relative_to(tree):
        raise SystemExit(f"the worker for {tree} imported the package from {package}")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", help="git revision to compare this checkout with")
    ap.add_argument("--pairs", type=int, default=3000, help="seeded pairs of options (default 3000)")
    ap.add_argument("--show", type=int, default=10, help="differences shown (default 10)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return 0
    if not args.baseline:
        ap.error("--baseline REV is needed")
    sys.path.insert(0, str(ROOT))
    from scripts.bench_whisper_speed import baseline_tree
    todo = cases(args.pairs)
    with tempfile.TemporaryDirectory(prefix="compare-options-") as folder:
        case_file = Path(folder) / "cases.json"
        case_file.write_text(json.dumps(todo))
        old = results(baseline_tree(args.baseline, Path(folder) / "baseline"), case_file)
        new = results(ROOT, case_file)
    differ = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
    crashed = sum('"crashed"' in line for line in new)
    print(f"cases compared: {len(todo)} ({sum(c['kind'] == 'argv' for c in todo)} argument lists); "
          f"the same: {len(todo) - len(differ)}; different: {len(differ)}; "
          f"made with a crash here: {crashed}")
    for i in differ[: args.show]:
        print(f"case {json.dumps(todo[i])}\n  {args.baseline}: {old[i][:600]}\n  here: {new[i][:600]}")
    return 1 if differ or len(old) != len(new) else 0


if __name__ == "__main__":
    raise SystemExit(main())
