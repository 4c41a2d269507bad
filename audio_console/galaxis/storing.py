"""Option 3's storing at the console: the fourth position is read back with the other
three and stored only when the team says "ready", and any position can be changed
before ("change A1 to E5"). A part of GalaxisConsole, kept apart as its own job."""
from __future__ import annotations

from audio_console.commands import Command
from audio_console.console.adapter import GameAdapter
from audio_console.console.base import InputError, Reply
from audio_console.galaxis.board import ALL_POINTS, SHIPS, Point
from audio_console.galaxis.rules import GalaxisGame


class StoringReadBack(GameAdapter):
    # What storing uses of GalaxisConsole (declared for the type checker).
    core: GalaxisGame
    draft: Point | None

    @property
    def team(self) -> int:
        raise NotImplementedError

    def two_humans(self) -> bool:
        raise NotImplementedError

    def _point(self, command: Command) -> Point:
        raise NotImplementedError

    def _core_action(self, action, text: str, *args, **kwargs) -> Reply:
        raise NotImplementedError

    def do_store(self, command: Command, now: float) -> Reply:
        point, stored = self._point(command), self.core.state[self.team].stored
        if self.draft is not None:
            raise InputError(f"Your four positions are chosen: say ready, or change one, like "
                             f"change {self.draft} to {self._free_point()}.")
        if self.replaying or len(stored) < SHIPS - 1:
            return self._core_action(self.core.store, command.text, self.team, point, now)
        if point in stored:
            raise InputError(f"{point} is already one of your stored positions.")
        self.draft = point        # the fourth: read back first, stored on "ready"
        return Reply().say(self._read_back(), signal="stored", side=self.team)

    def _read_back(self) -> str:
        positions = ", ".join(str(p) for p in self._positions())
        then = "pass the console" if self.two_humans() else "begin"
        return (f"Team {self.team}: your positions: {positions}. Say ready to {then}, or change one, "
                f"like change {self._positions()[0]} to {self._free_point()}.")

    def _positions(self) -> list[Point]:
        return self.core.state[self.team].stored + ([self.draft] if self.draft else [])

    def _free_point(self) -> Point:
        """A point for the example, near the middle and not one of the team's positions."""
        return min((p for p in ALL_POINTS if p not in self._positions()),
                   key=lambda p: (abs(p.row - 4) + abs(p.column - 4), p))

    def do_change(self, command: Command, now: float) -> Reply:
        old, new, positions = command.value("point"), command.value("new"), self._positions()
        if old not in positions:
            raise InputError(f"{old} is not one of your positions; they are "
                             f"{', '.join(str(p) for p in positions) or 'none yet'}.")
        if new in positions:
            raise InputError(f"{new} is already one of your positions.")
        if old == self.draft:
            self.draft = new
            return Reply().say(f"Changed: {new} instead of {old}.", signal="stored", side=self.team)
        reply = self._core_action(self.core.change_stored, command.text, self.team, old, new)
        return reply.say(f"Changed: {new} instead of {old}.", signal="stored", side=self.team)
