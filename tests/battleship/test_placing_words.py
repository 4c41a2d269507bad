"""Battleship at the console as a listener follows it (issue 30, items 1 and 7): a ship
that cannot go somewhere is never offered to be placed there, "All five ships placed"
is said once, the computer's hit tells the damage before "Vaporized", a ship's holes
are read row by row, and the memory says "unknown" and "ruled out" as Galaxis does.
Typed into the real console."""
from audio_console.battleship.board import Placement
from audio_console.battleship.placing import FleetPlacing
from audio_console.battleship.rules import Game
from audio_console.contract.hot_seat import HotSeat
from tests.conftest import run_console

ARGS = ["--game", "battleship", "--placement", "manual", "--seed", "3", "--text"]


def lines_of(result):
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_a_ship_that_cannot_go_there_is_offered_a_place_where_it_fits(tmp_path):
    lines = lines_of(run_console(ARGS, ["quadron sector 1 B3 across", "place", "rocket raider sector 1 B3 across",
                                        "move to C2", "place", "quadron sector 2 A1 across",
                                        "dueler sector 1 J10 across", "quit"], tmp_path))
    cannot = lines.index("Cannot go there: the Rocket Raider would overlap the Quadron at B3, C3, C4, C5, C6.")
    # the nearest corner where it fits with the same heading, and the words that move it there
    assert lines[cannot + 1] == "Rocket Raider at sector 1 B3 across cannot go there. It fits at C2: say move to C2."
    assert "place" not in lines[cannot] + lines[cannot + 1]
    # following the offer works: the ship fits there and is placed
    assert "Rocket Raider at sector 1 C2 across: say place, turn it, or move to another corner." in lines
    assert any(line.startswith("Placed: Rocket Raider in sector 1, across, box from C2") for line in lines)
    assert "Quadron at sector 2 A1 across cannot go there. The Quadron is placed already: say remove quadron " \
           "to move it." in lines
    stuck = lines.index("Dueler at sector 1 J10 across cannot go there. It fits at J9: say move to J9.")
    assert "would stick out 1 column past column 10" in lines[stuck - 1]


def test_placing_at_once_where_it_cannot_go_is_a_try_with_the_offer(tmp_path):
    lines = lines_of(run_console(ARGS, ["place quadron sector 1 B3 across", "place rocket raider sector 1 B3 across",
                                        "place", "move to C2", "place", "quit"], tmp_path))
    cannot = lines.index("Cannot go there: the Rocket Raider would overlap the Quadron at B3, C3, C4, C5, C6.")
    assert lines[cannot + 1] == "Rocket Raider at sector 1 B3 across cannot go there. It fits at C2: say move to C2."
    assert not any(line.startswith("Placed: Rocket Raider") for line in lines[:cannot + 3])
    assert any(line.startswith("Placed: Rocket Raider in sector 1, across, box from C2") for line in lines)


def offer_where_only(free, pending):
    """The offer for `pending` when only the placements `free` accepts are free (the rule
    of choosing; the real fitting is tried in the test above)."""
    placing = FleetPlacing(Game(), 1, "computer", HotSeat("player"), lambda events: None)
    placing._fits = free
    return placing._offer(pending)


def test_the_offer_turns_the_ship_or_moves_it_to_another_sector_when_no_corner_fits():
    pending = Placement("Dueler", 1, 1, 2, "across")                 # B3 across
    assert offer_where_only(lambda p: p.sector == 1 and p.heading == "down",
                            pending) == "It fits turned down: say turn it."
    assert offer_where_only(lambda p: p.sector == 2 and (p.row, p.column) == (1, 2),
                            pending) == "It fits in sector 2: say move to sector 2."
    assert offer_where_only(lambda p: p == Placement("Dueler", 3, 8, 0, "up"),
                            pending) == "It fits at sector 3 I1 up: say dueler sector 3 I1 up."
    assert offer_where_only(lambda p: False, pending) == ("There is no room left for it: remove a ship, "
                                                          "like remove dueler.")


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
