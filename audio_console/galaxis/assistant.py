"""The deduction assistant: a part of GalaxisConsole (its `parts()`).

- each team's exact Deduction, fed from the same events as its board memory;
- "hint" (counted, logged), "why", "which points are ruled out", "chance of D5",
  "how many placements are left", "auto mark on/off", "review".

It speaks only of the knowledge of the team at the console (never the computer's:
the computer sees only its own team's Deduction, computer_play.py). In option 1 a
computer's queried points are kept off the human's text line and speakers, as the
rulebook keeps them from the other team; in option 3 every query is announced anyway.
"""
from __future__ import annotations

import threading
from typing import Protocol

from audio_console.commands import Command, Grammar
from audio_console.commands.grammar import Rule, Slot, SlotOption
from audio_console.contract.base import InputError, Message, Reply
from audio_console.galaxis import commands
from audio_console.galaxis.board import DISCOVERED, format_point
from audio_console.galaxis.computer import ComputerTeam
from audio_console.galaxis.cues import GalaxisCues
from audio_console.galaxis.deduction import Deduction, InconsistentKnowledge, answer_table
from audio_console.galaxis.events import Answered, GameOver, OwnShipRevealed
from audio_console.base.board_words import (
    CERTAIN_SHIP_LONG, CLOSED_LONG, MARKED, NOT_RULED_OUT, RULED_OUT_LONG, marked_note,
)
from audio_console.galaxis.memory import BoardMemory, Known, certain_ships_line, closed_line, ruled_out_line
from audio_console.galaxis.review import review, review_steps
from audio_console.galaxis.rules import SEARCHING, STORING, GalaxisGame
from audio_console.base.settings import Settings
from audio_console.base.wording import counted

# --- the assistant's words: a separate block, added to the lead's grammar ----------------

_STATE = Slot("state", [SlotOption(("on",), "on"), SlotOption(("off",), "off")])

ASSISTANT_RULES = [
    Rule("ruled out", "ruled out",
         ["which [points] (are|is) ruled out", "what is ruled out", "ruled out", "which points are out"]),
    Rule("chance", "chance {point}",
         ["[what is the] chance [of] <point>", "probability [of] <point>",
          "how likely is <point>"]),
    Rule("placements", "placements left",
         ["how many placements [are] [left]", "placements [left]", "how many [are] left"]),
    Rule("auto mark", "auto mark {state}", ["auto mark <state>"]),
    Rule("auto mark", "auto mark {state}", ["automark <state>"], spoken=False),
    Rule("review", "review", ["review", "review [the] game"]),
]
DEMO_RULES = [Rule("next", "next", ["next", "go on", "continue"])]


def assistant_grammar(demo: bool = False) -> Grammar:
    return Grammar(ASSISTANT_RULES + (DEMO_RULES if demo else []), commands.SLOTS + [_STATE])


def replay_grammar() -> Grammar:
    """Recorded actions of the assistant (canonical forms) on top of the lead's."""
    return commands.replay_grammar() + Grammar(
        [Rule("hint", "hint", ["hint"]), Rule("auto mark", "auto mark {state}", ["auto mark <state>"]),
         Rule("caution", "caution {point}", ["caution <point>"])],
        commands.SLOTS + [_STATE])


class AssistantHost(Protocol):
    """What the assistant uses of GalaxisConsole."""
    core: GalaxisGame
    option: int
    memory: dict[int, BoardMemory]
    settings: Settings
    cues: GalaxisCues

    @property
    def team(self) -> int: ...

    @property
    def demo(self) -> bool: ...

    def has_computer(self) -> bool: ...

    def computer_turn(self) -> bool: ...

    def player_team(self) -> int: ...

    def passing(self) -> bool: ...


def warm_up(computer: ComputerTeam | None, option: int) -> None:
    """Build the answer table, and the computer's opening thoughts, in the
    background, so that the game starts at once and the first move is quick."""
    def work():
        answer_table()
        if computer is not None and computer.level == 3 and option in (1, 2):
            computer.choose_query(Deduction(), 1)     # remembered for its first move
    threading.Thread(target=work, name="galaxis-warm-up", daemon=True).start()


class Assistant:
    def __init__(self, host: AssistantHost):
        self.host = host
        self.core, self.option, self.memory = host.core, host.option, host.memory
        self.deductions = {team: Deduction() for team in self.core.teams}
        self.hints = {team: 0 for team in self.core.teams}
        self.auto_mark = {team: False for team in self.core.teams}
        self.why: dict[int, str] = {}      # each team's last hint, with its reason

    def help(self) -> list[str]:
        if self.core.phase == STORING or self.host.passing():
            return []       # the assistant's questions are for the search, by the team holding the console
        return ["Hint: the best query now (hints are counted); why: its reason; long hints on or off. "
                "Chance of D5; which points are ruled out; how many placements are left.",
                "Auto mark on or off: info pegs placed for you. Review: your queries, one by one."]

    def hints_line(self, every_team: bool = False) -> str | None:
        """'Hints used: team 1 2.' (None: none used); at the end of the game every team's count."""
        if not any(self.hints.values()):
            return None
        used = [f"team {t} {n}" if self.option != 2 else str(n) for t, n in self.hints.items()
                if n or every_team]
        return "Hints used: " + ", ".join(used) + "."

    def learn(self, events: list, reply: Reply) -> Reply:
        """Every team's deduction takes the events the board memories took; auto marks,
        and the hints used at the end, join `reply`."""
        revealed = {e.point for e in events if isinstance(e, OwnShipRevealed)}
        for event in events:
            if isinstance(event, Answered):
                self._learn(event.team, lambda d: d.observe(event.point, event.answer))
                if (self.option == 3 and event.point not in revealed
                        and event.point not in self.core.state[event.team].stored):
                    # Announced, and not the querying team's own position: empty for the other.
                    self._learn(self.core.other(event.team), lambda d: d.mark_empty(event.point))
                reply.messages += self._auto_mark(event.team)
            elif isinstance(event, OwnShipRevealed):
                # The other team is given this ship: found for it without a query.
                self._learn(self.core.other(event.team), lambda d: d.observe(event.point, DISCOVERED))
                reply.messages += self._auto_mark(self.core.other(event.team))
            elif isinstance(event, GameOver):
                used = {str(t): n for t, n in self.hints.items()}
                reply.events.append({"event": "hints_used", "hints": used})
                hints = self.hints_line(every_team=True)
                if hints:
                    reply.say(hints)
                if self.option == 2 and not self.counts_for_best():
                    reply.say("Not counted as your best score: "
                              + ("the computer played." if self.host.demo else "hints were used."))
        return reply

    def counts_for_best(self) -> bool:
        return not self.host.demo and not any(self.hints.values())

    def _learn(self, team: int, fact) -> None:
        try:
            fact(self.deductions[team])
        except InconsistentKnowledge:
            # Cannot happen with answers from the rules core; keep playing without it.
            pass

    def _deduction(self) -> Deduction:
        return self.deductions[self.host.player_team()]

    def _secret(self, text: str) -> Message:
        """A team's private knowledge: with two human teams it is asked for only by the team
        at the console, after it said ready (the other team is away), so it is spoken too."""
        return Message(text)

    def do_hint(self, command: Command, now: float) -> Reply:
        if self.core.over:
            raise InputError("The game is over; say review to go through your queries.")
        if self.core.phase != SEARCHING:
            raise InputError("Hints are for the search; store your positions first.")
        if self.host.computer_turn():
            raise InputError("It is the computer's turn.")
        team = self.host.player_team()
        d = self.deductions[team]
        own = set(self.core.state[team].stored)
        suggestion = d.best_query(exclude=own)
        if suggestion is None:
            raise InputError("There is nothing left to query.")
        self.hints[team] += 1
        self.host.cues.best = 0   # a game won with hints is not compared with the best score
        name = format_point(suggestion.point)
        caution = suggestion.point in own
        short = f"Hint: caution {name}." if caution else f"Hint: {name}."
        why = (f"say caution spaceship {name}: it is one of your own positions and certainly one "
               f"of theirs too." if caution else suggestion.reason(d.count))
        if suggestion.point in self.memory[team].marked and suggestion.point not in self.memory[team].auto_marked:
            short = f"{short[:-1]}, though {MARKED}."
            why += f" You marked it, but {NOT_RULED_OUT}."
        self.why[team] = f"Why {name}: {why} Hints used: {self.hints[team]}."
        # Short by default, so that the microphone opens soon; the reason on "why".
        text = f"{short[:-1]}: {why}" if self.host.settings.long_hints else short
        event = {"event": "hint", "team": team, "point": name, "placements": d.count,
                 "chance": round(suggestion.chance, 4), "information": round(suggestion.information, 3),
                 "hints": self.hints[team]}
        return Reply(messages=[self._secret(text)], events=[event], record=["hint"])

    def do_why(self, command: Command, now: float) -> Reply:
        why = self.why.get(self.host.player_team())
        if why is None:
            raise InputError("Say hint first; why then gives the hint's reason.")
        return Reply(messages=[self._secret(why)])

    def known(self) -> Known:
        """The board memory's words come from the same deduction as these answers."""
        d, memory = self.deductions[self.host.team], self.memory[self.host.team]
        return Known(frozenset(p for p in d.ruled_out() if p not in memory.closed),
                     frozenset(p for p in d.certain_ships() if p not in memory.ships))

    def do_ruled_out(self, command: Command, now: float) -> Reply:
        known, memory = self.known(), self.memory[self.host.team]
        points = sorted(known.ruled_out)
        text = ruled_out_line(points) if points else f"Nothing is {RULED_OUT_LONG} yet."
        messages = [self._secret(text)]
        if memory.closed:
            messages.append(self._secret(closed_line(memory.closed)))
        if known.ships:
            messages.append(self._secret(certain_ships_line(known.ships)))
        return Reply(messages=messages)

    def do_chance(self, command: Command, now: float) -> Reply:
        point = command.value("point")
        d = self._deduction()
        name = format_point(point)
        if point in d.found:
            text = f"{name} is a ship you found."
        elif point in d.heard:
            text = f"{name} was queried: it is not a ship."
        elif point in self.memory[self.host.team].closed:
            text = f"{name}: {CLOSED_LONG}."
        else:
            chance = d.chance(point)
            if chance <= 0:
                text = f"{name}: {RULED_OUT_LONG}; no chance of a ship."
            elif chance >= 1:
                text = f"{name}: {CERTAIN_SHIP_LONG}."
            else:
                text = f"{name}: a ship with chance {chance:.0%} ({_share(chance, d.count)})."
            if chance > 0 and point in self.memory[self.host.team].marked:
                text = text[:-1] + f"; {marked_note(False)}."     # the player's peg is not the answers'
        return Reply(messages=[self._secret(text)])

    def do_placements(self, command: Command, now: float) -> Reply:
        d = self._deduction()
        n = d.count
        text = (f"{n:,} placements of the four ships agree with what you heard." if n > 1
                else "1 placement agrees with what you heard: the ships are certain.")
        return Reply(messages=[self._secret(text)])

    def do_auto_mark(self, command: Command, now: float) -> Reply:
        team = self.host.player_team()
        on = command.get("state") == "on"
        self.auto_mark[team] = on
        reply = Reply(record=[command.text])
        reply.say(f"Auto mark on: info pegs are placed for you on every point {RULED_OUT_LONG}."
                  if on else "Auto mark off: the pegs placed stay; new ones are yours to place.")
        reply.messages += self._auto_mark(team)
        return reply

    def _auto_mark(self, team: int) -> list[Message]:
        if not self.auto_mark.get(team) or self.core.over:
            return []
        memory = self.memory[team]
        new = [p for p in sorted(self.deductions[team].ruled_out())
               if p not in memory.marked and p not in memory.answers
               and p not in memory.ships and p not in memory.closed]
        memory.auto_mark(new)
        if not new:
            return []
        text = f"Auto mark: {counted(len(new), 'point')} {RULED_OUT_LONG}, marked for you: {_names(new)}."
        if self.option == 1 and team != self.host.player_team():
            return []
        return [self._secret(text)]

    def do_review(self, command: Command, now: float) -> Reply:
        if self.option == 1 and not self.host.has_computer() and not self.core.over:
            raise InputError("In option 1 the review waits for the end of the game.")
        team = self.host.player_team()
        other = self.core.other(team) if len(self.core.teams) == 2 else None
        # Only option 3 tells a team anything by the other team's queries; in option 1
        # both hunt the same ships and the other's points are not known empty.
        log = self.core.log if self.option == 3 else [q for q in self.core.log if q[0] == team]
        stored_by_other = self.core.state[other].stored if other else ()
        steps = review_steps(log, team, stored_by_other)
        if not any(step.kind in ("query", "own ship") for step in steps):
            raise InputError("No queries to review yet.")
        return Reply(messages=review(steps, team if other else None, exclude=self.core.state[team].stored))


def _names(points) -> str:
    return ", ".join(format_point(p) for p in sorted(points))


def _share(chance: float, count: int) -> str:
    return f"in {round(chance * count):,} of {count:,} placements"
