"""What happened in a Galaxis game: typed facts emitted by the rules core.

Each event knows its JSON-lines log form (docs/architecture.md, "The event log"); the wording and the
sound live in cues.py.
"""
from __future__ import annotations

from dataclasses import dataclass

from audio_console.galaxis.board import Point, format_point


@dataclass(frozen=True)
class Answered:
    team: int
    point: Point
    answer: int | str          # 0-4 or "discovered"
    caution: bool = False      # option 3: asked after "Caution! Spaceship!"
    found: int = 0             # ships this team has found so far, after this answer

    def log(self) -> dict:
        return {"event": "answer", "team": self.team, "point": format_point(self.point),
                "answer": self.answer, "caution": self.caution, "found": self.found}


@dataclass(frozen=True)
class Stored:
    team: int
    point: Point
    count: int                 # positions stored by this team so far (1-4)

    def log(self) -> dict:
        # The position itself stays secret until the reveal at the end.
        return {"event": "stored", "team": self.team, "count": self.count}


@dataclass(frozen=True)
class StoreChanged:
    team: int
    old: Point
    new: Point

    def log(self) -> dict:
        return {"event": "store_changed", "team": self.team}     # secret, as Stored


@dataclass(frozen=True)
class OwnShipRevealed:
    team: int                  # the team that queried its own stored position
    point: Point
    opponent_found: int        # ships the opponent has found now, this one included

    def log(self) -> dict:
        return {"event": "own_ship", "team": self.team, "point": format_point(self.point),
                "opponent_found": self.opponent_found}


@dataclass(frozen=True)
class TurnPassed:
    team: int                  # whose turn it is now
    phase: str                 # "storing" or "searching"
    phase_begins: bool = False # the first turn of this phase

    def log(self) -> dict:
        return {"event": "turn", "team": self.team, "phase": self.phase}


@dataclass(frozen=True)
class TimeWarning:
    team: int
    seconds_left: float

    def log(self) -> dict:
        return {"event": "time_warning", "team": self.team, "seconds_left": round(self.seconds_left, 1)}


@dataclass(frozen=True)
class TimedOut:
    team: int

    def log(self) -> dict:
        return {"event": "time_out", "team": self.team}


@dataclass(frozen=True)
class GameOver:
    winner: int
    queries: dict[int, int]

    def log(self) -> dict:
        return {"event": "game_over", "winner": self.winner,
                "queries": {str(t): n for t, n in self.queries.items()}}


@dataclass(frozen=True)
class Reveal:
    ships: dict[int, tuple[Point, ...]]   # per team, the ships it was looking for

    def log(self) -> dict:
        if len(set(self.ships.values())) == 1:   # options 1 and 2: one set of ships
            return {"event": "reveal", "ships": [format_point(p) for p in next(iter(self.ships.values()))]}
        return {"event": "reveal", "ships": {str(t): [format_point(p) for p in ps]
                                             for t, ps in self.ships.items()}}
