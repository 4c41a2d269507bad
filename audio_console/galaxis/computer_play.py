"""The computer team at the Galaxis console: a part of GalaxisConsole when one plays
(`--opponent computer`, `--level 1-3`): team 2 in options 1 and 3, and in option 2 a
demonstration that plays one query per "next", saying why. It sees only its own
team's Deduction; its choices go straight to the rules core and are recorded as a
player's would be, so a saved game replays them without choosing again."""
from __future__ import annotations

from typing import Callable, Protocol

from audio_console.commands import Command
from audio_console.contract.adapter import refusal_sentence
from audio_console.contract.base import InputError, Message, Reply
from audio_console.galaxis.computer import ComputerTeam
from audio_console.galaxis.deduction import Deduction
from audio_console.galaxis.rules import STORING, GalaxisGame, RuleError

MOVES = ("query", "store", "caution")      # what only the team whose turn it is may say


class ComputerHost(Protocol):
    core: GalaxisGame
    option: int

    def deduction(self, team: int) -> Deduction: ...

    def core_action(self, action: Callable[..., list], text: str, *args, **kwargs) -> Reply: ...


class ComputerPlayer:
    def __init__(self, host: ComputerHost, level: int, seed: int):
        self.host, self.core = host, host.core
        self.player = ComputerTeam(level, seed, team=1 if host.option == 2 else 2)
        self.team, self.name = self.player.team, self.player.name
        self.demo = host.option == 2       # option 2 has one team: the computer plays it alone
        self.moves = 0

    def turn(self) -> bool:
        return not self.core.over and self.core.turn == self.team

    def prompt(self) -> str | None:
        if self.demo and not self.core.over:
            return f"Demonstration, query {self.core.state[1].queries + 1}: say next."
        if self.turn():
            if self.core.phase == STORING:
                return f"Team {self.team}: the computer stores its four positions."
            return f"Team {self.team}: the computer's query."
        return None

    def start_line(self) -> str:
        if self.demo:
            return f"Demonstration: the {self.name} searches alone. Say next for each query."
        return f"Team 2 is the {self.name}."

    def refusal(self, command: Command) -> str | None:
        if command.name in MOVES and self.turn():
            who = "the computer's demonstration; say next" if self.demo else "the computer's turn"
            return f"It is {who}."
        return None

    def replayed(self, command: Command) -> None:
        """A saved move of the computer's own, replayed: its next choice follows it."""
        if command.name in MOVES and self.turn():
            self.moves += 1

    def play(self, now: float) -> Reply:
        """Outside a demonstration: the computer's moves while it is its turn."""
        reply = Reply()
        while not self.demo and self.turn():
            reply.extend(self.move(now))
        return reply

    def move(self, now: float, explain: bool = False) -> Reply:
        """The computer's choice, straight to the rules core; its canonical text is recorded."""
        team, core = self.team, self.core
        self.moves += 1
        if core.phase == STORING:
            stored = core.state[team].stored
            point = next(p for p in self.player.store_positions() if p not in stored)
            return self.host.core_action(core.store, f"store {point}", team, point, now)
        deduction = self.host.deduction(team)
        choice = self.player.choose(deduction, self.moves, own_ships=core.state[team].stored)
        if choice.point in core.taken_by_other(team):     # never happens: closed points are known empty
            raise RuntimeError("the computer chose a closed point")
        verb = "caution" if choice.caution else "query"
        reason = deduction.suggestion(choice.point).reason(deduction.count, best=False) if explain else None
        try:
            reply = self.host.core_action(core.query, f"{verb} {choice.point}", team, choice.point, now,
                                          caution=choice.caution)
        except RuleError as error:
            raise InputError(refusal_sentence(error)) from error
        if reason:
            reply.messages.insert(0, Message(f"The computer queries {choice.point}: {reason}"))
        return reply

    def do_next(self, command: Command, now: float) -> Reply:
        if not self.demo:
            raise InputError("Next is for the demonstration.")
        if self.core.over:
            raise InputError("The demonstration is over. Say review, new game or quit.")
        return self.move(now, explain=True)
