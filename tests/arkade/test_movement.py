"""Saucer flight and the Strategy Mode turn, as the rulebook states them.

Classic side (reconstruction), rows A-H: row B is "ogbogb" (orange green blue ...),
row C "gbogbo", row D "bogbog".
"""
import random

import pytest

from audio_console.arkade.actions import Done, Fly, Keep, Reroll, Roll
from audio_console.arkade.board import formation, load_board
from audio_console.arkade.rules import ALIEN, DEFENCE, Game, IllegalAction, Options
from tests.arkade.helpers import cell, game_with, logged, snapshot, space, where


def refused(game, side, action, words):
    before = snapshot(game)
    with pytest.raises(IllegalAction) as error:
        game.act(side, action)
    assert words in str(error.value)
    assert snapshot(game) == before
    return str(error.value)


def test_a_saucer_flies_forward_onto_a_space_of_a_rolled_colour():
    game = game_with({"B3": "yellow"}, alien_dice=("orange", "blue"))   # C3 is orange
    events = logged(game.act(ALIEN, Fly(space("B3"), ("forward",))))
    assert where(game) == {"C3": "yellow"}
    assert events[0] == {"event": "flight", "saucer": "yellow", "from": "B3", "to": "C3", "path": ["C3"]}
    assert game.alien_dice.used == [True, False]


def test_a_saucer_flies_sideways():
    game = game_with({"C3": "pink"}, alien_dice=("green", "green"))     # C4 green
    game.act(ALIEN, Fly(space("C3"), ("right",)))
    assert where(game) == {"C4": "pink"}


def test_the_colour_must_match_a_die():
    game = game_with({"B3": "yellow"}, alien_dice=("blue", "green"))
    refused(game, ALIEN, Fly(space("B3"), ("forward",)), "needs orange")


def test_two_spaces_need_two_dice_of_the_two_colours_not_rolled_blue_twice():
    # Classic side: C2 is blue, D2 is orange.
    game = game_with({"B2": "yellow"}, alien_dice=("blue", "green"))
    refused(game, ALIEN, Fly(space("B2"), ("forward", "forward")), "needs blue and orange")
    # The expert side has C3 and C4 both blue: forward then sideways needs blue twice.
    game = game_with({"B4": "yellow"}, alien_dice=("blue", "green"), side="expert")
    assert game.board.colour(cell("C4")) == game.board.colour(cell("C3")) == "blue"
    refused(game, ALIEN, Fly(space("B4"), ("forward", "left")), "needs blue and blue")
    game = game_with({"B4": "yellow"}, alien_dice=("blue", "blue"), side="expert")
    game.act(ALIEN, Fly(space("B4"), ("forward", "left")))
    assert where(game) == {"C3": "yellow"}


def test_no_backward_flight():
    game = game_with({"C3": "yellow"}, alien_dice=("green", "blue"))   # B3 blue
    refused(game, ALIEN, Fly(space("C3"), ("back",)), "never fly backwards")
    refused(game, ALIEN, Fly(space("C3"), (space("B3"),)), "never fly backwards")


def test_no_diagonal_flight():
    game = game_with({"B3": "yellow"}, alien_dice=("green", "blue"))   # C4 green
    refused(game, ALIEN, Fly(space("B3"), (space("C4"),)), "never fly diagonally")


def test_no_flying_over_a_saucer():
    game = game_with({"B3": "yellow", "C3": "pink"}, alien_dice=("orange", "green"))
    refused(game, ALIEN, Fly(space("B3"), (space("D3"),)), "never flies over")
    refused(game, ALIEN, Fly(space("B3"), ("forward", "forward")), "never fly onto or over")


def test_no_flying_onto_an_occupied_space():
    game = game_with({"B3": "yellow", "C3": "pink"}, alien_dice=("orange", "green"))
    refused(game, ALIEN, Fly(space("B3"), ("forward",)), "holds the pink saucer")


def test_no_flight_off_the_board():
    game = game_with({"C6": "yellow"}, alien_dice=("orange", "green"))
    refused(game, ALIEN, Fly(space("C6"), ("right",)), "leaves the board")


def test_obstacles_block_flights():
    game = game_with({"B3": "yellow", "B5": "pink"}, alien_dice=("orange", "green"))
    game.asteroid = cell("C3")
    refused(game, ALIEN, Fly(space("B3"), ("forward",)), "asteroid")
    game.magnets = [cell("C5")]
    game.asteroid = None
    refused(game, ALIEN, Fly(space("B5"), ("forward",)), "magnetic field")


def test_two_saucers_one_space_each_or_one_saucer_two_spaces_or_part():
    game = game_with({"B3": "yellow", "B1": "pink"}, alien_dice=("orange", "green"))  # C3 o, C1 g
    game.act(ALIEN, Fly(space("B3"), ("forward",)))
    refused(game, ALIEN, Fly(space("C3"), ("right",)), "flown this turn")     # one flight per saucer
    game.act(ALIEN, Fly(space("B1"), ("forward",)))
    assert where(game) == {"C3": "yellow", "C1": "pink"}
    refused(game, ALIEN, Fly(space("C1"), ("right",)), "flown this turn")
    game = game_with({"B3": "yellow"}, alien_dice=("orange", "green"))   # C3 orange, D3 green
    game.act(ALIEN, Fly(space("B3"), ("forward", "forward")))
    assert where(game) == {"D3": "yellow"}
    game = game_with({"B3": "yellow"}, alien_dice=("orange", "green"))
    game.act(ALIEN, Done())                                      # forgo the flight wholly
    assert game.turn == DEFENCE and where(game) == {"B3": "yellow"}


def test_up_to_three_rolls_only_the_last_counts_and_one_die_may_be_kept():
    game = Game(Options(), random.Random(4))
    first = logged(game.act(ALIEN, Roll()))[0]["dice"]
    refused(game, ALIEN, Roll(), "rolled already")
    second = logged(game.act(ALIEN, Reroll("second")))[0]["dice"]
    assert second[0] == first[0]
    third = logged(game.act(ALIEN, Reroll("both")))[0]
    assert third["last"] and game.alien_dice.faces == third["dice"]
    refused(game, ALIEN, Reroll("first"), "last roll")


def test_experts_roll_at_most_twice():
    game = Game(Options(max_rolls=2), random.Random(4))
    game.act(ALIEN, Roll())
    assert logged(game.act(ALIEN, Reroll("both")))[0]["last"]
    refused(game, ALIEN, Reroll("both"), "last roll")


def test_keeping_or_flying_ends_the_rolling():
    game = Game(Options(), random.Random(4))
    game.act(ALIEN, Roll())
    game.act(ALIEN, Keep())
    refused(game, ALIEN, Reroll("both"), "kept")


def test_nobody_acts_out_of_turn():
    game = Game(Options(), random.Random(1))
    refused(game, DEFENCE, Roll(), "Alien's turn")


def test_the_alien_wins_on_reaching_the_last_row():
    game = game_with({"G3": "yellow", "A1": "pink"}, alien_dice=("blue", "green"))
    assert game.board.colour(cell("H3")) == "blue"
    events = logged(game.act(ALIEN, Fly(space("G3"), ("forward",))))
    assert game.winner == ALIEN
    assert events[-1] == {"event": "game_over", "winner": "alien", "turns": 1}
    refused(game, ALIEN, Done(), "game is over")


def test_set_up_follows_the_rulebook():
    game = Game(Options(), random.Random(9))
    assert len(game.alive()) == 12 and not any(s.shield for s in game.saucers)
    assert {s.cell[0] for s in game.saucers} == {0, 1}
    assert sorted(s.colour for s in game.saucers) == ["pink"] * 4 + ["purple"] * 4 + ["yellow"] * 4
    assert len(game.alien_chips) == 6
    assert all(len(chips) == 2 for chips in game.defence_chips.values())
    assert game.ship == 0 and game.turn == ALIEN
    for boosters in (4, 6, 8):
        assert Game(Options(boosters=boosters), random.Random(1)).boosters == boosters
    arcade = Game(Options(mode="arcade"), random.Random(1))
    assert arcade.alien_chips == [] and all(not c for c in arcade.defence_chips.values())


def test_formations_and_board_sides_differ():
    assert formation("offset") != formation("pairs")
    pairs = formation("pairs")
    assert pairs[(0, 0)] == pairs[(1, 0)] == pairs[(0, 1)]      # colour pairs
    classic, expert = load_board("classic"), load_board("expert")
    assert classic.rows == expert.rows and 8 <= classic.rows <= 10
    assert classic.colours != expert.colours and classic.bonus != expert.bonus
    assert all(2 <= c[0] < classic.last_row for c, _ in classic.bonus + expert.bonus)


def test_a_flight_ends_where_it_reaches_the_last_row():
    game = game_with({"G3": "yellow", "A1": "pink"}, alien_dice=("blue", "green"))   # H3 is blue
    events = logged(game.act(ALIEN, Fly(space("G3"), ("forward", "right"))))
    assert game.winner == ALIEN and where(game)["H3"] == "yellow"
    assert events[1] == {"event": "alarm", "saucer": "yellow", "cell": "H3"}
