"""Arkade rules core: Strategy Mode (turns) and Arcade Mode (simultaneous).

Pure: no printing, sound, clock or randomness of its own. A seeded random.Random is
handed in and used only by actions that change the game (rolls, chip draws at
set-up), so replaying the same actions gives the same game.

Every action is a short canonical string, the same one the console records and the
computer players produce, played with Game.act(side, action):

  both sides  roll · reroll both · keep · done · choose C4 · choose pink A3
  Alien       reroll first|second · fly B3 forward [left|right|forward] ·
              fly B3 to C3 [to D3] · clear magnet C4 · sacrifice C3
  Defence     reroll flight|shot · ship 4 · booster left|right · shoot ·
              shoot outpost · plasma [colour] · gps 4

Each action's handler first checks it, raising IllegalAction with a plain sentence
and changing nothing, then returns a function that carries it out: `act` calls it,
`allowed` and `legal_actions` only check. Carrying an action out returns typed
events (events.py); the cues turn them into words and sounds. The pieces and
options are in pieces.py, the dice in dice.py, each side's own actions in alien.py
and defence.py, the bonus chips in chips.py.
"""
from __future__ import annotations

import random
from dataclasses import replace

from audio_console.arkade import alien, chips, defence
from audio_console.arkade.board import (
    SAUCER_COLOURS, Board, BoardError, Cell, cell_name, formation, load_board, load_data,
)
from audio_console.arkade.chips import Pending
from audio_console.arkade.dice import AlienDice, DefenceDice
from audio_console.arkade.events import (
    Alarm, AlienRolled, Apply, DefenceRolled, DiceKept, Event, GameOver, TurnBegan, TurnEnded,
)
from audio_console.arkade.pieces import (  # noqa: F401  (the rules' names, for importers)
    ALIEN, ARCADE, DEFENCE, SIDES, STEPS, STRATEGY, IllegalAction, Options, Saucer,
)

OWN_ACTIONS = {ALIEN: alien.CHECKS, DEFENCE: defence.CHECKS}
NAMES = {ALIEN: "Alien", DEFENCE: "Defence"}      # a side as the players hear it
# what the other side's actions do, for a refusal that says whose they are
OTHER_SIDES_ACTIONS = {"ship": "fly the spaceship", "booster": "fire a booster", "gps": "use the GPS",
                       "shoot": "shoot", "plasma": "fire the plasma cannon", "fly": "fly a saucer",
                       "clear": "clear a magnetic field", "sacrifice": "sacrifice a saucer"}
# the spoken ways to roll again (commands.py): "reroll" is typed only
ROLL_AGAIN = {ALIEN: "roll again, roll the first die again or roll the second die again",
              DEFENCE: "roll again, roll the flight die again or roll the shot die again"}


class Game:
    def __init__(self, options: Options, rng: random.Random):
        self.options = options.validate()
        self.rng = rng
        self.mode = options.mode
        self.board: Board = load_board(options.side, options.rows)
        data = load_data()
        self.saucers = [Saucer(i, colour, cell)
                        for i, (cell, colour) in enumerate(sorted(formation(options.formation).items()))]
        self.ship = 0                        # column of the spaceship on the defence line
        self.boosters = options.boosters
        self.booster_supply = data["boosters"]["total"] - options.boosters
        self.outpost: int | None = None      # column of the Defence outpost (last row)
        self.asteroid: Cell | None = None
        self.magnets: list[Cell] = []
        self.kept: list[tuple[str, str]] = []          # (plasma|gps, chip colour)
        self.destroyed: dict[str, int] = {c: 0 for c in SAUCER_COLOURS}
        with_chips = self.options.with_chips
        alien = list(data["alien_chips"])
        self.rng.shuffle(alien)
        self.alien_chips: list[str] = alien[:6] if with_chips else []
        self.defence_chips: dict[str, list[str]] = {}
        for colour in SAUCER_COLOURS:
            pile = list(data["defence_chips"][colour])
            self.rng.shuffle(pile)
            self.defence_chips[colour] = pile[:2] if with_chips else []
        self.turn = ALIEN if self.mode == STRATEGY else None
        self.turns = 1 if self.mode == STRATEGY else 0   # Arcade: rolls made by both sides
        self.alien_dice = AlienDice()
        self.defence_dice = DefenceDice()
        self.flown: set[int] = set()         # saucers that flew this turn (or this roll)
        self.pending: Pending | None = None
        self.reactor_next = False            # reactor damage waits for the Defence's next turn
        self.reactor_active = False
        self.winner: str | None = None

    # --- looking at the board ---------------------------------------------------

    @property
    def rows(self) -> int:
        return self.board.rows

    def alive(self) -> list[Saucer]:
        return [s for s in self.saucers if s.cell is not None]

    def saucer_at(self, cell: Cell) -> Saucer | None:
        for s in self.saucers:
            if s.cell == cell:
                return s
        return None

    def obstacle_at(self, cell: Cell) -> str | None:
        if cell == self.asteroid:
            return "the asteroid"
        if cell in self.magnets:
            return "a magnetic field"
        if self.outpost is not None and cell == (self.board.last_row, self.outpost):
            return "the Defence outpost"
        return None

    def free(self, cell: Cell) -> bool:
        return self.board.contains(cell) and self.saucer_at(cell) is None and self.obstacle_at(cell) is None

    def nearest_in_column(self, column: int) -> Saucer | None:
        """The saucer nearest the defence line in a column (the one a shot meets)."""
        found = [s for s in self.alive() if s.at[1] == column]
        return max(found, key=lambda s: s.at[0]) if found else None

    def finished(self) -> bool:
        return self.winner is not None

    def pending_question(self) -> str:
        if self.pending is None:
            raise ValueError("no choice is open")
        return chips.pending_question(self.pending)

    def choice_action(self, cell: Cell) -> str:
        return chips.choice_action(self, cell)

    # --- the one entry point ------------------------------------------------------

    def act(self, side: str, action: str) -> list[Event]:
        """Carry out one canonical action for `side`; raise IllegalAction to refuse."""
        carry_out = self._check(side, action)
        return carry_out() + chips.refresh_pending(self)

    def allowed(self, side: str, action: str) -> bool:
        """True when `action` is legal now (checked without changing anything)."""
        try:
            self._check(side, action)
            return True
        except IllegalAction:
            return False

    def legal_actions(self, side: str) -> list[str]:
        """Every action `side` may take now (flights enumerated in full)."""
        if self.winner:
            return []
        if self.pending and self.pending.side == side:
            return [self.choice_action(c) for c in self.pending.choices]
        if self.mode == STRATEGY and self.turn != side:
            return []
        candidates: list[str] = ["roll", "keep", "reroll both"]
        if self.mode == STRATEGY:
            candidates.append("done")
        if side == ALIEN:
            candidates += ["reroll first", "reroll second"]
            for s in self.alive():
                here = cell_name(s.at)
                for first in STEPS:
                    candidates.append(f"fly {here} {first}")
                    for second in STEPS:
                        candidates.append(f"fly {here} {first} {second}")
            candidates += [f"clear magnet {cell_name(m)}" for m in self.magnets]
            if self.asteroid and self.asteroid[0] > 0:
                candidates.append(f"sacrifice {cell_name((self.asteroid[0] - 1, self.asteroid[1]))}")
        else:
            candidates += ["reroll flight", "reroll shot", "booster left", "booster right", "shoot",
                           "shoot outpost"]
            candidates += [f"ship {n}" for n in range(1, 7)]
            for kind, colour in sorted(set(self.kept)):      # sorted: the same order in every run
                if kind == "plasma":
                    candidates.append(f"plasma {colour}")
                else:
                    candidates += [f"gps {n}" for n in range(1, 7)]
        return [a for a in candidates if self.allowed(side, a)]

    def _check(self, side: str, action: str) -> Apply:
        """Check one action; return the function that carries it out."""
        if side not in SIDES:
            raise IllegalAction(f"unknown side {side!r}")
        words = action.split()
        if not words:
            raise IllegalAction("Say what to do.")
        if self.winner:
            raise IllegalAction(f"The game is over: the {NAMES[self.winner]} won.")
        verb, args = words[0], words[1:]
        if self.pending and self.pending.side == side and verb != "choose":
            raise IllegalAction(self.pending_question())
        if self.mode == STRATEGY and self.turn is not None and self.turn != side:
            raise IllegalAction(f"It is the {NAMES[self.turn]}'s turn.")
        try:
            if verb in OWN_ACTIONS[side]:
                return OWN_ACTIONS[side][verb](self, args)
            both = {"roll": self._check_roll, "reroll": self._check_reroll, "keep": self._check_keep,
                    "done": self._check_done, "choose": lambda side, args: chips.check_choose(self, side, args)}
            if verb not in both:
                other = DEFENCE if side == ALIEN else ALIEN
                if verb in OTHER_SIDES_ACTIONS:
                    raise IllegalAction(f"Only the {NAMES[other]} can {OTHER_SIDES_ACTIONS[verb]}; "
                                        f"you are the {NAMES[side]}.")
                raise IllegalAction(f"The {NAMES[side]} cannot {verb}.")
            return both[verb](side, args)
        except BoardError as error:
            raise IllegalAction(str(error)) from None

    # --- rolling (both sides) ---------------------------------------------------

    def _dice(self, side: str) -> AlienDice | DefenceDice:
        return self.alien_dice if side == ALIEN else self.defence_dice

    def _check_roll(self, side, args) -> Apply:
        if args:
            raise IllegalAction(f"Say roll; after a roll, {ROLL_AGAIN[side]}.")
        if self.mode == STRATEGY and self._dice(side).rolls:
            raise IllegalAction(f"You have rolled already this turn: say {ROLL_AGAIN[side]}, or keep.")

        def roll() -> list[Event]:
            self._fresh_dice(side)
            if self.mode == ARCADE:
                self.turns += 1
            return self._roll(side, "both")
        return roll

    def _fresh_dice(self, side: str) -> None:
        if side == ALIEN:
            self.alien_dice = AlienDice()
            self.flown = set()
        else:
            if self.mode == ARCADE and self.reactor_active:
                self.reactor_active = False   # Arcade: reactor damage lasts one roll
            if self.mode == ARCADE and self.reactor_next:
                self.reactor_next, self.reactor_active = False, True
            self.defence_dice = DefenceDice()

    def _check_reroll(self, side, args) -> Apply:
        if self.mode == ARCADE:
            raise IllegalAction("In Arcade Mode say roll: both dice are rolled afresh.")
        which = args[0] if len(args) == 1 else ""
        names = ("both", "first", "second") if side == ALIEN else ("both", "flight", "shot")
        if which not in names:
            raise IllegalAction(f"Say {ROLL_AGAIN[side]}.")
        dice = self._dice(side)
        if not dice.rolls:
            raise IllegalAction("Roll first.")
        if dice.rolls >= self.options.max_rolls:
            raise IllegalAction(f"That was your last roll: {self.options.max_rolls} rolls a turn.")
        if dice.committed:
            raise IllegalAction("Your dice are kept for this turn.")
        return lambda: self._roll(side, which)

    def _roll(self, side: str, which: str) -> list[Event]:
        dice = self._dice(side)
        dice.roll(self.rng, which)
        last = None
        if self.mode == STRATEGY:
            last = dice.rolls >= self.options.max_rolls
            dice.committed = dice.committed or last
        if isinstance(dice, AlienDice):
            return [AlienRolled((dice.faces[0], dice.faces[1]), dice.rolls, last)]
        assert dice.flight is not None and dice.shot is not None     # just rolled
        return [DefenceRolled(dice.flight, dice.shot, dice.rolls, last)]

    def _check_keep(self, side, args) -> Apply:
        dice = self._dice(side)
        if not dice.rolls:
            raise IllegalAction("Roll first.")
        if self.mode == STRATEGY and dice.committed:
            raise IllegalAction("Your dice are already kept.")
        if self.mode == ARCADE:
            raise IllegalAction("In Arcade Mode there is nothing to keep: use the dice or roll again.")

        def keep() -> list[Event]:
            dice.committed = True
            return [DiceKept(side)]
        return keep

    def _check_done(self, side, args) -> Apply:
        if self.mode == ARCADE:
            raise IllegalAction("Arcade Mode has no turns: roll again when you like.")
        return lambda: self._end_turn(side)

    def _end_turn(self, side: str) -> list[Event]:
        ended = TurnEnded(side, self.turns)
        if side == DEFENCE:
            self.reactor_active = False
        self.turn = DEFENCE if side == ALIEN else ALIEN
        self.turns += 1
        self.alien_dice, self.defence_dice, self.flown = AlienDice(), DefenceDice(), set()
        if self.turn == DEFENCE and self.reactor_next:
            self.reactor_next, self.reactor_active = False, True
        return [ended, TurnBegan(self.turn, self.turns, self.turn == DEFENCE and self.reactor_active)]

    # --- after a saucer moves ---------------------------------------------------

    def after_saucer_move(self, saucer: Saucer) -> list[Event]:
        """Win check, then the bonus space the saucer's flight ended on."""
        cell = saucer.at
        if cell[0] == self.board.last_row:
            self.winner = ALIEN
            return [Alarm(saucer.colour, cell), self._game_over()]
        if self.board.bonus_colour(cell) == saucer.colour and self.alien_chips:
            return chips.alien_chip(self, saucer)
        return []

    def _game_over(self) -> GameOver:
        if self.winner is None:
            raise ValueError("the game is not over")
        return GameOver(self.winner, self.turns)

    # --- a copy for look-ahead (computer players) -------------------------------

    def copy(self) -> "Game":
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.saucers = [replace(s) for s in self.saucers]
        other.magnets = list(self.magnets)
        other.kept = list(self.kept)
        other.destroyed = dict(self.destroyed)
        other.alien_chips = list(self.alien_chips)
        other.defence_chips = {k: list(v) for k, v in self.defence_chips.items()}
        other.alien_dice = self.alien_dice.copy()
        other.defence_dice = self.defence_dice.copy()
        other.flown = set(self.flown)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other


def _number(args: list[str], usage: str) -> int:
    if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= 6:
        raise IllegalAction(usage + " Spaces run from 1 to 6.")
    return int(args[0])
