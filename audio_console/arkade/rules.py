"""Arkade rules core: Strategy Mode (turns) and Arcade Mode (simultaneous).

Pure: no printing, sound, clock or randomness of its own. A seeded random.Random is
handed in and used only by actions that change the game (rolls, chip draws at
set-up), so replaying the same actions gives the same game.

Every action is a typed value (actions.py: Roll, Fly, ShipTo, Choose, ...), the same
the console makes of a command and the computer players choose, played with
Game.act(side, action); its text() is what saved games record.

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
from audio_console.arkade.actions import (
    Action, Booster, ClearMagnet, Choose, Done, Fly, Keep, Plasma, Reroll, Roll, Sacrifice, Shoot, ShipTo,
    UseGps,
)
from audio_console.arkade.board import (
    SAUCER_COLOURS, Board, BoardError, Cell, Space, formation, load_board, load_data,
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

    def snapshot(self) -> tuple:
        """Everything that makes up the game's state, as plain values: two games in
        the same state have equal snapshots (for "nothing changed" checks)."""
        return (
            [(s.id, s.colour, s.cell, s.shield) for s in self.saucers],
            self.ship, self.boosters, self.booster_supply, self.outpost, self.asteroid, list(self.magnets),
            list(self.kept), dict(self.destroyed), list(self.alien_chips),
            {k: list(v) for k, v in self.defence_chips.items()}, self.turn, self.turns,
            repr(self.alien_dice), repr(self.defence_dice), sorted(self.flown), repr(self.pending),
            self.reactor_next, self.reactor_active, self.winner, self.rng.getstate(),
        )

    def finished(self) -> bool:
        return self.winner is not None

    def pending_question(self) -> str:
        if self.pending is None:
            raise ValueError("no choice is open")
        return chips.pending_question(self.pending)

    def choice_action(self, cell: Cell) -> Choose:
        return chips.choice_action(self, cell)

    # --- the one entry point ------------------------------------------------------

    def act(self, side: str, action: Action) -> list[Event]:
        """Carry out one action for `side`; raise IllegalAction to refuse."""
        carry_out = self._check(side, action)
        return carry_out() + chips.refresh_pending(self)

    def allowed(self, side: str, action: Action) -> bool:
        """True when `action` is legal now (checked without changing anything)."""
        try:
            self._check(side, action)
            return True
        except IllegalAction:
            return False

    def legal_actions(self, side: str) -> list[Action]:
        """Every action `side` may take now (flights enumerated in full)."""
        if self.winner:
            return []
        if self.pending and self.pending.side == side:
            return [self.choice_action(c) for c in self.pending.choices]
        if self.mode == STRATEGY and self.turn != side:
            return []
        candidates: list[Action] = [Roll(), Keep(), Reroll("both")]
        if self.mode == STRATEGY:
            candidates.append(Done())
        if side == ALIEN:
            candidates += [Reroll("first"), Reroll("second")]
            for s in self.alive():
                here = Space(*s.at)
                for first in STEPS:
                    candidates.append(Fly(here, (first,)))
                    for second in STEPS:
                        candidates.append(Fly(here, (first, second)))
            candidates += [ClearMagnet(Space(*m)) for m in self.magnets]
            if self.asteroid and self.asteroid[0] > 0:
                candidates.append(Sacrifice(Space(self.asteroid[0] - 1, self.asteroid[1])))
        else:
            candidates += [Reroll("flight"), Reroll("shot"), Booster("left"), Booster("right"), Shoot(),
                           Shoot(outpost=True)]
            candidates += [ShipTo(n) for n in range(1, 7)]
            for kind, colour in sorted(set(self.kept)):      # sorted: the same order in every run
                if kind == "plasma":
                    candidates.append(Plasma(colour))
                else:
                    candidates += [UseGps(n) for n in range(1, 7)]
        return [a for a in candidates if self.allowed(side, a)]

    def _check(self, side: str, action: Action) -> Apply:
        """Check one action; return the function that carries it out."""
        if side not in SIDES:
            raise IllegalAction(f"unknown side {side!r}")
        if self.winner:
            raise IllegalAction(f"The game is over: the {NAMES[self.winner]} won.")
        if self.pending and self.pending.side == side and not isinstance(action, Choose):
            raise IllegalAction(self.pending_question())
        if self.mode == STRATEGY and self.turn is not None and self.turn != side:
            raise IllegalAction(f"It is the {NAMES[self.turn]}'s turn.")
        try:
            own = OWN_ACTIONS[side].get(type(action))
            if own is not None:
                return own(self, action)
            if isinstance(action, Roll):
                return self._check_roll(side)
            if isinstance(action, Reroll):
                return self._check_reroll(side, action.which)
            if isinstance(action, Keep):
                return self._check_keep(side)
            if isinstance(action, Done):
                return self._check_done(side)
            if isinstance(action, Choose):
                return chips.check_choose(self, side, action)
            other = DEFENCE if side == ALIEN else ALIEN
            raise IllegalAction(f"Only the {NAMES[other]} can {OTHER_SIDES_ACTIONS[action.verb]}; "
                                f"you are the {NAMES[side]}.")
        except BoardError as error:
            raise IllegalAction(str(error)) from None

    # --- rolling (both sides) ---------------------------------------------------

    def _dice(self, side: str) -> AlienDice | DefenceDice:
        return self.alien_dice if side == ALIEN else self.defence_dice

    def _check_roll(self, side: str) -> Apply:
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

    def _check_reroll(self, side: str, which: str) -> Apply:
        if self.mode == ARCADE:
            raise IllegalAction("In Arcade Mode say roll: both dice are rolled afresh.")
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

    def _check_keep(self, side: str) -> Apply:
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

    def _check_done(self, side: str) -> Apply:
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
