"""Galaxis at the console: routes Commands to the rules core or the board memory,
and answers with cues. One BoardMemory per team (each team's own scanner).

The one adapter of the game, composed of parts with commands of their own
(`parts()`): option 3's storing read-back (storing.py), the deduction assistant
(assistant.py) and, when one plays, the computer team (computer_play.py)."""
from __future__ import annotations

import random

from audio_console.commands import Command, Grammar
from audio_console.commands.grammar import Rule
from audio_console.contract.adapter import ALREADY_OVER, GAME_OVER, GameAdapter, plain_lines
from audio_console.contract.base import InputError, Message, Reply
from audio_console.contract.hot_seat import HotSeat
from audio_console.galaxis import commands
from audio_console.galaxis.assistant import Assistant, assistant_grammar, replay_grammar, warm_up
from audio_console.galaxis.board import ROWS, Point, line_points
from audio_console.galaxis.computer_play import ComputerPlayer
from audio_console.galaxis.cues import GalaxisCues
from audio_console.galaxis.events import Answered, OwnShipRevealed, StoreChanged, Stored, TurnPassed
from audio_console.galaxis.deduction import Deduction
from audio_console.galaxis.memory import BoardMemory, Known, answer_words
from audio_console.galaxis.rules import OWN_SHIP, STORING, GalaxisGame, RuleError
from audio_console.galaxis.rules_summary import rules_lines
from audio_console.galaxis.storing import StoringReadBack
from audio_console.base.settings import Settings
from audio_console.base.wording import number_word, sentence

READY = Rule("ready", "ready", ["ready", "we are ready", "team ready"])
DONE = Rule("done", "done", ["done", "we are done"])     # option 3: the four positions read back are agreed

OPTION_NAMES = {
    1: "option 1, two teams hunt the same four ships",
    2: "option 2, one player alone",
    3: "option 3, each team hides four positions for the other",
}


class GalaxisConsole(GameAdapter):
    game = "galaxis"
    title = "Galaxis"
    rule_errors = (RuleError,)

    def __init__(self, option: int = 2, seed: int = 0, time_limit: float | None = None,
                 settings: Settings | None = None, now: float = 0.0, opponent: str = "human",
                 level: int = 3):
        try:
            self.core = GalaxisGame(option, random.Random(seed), time_limit, now)
        except RuleError as error:
            raise InputError(str(error)) from error
        self.option = option
        self.memory = {team: BoardMemory() for team in self.core.teams}
        self.settings = settings or Settings()
        self.cues = GalaxisCues(option, self.settings.best_option2)
        # Two human teams at one console (options 1 and 3): the console is passed at each
        # change of turn and says nothing secret until the next team says "ready"
        # (the same rule as Battleship's pass-the-console).
        self.hot_seat: HotSeat = HotSeat("team")
        self.cues.private = option == 1
        self.computer: ComputerPlayer | None = None
        if opponent == "computer":
            self.computer = ComputerPlayer(self, level, seed)
            if option != 2:
                self.cues.computer_team = self.computer.team
            self.cues.private = False
        if self.demo:
            self.cues.best = 0   # the computer's game is no player's score
        self.assistant = Assistant(self)
        self._replay_grammar = replay_grammar()
        warm_up(self.computer.player if self.computer else None, option)
        # Option 3: the fourth position, said but stored only on "ready" after the read-back;
        # and the own positions a plain query was warned about once (team, point).
        self.storing = StoringReadBack(self)
        self.asked_own: set[tuple[int, Point]] = set()

    def parts(self) -> tuple[object, ...]:
        return (self.storing, self.assistant) + ((self.computer,) if self.computer else ())

    @property
    def demo(self) -> bool:
        return self.computer is not None and self.computer.demo

    def has_computer(self) -> bool:
        return self.computer is not None

    def computer_turn(self) -> bool:
        return self.computer is not None and self.computer.turn()

    def player_team(self) -> int:
        """The team whose knowledge the assistant speaks about: never the computer's."""
        return 1 if self.computer is not None and self.option != 2 else self.team

    def deduction(self, team: int) -> Deduction:
        return self.assistant.deductions[team]

    def two_humans(self) -> bool:
        return self.option in (1, 3) and self.computer is None

    # --- the session's questions -------------------------------------------------

    @property
    def team(self) -> int:
        return self.core.turn

    def finished(self) -> bool:
        return self.core.over

    def grammar(self) -> Grammar:
        grammar = commands.grammar(self.core.phase, self.option)
        if self.two_humans() or self.storing.draft:
            grammar = grammar + Grammar([READY, DONE] if self.storing.draft else [READY], [])
        return grammar + assistant_grammar(self.demo)

    def prompt(self) -> str:
        computer = self.computer.prompt() if self.computer else None
        if computer:
            return computer
        if self.core.over:
            return GAME_OVER
        if self.hot_seat.passing:
            return self.hot_seat.prompt()
        storing = self.storing.prompt()
        if storing:
            return storing
        if self.core.phase == STORING:
            stored = len(self.core.state[self.team].stored)
            return f"Team {self.team}: store position {stored + 1} of 4."
        queries = self.core.state[self.team].queries
        if self.option == 2:
            return f"Query {queries + 1}: say a point, like D5." if queries == 0 else f"Query {queries + 1}."
        return f"Team {self.team}: your query."

    def fixed_phrases(self) -> list[str]:
        """Spoken lines whose words do not depend on the point: rendered ahead."""
        turns = [f"Team {t}." for t in self.core.teams] if self.option != 2 else []
        if self.option != 1:
            return turns          # options 2 and 3 speak the point with the answer
        answers = ["zero, no ship in sight."] + [f"{number_word(n)}." for n in range(1, 5)]
        return [f"Team {t}: {a}" for t in self.core.teams for a in answers] + turns

    def help(self) -> list[str]:
        lines = self._game_help() + self.assistant.help()
        if self.demo:
            lines.insert(0, "Next: the computer makes its next query and says why.")
        return lines

    def _game_help(self) -> list[str]:
        if self.hot_seat.passing:
            return self.hot_seat.help()
        lines = []
        if self.core.phase == STORING:
            return ["Say a point to store it secretly, like D5 or delta five; after the fourth you "
                    "hear all four and say done.",
                    "Change A1, then the new point, moves a stored position (typed in one go: change A1 to E5). Summary or what is at D5 says them again; "
                    "status says whose turn it is."]
        if not self.core.over:
            lines.append("Say a point to query its buoy: a row A to G and a column 1 to 9, "
                         "like D5 or delta five.")
            if self.option == 3:
                lines.append("Caution spaceship D5: query one of your own positions on purpose.")
        lines += [
            "What is at D5; read row D; read column 5; listen to row D; summary; status.",
            "Mark D5 places your own info peg (said as marked by you, apart from what the answers rule out); "
            "unmark D5 removes it; undo takes back the last one.",
        ]
        return lines

    def start(self) -> Reply:
        reply = Reply()
        reply.say(f"Galaxis, {OPTION_NAMES[self.option]}.", signal="ready")
        if self.core.time_limit:
            reply.say(f"Time limit: {self.core.time_limit:g} seconds a turn.")
        if self.option == 3:
            reply.say("Team 1: store your four positions, secret from team 2.", signal="turn", side=1)
        elif self.option == 1:
            reply.say("Team 1 begins.", signal="turn", side=1)
        if self.computer is not None:
            reply.say(self.computer.start_line())
        return reply

    def status(self, now: float | None = None) -> list[str]:
        """Whose turn, what each team found, and (given the time) the seconds left."""
        if self.core.over:
            lines = [f"Game over. {self._winner_words()}"]
        elif self.core.phase == STORING:
            lines = [f"Storing positions: team {self.team}'s turn."]
        else:
            lines = [f"Team {self.team}'s turn." if self.option != 2 else "Searching."]
            if self.hot_seat.passing:
                lines = [f"Team {self.team}'s turn, when it says ready: the clock waits."]
            left = None if now is None or self.hot_seat.passing else self.core.seconds_left(now)
            if left is not None:
                seconds = round(left)
                lines[0] += f" {seconds} second{'' if seconds == 1 else 's'} left."
        for team in self.core.teams:
            state = self.core.state[team]
            who = f"Team {team}: " if self.option != 2 else ""
            found = f"found {len(state.found)} of 4 in {state.queries} quer{'y' if state.queries == 1 else 'ies'}."
            lines.append(f"{who}{found}" if who else found.capitalize())
        hints = self.assistant.hints_line()
        return lines + [hints] if hints else lines

    def rules_summary(self) -> list[str]:
        return rules_lines(self.option, self.core.time_limit)

    def _winner_words(self) -> str:
        if self.option == 2:
            return f"All four found in {self.core.state[1].queries} queries."
        return f"Team {self.core.winner} won."

    # --- acting -----------------------------------------------------------------------

    def refusal(self, command: Command) -> str | None:
        computer = self.computer.refusal(command) if self.computer else None
        return computer or self.hot_seat.refusal(command, allowed=("ready", "status"))

    def unknown(self, command: Command) -> str:
        return f"{sentence(command.text)} is not something Galaxis can do; say help for what you can say."

    def replay_grammar(self) -> Grammar:
        return self._replay_grammar

    def replay(self, command: Command) -> Reply:
        if self.computer is not None:
            self.computer.replayed(command)
        self.hot_seat.cancel()
        if command.name == "time out":
            return Reply(record=["time out"]).extend(self._apply_events(self.core.time_out(0.0)))
        return super().replay(command)

    def tick(self, now: float) -> Reply:
        if self.hot_seat.passing:
            return Reply()       # the next team's clock starts when it says ready
        events = self.core.tick(now)
        reply = self._apply_events(events)
        if any(type(e).__name__ == "TimedOut" for e in events):
            reply.record.append("time out")
        return reply.extend(self.computer.play(now)) if self.computer else reply

    def restart_clock(self, now: float) -> None:
        self.core.restart_clock(now)

    def explain(self, text: str) -> str | None:
        if self.core.phase == STORING and text.lower().strip(" .!") in ("done", "we are done"):
            return (f"Done comes after all four positions: store position "
                    f"{len(self.core.state[self.team].stored) + 1} of 4 first, like D5.")
        return commands.explain(text, self.option)

    def _point(self, command: Command) -> Point:
        return command.value("point")

    def _apply_events(self, events: list) -> Reply:
        """Update both teams' memories from the events, and turn them into cues."""
        reply = Reply(events=[e.log() for e in events])
        for event in events:
            if isinstance(event, Answered):
                self.memory[event.team].record_answer(event.point, event.answer)
                if self.option == 3:
                    self.memory[self.core.other(event.team)].record_closed(event.point)
            elif isinstance(event, OwnShipRevealed):
                self.memory[event.team].record_answer(event.point, OWN_SHIP)
                rival = self.memory[self.core.other(event.team)]
                rival.record_gift(event.point)
                rival.record_closed(event.point)
            elif isinstance(event, Stored):
                self.memory[event.team].own_stored.append(event.point)
            elif isinstance(event, StoreChanged):
                stored = self.memory[event.team].own_stored
                stored[stored.index(event.old)] = event.new
            if isinstance(event, TurnPassed) and self.two_humans() and not self.core.over:
                # a query's answer is public: it stays readable (a storing team's line does not)
                public = reply.messages if self.core.phase != STORING and not event.phase_begins else []
                reply.messages.append(self.hot_seat.pass_to(event.team, public))   # the only clear
                if event.phase_begins:
                    reply.messages += self.cues.messages(event)
                reply.say(self.hot_seat.prompt(), signal="turn", side=event.team)
                continue
            reply.messages += self.cues.messages(event)
        return self.assistant.learn(events, reply)

    def do_ready(self, command: Command, now: float) -> Reply:
        if not self.hot_seat.passing and self.storing.draft is not None:     # as done, said out of habit
            return self.storing.do_done(command, now)
        team = self.hot_seat.ready()
        self.core.restart_clock(now)
        reply = Reply()
        if self.core.time_limit and self.core.phase != STORING:
            reply.say(f"Team {team}: your {self.core.time_limit:g} seconds start now.", side=team)
        return reply.say(self.prompt(), signal="turn", side=team)

    def core_action(self, action, text: str, *args, **kwargs) -> Reply:
        """Call the rules core; its events update the memories and are cued, and
        `text` (the canonical action, "query D5") is recorded for the save."""
        events = action(*args, **kwargs)
        reply = self._apply_events(events)
        reply.record.append(text)
        if self.core.over and self.option == 2:
            self._keep_best(self.core.state[1].queries)
        return reply

    def _keep_best(self, queries: int) -> None:
        if not self.assistant.counts_for_best():
            return
        if not self.settings.best_option2 or queries < self.settings.best_option2:
            self.settings.best_option2 = queries
            self.settings.save()

    def do_query(self, command: Command, now: float, caution: bool = False) -> Reply:
        point = self._point(command)
        known = self.memory[self.team].answers.get(point)
        if self.core.over:
            raise InputError(ALREADY_OVER)
        if known is not None and not (caution and known == OWN_SHIP):
            # Answered from the scanner; the turn is not used.
            return Reply().say(f"{point} answered {answer_words(known)}, earlier. Still your turn.")
        if (self.option == 3 and not caution and not self.replaying and known is None
                and point in self.core.state[self.team].stored and (self.team, point) not in self.asked_own
                and point not in self.core.taken_by_other(self.team)):
            # The rule gives the ship away; the player is asked once instead of losing it by a slip.
            self.asked_own.add((self.team, point))
            return Reply().say(f"{point} is one of your own positions: say caution {point} to query it "
                               f"on purpose, or {point} again to give it away.", signal="prompt")
        return self.core_action(self.core.query, command.text, self.team, point, now, caution=caution)

    def do_caution(self, command: Command, now: float) -> Reply:
        return self.do_query(command, now, caution=True)

    # --- the board memory -------------------------------------------------------

    def _my_memory(self) -> BoardMemory:
        return self.memory[self.team]

    def _known(self) -> Known:
        """What the answers prove for the team at the console (the assistant's part)."""
        return self.assistant.known()

    def do_what(self, command: Command, now: float) -> Reply:
        return Reply().say(self._my_memory().describe(self._point(command), self._known()))

    def _line(self, command: Command) -> tuple[str, int]:
        if "row" in dict(command.values):
            return "row", ROWS.index(command.get("row"))
        return "column", int(command.get("column")) - 1

    def do_read(self, command: Command, now: float) -> Reply:
        kind, index = self._line(command)
        return Reply().say(self._my_memory().read_line(kind, index, self._known()))

    def do_listen(self, command: Command, now: float) -> Reply:
        kind, index = self._line(command)
        memory, known = self._my_memory(), self._known()
        points = line_points(kind, index)
        # Heard as tones (pitch by row, left to right by column) beside the spoken readout.
        cells = [(p.column, 9, p.row, memory.short(p, known)) for p in points]
        message = Message(memory.read_line(kind, index, known), cells=cells, rows=len(ROWS))
        return Reply(messages=[message])

    def do_summary(self, command: Command, now: float) -> Reply:
        lines = self._my_memory().summary(self._known())
        if self.storing.draft is not None:   # the fourth is not stored yet: the read-back says all four
            lines = [line for line in lines if not line.startswith("Your stored positions")] + [self.storing.read_back()]
        return plain_lines(*lines)

    def do_status(self, command: Command, now: float) -> Reply:
        return plain_lines(*self.status(now))

    def _memory_action(self, command: Command, action) -> Reply:
        if self.core.over:
            raise InputError(ALREADY_OVER)
        with self.rules(ValueError):     # the memory's refusals: "A1 is not ruled out"
            text = action()
        return Reply(record=[command.text]).say(text)

    def do_mark(self, command: Command, now: float) -> Reply:
        return self._memory_action(command, lambda: self._my_memory().mark(self._point(command), self._known()))

    def do_unmark(self, command: Command, now: float) -> Reply:
        return self._memory_action(command, lambda: self._my_memory().unmark(self._point(command)))

    def do_undo(self, command: Command, now: float) -> Reply:
        return self._memory_action(command, self._my_memory().undo)
