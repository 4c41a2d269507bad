"""Every bonus chip with its exact rulebook effect (one test each, and its fizzle).

Classic side (reconstruction), 8 rows: bonus spaces C1 yellow, C4 pink, D6 purple,
E2 pink, E5 yellow, F3 purple. B1 is orange, C1 green, C2 blue, D1 blue, D5 orange, E5 green.
"""
import pytest

from audio_console.arkade.actions import (
    Booster, ClearMagnet, Choose, Done, Fly, Plasma, Sacrifice, ShipTo, Shoot, UseGps,
)
from audio_console.arkade.rules import ALIEN, DEFENCE, IllegalAction
from tests.arkade.helpers import cell, game_with, logged, snapshot, space, where
from tests.arkade.test_movement import refused


def land_on_c1(chips, saucers=None, **kwargs):
    """A yellow saucer flies B1 -> C1, the yellow bonus space, with these face-down chips."""
    saucers = saucers or {}
    game = game_with({"B1": "yellow", **saucers}, alien_dice=("green", "blue"), alien_chips=chips, **kwargs)
    return game, logged(game.act(ALIEN, Fly(space("B1"), ("forward",))))


def chip_event(events):
    return next(e for e in events if e["event"] == "chip")


# --- Alien bonus spaces ---------------------------------------------------------------

def test_a_bonus_space_of_the_saucers_colour_turns_over_a_chip():
    game, events = land_on_c1(["shield", "hit"])
    assert chip_event(events)["chip"] == "shield" and game.alien_chips == ["hit"]


def test_a_bonus_space_of_another_colour_gives_nothing():
    game = game_with({"B1": "pink"}, alien_dice=("green", "blue"), alien_chips=["shield"])
    events = logged(game.act(ALIEN, Fly(space("B1"), ("forward",))))
    assert not any(e["event"] == "chip" for e in events) and game.alien_chips == ["shield"]


def test_only_the_end_of_the_flight_counts():
    game = game_with({"B1": "yellow"}, alien_dice=("green", "blue"), alien_chips=["shield"])
    events = logged(game.act(ALIEN, Fly(space("B1"), ("forward", "right"))))       # over C1 to C2
    assert where(game) == {"C2": "yellow"} and game.alien_chips == ["shield"]
    assert not any(e["event"] == "chip" for e in events)


def test_no_chips_left_no_bonus():
    game, events = land_on_c1([])
    assert not any(e["event"] == "chip" for e in events)


def test_shield_turns_the_saucer_heart_side_up():
    game, events = land_on_c1(["shield"])
    assert chip_event(events)["result"] == "shield"
    assert game.saucer_at(cell("C1")).shield


def test_shield_is_lost_on_a_saucer_already_shielded():
    game = game_with({"B1": "yellow"}, alien_dice=("green", "blue"), alien_chips=["shield"])
    game.saucers[0].shield = True
    events = logged(game.act(ALIEN, Fly(space("B1"), ("forward",))))
    assert chip_event(events)["result"] == "fizzled" and game.alien_chips == []


def test_improved_engine_flies_one_more_free_space_forward():
    game, events = land_on_c1(["engine"])
    assert chip_event(events)["result"] == "moved" and where(game) == {"D1": "yellow"}


def test_improved_engine_is_lost_when_the_space_ahead_is_taken():
    game, events = land_on_c1(["engine"], {"D1": "pink"})
    assert chip_event(events)["result"] == "fizzled" and where(game) == {"C1": "yellow", "D1": "pink"}


def test_rift_moves_a_saucer_straight_forward_to_the_triggering_row():
    game, events = land_on_c1(["rift"], {"A3": "purple"})
    assert chip_event(events)["result"] == "moved"
    assert where(game) == {"C1": "yellow", "C3": "purple"}


def test_rift_rulebook_example_no_second_chip_for_flying_over():
    # Yellow lands on E5 and gets the rift; pink flies A4 -> E4 over the pink bonus
    # space C4 and gets no chip for flying over it.
    game = game_with({"D5": "yellow", "A4": "pink"}, alien_dice=("green", "blue"), alien_chips=["rift", "shield"])
    events = logged(game.act(ALIEN, Fly(space("D5"), ("forward",))))
    assert where(game) == {"E5": "yellow", "E4": "pink"}
    assert game.alien_chips == ["shield"]
    assert [e["chip"] for e in events if e["event"] == "chip"] == ["rift"]


def test_rift_ending_on_a_matching_bonus_space_turns_over_another_chip():
    game = game_with({"D5": "yellow", "A2": "pink"}, alien_dice=("green", "blue"), alien_chips=["rift", "shield"])
    events = logged(game.act(ALIEN, Fly(space("D5"), ("forward",))))            # pink A2 -> E2, the pink bonus space
    assert where(game) == {"E5": "yellow", "E2": "pink"}
    assert [e["chip"] for e in events if e["event"] == "chip"] == ["rift", "shield"]
    assert game.saucer_at(cell("E2")).shield


def test_rift_needs_a_free_straight_path_and_asks_when_there_is_a_choice():
    game, events = land_on_c1(["rift"], {"A3": "purple", "B3": "pink", "A5": "pink", "A6": "yellow"})
    # A3 is blocked by B3; B3, A5 and A6 may go
    assert chip_event(events)["result"] == "choose"
    assert set(game.pending.choices) == {cell("B3"), cell("A5"), cell("A6")}
    refused(game, ALIEN, Done(), "First choose")
    refused(game, ALIEN, Choose(space("A3")), "cannot be chosen")
    game.act(ALIEN, Choose(space("A5")))
    assert where(game)["C5"] == "pink" and game.pending is None


def test_rift_is_lost_without_a_saucer_behind():
    game, events = land_on_c1(["rift"])
    assert chip_event(events)["result"] == "fizzled"


def test_saucer_hits_the_spaceship_costs_a_booster():
    game, events = land_on_c1(["hit"], boosters=3)
    assert chip_event(events)["result"] == "booster_lost" and game.boosters == 2
    game, events = land_on_c1(["hit"], boosters=0)
    assert chip_event(events)["result"] == "fizzled" and game.boosters == 0


def test_repaired_saucer_returns_to_a_free_space_of_the_first_row():
    game, _ = land_on_c1([], {"A2": "pink"})
    game.saucers.append(type(game.saucers[0])(9, "purple", None))   # destroyed earlier
    game.saucers.append(type(game.saucers[0])(10, "pink", None))
    game.alien_chips = ["repair"]
    game.alien_dice.used = [False, False]
    game.flown.clear()
    game.saucers[0].cell = cell("B1")
    events = logged(game.act(ALIEN, Fly(space("B1"), ("forward",))))
    assert chip_event(events)["result"] == "choose"
    assert cell("A2") not in game.pending.choices and cell("A1") in game.pending.choices
    refused(game, ALIEN, Choose(space("A1")), "which colour")
    refused(game, ALIEN, Choose(space("A1"), "yellow"), "No yellow saucer")
    game.act(ALIEN, Choose(space("A1"), "purple"))
    assert where(game)["A1"] == "purple"


def test_repaired_saucer_is_lost_when_none_was_destroyed():
    game, events = land_on_c1(["repair"])
    assert chip_event(events)["result"] == "fizzled"


def test_reactor_damage_limits_the_defences_next_turn_then_ends():
    game, events = land_on_c1(["reactor"], {"E6": "pink"}, ship=3)
    assert chip_event(events)["result"] == "reactor"
    events = logged(game.act(ALIEN, Done()))
    assert events[-1]["reactor"] and game.reactor_active
    game.kept.append(("gps", "pink"))
    game.defence_dice.flight, game.defence_dice.shot, game.defence_dice.rolls = 4, "pink", 1
    refused(game, DEFENCE, ShipTo(4), "only fly to 1 or 6")
    refused(game, DEFENCE, Booster("right"), "no boosters")
    refused(game, DEFENCE, UseGps(6), "no GPS")
    game.defence_dice.flight = 6
    game.act(DEFENCE, ShipTo(6))
    game.act(DEFENCE, Shoot())                                  # shots are still allowed
    game.act(DEFENCE, Done())
    game.act(ALIEN, Done())
    assert not game.reactor_active
    game.act(DEFENCE, Booster("left"))


# --- Defence chips: two saucers of a colour destroyed ------------------------------------

def second_kill(chip, saucers=None, colour="yellow", **kwargs):
    """The Defence destroys its second yellow saucer (at D3) with this chip face down."""
    saucers = {"D3": colour, "A6": "purple", **(saucers or {})}
    game = game_with(saucers, turn=DEFENCE, ship=3, defence_dice=(1, colour),
                     defence_chips={colour: [chip]}, **kwargs)
    game.destroyed[colour] = 1
    events = logged(game.act(DEFENCE, Shoot()))
    return game, events


def test_the_first_destroyed_saucer_of_a_colour_gives_no_chip():
    game = game_with({"D3": "yellow", "A6": "pink"}, turn=DEFENCE, ship=3, defence_dice=(1, "yellow"),
                     defence_chips={"yellow": ["mine1"]})
    events = logged(game.act(DEFENCE, Shoot()))
    assert not any(e["event"] == "chip" for e in events)


def test_asteroid_goes_on_a_free_space_but_not_a_bonus_space_and_blocks_saucers():
    game, events = second_kill("asteroid", {"B2": "pink"})
    assert chip_event(events)["result"] == "choose"
    refused(game, DEFENCE, Done(), "First choose")
    refused(game, DEFENCE, Choose(space("C1")), "cannot be chosen")        # a bonus space
    refused(game, DEFENCE, Choose(space("B2")), "cannot be chosen")        # a saucer
    game.act(DEFENCE, Choose(space("C2")))
    assert game.asteroid == cell("C2")
    game.act(DEFENCE, Done())
    game.alien_dice.faces, game.alien_dice.rolls = ["blue", "blue"], 1
    refused(game, ALIEN, Fly(space("B2"), ("forward",)), "asteroid")


def test_asteroid_does_not_block_shots_and_a_saucer_in_front_removes_it():
    game, _ = second_kill("asteroid", {"B2": "pink", "A2": "yellow"})
    game.act(DEFENCE, Choose(space("C2")))
    game.act(DEFENCE, Done())
    refused(game, ALIEN, Sacrifice(space("A2")), "directly in front")
    events = logged(game.act(ALIEN, Sacrifice(space("B2"))))
    assert game.asteroid is None and events[0]["event"] == "asteroid_removed"
    assert "B2" not in where(game)
    game = game_with({"B2": "pink"}, turn=DEFENCE, ship=2, defence_dice=(1, "pink"))
    game.asteroid = cell("C2")
    assert logged(game.act(DEFENCE, Shoot()))[0]["result"] == "destroyed"    # shot over the asteroid


def test_magnetic_field_blocks_and_is_cleared_by_an_orange_die_next_to_it():
    game, events = second_kill("magnet", {"B2": "pink"})
    game.act(DEFENCE, Choose(space("C2")))
    assert game.magnets == [cell("C2")]
    game.act(DEFENCE, Done())
    game.alien_dice.faces, game.alien_dice.rolls = ["blue", "green"], 1
    refused(game, ALIEN, Fly(space("B2"), ("forward",)), "magnetic field")
    refused(game, ALIEN, ClearMagnet(space("C2")), "orange flight die")
    game.alien_dice.faces = ["orange", "blue"]
    game.act(ALIEN, ClearMagnet(space("C2")))
    assert game.magnets == [] and game.alien_dice.used == [True, False]
    game.act(ALIEN, Fly(space("B2"), ("forward",)))                      # the freed space needs its own colour (blue)
    assert where(game)["C2"] == "pink"


def test_magnetic_field_needs_a_saucer_next_to_it():
    game = game_with({"A5": "pink"}, alien_dice=("orange", "blue"))
    game.magnets = [cell("C2")]
    refused(game, ALIEN, ClearMagnet(space("C2")), "next to it")


def test_outpost_holds_a_last_row_space_and_shoots_its_column():
    game, events = second_kill("outpost", {"F5": "pink"})
    refused(game, DEFENCE, Choose(space("G5")), "cannot be chosen")         # not the last row
    game.act(DEFENCE, Choose(space("H5")))
    assert game.outpost == 4
    game.act(DEFENCE, Done())
    game.saucers[-1].cell = cell("G5")                              # pink, one step from H5 (green)
    game.alien_dice.faces, game.alien_dice.rolls = ["green", "green"], 1
    refused(game, ALIEN, Fly(space("G5"), ("forward",)), "outpost")
    game.act(ALIEN, Done())
    game.defence_dice.flight, game.defence_dice.shot, game.defence_dice.rolls = 1, "pink", 1
    event = logged(game.act(DEFENCE, Shoot(outpost=True)))[0]
    assert event["target"] == "G5" and event["from"] == "outpost"


def test_mines_give_one_or_two_boosters():
    game, events = second_kill("mine1", boosters=6)
    assert chip_event(events)["result"] == "boosters" and game.boosters == 7
    game, events = second_kill("mine2", boosters=6, colour="pink")
    assert game.boosters == 8


def test_comet_pushes_a_saucer_one_or_two_free_spaces_back():
    game, _ = second_kill("comet2", {"E4": "pink"})
    game.act(DEFENCE, Choose(space("E4")))
    assert where(game)["C4"] == "pink"
    game, _ = second_kill("comet1", {"E4": "pink"})
    game.act(DEFENCE, Choose(space("E4")))
    assert where(game)["D4"] == "pink"
    game, _ = second_kill("comet2", {"E4": "pink", "C4": "purple"})
    game.act(DEFENCE, Choose(space("E4")))
    assert where(game)["D4"] == "pink"                            # stops before a saucer


def test_comet_is_lost_when_no_saucer_can_move_back():
    game, events = second_kill("comet1", {"A1": "pink"})
    assert chip_event(events)["result"] == "fizzled"


def test_plasma_cannon_is_kept_and_destroys_a_shielded_saucer_of_its_colour():
    game, events = second_kill("plasma", {"C3": "purple"}, colour="yellow")
    assert chip_event(events)["result"] == "kept" and game.kept == [("plasma", "yellow")]
    refused(game, DEFENCE, Plasma(), "plasma cannon is yellow")     # C3 is purple, now the nearest
    purple = game.saucer_at(cell("C3"))
    purple.colour, purple.shield = "yellow", True
    assert logged(game.act(DEFENCE, Plasma()))[0]["result"] == "destroyed"
    assert "C3" not in where(game) and game.kept == []


def test_plasma_cannon_is_a_second_shot_in_the_same_turn():
    game = game_with({"F3": "yellow", "E3": "pink", "A1": "pink"}, turn=DEFENCE, ship=3, defence_dice=(1, "yellow"))
    game.kept = [("plasma", "pink")]
    game.act(DEFENCE, Shoot())
    game.act(DEFENCE, Plasma("pink"))
    assert where(game) == {"A1": "pink"}


def test_gps_flies_the_ship_anywhere_once_besides_the_flight_die():
    game, events = second_kill("gps", colour="pink")
    assert game.kept == [("gps", "pink")]
    game.act(DEFENCE, UseGps(6))
    assert game.ship == 5 and game.kept == []
    refused(game, DEFENCE, UseGps(2), "no GPS")


# --- Arcade Mode with chips (experts): the board moves while a choice is open ---------

def arcade_comet(saucers, dice):
    from audio_console.arkade.chips import Pending, choices
    game = game_with(saucers, turn=None, alien_dice=dice, mode="arcade", chips=True)
    game.turn = None
    game.pending = Pending(DEFENCE, "comet1", "pink", tuple(choices(game, "comet1")))
    return game


def test_an_open_choice_follows_the_saucers_in_arcade_mode():
    game = arcade_comet({"E4": "pink", "A1": "yellow"}, ("green", "blue"))      # E5 is green
    assert game.pending.choices == (cell("E4"),)
    game.act(ALIEN, Fly(space("E4"), ("right",)))
    assert game.pending.choices == (cell("E5"),)
    refused(game, DEFENCE, Choose(space("E4")), "cannot be chosen")
    game.act(DEFENCE, Choose(space("E5")))
    assert where(game)["D5"] == "pink"


def test_an_open_choice_fizzles_when_nothing_is_left_to_choose():
    game = arcade_comet({"B4": "pink", "A3": "yellow"}, ("blue", "green"))      # A4 is blue
    assert game.pending.choices == (cell("B4"),)
    events = logged(game.act(ALIEN, Fly(space("A3"), ("right",))))      # blocks B4's way back
    assert game.pending is None
    assert events[-1]["event"] == "chip" and events[-1]["result"] == "fizzled"
