"""What a Battleship player may ask about the game at any time: where it stands, a
sector read out, what is known on a line, their own fleet, a hint and its reason.

A part of BattleshipConsole (its review do_ methods), kept apart because it is its
own job: it reads the board memories and changes nothing in the game.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from audio_console.battleship.commands import OVER, PASSING, PLACING, SHOOTING
from audio_console.battleship.computer import hint, move_rng
from audio_console.battleship.memory import BoardMemory
from audio_console.battleship.rules import Game, Line
from audio_console.commands import Command
from audio_console.console.adapter import GameAdapter, plain_lines
from audio_console.console.base import InputError, Reply
from audio_console.settings import Settings
from audio_console.wording import sentence


class FleetReview(GameAdapter):
    # What the review uses of BattleshipConsole (declared for the type checker).
    core: Game
    seed: int
    opponent: str
    settings: Settings
    names: dict[int, str]
    memory: dict[int, BoardMemory]
    current_sector: dict[int, int | None]
    why: dict[int, str]                 # each player's last hint, with its reason
    passing_to: int | None
    phase: Callable[[], str]
    _who: Callable[[int], str]
    _line: Callable[[Command], Line]
    _passing_refusal: Callable[[], str]
    if TYPE_CHECKING:
        @property
        def player(self) -> int: ...       # the player at the console now

    def status(self, now: float | None = None) -> list[str]:
        phase = self.phase()
        if phase == OVER:
            assert self.core.winner is not None      # over means someone won
            lines = [f"Game over. {self.names[self.core.winner]} won."]

        elif phase == PASSING:
            return [f"Passing the console to player {self.passing_to}. Shots: player 1 "
                    f"{self.core.shots(1)}, player 2 {self.core.shots(2)}. Ships vaporized: player 1 "
                    f"{len(self.core.vaporized[1])}, player 2 {len(self.core.vaporized[2])}."]
        elif phase == PLACING:
            placed = self.core.fleets[self.player]
            lines = [sentence(f"{self._who(self.player)}placing: {len(placed)} of 5 ships placed.")]
        else:
            lines = ["Your shot." if self.opponent == "computer" else f"Player {self.player} to shoot."]
        return lines + self.memory[self._viewer()].status()

    def _viewer(self) -> int:
        """Whose memory the review commands read."""
        if self.opponent == "computer":
            return 1
        if self.core.winner is not None:
            return self.core.winner
        return self.player

    def _review(self, *lines: str) -> Reply:
        return plain_lines(*lines)

    def do_status(self, command: Command, now: float = 0.0) -> Reply:
        return self._review(*self.status())

    def do_summary(self, command: Command, now: float = 0.0) -> Reply:
        return self.do_status(command, now)

    def do_read_sector(self, command: Command, now: float = 0.0) -> Reply:
        return self._review(self.memory[self._viewer()].read_sector(int(command.get("sector"))))

    def do_read(self, command: Command, now: float = 0.0) -> Reply:
        sector = self.current_sector.get(self._viewer())
        if sector is None:
            raise InputError("Which sector? Say read sector 2.")
        return self._review(self.memory[self._viewer()].read_sector(sector))

    def do_what(self, command: Command, now: float = 0.0) -> Reply:
        return self._review(self.memory[self._viewer()].what_about(self._line(command)))

    def do_what_here(self, command: Command, now: float = 0.0) -> Reply:
        return self.do_what(command, now)

    def do_my_fleet(self, command: Command, now: float = 0.0) -> Reply:
        return self._review(*self.memory[self._viewer()].my_fleet())

    def do_my_sector(self, command: Command, now: float = 0.0) -> Reply:
        return self._review(self.memory[self._viewer()].my_sector(int(command.get("sector"))))

    def do_hint(self, command: Command, now: float = 0.0) -> Reply:
        if self.phase() != SHOOTING:
            raise InputError("Hints are for shooting.")
        player = self.player
        line, why = hint(self.core.observations[player], move_rng(self.seed, player, -1 - self.core.shots(player)))
        name = f"sector {line.sector} {line.name}"
        self.why[player] = f"Why {name}: {why}"
        # Short by default, so that the microphone opens soon; the reason on "why".
        return self._review(f"Hint: {name}: {why}" if self.settings.long_hints else f"Hint: {name}.")

    def do_why(self, command: Command, now: float = 0.0) -> Reply:
        if self.phase() == PASSING:
            raise InputError(self._passing_refusal())
        why = self.why.get(self.player)
        if why is None:
            raise InputError("Say hint first; why then gives the hint's reason.")
        return self._review(why)
