"""The Galaxis rules core: pure, seeded, no I/O.

Options (the rulebook and our decisions: docs/rules.md):
  1  two teams hunt the same four ships, each on its own scanner; first to find all
     four itself wins. A discovery gives the same team another query.
  2  one player alone; the queries are counted.
  3  each team stores four positions, then each searches for the other's. Every
     queried point is announced. Querying one of your own stored positions reveals
     that ship to the opponent (the long deep tone); after "Caution! Spaceship!" the
     query also counts as a normal query of your own targets.
The time limit (options 1 and 3) runs on times handed in as `now` (seconds).

Every method validates first and raises a RuleError subclass without changing
anything; on success it returns the events that happened.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from audio_console.galaxis.board import ALL_POINTS, DISCOVERED, SHIPS, Point, answer, format_point
from audio_console.galaxis.events import (
    Answered, GameOver, OwnShipRevealed, Reveal, Stored, StoreChanged, TimedOut, TimeWarning,
    TurnPassed,
)

STORING, SEARCHING, OVER = "storing", "searching", "over"
DEFAULT_TIME_LIMIT = 60.0
OWN_SHIP = "own ship"       # what a team's query of its own stored position records
WARNING_SECONDS = 6.0       # the console warns 6 seconds before the end of a minute


def warning_lead(time_limit: float) -> float:
    """Seconds left when the warning sounds: 6 of a minute, as the console did; a tenth
    of a longer limit; at most half of a short one, so that '1 second left' never comes
    too late to act on."""
    return max(time_limit / 10, min(WARNING_SECONDS, time_limit / 2))


class RuleError(Exception):
    """An action the rules do not allow now. The message says why, plainly."""


class NotYourTurn(RuleError):
    pass


class AlreadyQueried(RuleError):
    def __init__(self, point: Point, previous: int | str):
        super().__init__(f"{format_point(point)} was already queried: it answered {previous}")
        self.point, self.previous = point, previous


class PointTaken(RuleError):
    """Option 3: the other team queried this point, so this team may not."""


@dataclass
class TeamState:
    queried: dict[Point, int | str] = field(default_factory=dict)   # own queries and answers
    found: list[Point] = field(default_factory=list)                 # targets found, in order
    stored: list[Point] = field(default_factory=list)                # option 3: own positions
    queries: int = 0


class GalaxisGame:
    def __init__(self, option: int = 2, rng: random.Random | None = None,
                 time_limit: float | None = None, now: float = 0.0):
        if option not in (1, 2, 3):
            raise RuleError(f"there is no option {option}; Galaxis has options 1, 2 and 3")
        if time_limit is not None and option == 2:
            raise RuleError("the time limit is for options 1 and 3")
        if time_limit is not None and time_limit <= 0:
            raise RuleError("the time limit must be a positive number of seconds")
        self.option = option
        self.time_limit = time_limit
        self.teams = (1,) if option == 2 else (1, 2)
        self.state = {t: TeamState() for t in self.teams}
        rng = rng or random.Random(0)
        # Options 1 and 2: the console hides four ships. Option 3: the teams store them.
        self.ships: tuple[Point, ...] = tuple(rng.sample(ALL_POINTS, SHIPS)) if option != 3 else ()
        self.phase = STORING if option == 3 else SEARCHING
        self.turn = 1
        self.winner: int | None = None
        self.turn_started = now
        self.warned = False
        # Every query in order, for the review: (team, point, answer or None, own ship given away).
        self.log: list[tuple[int, Point, int | str | None, bool]] = []

    # --- what each team is after ---------------------------------------------

    def other(self, team: int) -> int:
        return 2 if team == 1 else 1

    def targets(self, team: int) -> tuple[Point, ...]:
        """The ships this team is looking for."""
        if self.option == 3:
            return tuple(self.state[self.other(team)].stored)
        return self.ships

    def taken_by_other(self, team: int) -> set[Point]:
        """Option 3: points the other team has queried (announced), closed to this team."""
        if self.option != 3:
            return set()
        return set(self.state[self.other(team)].queried)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    # --- actions ------------------------------------------------------------

    def _check_turn(self, team: int, phase: str) -> None:
        if self.phase == OVER:
            raise RuleError("the game is over")
        if team not in self.teams:
            raise RuleError(f"there is no team {team} in option {self.option}")
        if self.phase != phase:
            raise RuleError("first store your four positions" if self.phase == STORING
                            else "all positions are stored; now search")
        if team != self.turn:
            raise NotYourTurn(f"it is team {self.turn}'s turn")

    def store(self, team: int, point: Point, now: float = 0.0) -> list:
        """Option 3: store one of this team's four secret positions."""
        self._check_turn(team, STORING)
        stored = self.state[team].stored
        if point in stored:
            raise RuleError(f"{format_point(point)} is already one of your stored positions")
        stored.append(point)
        events: list = [Stored(team, point, len(stored))]
        if len(stored) == SHIPS:
            if team == 1:
                self.turn = 2
            else:
                self.phase, self.turn = SEARCHING, 1
            self._start_turn(now)
            events.append(TurnPassed(self.turn, self.phase, phase_begins=True))
        return events

    def change_stored(self, team: int, old: Point, new: Point) -> list:
        """Option 3: while storing, put one of this team's stored positions elsewhere."""
        self._check_turn(team, STORING)
        stored = self.state[team].stored
        if old not in stored:
            raise RuleError(f"{format_point(old)} is not one of your stored positions")
        if new in stored:
            raise RuleError(f"{format_point(new)} is already one of your stored positions")
        stored[stored.index(old)] = new
        return [StoreChanged(team, old, new)]

    def query(self, team: int, point: Point, now: float = 0.0, caution: bool = False) -> list:
        """Query the buoy at `point` for `team`."""
        self._check_turn(team, SEARCHING)
        me = self.state[team]
        previous = me.queried.get(point)
        # A team that gave its own ship away may still ask there again with
        # "Caution! Spaceship!": the other team may have stored a ship there too.
        if previous is not None and not (previous == OWN_SHIP and caution):
            raise AlreadyQueried(point, previous)
        if caution and self.option != 3:
            raise RuleError('"Caution! Spaceship!" belongs to option 3')
        if point in self.taken_by_other(team):
            raise PointTaken(f"{format_point(point)} was queried by team {self.other(team)}; "
                             "you may not query it")
        if point in me.found:
            raise RuleError(f"{format_point(point)} is a ship you already have")

        events: list = []
        me.queries += 1
        own_ship = self.option == 3 and point in me.stored
        if own_ship and previous is None:
            # The console gives the position away with the long deep tone.
            rival = self.state[self.other(team)]
            if point not in rival.found:
                rival.found.append(point)
            events.append(OwnShipRevealed(team, point, len(rival.found)))
        result: int | str | None = None
        if caution or not own_ship:
            result = answer(point, self.targets(team))
            if result == DISCOVERED:
                me.found.append(point)
            events.append(Answered(team, point, result, caution, len(me.found)))
        me.queried[point] = result if result is not None else OWN_SHIP
        self.log.append((team, point, result, own_ship and previous is None))

        winner = self._winner_after_query(team)
        if winner is not None:
            return events + self._finish(winner)
        if result != DISCOVERED and len(self.teams) == 2:
            self.turn = self.other(team)
            events.append(TurnPassed(self.turn, SEARCHING))
        self._start_turn(now)
        return events

    def _winner_after_query(self, team: int) -> int | None:
        """Whoever completes four first wins; if one query completes both, the
        querying team wins (it found its own fourth ship)."""
        if len(self.state[team].found) == SHIPS:
            return team
        if len(self.teams) == 2 and len(self.state[self.other(team)].found) == SHIPS:
            return self.other(team)
        return None

    def _finish(self, winner: int) -> list:
        self.phase, self.winner = OVER, winner
        queries = {t: self.state[t].queries for t in self.teams}
        return [GameOver(winner, queries), Reveal({t: self.targets(t) for t in self.teams})]

    # --- the clock ------------------------------------------------------------

    def _start_turn(self, now: float) -> None:
        self.turn_started, self.warned = now, False

    def restart_clock(self, now: float) -> None:
        """Give the team whose turn it is a fresh time limit (after resuming a game)."""
        self._start_turn(now)

    def seconds_left(self, now: float) -> float | None:
        if self.time_limit is None or self.phase != SEARCHING:
            return None
        return max(0.0, self.time_limit - (now - self.turn_started))

    def tick(self, now: float) -> list:
        """The warning, then the end of a turn whose time ran out."""
        left = self.seconds_left(now)
        if left is None or self.time_limit is None:
            return []

        if left <= 0:
            return self.time_out(now)
        if not self.warned and left <= warning_lead(self.time_limit):
            self.warned = True
            return [TimeWarning(self.turn, left)]
        return []

    def time_out(self, now: float) -> list:
        """The turn's time ran out: it passes to the other team."""
        if self.time_limit is None or self.phase != SEARCHING:
            raise RuleError("there is no time limit running")
        team = self.turn
        self.turn = self.other(team)
        self._start_turn(now)
        return [TimedOut(team), TurnPassed(self.turn, SEARCHING)]
