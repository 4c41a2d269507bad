"""The computer team: legal, deterministic, blind to the other side's secrets, and
its strong level finds ships in fewer queries than its random level."""
from __future__ import annotations

import random
import statistics

import pytest

from audio_console.galaxis.board import ALL_POINTS, DISCOVERED, answer, parse_point
import numpy as np

from audio_console.galaxis.computer import SHIP_WEIGHT, ComputerTeam, rulebook_empty, strong_choice
from audio_console.galaxis.deduction import (FOUND, Deduction, answer_counts, answer_table, deduce,
                                             index_of, placements)
from scripts.measure.galaxis_boards import play_board, random_board


def P(text):
    return parse_point(text)


def test_rulebook_evaluation_empties_the_beams_of_a_0_and_of_a_fully_found_buoy():
    d = deduce([(P("C2"), 0), (P("C4"), 1), (P("B5"), DISCOVERED)])
    empty = rulebook_empty(d)
    assert {P("C1"), P("C9"), P("A4"), P("G2")} <= empty          # C2's beams
    assert {P("D4"), P("G4"), P("A2"), P("C3")} <= empty          # C4's other beams
    assert P("A6") not in empty          # behind B5 on C4's beam: radio shadow, may hide one
    assert set(empty) <= set(d.certain_empty())                   # and it is never wrong


def test_level_3_needs_fewer_queries_than_level_1():
    boards = [random_board(random.Random(f"test-board:{i}")) for i in range(8)]
    weak, strong = ComputerTeam(1, seed=4), ComputerTeam(3, seed=4)
    weak_q = [play_board(lambda d, m: weak.choose_query(d, m), b) for b in boards]
    strong_q = [play_board(lambda d, m: strong.choose_query(d, m), b) for b in boards]
    assert statistics.mean(strong_q) < statistics.mean(weak_q) - 2
    assert max(strong_q) <= 16


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_level_queries_only_new_possible_points_and_finishes(level):
    team = ComputerTeam(level, seed=9)
    ships = random_board(random.Random(level))
    d = Deduction()
    for move in range(1, 64):
        point = team.choose_query(d, move)
        assert point not in d.heard
        if level == 1:    # the beginner keeps to what the rulebook's evaluation leaves open
            assert point not in rulebook_empty(d)
        else:
            assert d.chance(point) > 0
        d.observe(point, answer(point, ships))
        if d.finished():
            break
    assert d.found == set(ships)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_choices_depend_only_on_seed_move_and_what_the_team_heard(level):
    # Two different secret boards that gave the same answers so far: same choice.
    heard = [(P("D5"), 1), (P("B2"), 0)]
    boards = [b for b in (random_board(random.Random(i)) for i in range(3000))
              if all(answer(p, b) == a for p, a in heard)][:2]
    assert len(boards) == 2 and boards[0] != boards[1]
    choices = {ComputerTeam(level, seed=1).choose_query(deduce(heard), 3) for _ in boards}
    assert len(choices) == 1
    again = ComputerTeam(level, seed=1).choose_query(deduce(heard), 3)
    assert again in choices


def test_level_1_varies_with_seed_and_move():
    d = Deduction()
    picks = {ComputerTeam(1, seed=s).choose_query(d, m) for s in range(4) for m in range(4)}
    assert len(picks) > 3


def test_a_certain_ship_is_taken_first_by_the_strong_levels():
    d = Deduction()
    d.observe(P("D5"), 2)
    d.mark_ship(P("A1"))
    assert ComputerTeam(3).choose_query(d, 2) == P("A1")


def test_option_3_keeps_off_its_own_positions_unless_they_are_certain_targets():
    team = ComputerTeam(3, seed=2)
    own = team.store_positions()
    assert len(set(own)) == 4 and own == ComputerTeam(3, seed=2).store_positions()
    d = Deduction()
    for move in range(1, 4):
        choice = team.choose(d, move, own_ships=own)
        assert choice.point not in own and not choice.caution
        d.observe(choice.point, 0 if choice.point != P("D5") else 1)
    shared = Deduction()
    shared.mark_ship(own[0])            # the opponent's target is on our own position
    choice = team.choose(shared, 1, own_ships=own)
    assert choice.point == own[0] and choice.caution


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        ComputerTeam(5)


def placement_index(points) -> int:
    row = sorted(index_of(P(t)) for t in points)
    return int(np.flatnonzero((placements() == row).all(axis=1))[0])


def test_the_end_game_asks_the_ship_whose_answer_also_tells_the_other_two_apart():
    # Three ships found; the fourth is F7, F8 or A1. Asking F7 finds it one time in
    # three and otherwise its answer tells F8 (on its row) from A1 (on none of its
    # beams): 1/3 x 1 + 2/3 x 2 = 5/3 queries. F8 cannot tell F7 from A1 (F7 hides
    # in the shadow of the found F5 on F8's row), nor A1 F7 from F8: 2 queries.
    found = ("B2", "B8", "F5")
    alive = np.array([placement_index(found + (last,)) for last in ("F7", "F8", "A1")])
    table = answer_table()
    queried = np.zeros(63, dtype=bool)
    queried[[index_of(P(t)) for t in found]] = True
    point = strong_choice(table, alive, queried, 1, answer_counts(table, alive), np.zeros(63, dtype=bool))
    assert point == index_of(P("F7"))
    from audio_console.galaxis.endgame import exact_best
    assert exact_best(table, alive, np.flatnonzero(queried), 1)[1] == pytest.approx(5 / 3)


def test_level_2_asks_the_point_with_most_information_plus_the_ships_chance():
    d = deduce([(P("D5"), 2), (P("B3"), 1), (P("F7"), 1)])
    chosen = ComputerTeam(2).choose_query(d, 4)
    n = d.count
    rows = answer_table()[:, d.alive]

    def value(point):            # worked out plainly from the placements left
        row = rows[index_of(point)]
        shares = [np.count_nonzero(row == code) / n for code in range(6)]
        information = -sum(s * np.log2(s) for s in shares if s > 0)
        return information + SHIP_WEIGHT * shares[FOUND]
    open_points = [p for p in ALL_POINTS if p not in d.heard and 0 < d.chance(p) < 1]
    assert value(chosen) == pytest.approx(max(value(p) for p in open_points))

