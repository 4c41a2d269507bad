"""Arkade at the console: a player takes the Alien, the Defence, both (one keyboard),
or watches the computer play both sides.

Every state change goes into Reply.record as "<side> <action's text>" (for example
"defence ship 4"), the computer's too, so a saved game replays exactly. The
computer's randomness comes from the seed and the move number.

Strategy Mode: the computer plays its whole turn as soon as it is its turn (on the
next tick, or before the player's next command). Arcade Mode's real time (go, pause,
the countdown, the computer's rolls at the pace) is a part, arkade/arcade.py.
"""
from __future__ import annotations

import random

from audio_console.arkade import commands, cues, readout
from audio_console.arkade.arcade import COMPUTER_TURN_LIMIT, PAUSED, ArcadeClock
from audio_console.arkade.actions import Action, NotAnAction, parse_action
from audio_console.arkade.board import LETTERS
from audio_console.arkade.events import BoosterFired, ShotFired, SpaceshipFlew, TurnBegan, TurnEnded
from audio_console.arkade.computer import next_action, player_rng
from audio_console.arkade.pieces import options_from
from audio_console.arkade.rules import (
    ALIEN, ARCADE, DEFENCE, NAMES, SIDES, STRATEGY, Game, IllegalAction,
)
from audio_console.arkade.rules_summary import HOW_TO_PLAY, NEW_PLAYER, rules_lines
from audio_console.commands import Command, Grammar
from audio_console.contract.adapter import ALREADY_OVER, GAME_OVER, GameAdapter, plain_lines
from audio_console.contract.base import InputError, Message, Reply
from audio_console.base.settings import Settings
from audio_console.base.wording import counted, sentence

# Every action of either side goes to do_play (the rules core tells them apart).
ACTIONS = ("roll", "reroll", "keep", "done", "fly", "ship", "booster", "shoot", "plasma", "gps",
           "choose", "clear", "sacrifice")
# Arcade questions and settings that never need the clock running.
ALWAYS_ALLOWED = {"listen", "pace", "go", "pause"}


class ArkadeConsole(GameAdapter):
    """Commands go to do_ methods (GameAdapter): every action of either side to do_play,
    each board question to its own; a saved action is the text of the rules core's action."""
    game = "arkade"
    title = "Arkade"
    rule_errors = (IllegalAction,)
    handled_by = {**{action: "play" for action in ACTIONS}, "summary": "board"}

    def __init__(self, options: dict | None = None, seed: int = 0, settings: Settings | None = None,
                 now: float = 0.0):
        options = dict(options or {})
        try:
            self.options = options_from(options)
            self.core = Game(self.options, random.Random(seed))
        except ValueError as error:
            raise InputError(str(error)) from error
        self.seed = seed
        self.settings = settings or Settings()
        self.players = {ALIEN: options.get("alien") or "human",
                        DEFENCE: options.get("defence") or "computer"}
        if self.players[ALIEN] == self.players[DEFENCE] == "human" and self.options.mode == ARCADE:
            raise InputError("Arcade Mode needs the computer on one side: one player, one keyboard.")
        level = options.get("level") or 2
        self.level = {1: "easy", 2: "normal", 3: "hard"}.get(level) or str(level)   # 1-3, or its name
        self.peng = bool(options.get("peng"))
        self.moves = 0                     # every action of either side, for the computer's RNG
        self._grammar = commands.grammar(self.core.rows)
        self.clock = ArcadeClock(self, self.options.mode, float(options.get("pace") or 3.0), now)
        self.defence_quiet = False      # the computer's Defence has not flown or shot this turn

    # --- the session's questions ---------------------------------------------------

    def finished(self) -> bool:
        return self.core.finished()

    def grammar(self) -> Grammar:
        return self._grammar

    def humans(self) -> list[str]:
        return [side for side in SIDES if self.players[side] == "human"]

    def human_side(self) -> str | None:
        """The side the player's next action is for."""
        humans = self.humans()
        if not humans:
            return None
        if self.options.mode == STRATEGY:
            acting = self.core.pending.side if self.core.pending else self.core.turn
            return acting if acting in humans else humans[0]
        return humans[0]

    def prompt(self) -> str:
        core = self.core
        if core.finished():
            return GAME_OVER
        if self.clock.state == "waiting":
            return PAUSED if self.clock.paused else "Arcade Mode: say go to start the countdown; say pause at any time."
        if self.clock.state == "counting":
            return "Get ready."
        side = self.human_side()
        if side is None:
            return "The computer plays both sides. Say pause, or quit to stop."
        if core.pending and core.pending.side == side:
            return core.pending_question()
        if self.options.mode == STRATEGY and core.turn != side:
            return f"The {self._turn_name()} is playing."
        return f"{side.capitalize()}: {self._next_steps(side)}"

    def _next_steps(self, side: str) -> str:
        core, arcade = self.core, self.options.mode == ARCADE
        dice = core.alien_dice if side == ALIEN else core.defence_dice
        if not dice.rolls:
            return "say roll." if arcade else "your turn: say roll" + (", or done." if side == ALIEN else ".")
        if side == ALIEN:
            alien = core.alien_dice
            free = [f for f, used in zip(alien.faces, alien.used) if not used]
            if not free and not arcade:
                return "both dice used: say done."
            said = "Dice " + " and ".join(free) + "." if free else "No dice left."
            moves = "fly a saucer"
        else:
            defence = core.defence_dice
            parts = ([f"flight {defence.flight}"] if not defence.flight_used else []) + \
                    ([f"shot {defence.shot}"] if not defence.shot_used else [])
            said = sentence(", ".join(parts) or "dice used") + f"; ship in column {core.ship + 1}."
            # only what the dice and boosters still allow ("Dice used": no ship to, no shoot)
            moves = ", ".join(word for word, left in (("ship to", not defence.flight_used),
                                                       ("booster", core.boosters > 0),
                                                       ("shoot", not defence.shot_used)) if left)
        more = "" if dice.committed or arcade else f"Roll {dice.rolls} of {self.options.max_rolls}: roll again, keep, "
        # Arcade Mode: a new roll is "roll" ("roll again" is a reroll, for Strategy Mode only)
        return f"{said} " + sentence(f"{more}{moves + ', or ' if moves else ''}{'roll' if arcade else 'done'}.")

    def help(self) -> list[str]:
        side = self.human_side() or ALIEN
        lines = []
        if side == ALIEN:
            lines += ["Roll; roll again, or roll the first or second die again; keep; done.",
                      "Fly the yellow saucer at B3 forward; fly B3 forward left; fly B3 to C3.",
                      "Choose C4 or choose pink A3 when a bonus chip asks; clear the magnetic field at C4; "
                      "sacrifice the saucer at C3 to remove the asteroid in front of it."]
        else:
            lines += ["Roll; roll the shot die again; roll the flight die again; keep; done.",
                      "Ship to four; booster left; booster right; shoot; shoot from the outpost.",
                      "Use the plasma cannon; use the GPS to three; choose C4 when a bonus chip asks."]
        lines += ["Where are my saucers; nearest saucers; read row C; column three; listen to column three; "
                  "what is at C3; dice; where is the spaceship; chips; board; what can I do.",
                  "Forward is towards the defence line; left is towards column 1."]
        if self.options.mode == ARCADE:
            lines.append(f"Computer pace 5 seconds: the computer rolls every 5 seconds (now {self.clock.pace_words()}).")
            lines.append("Pause: the clock stops. Go: a countdown, then the game goes on. "
                         "While you hear what can I do, the board, help or the rules, the computer waits.")
        return lines

    def start(self) -> Reply:
        o = self.options
        reply = Reply()
        roles = "; ".join(f"{NAMES[side]}: {self.players[side]}" for side in SIDES)
        reply.say(f"Arkade, {o.mode} mode, {self.core.board.title} with {self.core.rows} rows A to "
                  f"{LETTERS[self.core.rows - 1]} and columns 1 to 6, {o.formation} formation, "
                  f"{counted(self.core.boosters, 'booster')}, {'with' if o.with_chips else 'without'} bonus chips. "
                  f"{roles}.", signal="ready")
        reply.say("The Alien brings a saucer to the last row to win; the Defence destroys every saucer. "
                  + NEW_PLAYER)
        reply.say(HOW_TO_PLAY[self.human_side() or ALIEN] if self.humans() else "You are watching.")
        if o.mode == STRATEGY:
            reply.say("The Alien begins.")
        else:
            reply.say(self.clock.intro())
        return reply

    def status(self, now: float | None = None) -> list[str]:
        core = self.core
        lines = []
        if core.finished():
            lines.append(f"Game over: the {NAMES.get(core.winner or '', 'nobody')} won after {counted(core.turns, 'turn')}.")
        elif self.options.mode == STRATEGY:
            lines.append(f"Turn {core.turns}: the {self._turn_name()}'s turn.")
        else:
            lines.append(self.clock.clock_line())
        lines.append(f"{counted(len(core.alive()), 'saucer')} left; spaceship in column {core.ship + 1}; "
                     f"{counted(core.boosters, 'booster')}.")
        return lines

    def rules_summary(self) -> list[str]:
        return rules_lines(self.options.mode, LETTERS[self.core.rows - 1], self.options.max_rolls,
                           self.clock.pace_words())

    def _turn_name(self) -> str:
        """Whose turn it is, in words (Strategy Mode always has one)."""
        return NAMES.get(self.core.turn or "", "other side")

    # --- acting ------------------------------------------------------------------------

    def refusal(self, command: Command) -> str | None:
        if self.clock.state != "running" and command.name in ACTIONS and not self.core.finished():
            if self.clock.state == "counting":
                return "Wait for the start signal."
            return "Paused: nothing moves until you say go." if self.clock.paused else "The game has not started: say go."
        return None

    def unknown(self, command: Command) -> str:
        if command.name in ("hint", "why"):    # every game's words, Galaxis's and Battleship's commands
            return "Arkade has no hints: what can I do names every move your dice allow; how to play, the rules."
        return f"{sentence(command.text)} is not something Arkade can do; say help."

    def do_play(self, command: Command, now: float) -> Reply:
        """Every action of either side: the computer's turn first, then the player's action."""
        if self.core.finished():
            raise InputError(ALREADY_OVER)
        reply = self._computer_turns()      # the computer's turn comes before the player's
        if self.core.finished():
            return reply
        side = self.human_side()
        if side is None:
            raise InputError("The computer plays both sides; you are watching.")
        colour = dict(command.values).get("colour")
        if command.name in ("fly", "sacrifice") and colour:
            saucer = self.core.saucer_at(command.value("cell"))
            if saucer and saucer.colour != colour:
                raise InputError(f"The saucer at {command.get('cell')} is {saucer.colour}, not {colour}.")
        try:
            reply.extend(self.play_action(side, commands.action_of(command)))
        except IllegalAction as error:
            if reply.record:       # the computer's turn still happened: show it, then refuse
                reply.say(str(error), signal="error")
                return reply
            raise                  # refused as one sentence (rule_errors), nothing changed
        if self.options.mode == STRATEGY:
            reply.extend(self._computer_turns())
        return reply

    def play_action(self, side: str, action: Action) -> Reply:
        events = self.core.act(side, action)
        self.moves += 1
        reply = Reply(events=[e.log() for e in events if e.logged], record=[f"{side} {action.text()}"])
        for event in events:
            reply.messages += cues.messages(event, self.peng) + self._quiet_defence(event)
        return reply

    def _quiet_defence(self, event) -> list[Message]:
        """A Strategy turn in which the computer's Defence neither flew nor shot is said:
        its rolls alone left the listener waiting for a move that never came."""
        if isinstance(event, TurnBegan) and event.side == DEFENCE:
            self.defence_quiet = self.players[DEFENCE] == "computer" and self.options.mode == STRATEGY
        elif isinstance(event, (SpaceshipFlew, BoosterFired, ShotFired)):
            self.defence_quiet = False
        elif isinstance(event, TurnEnded) and event.side == DEFENCE and self.defence_quiet:
            self.defence_quiet = False
            return [Message(f"Defence: the spaceship stays in column {self.core.ship + 1}; no shot.")]
        return []

    def parse_recorded(self, action: str) -> Command | None:
        """A saved action is the text of the rules core's action, with its side: "defence ship 4"
        (None when it is not one)."""
        side, _, rest = action.partition(" ")
        try:
            typed = parse_action(rest)
        except NotAnAction:
            return None
        return Command("act", action, (("action", rest), ("side", side)),
                       typed=(("action", typed),)) if side in SIDES else None

    def replay(self, command: Command) -> Reply:
        """Into the core as saved (the computer's actions are saved too: nothing is chosen again)."""
        try:
            self.core.act(command.get("side"), command.value("action"))
        except IllegalAction as error:
            raise InputError(f"the saved action {command.text!r} cannot be replayed: {error}") from None
        self.moves += 1
        self.clock.paused = self.options.mode == ARCADE     # a resumed arcade game is paused, not "not started"
        return Reply(record=[command.text])

    def computer_action(self, side: str) -> Action | None:
        """The computer's next action for `side`: its randomness from the seed and the move."""
        return next_action(self.core, side, self.level, player_rng(self.seed, side, self.moves))

    def _computer_side(self) -> str | None:
        core = self.core
        if core.finished() or self.options.mode != STRATEGY:
            return None
        acting = core.pending.side if core.pending else core.turn
        if acting is None:
            return None
        return acting if self.players[acting] == "computer" else None

    def _computer_turns(self) -> Reply:
        """Strategy Mode: play the computer's actions until a player must act."""
        reply = Reply()
        count = 0
        while (side := self._computer_side()) is not None and count < COMPUTER_TURN_LIMIT * 2:
            action = self.computer_action(side)
            if action is None:
                break
            reply.extend(self.play_action(side, action))
            count += 1
        return reply

    def parts(self) -> tuple[object, ...]:
        return (self.clock,)

    def holds_clock(self, command: Command) -> bool:
        return self.clock.holds_clock(command)

    def restart_clock(self, now: float) -> None:
        self.clock.restart_clock(now)

    def tick(self, now: float) -> Reply:
        if self.core.finished():
            return Reply()
        if self.options.mode == STRATEGY:
            return self._computer_turns()
        return self.clock.tick(now)

    def explain(self, text: str) -> str | None:
        """Why a line that names a space is not understood, when the space is off the board."""
        from audio_console.commands.grammar import normalize
        from audio_console.commands.vocabulary import PHONETIC
        from audio_console.base.wording import word_number
        letters = {w: letter for letter, words in PHONETIC.items() for w in words}
        tokens = normalize(text)
        missing = commands.missing_part(tokens)
        if missing:
            return missing
        for first, second in zip(tokens, tokens[1:]):
            letter = letters.get(first, first.upper() if len(first) == 1 and first.isalpha() else None)
            number = second if second.isdigit() else (
                str(word_number(second)) if word_number(second) else None)
            if letter and number:
                try:
                    self.core.board.cell_at(letter, int(number))
                except ValueError as error:
                    return f"{letter}{number} is not on the board. {error}"
        return None

    # --- hearing the board (readout.py) ------------------------------------------------

    def _line(self, command: Command) -> tuple[str, list]:
        """The line a read or listen command names, and its cells."""
        if "row" in dict(command.values):
            row = LETTERS.index(command.get("row"))
            return readout.read_row(self.core, row), readout.row_cells(self.core, row)
        column = int(command.get("column")) - 1
        return readout.read_column(self.core, column, self.human_side()), readout.column_cells(self.core, column)

    def do_read(self, command: Command, now: float) -> Reply:
        return plain_lines(self._line(command)[0])

    def do_listen(self, command: Command, now: float = 0.0) -> Reply:
        text, line = self._line(command)
        # (column, of 6, row, kind): a row is heard across the stereo field, a column in pitch
        sounds = [(cell[1], 6, cell[0], readout.sound_kind(self.core, cell)) for cell in line]
        return Reply(messages=[Message(text, cells=sounds, rows=self.core.rows)])

    def do_saucers(self, command: Command, now: float) -> Reply:
        return plain_lines(readout.saucers(self.core))

    def do_nearest(self, command: Command, now: float) -> Reply:
        return plain_lines(readout.nearest(self.core))

    def do_what(self, command: Command, now: float) -> Reply:
        return plain_lines(readout.what_is_at(self.core, command.value("cell")))

    def do_dice(self, command: Command, now: float) -> Reply:
        return plain_lines(*readout.dice(self.core))

    def do_where_ship(self, command: Command, now: float) -> Reply:
        return plain_lines(readout.spaceship(self.core))

    def do_chips(self, command: Command, now: float) -> Reply:
        return plain_lines(readout.chips(self.core))

    def do_undo(self, command: Command, now: float) -> Reply:
        raise InputError("Arkade has no undo: a roll or a move stands, as at the table.")

    def do_status(self, command: Command, now: float) -> Reply:
        return plain_lines(*self.status())

    def do_board(self, command: Command, now: float) -> Reply:
        return plain_lines(*readout.board(self.core) + self.status())

    def do_options(self, command: Command, now: float) -> Reply:
        side = self.human_side()
        if side is None:
            return plain_lines("You are watching.")
        legal = self.core.legal_actions(side)
        if not legal:
            return plain_lines(f"Nothing now: it is the {self._turn_name()}'s turn.")
        lines, pages = readout.options(self.core, legal)
        # the rest for `more` (console/pager.py), dropped as soon as anything moves
        return Reply(messages=[Message(line) for line in lines],
                     more=[[Message(line) for line in page] for page in pages], more_lasts=False)
