"""The Defence: flight die, boosters, shot die, shields and the end of the game."""
import random

import pytest

from audio_console.arkade.actions import Booster, Done, Reroll, Roll, ShipTo, Shoot
from audio_console.arkade.rules import ALIEN, DEFENCE, Game, IllegalAction, Options
from tests.arkade.helpers import game_with, logged, snapshot, where
from tests.arkade.test_movement import refused


def test_the_ship_flies_to_the_rolled_number_or_stays():
    game = game_with({"C3": "yellow", "A1": "pink"}, turn=DEFENCE, defence_dice=(4, "pink"))
    refused(game, DEFENCE, ShipTo(3), "shows 4")
    events = logged(game.act(DEFENCE, ShipTo(4)))
    assert game.ship == 3 and events[0]["event"] == "spaceship_flight"
    refused(game, DEFENCE, ShipTo(4), "used its flight die")


def test_boosters_move_one_space_sideways_at_any_time_and_leave_the_game():
    game = game_with({"C3": "yellow"}, turn=DEFENCE, ship=2, boosters=2)
    game.act(DEFENCE, Booster("right"))              # before rolling: "at any time during your turn"
    assert game.ship == 2 and game.boosters == 1
    game.act(DEFENCE, Booster("left"))
    assert game.ship == 1 and game.boosters == 0
    refused(game, DEFENCE, Booster("left"), "no boosters")
    game = game_with({"C3": "yellow"}, turn=DEFENCE, ship=1)
    refused(game, DEFENCE, Booster("left"), "end of the defence line")


def test_the_shot_hits_the_nearest_saucer_in_the_column_if_its_colour_matches():
    game = game_with({"C3": "yellow", "E3": "pink", "A1": "pink"}, turn=DEFENCE, ship=3, defence_dice=(1, "yellow"))
    refused(game, DEFENCE, Shoot(), "nearest saucer in column 3 is pink")
    game.defence_dice.shot = "pink"
    events = logged(game.act(DEFENCE, Shoot()))
    assert events[0]["result"] == "destroyed" and events[0]["target"] == "E3"
    assert where(game) == {"C3": "yellow", "A1": "pink"}
    refused(game, DEFENCE, Shoot(), "shot die is used")


def test_no_saucer_in_the_column_no_shot():
    game = game_with({"C3": "yellow"}, turn=DEFENCE, ship=5, defence_dice=(1, "yellow"))
    refused(game, DEFENCE, Shoot(), "No saucer in column 5")


def test_a_shielded_saucer_is_turned_over_first_and_destroyed_by_the_next_hit():
    game = game_with({"C3": "yellow", "A1": "pink"}, turn=DEFENCE, ship=3, defence_dice=(1, "yellow"))
    game.saucers[0].shield = True
    assert logged(game.act(DEFENCE, Shoot()))[0]["result"] == "shield"
    assert where(game) == {"C3": "yellow", "A1": "pink"} and not game.saucers[0].shield
    game.act(DEFENCE, Done())
    game.act(ALIEN, Done())
    game.defence_dice.flight, game.defence_dice.shot, game.defence_dice.rolls = 2, "yellow", 1
    assert logged(game.act(DEFENCE, Shoot()))[0]["result"] == "destroyed"


def test_defence_rerolls_one_die_and_keeps_the_other():
    game = Game(Options(), random.Random(2))
    game.act(ALIEN, Done())
    first = logged(game.act(DEFENCE, Roll()))[0]
    second = logged(game.act(DEFENCE, Reroll("shot")))[0]
    assert second["flight"] == first["flight"]
    game.act(DEFENCE, Reroll("flight"))
    refused(game, DEFENCE, Reroll("shot"), "last roll")


def test_the_defence_wins_when_every_saucer_is_destroyed():
    game = game_with({"C3": "yellow"}, turn=DEFENCE, ship=3, defence_dice=(1, "yellow"))
    events = logged(game.act(DEFENCE, Shoot()))
    assert game.winner == DEFENCE and events[-1] == {"event": "game_over", "winner": "defence", "turns": 1}
    with pytest.raises(IllegalAction):
        game.act(DEFENCE, Done())


def test_turns_alternate_and_are_counted():
    game = Game(Options(), random.Random(2))
    events = logged(game.act(ALIEN, Done()))
    assert game.turn == DEFENCE and events[-1]["turn"] == 2
    game.act(DEFENCE, Done())
    assert game.turn == ALIEN and game.turns == 3
