"""Battleship: Outer Space at the console.

Routes Commands to the rules core (placing, shooting) or to the board memories
(review), runs the computer opponent, and answers with cues. Two people may share
one console: after every shot the console pauses ("pass the console to player 2")
and says nothing secret until the next player says "ready".

Every change of state is recorded as a canonical action ("place quadron 1 B3
across", "remove dueler", "done", "shoot 2 row D", the computer's shots too), so a
saved game replays exactly through apply_recorded.
"""
from __future__ import annotations

import random

from audio_console.battleship import commands
from audio_console.battleship.commands import (DOING, OVER, PASSING, PLACING, POINT_NOT_SHOT,
                                               SHOOTING, a_point, missing_part)
from audio_console.battleship.computer import LEVELS, choose_line, hint, move_rng
from audio_console.battleship.cues import SIDES, cue, first_words, log_event, owner_news, who_prefix
from audio_console.battleship.footprints import SHIP_NAMES
from audio_console.battleship.memory import BoardMemory, describe_placement, join_words
from audio_console.battleship.placing import FleetPlacing
from audio_console.battleship.board import (COLUMN, ROW, ROWS, BattleshipError, Line,
                                            fleet_cells, make_line, other)
from audio_console.battleship.events import FleetDestroyed, ShotFired, ShotRecalled
from audio_console.battleship.rules import Game, random_fleet
from audio_console.battleship.rules_summary import RULES
from audio_console.commands import Command, Grammar
from audio_console.commands.grammar import normalize
from audio_console.contract.adapter import ALREADY_OVER, GAME_OVER, GameAdapter, plain_lines
from audio_console.contract.base import InputError, Message, Reply
from audio_console.contract.hot_seat import HotSeat
from audio_console.base.settings import Settings
from audio_console.base.wording import sentence

OPPONENTS = ("computer", "human")
PLACEMENTS = ("random", "manual")


class BattleshipConsole(GameAdapter):
    game = "battleship"
    title = "Battleship"
    rule_errors = (BattleshipError,)
    handled_by = {"shoot here": "shoot", "what here": "what", "summary": "status"}

    def __init__(self, opponent: str = "computer", placement: str = "random", level: int = 2,
                 seed: int = 0, settings: Settings | None = None):
        if opponent not in OPPONENTS:
            raise InputError(f"the opponent is computer or human, not {opponent}")
        if placement not in PLACEMENTS:
            raise InputError(f"placement is random or manual, not {placement}")
        if level not in LEVELS:
            raise InputError(f"the computer levels are 1, 2 and 3, not {level}")
        self.opponent, self.placement, self.level, self.seed = opponent, placement, level, seed
        self.settings = settings or Settings()
        self.core = Game(first=1)
        self.memory = {p: BoardMemory(p) for p in (1, 2)}
        if opponent == "computer":
            self.names = {1: "You", 2: "The computer"}
            self.possessive = {1: "your", 2: "the computer's"}
        else:
            self.names = {1: "Player 1", 2: "Player 2"}
            self.possessive = {1: "player 1's", 2: "player 2's"}
        self.current_sector: dict[int, int | None] = {1: None, 2: None}
        self.hot_seat: HotSeat = HotSeat("player")
        self.placing = FleetPlacing(self.core, seed, opponent, self.hot_seat, self._learn)
        self.news: list[Message] = []                # told to the next player after "ready"
        self.why: dict[int, str] = {}                # each player's last hint, with its reason
        self._full_grammar = commands.full_grammar()
        # Fleets that are not placed by hand are placed now, from the seed.
        for player in (1, 2):
            if self.is_computer(player) or placement == "random":
                fleet = random_fleet(random.Random(f"battleship:{seed}:fleet:{player}"))
                for ship in SHIP_NAMES:
                    self._learn(self.core.place(player, fleet[ship]))
                self.core.finish_placing(player)

    # --- who is who -------------------------------------------------------------------
    def is_computer(self, player: int) -> bool:
        return self.opponent == "computer" and player == 2

    @property
    def player(self) -> int:
        """The player at the console now: the one placing, or the one to shoot."""
        if self.core.phase == PLACING:
            return 1 if not self.core.ready[1] else 2
        return self.core.to_move

    def phase(self) -> str:
        if self.core.winner is not None:
            return OVER
        if self.hot_seat.passing:
            return PASSING
        return PLACING if self.core.phase == PLACING else SHOOTING

    # --- the session's questions ---------------------------------------------------------
    def finished(self) -> bool:
        return self.core.winner is not None

    def grammar(self) -> Grammar:
        return commands.grammar_for(self.phase())

    def _who(self, player: int) -> str:
        return who_prefix(self.opponent, player)

    def parts(self) -> tuple[object, ...]:
        return (self.placing,)

    def prompt(self) -> str:
        return sentence(self._prompt())

    def _prompt(self) -> str:
        phase = self.phase()
        if phase == OVER:
            return GAME_OVER
        if phase == PASSING:
            return self.hot_seat.prompt()
        who = self._who(self.player)
        if phase == PLACING:
            return self.placing.prompt()
        sector = self.current_sector[self.player]
        if sector:
            return f"{who}your shot in sector {sector}: say a row or a column, or another sector."
        return f"{who}your shot: say a sector and a row or a column, like sector 2 row D."

    def help(self) -> list[str]:
        phase = self.phase()
        if phase == PASSING:
            return self.hot_seat.help()
        lines = []
        if phase == PLACING:
            lines += self.placing.help()
        elif phase == SHOOTING:
            lines += [
                "Shoot: a sector and a row A to J or a column 1 to 10, like sector 2 row D or sector 1 column 3.",
                "Sector 2 chooses a sector; then row D or column 3 shoots there.",
                "A line called before is answered from memory and costs nothing. Hint suggests a line; "
                "why gives its reason; long hints on or off.",
            ]
        lines.append("Review: status; read sector 2; what about sector 2 row D; my fleet; my sector 1.")
        return lines

    def start(self) -> Reply:
        reply = Reply()
        if self.opponent == "computer":
            reply.say(f"Battleship: Outer Space. You against the computer, level {self.level}, "
                      f"{LEVELS[self.level]}.")
        else:
            reply.say("Battleship: Outer Space. Player 1 against player 2 at one console; "
                      "player 1 sounds on the left, player 2 on the right.")
        if self.core.phase == PLACING:
            reply.say(sentence(f"{self._who(self.player)}place your fleet of five, secretly. Say help for how."),
                      side=SIDES[self.player])
        else:
            if self.opponent == "computer":
                reply.say(f"Your fleet is placed at random: {self.memory[1].sectors_summary()}. "
                          "Say my fleet to hear where.")
            else:
                reply.say("Both fleets are placed at random; say my fleet on your own turn to hear yours.")
            reply.say(self._first_words(), side=SIDES[1])
        return reply

    def _first_words(self) -> str:
        return first_words(self.opponent, self.core.first)

    def rules_summary(self) -> list[str]:
        return list(RULES)

    def status(self, now: float | None = None) -> list[str]:
        phase = self.phase()
        if phase == OVER:
            assert self.core.winner is not None      # over means someone won
            lines = [f"Game over. {self.names[self.core.winner]} won."]

        elif phase == PASSING:
            return [f"Passing the console to player {self.hot_seat.to}. Shots: player 1 "
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

    def explain(self, text: str) -> str | None:
        """Why a line that looks like a shot or placement is not one, or not now."""
        command = self._full_grammar.parse(text)
        if command is not None:
            phase = self.phase()
            if phase == PASSING:
                return self._passing_refusal()
            if phase == OVER:
                return ALREADY_OVER
            if phase == PLACING:
                return f"{self._doing(command)} cannot be done while placing; place your fleet first. Say help for how."
            if phase == SHOOTING:
                return f"{self._doing(command)} cannot be done now: the fleets are placed. Say help for what you can say."
        tokens = normalize(text)
        if self.phase() == SHOOTING and a_point(tokens):     # a Galaxis habit: D5
            return POINT_NOT_SHOT
        missing = missing_part(tokens)
        if missing:
            return missing
        for word, limit, what in (("sector", 3, "sectors go from 1 to 3"), ("column", 10, "columns go from 1 to 10")):
            if word in tokens[:-1]:
                value = tokens[tokens.index(word) + 1]
                if value.isdigit() and not 1 <= int(value) <= limit:
                    return f"There is no {word} {value}: {what}."
        if "row" in tokens[:-1]:
            value = tokens[tokens.index("row") + 1]
            if len(value) == 1 and value.isalpha() and value.upper() not in ROWS:
                return f"There is no row {value.upper()}: rows go from A to J."
        return None

    # --- acting ---------------------------------------------------------------------------
    def refusal(self, command: Command) -> str | None:
        return self.hot_seat.refusal(command)

    def unknown(self, command: Command) -> str:
        return f"{self._doing(command)} cannot be done now; say help for what you can say."

    @staticmethod
    def _doing(command: Command) -> str:
        """A command named as what it does ("Trying a ship"), not by its canonical form."""
        return DOING.get(command.name) or sentence(command.text)

    def _passing_refusal(self) -> str:
        return self.hot_seat.refusal() or ""

    def replay_grammar(self) -> Grammar:
        return self._full_grammar

    def replay(self, command: Command) -> Reply:
        self.hot_seat.cancel()     # the last action may pass it
        return super().replay(command)

    # --- core calls -------------------------------------------------------------------------
    def _learn(self, events: list) -> None:
        for event in events:
            for memory in self.memory.values():
                memory.record(event)

    def _core(self, action, *args) -> list:
        events = action(*args)      # its refusals become InputError in act()
        self._learn(events)
        return events

    # --- shooting ----------------------------------------------------------------------------
    def _line(self, command: Command) -> Line:
        values = dict(command.values)
        sector = int(values["sector"]) if "sector" in values else self.current_sector[self.player]
        if sector is None:
            raise InputError("Which sector? Say the sector too, like sector 2 row D, or say sector 2 first.")
        kind = ROW if "row" in values else COLUMN
        with self.rules():
            return make_line(sector, kind, values[kind])

    def do_sector(self, command: Command, now: float = 0.0) -> Reply:
        if self.phase() != SHOOTING:
            raise InputError("Sectors are chosen when shooting.")
        sector = int(command.get("sector"))
        self.current_sector[self.player] = sector
        return Reply().say(f"Sector {sector}. {self.memory[self.player].read_sector(sector)}")

    def do_shoot(self, command: Command, now: float = 0.0) -> Reply:
        if self.phase() == PLACING:
            raise InputError("Place your fleet first.")
        if self.phase() == OVER:
            raise InputError(ALREADY_OVER)
        line = self._line(command)
        shooter = self.player
        events = self._core(self.core.shoot, shooter, line)
        if isinstance(events[0], ShotRecalled):
            return Reply(messages=self._cues(events))
        self.current_sector[shooter] = line.sector
        reply = self._shot_reply(events)
        if self.core.winner is None and self.is_computer(self.core.to_move) and not self.replaying:
            reply.extend(self._computer_moves())
            if self.core.winner is None:    # the turn is back: said every time, as Galaxis does
                reply.say(self.prompt(), speech="Your shot.", signal="prompt")
        if self.core.winner is None and self.opponent == "human":
            self.news = self._damage_news(events) + [m for e in events for m in owner_news(e)]
            # the shot and its result are public: they stay readable after the clear
            reply.messages.append(self.hot_seat.pass_to(self.core.to_move, reply.messages))   # the only clear
        return reply

    def _shot_reply(self, events: list, damage: list[Message] | None = None) -> Reply:
        """The shot's lines; `damage` (the target's own news) right after hit or miss,
        before any "Vaporized", so the damage is heard before its outcome."""
        shot = events[0]
        reply = Reply(record=[f"shoot {shot.line.sector} {shot.line.name}"],
                      events=[e for e in (log_event(ev) for ev in events) if e])
        reply.messages += self._cues(events[:1]) + (damage or []) + self._cues(events[1:])
        if any(isinstance(e, FleetDestroyed) for e in events):
            reply.extend(self._reveal())
        return reply

    def _cues(self, events: list) -> list[Message]:
        return [m for event in events for m in cue(event, self.names, self.possessive)]

    def _damage_news(self, events: list) -> list[Message]:
        """The target's secret: which of its ships the shot hit, and where."""
        shot = events[0]
        if not isinstance(shot, ShotFired) or not shot.new_hits:
            return []
        by_ship: dict[str, list[str]] = {}
        for ship, cell in shot.new_hits:
            by_ship.setdefault(ship, []).append(cell.name)
        parts = [f"your {ship} at {join_words(cells)}" for ship, cells in by_ship.items()]
        return [Message(f"Damage in sector {shot.line.sector}: {'; '.join(parts)}.")]

    def _computer_moves(self) -> Reply:
        player = self.core.to_move
        move = self.core.shots(player)
        line = choose_line(self.core.observations[player], self.level, move_rng(self.seed, player, move))
        events = self._core(self.core.shoot, player, line)
        return self._shot_reply(events, self._damage_news(events))

    def _reveal(self) -> Reply:
        fleets = {str(p): fleet_cells(self.core.fleets[p]) for p in (1, 2)}
        reply = Reply(events=[{"event": "reveal", "fleets": fleets}])
        for player in ([2] if self.opponent == "computer" else [1, 2]):
            places = "; ".join(describe_placement(self.core.fleets[player][s]) for s in SHIP_NAMES)
            reply.say(f"{self.possessive[player].capitalize()} fleet was: {places}.")
        return reply

    def do_ready(self, command: Command, now: float = 0.0) -> Reply:
        player = self.hot_seat.ready()
        reply = Reply()
        if self.core.phase == PLACING:
            reply.say(f"Player {player}: place your fleet of five, secretly. Say help for how.",
                      side=SIDES[player])
            return reply
        reply.say(f"Player {player}: your turn.", side=SIDES[player])
        last = self.memory[player].enemy_shots
        if last:
            line, result = list(last.items())[-1]
            reply.say(f"Player {other(player)} called sector {line.sector} {line.name}: {result}.")
        reply.messages += self.news
        self.news = []
        return reply

    # --- review -------------------------------------------------------------------------------
    def _review(self, *lines: str) -> Reply:
        return plain_lines(*lines)

    def do_status(self, command: Command, now: float = 0.0) -> Reply:
        return self._review(*self.status())

    def do_read_sector(self, command: Command, now: float = 0.0) -> Reply:
        return self._review(self.memory[self._viewer()].read_sector(int(command.get("sector"))))

    def do_read(self, command: Command, now: float = 0.0) -> Reply:
        sector = self.current_sector.get(self._viewer())
        if sector is None:
            raise InputError("Which sector? Say read sector 2.")
        return self._review(self.memory[self._viewer()].read_sector(sector))

    def do_what(self, command: Command, now: float = 0.0) -> Reply:
        return self._review(self.memory[self._viewer()].what_about(self._line(command)))

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
