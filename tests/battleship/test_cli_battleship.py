"""Whole Battleship games through the real command line, typed on standard input."""
import json

from tests.conftest import run_console

ROWS = "ABCDEFGHIJ"
FLEET_2 = ["place quadron 1 B3 across", "place rocket raider 2 D1 across",
           "place celestial crawler 2 H6 across", "place tricorn fighter 3 A1 across",
           "place dueler 3 J9 across"]
# Player 1's ships all lie in sectors 1 and 2, placed by voice-style phrases ship by ship.
FLEET_1 = ["quadron sector one alpha one across", "turn it", "place",
           "rocket raider sector one alpha six down", "place",
           "celestial crawler sector two alpha one across", "place",
           "tri corn fighter sector two echo five across", "place",
           "duel er sector two juliet one across", "place"]


def read_log(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def covered(cell, lines):
    sector, row, column = int(cell[0]), cell[1], cell[2:]
    return any(s == sector and (line == f"row {row}" or line == f"column {column}") for s, line in lines)


def check_log_agrees_with_reveal(events):
    """Every answer, every vaporized ship and the end follow from the revealed fleets."""
    reveal = [e for e in events if e["event"] == "reveal"]
    assert len(reveal) == 1 and all(e["game"] == "battleship" for e in events)
    fleets = reveal[0]["fleets"]
    called = {1: [], 2: []}
    vaporized = {1: set(), 2: set()}
    for e in events:
        if e["event"] == "shot":
            shooter, target = e["player"], 3 - e["player"]
            holes = [c for cells in fleets[str(target)].values() for c in cells]
            assert (e["result"] == "hit") == any(covered(c, [(e["sector"], e["line"])]) for c in holes), e
            called[shooter].append((e["sector"], e["line"]))
            done = {ship for ship, cells in fleets[str(target)].items()
                    if all(covered(c, called[shooter]) for c in cells)}
            assert done >= vaporized[target]
            new = done - vaporized[target]
            vaporized[target] = done
        elif e["event"] == "vaporized":
            assert e["ship"] in new, e
    over = [e for e in events if e["event"] == "game_over"][0]
    loser = 3 - over["winner"]
    assert vaporized[loser] == set(fleets[str(loser)])
    assert over["shots"] == {"1": len(called[1]), "2": len(called[2])}
    return over


def test_two_players_place_by_hand_pass_the_console_and_player_1_wins(tmp_path):
    log = tmp_path / "game.jsonl"
    player_1_shots = ["sector one row bravo", "sector 1 row C", "sector 2 row D", "sector two",
                      "row echo", "row F", "row H", "row I", "sector 3 row A", "sector 3 row B",
                      "sector 3 row J"]
    player_2_shots = [f"shoot 3 row {r}" for r in ROWS]       # player 1 has nothing in sector 3
    lines = FLEET_1 + ["my fleet", "done", "ready"] + FLEET_2 + ["done", "ready"]
    p2 = iter(player_2_shots)
    for shot in player_1_shots:
        lines.append(shot)
        if not shot.startswith("sector two") and shot != "sector two":
            lines += ["ready", "status", "what about sector 3 row A", next(p2), "ready"]
    result = run_console(["--game", "battleship", "--opponent", "human", "--placement", "manual",
                          "--seed", "1", "--text", "--log", str(log), "--save", str(tmp_path / "s.json")],
                         lines, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    out = result.stdout
    assert "Quadron in sector 1, down, box from A1: holes A1, A2, then B1, B2, then C1, C2, then D1, D2." in out
    assert "Pass the console to player 2." in out
    assert "Fleet destroyed: Player 1 won with 10 shots." in out
    events = read_log(log)
    over = check_log_agrees_with_reveal(events)
    assert over == {"event": "game_over", "game": "battleship", "winner": 1, "shots": {"1": 10, "2": 9}}
    assert events[0] == {"event": "shot", "game": "battleship", "player": 1, "sector": 1,
                         "line": "row B", "result": "hit"}
    assert [e["ship"] for e in events if e["event"] == "vaporized"] == [
        "Quadron", "Rocket Raider", "Celestial Crawler", "Tricorn Fighter", "Dueler"]
    reveal = [e for e in events if e["event"] == "reveal"][0]
    assert reveal["fleets"]["2"]["Dueler"] == ["3J9", "3J10"]
    assert reveal["fleets"]["1"]["Quadron"] == ["1A1", "1A2", "1B1", "1B2", "1C1", "1C2", "1D1", "1D2"]


def test_against_the_computer_from_placement_to_the_end(tmp_path):
    log = tmp_path / "game.jsonl"
    rows = [f"sector {s} row {r}" for s in (1, 2, 3) for r in ROWS]
    lines = FLEET_1 + ["done"] + rows + ["status"]
    result = run_console(["--game", "battleship", "--opponent", "computer", "--level", "3",
                          "--placement", "manual", "--seed", "7", "--text", "--log", str(log),
                          "--save", str(tmp_path / "s.json")], lines, tmp_path)
    assert result.returncode == 0, result.stderr
    events = read_log(log)
    over = check_log_agrees_with_reveal(events)
    assert "Fleet destroyed:" in result.stdout and "Game over." in result.stdout
    # The computer shot only at player 1's ships' sectors to win, or lost to the sweep.
    assert over["winner"] in (1, 2)


def test_a_game_cut_off_and_resumed_ends_the_same_way(tmp_path):
    args = ["--game", "battleship", "--level", "2", "--seed", "21", "--text"]
    rows = [f"shoot {s} row {r}" for s in (1, 2, 3) for r in ROWS]
    whole, first, second = tmp_path / "w.jsonl", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run_console(args + ["--log", str(whole), "--save", str(tmp_path / "w.json")], rows, tmp_path)
    save = tmp_path / "s.json"
    half = run_console(args + ["--log", str(first), "--save", str(save)], rows[:12], tmp_path)
    assert half.returncode == 0
    resumed = run_console(["--resume", "--text", "--save", str(save), "--log", str(second)],
                          rows[12:], tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "Resumed Battleship: Outer Space, after 24 actions." in resumed.stdout
    assert read_log(first) + read_log(second) == read_log(whole)
