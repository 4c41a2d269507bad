"""Option 3's storing at the console: the fourth position is read back with the other
three and stored only when the team says "done" ("ready" too: the word that then
passes the console is the next team's), and any position can be changed before
("change A1 to E5"). A part of GalaxisConsole (its `parts()`), kept apart as its
own job; it is given the console as a StoringHost: what storing uses of it."""
from __future__ import annotations

from typing import Callable, Protocol

from audio_console.commands import Command
from audio_console.contract.base import InputError, Reply
from audio_console.galaxis.board import SHIPS, Point
from audio_console.galaxis.rules import GalaxisGame


class StoringHost(Protocol):
    core: GalaxisGame
    replaying: bool

    def two_humans(self) -> bool: ...

    def core_action(self, action: Callable[..., list], text: str, *args, **kwargs) -> Reply: ...


class StoringReadBack:
    def __init__(self, host: StoringHost):
        self.host = host
        self.core = host.core
        self.draft: Point | None = None        # the fourth position, stored on "done"
        self.changing: Point | None = None     # "change A1" said: the next point is A1's new place

    @property
    def team(self) -> int:
        return self.core.turn

    def prompt(self) -> str | None:
        if self.changing is not None:
            return f"Team {self.team}: say the new position for {self.changing}."
        return self.read_back() if self.draft is not None else None

    def do_store(self, command: Command, now: float) -> Reply:
        point, stored = command.value("point"), self.core.state[self.team].stored
        if self.changing is not None:
            reply = self._change(self.changing, point)     # refused: still changing that one
            self.changing = None
            return reply
        if self.draft is not None:
            raise InputError(f"Your four positions are chosen: say done, or change one, like "
                             f"change {self.draft}.")
        if self.host.replaying or len(stored) < SHIPS - 1:
            return self.host.core_action(self.core.store, command.text, self.team, point, now)
        if point in stored:
            raise InputError(f"{point} is already one of your stored positions.")
        self.draft = point        # the fourth: read back first, stored on "done"
        return Reply().say(self.read_back(), signal="stored", side=self.team)

    def read_back(self) -> str:
        positions = self._positions()
        then = "pass the console" if self.host.two_humans() else "begin"
        return (f"Team {self.team}: your positions: {', '.join(str(p) for p in positions)}. "
                f"Say done to {then}, or change one, like change {positions[0]}.")

    def do_done(self, command: Command, now: float) -> Reply:
        """The four positions read back are agreed: the fourth is stored (and the console
        passed, or the search begun)."""
        if self.changing is not None:
            raise InputError(f"Say the new position for {self.changing} first, or cancel.")
        if self.draft is None:
            raise InputError("Store your four positions first.")
        point, self.draft = self.draft, None
        return self.host.core_action(self.core.store, f"store {point}", self.team, point, now)

    def _positions(self) -> list[Point]:
        return self.core.state[self.team].stored + ([self.draft] if self.draft else [])

    def do_change(self, command: Command, now: float) -> Reply:
        old, positions = command.value("point"), self._positions()
        if old not in positions:
            raise InputError(f"{old} is not one of your positions; they are "
                             f"{', '.join(str(p) for p in positions) or 'none yet'}.")
        if "new" in dict(command.values):
            return self._change(old, command.value("new"))
        self.changing = old
        return Reply().say(self.prompt() or "", side=self.team)

    def _change(self, old: Point, new: Point) -> Reply:
        if new in self._positions():
            raise InputError(f"{new} is already one of your positions.")
        if old == self.draft:
            self.draft = new
            reply = Reply()
        else:
            reply = self.host.core_action(self.core.change_stored, f"change {old} {new}", self.team, old, new)
        return reply.say(f"Changed: {new} instead of {old}.", signal="stored", side=self.team)

    def do_cancel(self, command: Command, now: float) -> Reply:
        if self.changing is None:
            raise InputError("Nothing to cancel.")
        old, self.changing = self.changing, None
        return Reply().say(f"{old} stays where it is.", side=self.team)
