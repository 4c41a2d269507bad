"""Arkade's actions as typed values: what the console makes of a command, what the
computer players choose, what the rules core takes (Game.act) and offers
(Game.legal_actions).

Each action has one canonical text (`text()`): the words saved games and the --log
have always recorded, "fly B3 forward", "ship 4", "choose pink A3". `parse_action`
reads that text back, and is for saved games only: a player's words go through the
grammar (commands.py), which gives typed values directly.

  both sides  Roll · Reroll(both) · Keep · Done · Choose(C4) · Choose(A3, pink)
  Alien       Reroll(first|second) · Fly(B3, forward [, left|right|forward]) ·
              Fly(B3, C3 [, D3]) · ClearMagnet(C4) · Sacrifice(C3)
  Defence     Reroll(flight|shot) · ShipTo(4) · Booster(left|right) · Shoot ·
              Shoot(outpost) · Plasma([colour]) · UseGps(4)
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Union

from audio_console.arkade.board import LETTERS, SAUCER_COLOURS, Space


@dataclass(frozen=True)
class Roll:
    verb: ClassVar[str] = "roll"

    def text(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Reroll:
    which: str                     # both, first, second (Alien), flight, shot (Defence)
    verb: ClassVar[str] = "reroll"

    def text(self) -> str:
        return f"reroll {self.which}"


@dataclass(frozen=True)
class Keep:
    verb: ClassVar[str] = "keep"

    def text(self) -> str:
        return "keep"


@dataclass(frozen=True)
class Done:
    verb: ClassVar[str] = "done"

    def text(self) -> str:
        return "done"


Step = Union[str, Space]           # a direction ("forward", "left", "right", "back") or a space


@dataclass(frozen=True)
class Fly:
    """A saucer's flight of one or two steps, each a direction or the space it reaches."""
    start: Space
    route: tuple[Step, ...]
    verb: ClassVar[str] = "fly"

    def text(self) -> str:
        steps = [f"to {step}" if isinstance(step, Space) else step for step in self.route]
        return " ".join(["fly", str(self.start), *steps])


@dataclass(frozen=True)
class ClearMagnet:
    space: Space
    verb: ClassVar[str] = "clear"

    def text(self) -> str:
        return f"clear magnet {self.space}"


@dataclass(frozen=True)
class Sacrifice:
    space: Space                   # the saucer that rams the asteroid
    verb: ClassVar[str] = "sacrifice"

    def text(self) -> str:
        return f"sacrifice {self.space}"


@dataclass(frozen=True)
class ShipTo:
    column: int                    # 1 to 6, the flight die's number
    verb: ClassVar[str] = "ship"

    def text(self) -> str:
        return f"ship {self.column}"


@dataclass(frozen=True)
class Booster:
    direction: str                 # left or right
    verb: ClassVar[str] = "booster"

    def text(self) -> str:
        return f"booster {self.direction}"


@dataclass(frozen=True)
class Shoot:
    outpost: bool = False          # from the outpost instead of the spaceship
    verb: ClassVar[str] = "shoot"

    def text(self) -> str:
        return "shoot outpost" if self.outpost else "shoot"


@dataclass(frozen=True)
class Plasma:
    colour: str | None = None      # which kept cannon; None: any that fits
    verb: ClassVar[str] = "plasma"

    def text(self) -> str:
        return f"plasma {self.colour}" if self.colour else "plasma"


@dataclass(frozen=True)
class UseGps:
    column: int
    verb: ClassVar[str] = "gps"

    def text(self) -> str:
        return f"gps {self.column}"


@dataclass(frozen=True)
class Choose:
    """The answer to a bonus chip's question: a space, and for a repair the colour."""
    space: Space
    colour: str | None = None
    verb: ClassVar[str] = "choose"

    def text(self) -> str:
        return f"choose {self.colour} {self.space}" if self.colour else f"choose {self.space}"


Action = Union[Roll, Reroll, Keep, Done, Fly, ClearMagnet, Sacrifice, ShipTo, Booster, Shoot, Plasma,
               UseGps, Choose]
DIRECTIONS = ("forward", "left", "right", "back")
REROLLS = ("both", "first", "second", "flight", "shot")


_PLAIN: dict[str, Action] = {"roll": Roll(), "keep": Keep(), "done": Done(), "shoot": Shoot(), "plasma": Plasma()}


class NotAnAction(ValueError):
    """Text that is no canonical action (a damaged saved game)."""


def _space(word: str) -> Space:
    match = re.fullmatch(r"([A-Z])(\d{1,2})", word)
    if not match or match.group(1) not in LETTERS:
        raise NotAnAction(f"{word!r} is not a space")
    return Space.at(match.group(1), int(match.group(2)))


def _column(word: str) -> int:
    if not word.isdigit():
        raise NotAnAction(f"{word!r} is not a column")
    return int(word)


def parse_action(text: str) -> Action:
    """A saved action's canonical text back to its action (saved games only)."""
    words = text.split()
    verb, args = (words[0], words[1:]) if words else ("", [])
    n = len(args)
    if n == 0 and verb in _PLAIN:
        return _PLAIN[verb]
    if n == 1:
        word = args[0]
        if verb == "reroll" and word in REROLLS:
            return Reroll(word)
        if verb == "ship":
            return ShipTo(_column(word))
        if verb == "gps":
            return UseGps(_column(word))
        if verb == "booster" and word in ("left", "right"):
            return Booster(word)
        if verb == "shoot" and word == "outpost":
            return Shoot(outpost=True)
        if verb == "plasma" and word in SAUCER_COLOURS:
            return Plasma(word)
        if verb == "sacrifice":
            return Sacrifice(_space(word))
        if verb == "choose":
            return Choose(_space(word))
    if verb == "choose" and n == 2 and args[0] in SAUCER_COLOURS:
        return Choose(_space(args[1]), args[0])
    if verb == "clear" and n == 2 and args[0] == "magnet":
        return ClearMagnet(_space(args[1]))
    if verb == "fly" and n >= 2:
        return Fly(_space(args[0]), _route(args[1:]))
    raise NotAnAction(f"{text!r} is not an Arkade action")


def _route(words: list[str]) -> tuple[Step, ...]:
    if words[0] == "to":
        if len(words) not in (2, 4) or words[2:3] not in ([], ["to"]):
            raise NotAnAction("a flight by spaces is 'to C3' or 'to C3 to D3'")
        return tuple(_space(w) for w in words[1::2])
    if len(words) > 2 or any(w not in DIRECTIONS for w in words):
        raise NotAnAction("a flight by directions is one or two of forward, left, right")
    return tuple(words)
