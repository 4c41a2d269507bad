"""The Galaxis rules core, option by option, as docs/rules.md describes it."""
import copy
import random

import pytest
from hypothesis import given, settings, strategies as st

from audio_console.galaxis.board import ALL_POINTS, DISCOVERED, answer, parse_point
from audio_console.galaxis.events import (
    Answered, GameOver, OwnShipRevealed, Reveal, Stored, TimedOut, TimeWarning, TurnPassed,
)
from audio_console.galaxis.rules import (
    OWN_SHIP, AlreadyQueried, GalaxisGame, NotYourTurn, PointTaken, RuleError,
)

P = parse_point


def game_with_ships(option, ships, **kwargs):
    game = GalaxisGame(option, random.Random(0), **kwargs)
    game.ships = tuple(P(s) for s in ships)
    return game


def stored_game(ships1, ships2, **kwargs):
    """Option 3 after team 1 stored ships1 and team 2 stored ships2."""
    game = GalaxisGame(3, random.Random(0), **kwargs)
    for team, ships in ((1, ships1), (2, ships2)):
        for s in ships:
            game.store(team, P(s))
    return game


def snapshot(game):
    return copy.deepcopy(game.__dict__)


# --- option 2 -----------------------------------------------------------------

def test_option2_hides_four_distinct_ships_from_the_seed():
    a, b = GalaxisGame(2, random.Random(7)), GalaxisGame(2, random.Random(7))
    assert a.ships == b.ships and len(set(a.ships)) == 4
    assert GalaxisGame(2, random.Random(8)).ships != a.ships


def test_option2_counts_queries_and_ends_when_all_four_found():
    game = game_with_ships(2, ["F3", "E5", "D6", "B5"])
    events = game.query(1, P("D5"))
    assert events == [Answered(1, P("D5"), 4, False, 0)]
    for i, ship in enumerate(["F3", "E5", "D6"]):
        assert game.query(1, P(ship))[0].answer == DISCOVERED
    events = game.query(1, P("B5"))
    assert isinstance(events[1], GameOver) and events[1].winner == 1 and events[1].queries == {1: 5}
    assert isinstance(events[2], Reveal)
    assert game.over
    with pytest.raises(RuleError, match="over"):
        game.query(1, P("A1"))


def test_asking_again_is_refused_by_the_core_with_the_old_answer():
    game = game_with_ships(2, ["F3", "E5", "D6", "B5"])
    game.query(1, P("C6"))
    with pytest.raises(AlreadyQueried) as error:
        game.query(1, P("C6"))
    assert error.value.previous == 3
    assert game.state[1].queries == 1


def test_time_limit_is_not_for_option2():
    with pytest.raises(RuleError):
        GalaxisGame(2, time_limit=60)


# --- option 1 -----------------------------------------------------------------

def test_option1_turn_passes_after_an_answer_but_not_after_a_discovery():
    game = game_with_ships(1, ["F3", "E5", "D6", "B5"])
    events = game.query(1, P("C2"))
    assert events[-1] == TurnPassed(2, "searching")
    with pytest.raises(NotYourTurn):
        game.query(1, P("C4"))
    events = game.query(2, P("F3"))
    assert events[0].answer == DISCOVERED and game.turn == 2   # another query
    assert not any(isinstance(e, TurnPassed) for e in events)


def test_option1_each_team_must_find_every_ship_itself():
    game = game_with_ships(1, ["F3", "E5", "D6", "B5"])
    for ship in ["F3", "E5", "D6"]:
        game.query(1, P(ship))
    game.query(1, P("A1"))                     # a miss: team 2's turn
    # Team 2 may query a point team 1 found; it is a discovery for team 2 too.
    assert game.query(2, P("F3"))[0].answer == DISCOVERED
    assert game.state[2].found == [P("F3")]


def test_option1_discovered_ships_keep_blocking_and_counting():
    game = game_with_ships(1, ["D5", "D7", "A1", "G9"])
    game.query(1, P("D5"))
    game.query(1, P("D9"))
    # From D9 the row beam meets D7 first; D5 behind it stays in its shadow.
    assert game.state[1].queried[P("D9")] == answer(P("D9"), game.ships)


def test_option1_first_team_to_find_all_four_wins():
    game = game_with_ships(1, ["F3", "E5", "D6", "B5"])
    for ship in ["F3", "E5", "D6", "B5"]:
        events = game.query(1, P(ship))
    over = [e for e in events if isinstance(e, GameOver)]
    assert over and over[0].winner == 1 and game.winner == 1


# --- option 3 -----------------------------------------------------------------

def test_option3_storing_phase_then_team1_begins_the_search():
    game = GalaxisGame(3, random.Random(0))
    assert game.phase == "storing"
    with pytest.raises(RuleError, match="store"):
        game.query(1, P("A1"))
    events = [game.store(1, P(s)) for s in ["A1", "B2", "C3", "D4"]]
    assert events[0] == [Stored(1, P("A1"), 1)]
    assert events[-1][-1] == TurnPassed(2, "storing", phase_begins=True)
    for s in ["E5", "F6", "G7", "A9"]:
        last = game.store(2, P(s))
    assert last[-1] == TurnPassed(1, "searching", phase_begins=True)
    assert game.targets(1) == tuple(P(s) for s in ["E5", "F6", "G7", "A9"])


def test_option3_a_team_may_not_store_the_same_point_twice():
    game = GalaxisGame(3, random.Random(0))
    game.store(1, P("A1"))
    with pytest.raises(RuleError, match="already"):
        game.store(1, P("A1"))


def test_option3_queried_points_are_closed_to_the_other_team():
    game = stored_game(["A1", "B2", "C3", "D4"], ["E5", "F6", "G7", "A9"])
    game.query(1, P("C6"))
    before = snapshot(game)
    with pytest.raises(PointTaken, match="team 1"):
        game.query(2, P("C6"))
    assert snapshot(game) == before


def test_option3_own_position_without_caution_gives_the_ship_away():
    game = stored_game(["A1", "B2", "C3", "D4"], ["E5", "F6", "G7", "A9"])
    events = game.query(1, P("B2"))
    assert events[0] == OwnShipRevealed(1, P("B2"), 1)
    assert not any(isinstance(e, Answered) for e in events)      # no answer about team 1's targets
    assert game.state[2].found == [P("B2")] and game.turn == 2


def test_option3_caution_also_queries_the_targets():
    # Team 1 stored D4; team 2 stored D4 too: a caution query at D4 finds team 2's ship.
    game = stored_game(["A1", "B2", "C3", "D4"], ["D4", "F6", "G7", "A9"])
    events = game.query(1, P("D4"), caution=True)
    assert isinstance(events[0], OwnShipRevealed)
    assert events[1] == Answered(1, P("D4"), DISCOVERED, True, 1)
    assert game.turn == 1                                          # a discovery: query again


def test_option3_a_ship_given_away_can_be_asked_about_again_with_caution():
    # Both teams stored D4. Team 1 gives its D4 away, then finds team 2's D4 with caution.
    game = stored_game(["A1", "B2", "C3", "D4"], ["D4", "F6", "G7", "A9"])
    game.query(1, P("D4"))
    game.query(2, P("B5"))
    with pytest.raises(AlreadyQueried):
        game.query(1, P("D4"))
    events = game.query(1, P("D4"), caution=True)
    assert events == [Answered(1, P("D4"), DISCOVERED, True, 1)]     # no second gift
    assert game.state[2].found == [P("D4")]


def test_option3_caution_on_a_plain_point_is_a_normal_query():
    game = stored_game(["A1", "B2", "C3", "D4"], ["E5", "F6", "G7", "A9"])
    events = game.query(1, P("C6"), caution=True)
    assert events[0].answer == answer(P("C6"), game.targets(1)) and events[0].caution


def test_caution_belongs_to_option3():
    game = game_with_ships(1, ["F3", "E5", "D6", "B5"])
    with pytest.raises(RuleError, match="option 3"):
        game.query(1, P("C2"), caution=True)


def test_option3_gift_of_the_fourth_ship_makes_the_opponent_win():
    game = stored_game(["A1", "B2", "C3", "D4"], ["E5", "F6", "G7", "A9"])
    game.state[2].found = [P("A1"), P("B2"), P("C3")]
    events = game.query(1, P("D4"))                  # team 1 reveals its own D4: team 2 completes
    over = [e for e in events if isinstance(e, GameOver)][0]
    assert over.winner == 2


def test_option3_one_query_completing_both_wins_for_the_querying_team():
    # D4 is team 1's stored position and team 2's: caution query completes both sides.
    game = stored_game(["A1", "B2", "C3", "D4"], ["E5", "F6", "G7", "D4"])
    game.state[1].found = [P("E5"), P("F6"), P("G7")]
    game.state[2].found = [P("A1"), P("B2"), P("C3")]
    events = game.query(1, P("D4"), caution=True)
    over = [e for e in events if isinstance(e, GameOver)][0]
    assert over.winner == 1


def test_option3_caution_query_that_misses_its_fourth_helps_the_opponent():
    game = stored_game(["A1", "B2", "C3", "D4"], ["E5", "F6", "G7", "A9"])
    game.state[1].found = [P("E5"), P("F6"), P("G7")]
    game.state[2].found = [P("A1"), P("B2"), P("C3")]
    events = game.query(1, P("D4"), caution=True)
    over = [e for e in events if isinstance(e, GameOver)][0]
    assert over.winner == 2


# --- the time limit -------------------------------------------------------------

def test_time_limit_warns_at_54_seconds_and_passes_the_turn_at_60():
    game = game_with_ships(1, ["F3", "E5", "D6", "B5"], time_limit=60, now=100.0)
    assert game.tick(153.9) == []
    assert game.tick(154.0) == [TimeWarning(1, 6.0)]
    assert game.tick(155.0) == []                              # warned once
    assert game.tick(160.0) == [TimedOut(1), TurnPassed(2, "searching")]
    assert game.turn == 2 and game.seconds_left(160.0) == 60.0


def test_the_warning_scales_with_the_time_limit_so_it_comes_in_time_to_act():
    short = game_with_ships(1, ["F3", "E5", "D6", "B5"], time_limit=12, now=0.0)
    assert short.tick(5.9) == []
    assert short.tick(6.0) == [TimeWarning(1, 6.0)]          # half of 12 s, not 1.2 s
    long = game_with_ships(1, ["F3", "E5", "D6", "B5"], time_limit=300, now=0.0)
    assert long.tick(269.0) == [] and long.tick(270.0) == [TimeWarning(1, 30.0)]


def test_a_query_restarts_the_clock_for_the_next_turn():
    game = game_with_ships(1, ["F3", "E5", "D6", "B5"], time_limit=60, now=0.0)
    game.query(1, P("C2"), now=50.0)
    assert game.tick(100.0) == []
    assert game.tick(110.0)[0] == TimedOut(2)


def test_no_clock_without_time_limit():
    game = game_with_ships(1, ["F3", "E5", "D6", "B5"])
    assert game.tick(10_000.0) == []
    with pytest.raises(RuleError):
        game.time_out(0.0)


# --- properties ----------------------------------------------------------------

actions = st.lists(st.tuples(st.sampled_from(["query", "caution", "store", "timeout"]),
                             st.integers(1, 2), st.sampled_from(ALL_POINTS)), max_size=60)


@settings(max_examples=150, deadline=None)
@given(option=st.sampled_from([1, 2, 3]), seed=st.integers(0, 10_000), script=actions)
def test_no_rejected_action_changes_state(option, seed, script):
    game = GalaxisGame(option, random.Random(seed), time_limit=60 if option != 2 else None)
    for kind, team, point in script:
        before = snapshot(game)
        try:
            if kind == "store":
                game.store(team, point)
            elif kind == "timeout":
                game.time_out(0.0)
            else:
                game.query(team, point, caution=kind == "caution")
        except RuleError:
            assert snapshot(game) == before


@settings(max_examples=60, deadline=None)
@given(option=st.sampled_from([1, 2, 3]), seed=st.integers(0, 10_000))
def test_every_game_can_be_played_to_its_end(option, seed):
    rng = random.Random(seed)
    game = GalaxisGame(option, random.Random(seed))
    moves = 0
    while not game.over:
        team = game.turn
        if game.phase == "storing":
            free = [p for p in ALL_POINTS if p not in game.state[team].stored]
            game.store(team, rng.choice(free))
        else:
            me = game.state[team]
            closed = set(me.queried) | set(me.found) | game.taken_by_other(team)
            free = [(p, option == 3 and rng.random() < 0.2) for p in ALL_POINTS if p not in closed]
            # An own ship given away may be asked about again, with caution.
            free += [(p, True) for p, a in me.queried.items() if a == OWN_SHIP and p not in me.found]
            point, caution = rng.choice(free)
            game.query(team, point, caution=caution)
        moves += 1
        assert moves < 200
    assert game.winner in game.teams
    for team in game.teams:
        for point, result in game.state[team].queried.items():
            if result != OWN_SHIP:
                assert result == answer(point, game.targets(team))
