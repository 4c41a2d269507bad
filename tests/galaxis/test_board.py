"""The board and the buoys' answers, as the rulebook describes them."""
import itertools

import pytest
from hypothesis import given, strategies as st

from audio_console.galaxis.board import (
    ALL_POINTS, DISCOVERED, Point, PointError, answer, beams, format_point, parse_point,
)

RULEBOOK_SHIPS = [parse_point(p) for p in ("F3", "E5", "D6", "B5")]


@pytest.mark.parametrize("point, expected", [
    ("C2", 0), ("C4", 1), ("E7", 2), ("C6", 3), ("D5", 4), ("F3", DISCOVERED)])
def test_rulebook_worked_example(point, expected):
    assert answer(parse_point(point), RULEBOOK_SHIPS) == expected


def test_sixty_three_buoys():
    assert len(ALL_POINTS) == 63
    assert format_point(ALL_POINTS[0]) == "A1" and format_point(ALL_POINTS[-1]) == "G9"


@pytest.mark.parametrize("text", ["d5", "D5", "D 5", " d 5 "])
def test_parse_forms(text):
    assert parse_point(text) == Point(3, 4)


@pytest.mark.parametrize("text, reason", [("K12", "row K"), ("H1", "row H"), ("A0", "column 0"),
                                          ("A10", "column 10"), ("5D", "not a coordinate"), ("", "not")])
def test_parse_refuses_off_board_with_reason(text, reason):
    with pytest.raises(PointError, match=reason):
        parse_point(text)


def test_corner_sees_three_beams():
    assert sum(1 for ray in beams(parse_point("A1")) if ray) == 3


def brute_force_answer(point, ships):
    """The rule in words: walk each of the 8 beams from the buoy; a beam counts if it
    meets a ship before the edge of the board."""
    if point in ships:
        return DISCOVERED
    count = 0
    for dr, dc in itertools.product((-1, 0, 1), repeat=2):
        if (dr, dc) == (0, 0):
            continue
        r, c = point.row + dr, point.column + dc
        while 0 <= r < 7 and 0 <= c < 9:
            if Point(r, c) in ships:
                count += 1
                break
            r, c = r + dr, c + dc
    return count


points = st.sampled_from(ALL_POINTS)


@given(ships=st.sets(points, min_size=4, max_size=4), point=points)
def test_every_answer_equals_brute_force_count(ships, point):
    assert answer(point, ships) == brute_force_answer(point, ships)


@given(ships=st.sets(points, min_size=4, max_size=4), point=points)
def test_answers_range_from_zero_to_four(ships, point):
    result = answer(point, ships)
    assert result == DISCOVERED or 0 <= result <= 4


def test_radio_shadow_hides_the_ship_behind():
    ships = [parse_point("D5"), parse_point("D7")]
    # From D3 both ships lie on the same beam: one counts.
    assert answer(parse_point("D3"), ships) == 1
