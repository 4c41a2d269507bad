"""The rules core: placement, shots, vaporizing, winning, and its invariants."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audio_console.battleship.footprints import SHIP_NAMES
from audio_console.battleship.board import (ALL_LINES, COLUMN, ROW, BattleshipError, Line,
                                            PhaseError, Placement, PlacementError, ShotError,
                                            make_line)
from audio_console.battleship.events import (HIT, MISS, FleetDestroyed, ShipVaporized, ShotFired,
                                             ShotRecalled)
from audio_console.battleship.rules import SHOOTING, Game, random_fleet


def fleet_a():
    """Player 2's fleet in the tests: laid out by hand."""
    return [Placement("Quadron", 1, 1, 2, "across"),          # 1B3-1B6, 1C3-1C6
            Placement("Rocket Raider", 2, 3, 0, "across"),    # 2D1, 2E1-2E4, 2F1
            Placement("Celestial Crawler", 2, 7, 5, "across"),  # 2H6-2H8, 2I7-2I9
            Placement("Tricorn Fighter", 3, 0, 0, "across"),  # 3A1, 3A3, 3B2
            Placement("Dueler", 3, 9, 8, "across")]           # 3J9, 3J10


def ready_game(fleet1=None, fleet2=None) -> Game:
    game = Game()
    for player, fleet in ((1, fleet1 or random_fleet(random.Random(1)).values()), (2, fleet2 or fleet_a())):
        for placement in fleet:
            game.place(player, placement)
        game.finish_placing(player)
    return game


def line(text: str) -> Line:
    sector, kind, value = text.split()
    return make_line(int(sector), kind, value)


# --- placing ------------------------------------------------------------------

def test_a_ship_lies_on_the_holes_of_its_footprint():
    assert sorted(str(c) for c in Placement("Rocket Raider", 2, 3, 0, "across").cells()) == [
        "2D1", "2E1", "2E2", "2E3", "2E4", "2F1"]
    assert sorted(str(c) for c in Placement("Dueler", 3, 0, 9, "down").cells()) == ["3A10", "3B10"]


def test_a_ship_sticking_out_of_the_grid_is_refused_with_the_reason():
    game = Game()
    with pytest.raises(PlacementError, match="stick out 1 column past column 10"):
        game.place(1, Placement("Quadron", 1, 0, 7, "across"))
    with pytest.raises(PlacementError, match="2 rows past row J"):
        game.place(1, Placement("Quadron", 1, 8, 0, "down"))
    assert game.fleets[1] == {}


def test_overlapping_ships_are_refused_naming_the_ship_and_holes():
    game = Game()
    game.place(1, Placement("Quadron", 1, 1, 2, "across"))
    before = game.snapshot()
    with pytest.raises(PlacementError, match="overlap the Quadron at C4"):
        game.place(1, Placement("Dueler", 1, 2, 3, "down"))
    assert game.snapshot() == before
    # The same spot in another sector is free: every sector is its own grid.
    game.place(1, Placement("Dueler", 2, 2, 3, "down"))


def test_each_ship_once_and_the_whole_fleet_before_the_battle():
    game = Game()
    game.place(1, Placement("Dueler", 1, 0, 0))
    with pytest.raises(PlacementError, match="already placed"):
        game.place(1, Placement("Dueler", 2, 0, 0))
    with pytest.raises(PlacementError, match="still to place: Quadron"):
        game.finish_placing(1)
    with pytest.raises(PhaseError):
        game.shoot(1, line("1 row A"))


def test_random_fleets_are_legal_and_repeat_with_the_seed():
    fleet = random_fleet(random.Random(7))
    assert fleet == random_fleet(random.Random(7))
    assert sorted(fleet) == sorted(SHIP_NAMES)
    game = Game()
    for placement in fleet.values():
        game.place(1, placement)   # raises if illegal


# --- shooting -----------------------------------------------------------------

def test_a_row_through_a_ship_is_a_hit_and_hits_every_hole_on_it():
    game = ready_game()
    events = game.shoot(1, line("2 row E"))
    assert isinstance(events[0], ShotFired) and events[0].result == HIT
    assert sorted(str(c) for _, c in events[0].new_hits) == ["2E1", "2E2", "2E3", "2E4"]
    assert game.to_move == 2


def test_a_line_holding_two_ships_hits_both():
    game = ready_game(fleet2=[Placement("Quadron", 1, 0, 0), Placement("Dueler", 1, 5, 0, "down"),
                              *fleet_a()[1:4]])
    events = game.shoot(1, line("1 column 1"))
    assert {ship for ship, _ in events[0].new_hits} == {"Quadron", "Dueler"}


def test_an_empty_line_is_a_miss():
    game = ready_game()
    assert game.shoot(1, line("1 row A"))[0].result == MISS


def test_a_ship_is_vaporized_by_name_when_its_last_hole_is_hit():
    game = ready_game()
    assert not any(isinstance(e, ShipVaporized) for e in game.shoot(1, line("3 column 9")))
    game.shoot(2, line("1 row A"))
    events = game.shoot(1, line("3 column 10"))
    assert [e.ship for e in events if isinstance(e, ShipVaporized)] == ["Dueler"]
    assert game.vaporized[2] == ["Dueler"]


def test_a_line_called_again_is_answered_from_memory_and_costs_nothing():
    game = ready_game()
    game.shoot(1, line("2 row E"))
    game.shoot(2, line("1 row A"))
    before = game.snapshot()
    events = game.shoot(1, line("2 row E"))
    assert events == [ShotRecalled(1, line("2 row E"), HIT)]
    assert game.snapshot() == before and game.to_move == 1 and game.shots(1) == 1


def test_out_of_turn_and_after_the_end_are_refused():
    game = ready_game()
    with pytest.raises(ShotError, match="player 1's turn"):
        game.shoot(2, line("1 row A"))
    with pytest.raises(ShotError, match="no row K"):
        make_line(1, ROW, "K")
    with pytest.raises(ShotError, match="no sector 4"):
        make_line(4, COLUMN, 3)


def test_vaporizing_the_whole_fleet_wins_with_the_shots_counted():
    game = ready_game()
    rows = ["1 row B", "1 row C", "2 row D", "2 row E", "2 row F", "2 row H", "2 row I",
            "3 row A", "3 row B", "3 row J"]
    for i, text in enumerate(rows):
        events = game.shoot(1, line(text))
        if i < len(rows) - 1:
            game.shoot(2, ALL_LINES[i])
    assert isinstance(events[-1], FleetDestroyed)
    assert events[-1].winner == 1 and dict(events[-1].shots) == {1: 10, 2: 9}
    assert sorted(game.vaporized[2]) == sorted(SHIP_NAMES)
    with pytest.raises(PhaseError, match="over"):
        game.shoot(2, line("1 row A"))


# --- properties ------------------------------------------------------------------

def illegal_actions(game: Game, rng: random.Random):
    """A few actions the rules must refuse in the current state."""
    yield lambda: game.shoot(3 - game.to_move, rng.choice(ALL_LINES))
    yield lambda: game.place(1, Placement("Dueler", 1, 0, 0))
    yield lambda: game.finish_placing(2)
    yield lambda: game.shoot(game.to_move, Line(4, ROW, 0))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(0, 10 ** 6))
def test_any_game_keeps_the_rules(fleet_seed, shot_seed):
    rng = random.Random(shot_seed)
    game = Game()
    fleets = {p: random_fleet(random.Random(f"{fleet_seed}:{p}")) for p in (1, 2)}
    for player, fleet in fleets.items():
        cells = [c for p in fleet.values() for c in p.cells()]
        assert len(cells) == len(set(cells)) == 25                      # no overlap
        assert all(0 <= c.row < 10 and 0 <= c.column < 10 for c in cells)
        for placement in fleet.values():
            game.place(player, placement)
        game.finish_placing(player)
    assert game.phase == SHOOTING
    for turn in range(3000):
        if game.winner is not None:
            break
        for action in illegal_actions(game, rng):
            before = game.snapshot()
            with pytest.raises(BattleshipError):
                action()
            assert game.snapshot() == before                              # illegal: no change
        shooter = game.to_move
        target = 3 - shooter
        events = game.shoot(shooter, rng.choice(ALL_LINES))
        called = game.called[shooter]
        for cell in game.hits[target]:                                    # hits only on lines shot
            assert any(l.covers(cell) for l in called)
        for ship, placement in game.fleets[target].items():               # vaporized exactly when all hit
            all_hit = placement.cells() <= game.hits[target]
            assert all_hit == (ship in game.vaporized[target])
        if isinstance(events[0], ShotFired):
            hit = any(c in game.occupied(target) for c in events[0].line.cells())
            assert (events[0].result == HIT) == hit
    assert game.winner is not None                                         # every game ends
    assert len(game.vaporized[game.winner % 2 + 1]) == 5


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SHIP_NAMES), st.integers(0, 4), st.integers(-1, 10),
                          st.integers(-1, 10), st.sampled_from(["across", "down", "left", "up", "diagonal"]),
                          st.booleans()), max_size=25))
def test_placing_keeps_ships_on_the_grid_apart_or_changes_nothing(attempts):
    game = Game()
    for ship, sector, row, column, heading, remove in attempts:
        before = game.snapshot()
        try:
            if remove:
                game.remove(1, ship)
            else:
                game.place(1, Placement(ship, sector, row, column, heading))
        except BattleshipError:
            assert game.snapshot() == before
        cells = [c for p in game.fleets[1].values() for c in p.cells()]
        assert len(cells) == len(set(cells))
        assert all(c.sector in (1, 2, 3) and 0 <= c.row < 10 and 0 <= c.column < 10 for c in cells)
