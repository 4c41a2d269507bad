"""Arkade's first-game walkthrough (`--game arkade --practice tutorial`, or
"walkthrough" in the menu): a real game in Strategy Mode, the player the Alien
against an easy computer Defence, without bonus chips, and a coach who says after
each step of the first turns what to say next, worked out from the board as it is.
It explains that the flight dice show the board's space colours, and how to find a
flight without `what can I do` (read row, what is at). Like Galaxis's tutorial it is
practice: never saved."""
from __future__ import annotations

from audio_console.arkade.actions import Fly
from audio_console.arkade.board import LETTERS, Cell, Space, cell_name
from audio_console.arkade import readout
from audio_console.arkade.commands import spoken
from audio_console.arkade.console import ACTIONS, ArkadeConsole
from audio_console.arkade.pieces import STEPS
from audio_console.arkade.rules import ALIEN, NAMES
from audio_console.commands import Command, Grammar, Rule
from audio_console.contract.adapter import GameAdapter
from audio_console.contract.base import Message, Reply
from audio_console.base.settings import Settings

COACHED_TURNS = 3        # the Alien's turns the coach explains; then the game goes on alone
OPTIONS = {"mode": "strategy", "alien": "human", "defence": "computer", "level": 1, "chips": False}
WHAT_NOW = Rule("what now", "what now", ["what now", "what next", "explain"])
INTRO = [
    "Arkade walkthrough: a first game, explained step by step. You are the Alien; the computer "
    "plays an easy Defence. Strategy Mode, turns, without bonus chips. Nothing is saved.",
    "The board has rows A to H and columns 1 to 6. Your twelve saucers stand in rows A and B; "
    "forward is towards row H, where the Defence's spaceship guards its line. Left is towards column 1. "
    "A saucer that reaches row H wins.",
    "Every space is blue, orange or green. Your two flight dice show these same colours: a blue die "
    "lets one saucer fly one space, forward or sideways, onto a blue space.",
    "At any time, what now says again what to do. To begin, say roll.",
]


class ArkadeWalkthrough(GameAdapter):
    game = "arkade"
    title = "Arkade walkthrough"
    practice = True        # never saved over a game in progress

    def __init__(self, seed: int = 0, settings: Settings | None = None, now: float = 0.0):
        self.inner = ArkadeConsole(OPTIONS, seed, settings, now)
        self.core = self.inner.core
        self.told: set[str] = set()       # the explanations said once
        self._grammar = self.inner.grammar() + Grammar([WHAT_NOW], [])

    # --- the session's questions: those of the game inside ------------------------
    def grammar(self) -> Grammar:
        return self._grammar

    def prompt(self) -> str:
        return self.inner.prompt()

    def help(self) -> list[str]:
        return ["What now: what to do next, explained."] + self.inner.help()

    def status(self, now: float | None = None) -> list[str]:
        return self.inner.status(now)

    def rules_summary(self) -> list[str]:
        return self.inner.rules_summary()

    def explain(self, text: str) -> str | None:
        return self.inner.explain(text)

    def finished(self) -> bool:
        return self.inner.finished()

    def tick(self, now: float) -> Reply:
        return self.inner.tick(now)

    def start(self) -> Reply:
        return Reply(messages=[Message(line) for line in INTRO])

    def act(self, command: Command, now: float) -> Reply:
        if command.name == "what now":
            return Reply(messages=[Message(line) for line in self.coach(again=True)
                                   or ["You know the moves now: say what can I do if you are stuck."]])
        reply = self.inner.handle(command, now)
        if command.name in ACTIONS:
            reply.messages += [Message(line) for line in self.coach()]
        return reply

    # --- the coach -------------------------------------------------------------------
    def alien_turn(self) -> int:
        return (self.core.turns + 1) // 2

    def once(self, key: str, line: str, again: bool) -> list[str]:
        """A line said the first time only (or when the player asks what now)."""
        if key in self.told and not again:
            return []
        self.told.add(key)
        return [line]

    def coach(self, again: bool = False) -> list[str]:
        core = self.core
        if core.finished():
            return [f"The walkthrough game is over: the {NAMES[core.winner or ALIEN]} won. Say new game to "
                    "play it again, or quit and start a game of your own: audio-console --game arkade."]
        if self.alien_turn() > COACHED_TURNS:
            return self.once("alone", "That was the walkthrough: the game goes on without me. Say rules for "
                             "the rules in short.", again)
        dice = core.alien_dice
        if not dice.rolls:
            return self._new_turn(again)
        free = [dice.faces[i] for i in dice.free()]
        if not free:
            return ["Both dice used. Say done: then the Defence plays its turn."]
        example = self._example()
        if example is None:
            more = "Say roll again, for new dice; or done." if not dice.committed and dice.rolls < \
                self.inner.options.max_rolls else "Say done."
            return [f"No saucer can fly onto a free {' or '.join(sorted(set(free)))} space now. {more}"]
        return self._flight_lines(free, example, again)

    def _new_turn(self, again: bool) -> list[str]:
        lines = self.once("defence", "The Defence has played: it moves its spaceship along the line below "
                          "row H and shoots up that column, only at the nearest saucer there, and only when "
                          "the saucer's colour matches its shot die. Keep your leading saucers out of its "
                          "column when you can.", again) if self.core.turns > 1 else []
        return lines + ["Your turn again: say roll."]

    def _flight_lines(self, free: list[str], example: Fly, again: bool) -> list[str]:
        dice = self.core.alien_dice
        colours = " and ".join(free)
        lines = self.once("dice", f"Your dice show {colours}: the colours of the board's spaces. "
                          "Each die flies one saucer one space onto a free space of its colour.", again)
        start, step = example.start, example.route[0]
        target = self._reached(start, step)
        lines += self.once("finding", "To find a flight yourself, without what can I do: read row "
                           f"{LETTERS[target[0]]} names the colour of every space in that row, and what is at "
                           f"{cell_name(target)} names one space.", again)
        if not dice.committed and dice.rolls < self.inner.options.max_rolls:
            lines += self.once("reroll", f"Roll again gives new dice, up to {self.inner.options.max_rolls} "
                               "rolls; your first flight ends the rolling.", again)
        saucer = self.core.saucer_at(start)
        where = {"forward": "in front of it", "left": "to its left", "right": "to its right"}[str(step)]
        # the line that says what to say comes last, where the player's attention is
        lines.append(f"For example, the {saucer.colour if saucer else ''} saucer at {start}: {where}, "
                     f"{cell_name(target)} is {self.core.board.colour(target)} and free. "
                     f"Say {spoken(example, lambda cell: readout.colour_at(self.core, cell))}.")
        return lines

    def _example(self) -> Fly | None:
        """A one-space flight the dice allow: the saucer furthest forward, forward first."""
        order = {"forward": 0, "left": 1, "right": 1}
        flights = [a for a in self.core.legal_actions(ALIEN)
                   if isinstance(a, Fly) and len(a.route) == 1 and a.route[0] in order]
        if not flights:
            return None
        return min(flights, key=lambda a: (-a.start[0], order[str(a.route[0])], a.start[1]))

    @staticmethod
    def _reached(start: Space, step) -> Cell:
        rows, columns = STEPS[step]
        return (start[0] + rows, start[1] + columns)

