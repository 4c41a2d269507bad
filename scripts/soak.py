"""Soak: N computer-against-computer games per game through the real Session, each
with its save and its event log, checking the invariants of issue 12:

  - exactly one game over, and the winner is the one the rules give
    (Galaxis: every ship found; Battleship: the loser's whole fleet vaporized;
    Arkade: a saucer on the defence line, or no saucer left);
  - every answer agrees with what is revealed at the end;
  - the save replays, in a fresh session, to the same finished game.

Galaxis plays the demonstration (option 2, the computer alone, "next" each query);
Battleship's player 1 types the shot a level-1 computer would call, against the computer;
Arkade has the computer on both sides. Prints games per second for each game.

    python scripts/soak.py --games 2000            # every game
    python scripts/soak.py --games 50 --game arkade
"""
from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from audio_console.battleship.computer import choose_line, move_rng  # noqa: E402
from audio_console.console.session import Session  # noqa: E402
from audio_console.console.storage import EventLog, read_save  # noqa: E402
from audio_console.app.games import GAMES  # noqa: E402
from audio_console.galaxis.board import answer, parse_point  # noqa: E402
from audio_console.output.presenter import Presenter  # noqa: E402
from audio_console.base.settings import Settings  # noqa: E402

OPTIONS = {
    "galaxis": {"option": "2 computer", "level": 1},
    "battleship": {"opponent": "computer", "placement": "random", "level": 1},
    "arkade": {"mode": "strategy", "alien": "computer", "defence": "computer", "level": 1},
}
MAX_STEPS = 5000


class Clock:
    """The session's clock, moved on by hand: computer turns come at once."""
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def new_session(folder: Path, clock: Clock) -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    session = Session(Presenter(out=out, speech=False, signals=False), Settings(), GAMES,
                      folder / "game.json", EventLog(folder / "log.jsonl"), clock=clock)
    return session, out


def play(game: str, seed: int, folder: Path) -> None:
    clock = Clock()
    session, out = new_session(folder, clock)
    session.open_game(GAMES[game], OPTIONS[game], seed)
    console = session.console
    for _ in range(MAX_STEPS):
        if console.finished():
            break
        clock.now += 1.0
        if game == "galaxis":
            session.type("next")
        elif game == "battleship":   # player 1 types what a level-1 computer would call
            core = console.core
            line = choose_line(core.observations[1], 1, move_rng(seed, 1, 10_000 + core.shots(1)))
            session.type(f"sector {line.sector} {line.name}")
        else:
            session._tick()
    else:
        raise AssertionError(f"{game} {seed}: no end after {MAX_STEPS} steps")
    session.log.close()
    events = [json.loads(line) for line in (folder / "log.jsonl").read_text().splitlines()]
    over = [e for e in events if e["event"] == "game_over"]
    assert len(over) == 1, f"{game} {seed}: {len(over)} game overs"
    CHECKS[game](console, events, over[0])
    replayed = replay(folder)
    assert replayed.finished() and result(game, replayed) == result(game, console), f"{game} {seed}: replay differs"


def replay(folder: Path):
    saved = read_save(folder / "game.json", GAMES)
    session, _ = new_session(folder, Clock())
    session.log.close()
    session.log = EventLog(None)
    session.open_game(GAMES[saved.game], saved.options, saved.seed, saved.actions)
    return session.console


def result(game: str, console):
    core = console.core
    if game == "galaxis":
        return core.winner, {t: core.state[t].queries for t in core.teams}
    if game == "battleship":
        return core.winner, core.shots(1), core.shots(2)
    return core.winner, core.turns, sorted((s.colour, s.cell) for s in core.alive())


def check_galaxis(console, events, over) -> None:
    [reveal] = [e for e in events if e["event"] == "reveal"]
    ships = reveal["ships"]
    for e in events:
        if e["event"] == "answer":
            targets = ships if isinstance(ships, list) else ships[str(e["team"])]
            expected = answer(parse_point(e["point"]), [parse_point(s) for s in targets])
            assert e["answer"] == expected, e
    found = {e["point"] for e in events if e["event"] == "answer" and e["answer"] == "discovered"}
    assert found == set(ships) and over["winner"] == 1, over


def covered(cell: str, lines) -> bool:
    sector, row, column = int(cell[0]), cell[1], cell[2:]
    return any(s == sector and (line == f"row {row}" or line == f"column {column}") for s, line in lines)


def check_battleship(console, events, over) -> None:
    [reveal] = [e for e in events if e["event"] == "reveal"]
    fleets = reveal["fleets"]
    called = {1: [], 2: []}
    for e in events:
        if e["event"] == "shot":
            holes = [c for cells in fleets[str(3 - e["player"])].values() for c in cells]
            assert (e["result"] == "hit") == any(covered(c, [(e["sector"], e["line"])]) for c in holes), e
            called[e["player"]].append((e["sector"], e["line"]))
    loser = 3 - over["winner"]
    assert all(covered(c, called[over["winner"]]) for cells in fleets[str(loser)].values() for c in cells)
    assert not all(covered(c, called[loser]) for cells in fleets[str(over["winner"])].values() for c in cells)


def check_arkade(console, events, over) -> None:
    core = console.core
    landed = any(s.cell[0] == core.board.last_row for s in core.alive())
    assert over["winner"] == core.winner == ("alien" if landed else "defence"), over
    assert landed or not core.alive()


CHECKS = {"galaxis": check_galaxis, "battleship": check_battleship, "arkade": check_arkade}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games per game (default 100)")
    parser.add_argument("--game", choices=sorted(OPTIONS), action="append", help="only this game (repeatable)")
    parser.add_argument("--seconds", type=float, default=None, help="stop each game's run after this long")
    args = parser.parse_args()
    failures = 0
    for game in args.game or sorted(OPTIONS):
        started, played = time.perf_counter(), 0
        for seed in range(args.games):
            if args.seconds and time.perf_counter() - started > args.seconds:
                break
            with tempfile.TemporaryDirectory() as folder:
                try:
                    play(game, seed, Path(folder))
                except Exception as error:   # a soak reports every failure and goes on
                    failures += 1
                    print(f"FAIL {game} seed {seed}: {error.__class__.__name__}: {error}", flush=True)
            played += 1
        elapsed = time.perf_counter() - started
        print(f"{game}: {played} games in {elapsed:.1f} s, {played / elapsed:.2f} games per second", flush=True)
    print(f"failures: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
