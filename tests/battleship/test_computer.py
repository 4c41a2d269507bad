"""The computer players: deterministic, reasoning from what they were told, better than chance."""
import random
import statistics

import numpy as np
import pytest

from audio_console.battleship.computer import (Knowledge, choose_line, move_rng,
                                               sample_fleets, cell_index)
from audio_console.battleship.board import ALL_LINES
from audio_console.battleship.rules import Game, random_fleet


def fleet_game(seed: int) -> Game:
    game = Game()
    for player in (1, 2):
        for placement in random_fleet(random.Random(f"test-fleet:{seed}:{player}")).values():
            game.place(player, placement)
        game.finish_placing(player)
    return game


def race(seed: int, choose) -> int:
    """Player 1 alone shoots at player 2's fleet until it is destroyed: the shots it took."""
    game = fleet_game(seed)
    move = 0
    while game.winner is None:
        game.shoot(1, choose(game, move))
        game.to_move = 1
        move += 1
    return game.shots(1)


def computer(level, seed):
    return lambda game, move: choose_line(game.observations[1], level, move_rng(seed, 1, move))


def random_shooter(seed):
    def choose(game, move):
        rng = random.Random(f"{seed}:{move}")
        return rng.choice([l for l in ALL_LINES if l not in game.called[1]])
    return choose


def test_the_same_seed_and_history_give_the_same_move():
    game = fleet_game(3)
    for move in range(6):
        line = choose_line(game.observations[1], 3, move_rng(11, 1, move))
        assert line == choose_line(game.observations[1], 3, move_rng(11, 1, move))
        game.shoot(1, line)
        game.to_move = 1


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_computer_never_calls_a_line_twice(level):
    game = fleet_game(5)
    move = 0
    while game.winner is None:
        line = choose_line(game.observations[1], level, move_rng(5, 1, move))
        assert line not in game.called[1]
        game.shoot(1, line)
        game.to_move = 1
        move += 1


def test_the_commanders_sampled_fleets_agree_with_every_answer():
    game = fleet_game(8)
    for move in range(9):
        game.shoot(1, choose_line(game.observations[1], 2, move_rng(8, 1, move)))
        game.to_move = 1
    knowledge = Knowledge.from_observations(game.observations[1])
    fleets = sample_fleets(knowledge, random.Random(1))
    assert len(fleets) > 20
    truth = np.zeros(300, dtype=bool)
    truth[[cell_index(c) for c in game.occupied(2)]] = True
    for fleet in fleets:
        assert fleet.sum() == 25
        for obs in game.observations[1]:
            on_line = fleet[[cell_index(c) for c in obs.line.cells()]].any()
            assert on_line == obs.hit
    # ...and the real fleet is among the possibilities it reasons over.
    for obs in game.observations[1]:
        assert truth[[cell_index(c) for c in obs.line.cells()]].any() == obs.hit


def test_every_level_beats_a_random_shooter_and_the_commander_beats_the_cadet():
    seeds = range(6)
    means = {name: statistics.mean(race(s, make(s)) for s in seeds)
             for name, make in [("random", random_shooter),
                                ("cadet", lambda s: computer(1, s)),
                                ("pilot", lambda s: computer(2, s)),
                                ("commander", lambda s: computer(3, s))]}
    assert means["cadet"] < means["random"]
    assert means["pilot"] < means["cadet"]
    assert means["commander"] < means["cadet"]
