"""The computer team: legal, deterministic, blind to the other side's secrets, and
its strong level finds ships in fewer queries than its random level."""
from __future__ import annotations

import random
import statistics

import pytest

from audio_console.galaxis.board import ALL_POINTS, DISCOVERED, answer, parse_point
from audio_console.galaxis.computer import ComputerTeam, play_board, random_board, rulebook_empty
from audio_console.galaxis.deduction import Deduction, deduce


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
