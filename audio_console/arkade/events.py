"""What happened in an Arkade game: typed facts emitted by the rules core.

Each event knows its JSON-lines log form (docs/architecture.md, "The event log": a public contract, the
same lines for the same seed); the wording and the sound live in cues.py. Cells are
(row, column) pairs, spaces of the defence line numbers 1-6.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from audio_console.arkade.board import Cell, cell_name
from audio_console.arkade.pieces import ALIEN, CHIP_TITLES, DEFENCE


@dataclass(frozen=True)
class Event:
    logged = True        # False: the console does not write it to the --log file

    def log(self) -> dict:
        raise NotImplementedError


Apply = Callable[[], "list[Event]"]   # carries out an action already checked


def _last(log: dict, last: bool | None) -> dict:
    """Strategy Mode says whether a roll was the turn's last; Arcade Mode has no last roll."""
    return log if last is None else {**log, "last": last}


@dataclass(frozen=True)
class AlienRolled(Event):
    faces: tuple[str, str]
    roll: int                  # rolls this turn, this one included
    last: bool | None = None   # Strategy Mode: no reroll after this one

    side = ALIEN

    def log(self) -> dict:
        return _last({"event": "roll", "side": ALIEN, "dice": list(self.faces), "roll": self.roll}, self.last)


@dataclass(frozen=True)
class DefenceRolled(Event):
    flight: int
    shot: str
    roll: int
    last: bool | None = None

    side = DEFENCE

    def log(self) -> dict:
        return _last({"event": "roll", "side": DEFENCE, "flight": self.flight, "shot": self.shot,
                      "roll": self.roll}, self.last)


@dataclass(frozen=True)
class DiceKept(Event):
    side: str

    def log(self) -> dict:
        return {"event": "keep", "side": self.side}


@dataclass(frozen=True)
class TurnEnded(Event):
    side: str
    turn: int

    logged = False

    def log(self) -> dict:
        return {"event": "turn_end", "side": self.side, "turn": self.turn}


@dataclass(frozen=True)
class TurnBegan(Event):
    side: str
    turn: int
    reactor: bool = False      # the Defence's turn under reactor damage

    def log(self) -> dict:
        return {"event": "turn", "side": self.side, "turn": self.turn, "reactor": self.reactor}


@dataclass(frozen=True)
class SaucerFlew(Event):
    saucer: str                # its colour
    start: Cell
    end: Cell
    path: tuple[Cell, ...]
    by: str | None = None      # None: the flight dice; "engine" or "rift": a chip

    side = ALIEN

    def log(self) -> dict:
        log = {"event": "flight", "saucer": self.saucer, "from": cell_name(self.start), "to": cell_name(self.end),
               "path": [cell_name(c) for c in self.path]}
        return log if self.by is None else {**log, "by": self.by}


@dataclass(frozen=True)
class SpaceshipFlew(Event):
    start: int                 # spaces 1-6 of the defence line
    end: int
    by: str                    # "die" or "gps"

    side = DEFENCE

    def log(self) -> dict:
        return {"event": "spaceship_flight", "from": self.start, "to": self.end, "by": self.by}


@dataclass(frozen=True)
class BoosterFired(Event):
    direction: str             # "left" or "right"
    start: int
    end: int
    boosters: int              # left after this one

    side = DEFENCE

    def log(self) -> dict:
        return {"event": "booster", "direction": self.direction, "from": self.start, "to": self.end,
                "boosters": self.boosters}


@dataclass(frozen=True)
class ShotFired(Event):
    source: str                # "ship" or "outpost"
    weapon: str                # "shot" or "plasma"
    target: Cell
    saucer: str
    result: str                # "destroyed" or "shield" (the shield is gone, the saucer stays)

    side = DEFENCE

    def log(self) -> dict:
        return {"event": "shot", "from": self.source, "weapon": self.weapon, "column": self.target[1] + 1,
                "target": cell_name(self.target), "saucer": self.saucer, "result": self.result}


@dataclass(frozen=True)
class AlienChipDrawn(Event):
    chip: str
    saucer: str                # the saucer that landed on its bonus space
    cell: Cell
    result: str                # "shield", "moved", "choose", "booster_lost", "reactor", "fizzled"
    boosters: int | None = None   # booster_lost: the Defence's boosters left

    side = ALIEN

    @property
    def title(self) -> str:
        return CHIP_TITLES[self.chip]

    def log(self) -> dict:
        log = {"event": "chip", "side": ALIEN, "chip": self.chip, "title": self.title, "saucer": self.saucer,
               "cell": cell_name(self.cell), "result": self.result}
        return log if self.boosters is None else {**log, "boosters": self.boosters}


@dataclass(frozen=True)
class DefenceChipDrawn(Event):
    chip: str
    colour: str                # the colour of the second saucer of a colour destroyed
    result: str                # "choose", "boosters", "kept", "fizzled"
    gained: int | None = None     # boosters: how many the mine gave
    boosters: int | None = None   # boosters: how many the Defence has now

    side = DEFENCE

    @property
    def title(self) -> str:
        return CHIP_TITLES[self.chip]

    def log(self) -> dict:
        log = {"event": "chip", "side": DEFENCE, "chip": self.chip, "title": self.title, "colour": self.colour,
               "result": self.result}
        return log if self.gained is None else {**log, "gained": self.gained, "boosters": self.boosters}


@dataclass(frozen=True)
class ChipLapsed(Event):
    """A chip's choice that the board no longer allows: it leaves the game."""
    side: str
    chip: str
    colour: str | None         # a Defence chip's colour

    result = "fizzled"

    @property
    def title(self) -> str:
        return CHIP_TITLES[self.chip]

    def log(self) -> dict:
        return {"event": "chip", "side": self.side, "chip": self.chip, "title": self.title, "result": "fizzled",
                "colour": self.colour}


@dataclass(frozen=True)
class Chosen(Event):
    side: str
    chip: str
    cell: Cell
    saucer: str | None = None  # comets and repair: the saucer's colour
    to: Cell | None = None     # comets: where the saucer was pushed back to

    def log(self) -> dict:
        log = {"event": "chosen", "side": self.side, "chip": self.chip, "cell": cell_name(self.cell)}
        if self.saucer is not None:
            log["saucer"] = self.saucer
        if self.to is not None:
            log["to"] = cell_name(self.to)
        return log


@dataclass(frozen=True)
class MagnetCleared(Event):
    cell: Cell

    side = ALIEN

    def log(self) -> dict:
        return {"event": "magnet_cleared", "cell": cell_name(self.cell)}


@dataclass(frozen=True)
class AsteroidRemoved(Event):
    cell: Cell                 # the asteroid's
    saucer: str
    start: Cell                # the saucer's, in front of it

    side = ALIEN

    def log(self) -> dict:
        return {"event": "asteroid_removed", "cell": cell_name(self.cell), "saucer": self.saucer,
                "from": cell_name(self.start)}


@dataclass(frozen=True)
class Alarm(Event):
    saucer: str
    cell: Cell                 # on the last row

    side = ALIEN

    def log(self) -> dict:
        return {"event": "alarm", "saucer": self.saucer, "cell": cell_name(self.cell)}


@dataclass(frozen=True)
class GameOver(Event):
    winner: str
    turns: int

    def log(self) -> dict:
        return {"event": "game_over", "winner": self.winner, "turns": self.turns}
