"""Battleship at the console as a listener follows it (issue 30, items 1 and 7): a ship
that cannot go somewhere is never offered to be placed there, "All five ships placed"
is said once, the computer's hit tells the damage before "Vaporized", a ship's holes
are read row by row, and the memory says "unknown" and "ruled out" as Galaxis does.
Typed into the real console."""
from tests.conftest import run_console

ARGS = ["--game", "battleship", "--placement", "manual", "--seed", "3", "--text"]


def lines_of(result):
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_a_ship_that_cannot_go_there_is_not_offered_to_be_placed_there(tmp_path):
    lines = lines_of(run_console(ARGS, ["quadron sector 1 B3 across", "place", "rocket raider sector 1 B3 across",
                                        "move to F3", "quit"], tmp_path))
    cannot = lines.index("Cannot go there: the Rocket Raider would overlap the Quadron at B3, C3, C4, C5, C6.")
    assert lines[cannot + 1] == ("Rocket Raider at sector 1 B3 across cannot go there: say turn it, move to "
                                 "another corner, or move to another sector.")
    assert "place" not in lines[cannot] + lines[cannot + 1]
    assert "Rocket Raider at sector 1 F3 across: say place, turn it, or move to another corner." in lines


def test_holes_are_read_row_by_row_and_all_five_placed_is_said_once(tmp_path):
    lines = lines_of(run_console(ARGS, ["quadron sector 1 B3 across", "place", "rocket raider sector 1 F3 across",
                                        "place", "random", "my fleet", "quit"], tmp_path))
    assert "Placed: Quadron in sector 1, across, box from B3: holes B3 to B6, then C3 to C6." in lines
    assert "Placed: Rocket Raider in sector 1, across, box from F3: holes F3, then G3 to G6, then H3." in lines
    assert "Placed: Celestial Crawler in sector 3, left, box from E4: holes E4 to E6, then F5 to F7." in lines
    assert sum("ll five ships placed" in l for l in lines) == 1
    assert "All five ships placed: say done to begin, my fleet to hear it, or remove a ship." in lines
    assert "Dueler: unhurt, 2 holes; sector 2, left, box from E7: holes E7, E8." in lines


def test_a_computer_hit_tells_the_damage_before_vaporized(tmp_path):
    placing = ["quadron sector 1 B3 across", "place", "rocket raider sector 1 F3 across", "place", "random", "done"]
    shots = ["sector 1 row A", "sector 1 row B", "sector 1 row C", "sector 1 row D"]
    lines = lines_of(run_console(ARGS, placing + shots + ["quit"], tmp_path))
    vaporized = lines.index("Vaporized: your Celestial Crawler.")
    assert lines[vaporized - 1] == "Damage in sector 3: your Celestial Crawler at E4."
    assert lines[vaporized - 2] == "The computer's hit: sector 3 column 4."


def test_the_memory_says_unknown_and_ruled_out_like_galaxis(tmp_path):
    # Seed 3: the computer's fleet has nothing in sector 3, so every column there misses
    # and then every row of it is certainly a miss too.
    columns = [f"sector 3 column {c}" for c in range(1, 11)]
    lines = lines_of(run_console(["--game", "battleship", "--seed", "3", "--text"],
                                 ["read sector 2", "what about sector 2 row A"] + columns
                                 + ["what about sector 3 row A", "read sector 3", "quit"], tmp_path))
    assert "Sector 2: nothing called yet; every line unknown." in lines
    assert "Sector 2 row A: unknown, not called yet." in lines
    assert all(f"Your miss: sector 3 column {c}." in lines for c in range(1, 11))
    assert ("Sector 3 row A: ruled out by the answers, not called: every hole on it lies on a line "
            "that missed.") in lines
    read = next(l for l in lines if l.startswith("Sector 3: misses"))
    assert "; ruled out by the answers, not called: row A, row B," in read and "and row J" in read
