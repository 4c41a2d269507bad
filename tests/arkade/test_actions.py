"""Arkade's typed actions: one text for each (what saved games hold), read back exactly;
a player's command becomes the same action the computer would choose."""
import random

import pytest

from audio_console.arkade.actions import (
    Booster, Choose, Fly, NotAnAction, Plasma, Reroll, Roll, Shoot, ShipTo, parse_action,
)
from audio_console.arkade.commands import action_of, grammar, spoken
from audio_console.arkade.computer import next_action
from audio_console.arkade.console import ArkadeConsole
from audio_console.arkade.rules import ALIEN, DEFENCE, Game, Options
from audio_console.contract.base import InputError
from tests.arkade.helpers import space


def played_actions(mode: str, seed: int, steps: int = 300):
    """(game before, side, action) for every legal action offered along a seeded game."""
    game = Game(Options(mode=mode, chips=True), random.Random(seed))
    rng = random.Random(seed)
    for _ in range(steps):
        if game.finished():
            return
        side = game.pending.side if game.pending else (game.turn or rng.choice([ALIEN, DEFENCE]))
        legal = game.legal_actions(side)
        for action in legal:
            yield game, side, action
        chosen = next_action(game, side, "normal", rng) or (rng.choice(legal) if legal else Roll())
        if game.allowed(side, chosen):
            game.act(side, chosen)


@pytest.mark.parametrize("mode", ["strategy", "arcade"])
def test_every_legal_action_reads_back_from_its_text(mode):
    seen = set()
    for seed in range(4):
        for _, _, action in played_actions(mode, seed):
            assert parse_action(action.text()) == action
            seen.add(type(action).__name__)
    assert {"Roll", "Fly", "ShipTo", "Booster", "Shoot"} <= seen


def test_the_texts_are_the_ones_saved_games_hold():
    assert Fly(space("B3"), ("forward", "left")).text() == "fly B3 forward left"
    assert Fly(space("B3"), (space("C3"), space("D3"))).text() == "fly B3 to C3 to D3"
    assert Choose(space("A3"), "pink").text() == "choose pink A3"
    assert [a.text() for a in (ShipTo(4), Booster("left"), Shoot(outpost=True), Plasma(), Reroll("shot"))] == \
        ["ship 4", "booster left", "shoot outpost", "plasma", "reroll shot"]


@pytest.mark.parametrize("text", ["", "jump", "roll 3", "fly B3", "fly Z9 forward", "ship four",
                                  "booster up", "choose", "fly B3 to C3 forward", "reroll"])
def test_text_that_is_no_action_is_refused_when_read(text):
    with pytest.raises(NotAnAction):
        parse_action(text)


def test_a_spoken_command_becomes_the_action_it_names():
    g = grammar(8)
    colour_at = {space("B3"): "pink"}.get
    for action in [Fly(space("B3"), ("forward",)), Fly(space("B3"), ("left", "forward")), ShipTo(4),
                   Booster("right"), Shoot(), Shoot(outpost=True), Plasma(), Plasma("purple"),
                   Reroll("both"), Reroll("flight"), Choose(space("C4")), Choose(space("A1"), "yellow")]:
        command = g.parse(spoken(action, colour_at))
        assert command is not None and action_of(command) == action, action
    # typed forms give the same action: a flight by spaces, and loose wording
    assert action_of(g.parse("fly the saucer at B3 to C3 then to D3")) == Fly(space("B3"), (space("C3"), space("D3")))
    assert action_of(g.parse("fire from the outpost")) == Shoot(outpost=True)


def test_a_damaged_saved_action_is_refused_in_one_line_and_changes_nothing():
    console = ArkadeConsole({"alien": "human", "defence": "computer"}, 3)
    console.apply_recorded("alien roll")
    for bad in ("alien fly B3", "alien dance", "nobody roll"):
        with pytest.raises(InputError, match="is not a"):
            console.apply_recorded(bad)
    assert console.core.alien_dice.rolls == 1
