"""Issue 30 item 2, the speakers' side: at every pass point of the hot-seat games
(Galaxis options 1 and 3, storing and searching; Battleship placing and shooting)
nothing secret is printed or spoken from "Pass the console" until the next one says
ready, whatever the one arriving asks (repeat, history, status, summary, my fleet,
help, hint); after ready the owner of a secret hears it again. What is spoken is
what the console hands its voice (the presenter's sink), as in the other privacy
tests; the clear itself is tested in a real terminal (test_screen_clear.py)."""
import pytest

from audio_console.app.games import GAMES
from tests.robust.helpers import make_session

# What a team or player arriving at the console might ask before saying ready.
ARRIVING = ["repeat", "status", "history", "previous message", "previous message", "next message", "help",
            "summary", "my fleet", "what is at", "read row A", "hint", "why", "rules"]
OPTION_3 = ["a1", "b2", "c3", "d4", "done", "ready", "g1", "g2", "g3", "g4", "done", "ready"]

CASES = {
    # name: (game, options, seed, typed up to and including the move that passes, secrets, heard after ready)
    "galaxis option 1": ("galaxis", {"option": 1}, 1, ["D4"], ["D4"], None),
    "galaxis option 3 storing": ("galaxis", {"option": 3}, 3, ["a1", "b2", "c3", "c3", "d4", "done"],
                                 ["A1", "B2", "C3", "D4", "already one of", "your positions"], None),
    "galaxis option 3 search": ("galaxis", {"option": 3}, 3, OPTION_3 + ["d4", "e5"],
                                ["A1", "B2", "C3", "D4", "own positions"], None),
    # Battleship: the fleet lines and damage said before the pass (FLEET_LINES), and these
    "battleship placing": ("battleship", {"opponent": "human", "placement": "manual", "level": 2}, 3,
                           ["random", "my fleet", "done"], ["box from", "unhurt", "Placed:"], None),
    "battleship shooting": ("battleship", {"opponent": "human", "placement": "random", "level": 2}, 3,
                            ["sector 1 row A", "sector 1 row B", "ready", "my fleet", "sector 1 row A"],
                            ["Damage in", "your Dueler", "box from", "unhurt"],
                            "Damage in sector 1: your Dueler at A6 and A7."),
}


@pytest.mark.parametrize("case", CASES)
def test_nothing_secret_is_printed_or_spoken_from_the_pass_until_ready(tmp_path, case):
    game, options, seed, typed, secrets, after_ready = CASES[case]
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES[game], options, seed)
    for line in typed[:-1]:
        session.type(line)
    if game == "battleship":             # every line that said where a ship of the fleet lies
        fleet_lines = [line for line in out.getvalue().splitlines() if "box from" in line]
        assert fleet_lines
        secrets = secrets + fleet_lines
    mark, said = len(out.getvalue()), len(sink.spoken)
    session.type(typed[-1])                      # the move that passes the console
    passed = out.getvalue()[mark:]
    assert "Pass the console to " in passed
    mark, said = mark + passed.index("Pass the console to "), said + [
        i for i, s in enumerate(sink.spoken[said:]) if s.startswith("Pass the console to ")][0]
    repeated = len(out.getvalue())
    for line in ARRIVING:
        session.type(line)
        if line == "repeat":                     # the pass's public lines, its prompt said once
            assert out.getvalue()[repeated:].count("Pass the console to ") == 1
    printed, spoken = out.getvalue()[mark:], sink.spoken[said:]
    assert printed.count("say ready first") >= 3            # refused, each saying why
    for secret in secrets:
        assert secret not in printed, (secret, printed)
        assert not any(secret in line for line in spoken), (secret, spoken)
    if after_ready:
        said = len(sink.spoken)
        session.type("ready")
        assert after_ready in sink.spoken[said:]            # the owner hears it, after ready
