"""Invariants over many random games: illegal actions change nothing, saucers never
multiply (only the Repaired saucer brings one back), every game ends."""
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from audio_console.arkade.actions import (
    Booster, ClearMagnet, Choose, Done, Fly, Keep, Plasma, Reroll, Roll, Sacrifice, ShipTo, Shoot, UseGps,
)
from audio_console.arkade.board import Space
from audio_console.arkade.rules import ALIEN, ARCADE, DEFENCE, Game, IllegalAction, Options
from scripts.measure.arkade_selfplay import play
from tests.arkade.helpers import logged, snapshot, space

# attempts, most of them illegal at most moments; some name spaces off the board
ATTEMPTS = [Roll(), Reroll("both"), Reroll("first"), Reroll("shot"), Reroll("sideways"), Keep(), Done(),
            Fly(space("B3"), ("forward",)), Fly(space("A1"), ("back",)), Fly(space("B2"), (space("C3"),)),
            Fly(space("B2"), ("left", "right")), Fly(Space(25, 8), ("forward",)), Fly(space("B3"), ()),
            ShipTo(4), ShipTo(9), Booster("left"), Booster("right"), Booster("up"), Shoot(), Shoot(outpost=True),
            Plasma(), UseGps(3), Choose(space("C4")), Choose(space("A1"), "pink"), ClearMagnet(space("C2")),
            Sacrifice(space("C3")), Fly(space("H7"), ("forward",))]

OPTIONS = st.builds(Options, mode=st.sampled_from(["strategy", "arcade"]),
                    side=st.sampled_from(["classic", "expert"]), formation=st.sampled_from(["offset", "pairs"]),
                    boosters=st.sampled_from([4, 6, 8]), max_rolls=st.sampled_from([2, 3]),
                    chips=st.sampled_from([None, True, False]))


def random_walk(options, seed, steps, check):
    """Random legal actions for both sides, with random (often illegal) attempts between."""
    rng = random.Random(seed)
    game = Game(options, random.Random(seed))
    for _ in range(steps):
        if game.finished():
            break
        side = rng.choice([ALIEN, DEFENCE])
        attempt = rng.choice(ATTEMPTS)
        before = snapshot(game)
        try:
            events = logged(game.act(side, attempt))
        except IllegalAction:
            assert snapshot(game) == before, attempt
        else:
            check(game, before, events)
        if game.finished():
            break
        acting = game.pending.side if game.pending else (game.turn or side)
        legal = game.legal_actions(acting)
        if legal:
            before = snapshot(game)
            check(game, before, logged(game.act(acting, rng.choice(legal))))
    return game


def saucers_do_not_multiply(game, before, events):
    alive_before = sum(1 for s in before[0] if s[2] is not None)
    repaired = sum(1 for e in events if e["event"] == "chosen" and e["chip"] == "repair")
    assert len(game.alive()) <= alive_before + repaired
    assert len(game.saucers) == 12 and repaired <= 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, seed=st.integers(0, 10 ** 6))
def test_illegal_actions_never_change_the_game_and_saucers_never_multiply(options, seed):
    random_walk(options, seed, 60, saucers_do_not_multiply)


@settings(max_examples=25, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 10 ** 6))
def test_every_legal_action_listed_is_accepted(options, seed):
    game = Game(options, random.Random(seed))
    rng = random.Random(seed)
    for _ in range(40):
        if game.finished():
            break
        side = game.pending.side if game.pending else (game.turn or rng.choice([ALIEN, DEFENCE]))
        legal = game.legal_actions(side)
        for action in legal:
            assert game.allowed(side, action)
        if legal:
            game.act(side, rng.choice(legal))


@settings(max_examples=30, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 10 ** 6),
       alien=st.sampled_from(["easy", "normal", "hard"]), defence=st.sampled_from(["easy", "normal", "hard"]))
def test_every_game_between_computers_ends(options, seed, alien, defence):
    game = play(options, seed, alien, defence)
    assert game.winner in (ALIEN, DEFENCE)
    if game.winner == ALIEN:
        assert any(s.cell and s.cell[0] == game.board.last_row for s in game.saucers)
    else:
        assert not game.alive()


def test_random_players_finish_too():
    for seed in range(3):
        game = random_walk(Options(), seed, 3000, lambda *a: None)
        assert game.finished(), seed


def test_the_same_seed_gives_the_same_game():
    a = play(Options(), 77)
    b = play(Options(), 77)
    assert snapshot(a) == snapshot(b)
