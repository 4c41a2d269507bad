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

An illegal action raises IllegalAction with a plain sentence and changes nothing.
Each action returns a list of events (dicts with "event"); the cues turn them into
words and sounds.

Directions: "forward" is towards the defence line (the next row letter), "left"
is towards column 1, "right" towards column 6.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from audio_console.arkade.board import (
    LETTERS, SAUCER_COLOURS, Board, BoardError, Cell, cell_name, formation, load_board, load_data,
)

ALIEN, DEFENCE = "alien", "defence"
SIDES = (ALIEN, DEFENCE)
STRATEGY, ARCADE = "strategy", "arcade"
STEPS = {"forward": (1, 0), "left": (0, -1), "right": (0, 1)}

CHIP_TITLES = {
    # Defence
    "asteroid": "Asteroid on a collision course",
    "magnet": "Magnetic field",
    "outpost": "Defence outpost",
    "mine1": "Intergalactic mine, one booster",
    "mine2": "Intergalactic mine, two boosters",
    "comet1": "Comet, one space",
    "comet2": "Comet, two spaces",
    "plasma": "Plasma cannon",
    "gps": "GPS update",
    # Alien
    "shield": "Shield",
    "engine": "Improved engine",
    "rift": "Rift in the galaxy",
    "hit": "Saucer hits the spaceship",
    "repair": "Repaired saucer",
    "reactor": "Reactor damage",
}


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why. Nothing changed."""


@dataclass(frozen=True)
class Options:
    mode: str = STRATEGY
    side: str = "classic"          # board side: "classic" or "expert"
    formation: str = "offset"      # "offset" (Fig. 1) or "pairs" (Fig. 2)
    boosters: int = 6              # 4 high, 6 normal, 8 low difficulty for the Defence
    max_rolls: int = 3             # 2 in the experts' variant of Strategy Mode
    chips: bool | None = None      # None: Strategy yes, Arcade no (the rulebook's default)
    rows: int | None = None        # None: the reconstruction's choice

    @property
    def with_chips(self) -> bool:
        return self.mode == STRATEGY if self.chips is None else self.chips

    def validate(self) -> "Options":
        if self.mode not in (STRATEGY, ARCADE):
            raise ValueError(f"mode must be strategy or arcade, not {self.mode!r}")
        if self.boosters not in range(0, 12):
            raise ValueError("the Defence starts with 0 to 11 boosters")
        if self.max_rolls not in (1, 2, 3):
            raise ValueError("1 to 3 rolls a turn")
        return self


@dataclass
class Saucer:
    id: int
    colour: str
    cell: Cell | None            # None: destroyed
    shield: bool = False         # heart side up


@dataclass
class Pending:
    """A chip effect waiting for its owner's choice (a space or a saucer)."""
    side: str
    chip: str
    colour: str | None           # Defence chip colour
    choices: tuple[Cell, ...]    # cells the owner may choose (kept up to date after every action)
    row: int | None = None       # Rift: the target row (the triggering saucer's row)


@dataclass
class AlienDice:
    faces: list[str] = field(default_factory=list)   # two space colours, once rolled
    used: list[bool] = field(default_factory=lambda: [False, False])
    rolls: int = 0
    committed: bool = False      # kept, or a die used: no more rerolls


@dataclass
class DefenceDice:
    flight: int | None = None
    shot: str | None = None
    flight_used: bool = False
    shot_used: bool = False
    rolls: int = 0
    committed: bool = False


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
        chips = self.options.with_chips
        alien = list(data["alien_chips"])
        self.rng.shuffle(alien)
        self.alien_chips: list[str] = alien[:6] if chips else []
        self.defence_chips: dict[str, list[str]] = {}
        for colour in SAUCER_COLOURS:
            pile = list(data["defence_chips"][colour])
            self.rng.shuffle(pile)
            self.defence_chips[colour] = pile[:2] if chips else []
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
        found = [s for s in self.alive() if s.cell[1] == column]
        return max(found, key=lambda s: s.cell[0]) if found else None

    def finished(self) -> bool:
        return self.winner is not None

    # --- the one entry point ------------------------------------------------------

    def act(self, side: str, action: str) -> list[dict]:
        """Carry out one canonical action for `side`; raise IllegalAction to refuse."""
        if side not in SIDES:
            raise IllegalAction(f"unknown side {side!r}")
        words = action.split()
        if not words:
            raise IllegalAction("Say what to do.")
        if self.winner:
            raise IllegalAction(f"The game is over: the {self.winner} won.")
        verb, args = words[0], words[1:]
        if self.pending and self.pending.side == side and verb != "choose":
            raise IllegalAction(self._pending_question())
        if self.mode == STRATEGY and self.turn != side:
            raise IllegalAction(f"It is the {self.turn}'s turn.")
        try:
            handler = getattr(self, f"_{side}_{verb}", None) or getattr(self, f"_any_{verb}", None)
            if handler is None:
                raise IllegalAction(f"The {side} cannot {verb}.")
            events = handler(side, args)
            return events if self._dry else events + self._refresh_pending()
        except BoardError as error:
            raise IllegalAction(str(error)) from None

    def legal_actions(self, side: str) -> list[str]:
        """Every action `side` may take now (flights enumerated in full)."""
        if self.winner:
            return []
        if self.pending and self.pending.side == side:
            return [self._choice_action(c) for c in self.pending.choices]
        if self.mode == STRATEGY and self.turn != side:
            return []
        candidates: list[str] = ["roll", "keep", "reroll both"]
        if self.mode == STRATEGY:
            candidates.append("done")
        if side == ALIEN:
            candidates += ["reroll first", "reroll second"]
            for s in self.alive():
                here = cell_name(s.cell)
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
            for kind, colour in set(self.kept):
                if kind == "plasma":
                    candidates.append(f"plasma {colour}")
                else:
                    candidates += [f"gps {n}" for n in range(1, 7)]
        return [a for a in candidates if self.allowed(side, a)]

    def allowed(self, side: str, action: str) -> bool:
        """True when `action` is legal now (checked without changing anything)."""
        self._dry = True
        try:
            self.act(side, action)
            return True
        except IllegalAction:
            return False
        finally:
            self._dry = False

    _dry = False

    def _choice_action(self, cell: Cell) -> str:
        pending = self.pending
        if pending.chip == "repair":
            colours = sorted({s.colour for s in self.saucers if s.cell is None})
            return f"choose {colours[0]} {cell_name(cell)}"
        return f"choose {cell_name(cell)}"

    # --- rolling (both sides) ---------------------------------------------------

    def _any_roll(self, side, args):
        if args:
            raise IllegalAction("Say roll, or reroll and which die.")
        dice = self.alien_dice if side == ALIEN else self.defence_dice
        if self.mode == STRATEGY and dice.rolls:
            raise IllegalAction("You have rolled already this turn: say reroll and which die, or keep.")
        if self._dry:
            return []
        self._fresh_dice(side)
        if self.mode == ARCADE:
            self.turns += 1
        return self._roll(side, "both")

    def _fresh_dice(self, side):
        if side == ALIEN:
            self.alien_dice = AlienDice()
            self.flown = set()
        else:
            if self.mode == ARCADE and self.reactor_active:
                self.reactor_active = False   # Arcade: reactor damage lasts one roll
            if self.mode == ARCADE and self.reactor_next:
                self.reactor_next, self.reactor_active = False, True
            self.defence_dice = DefenceDice()

    def _any_reroll(self, side, args):
        if self.mode == ARCADE:
            raise IllegalAction("In Arcade Mode just roll again.")
        which = args[0] if len(args) == 1 else ""
        names = ("both", "first", "second") if side == ALIEN else ("both", "flight", "shot")
        if which not in names:
            raise IllegalAction("Reroll " + ", ".join(names) + ".")
        dice = self.alien_dice if side == ALIEN else self.defence_dice
        if not dice.rolls:
            raise IllegalAction("Roll first.")
        if dice.rolls >= self.options.max_rolls:
            raise IllegalAction(f"That was your last roll: {self.options.max_rolls} rolls a turn.")
        if dice.committed:
            raise IllegalAction("Your dice are kept for this turn.")
        if self._dry:
            return []
        return self._roll(side, which)

    def _roll(self, side, which):
        faces = load_data()["dice"]
        if side == ALIEN:
            dice = self.alien_dice
            if not dice.faces:
                dice.faces = [self.rng.choice(faces["saucer_flight"]) for _ in range(2)]
            else:
                for i, name in enumerate(("first", "second")):
                    if which in (name, "both"):
                        dice.faces[i] = self.rng.choice(faces["saucer_flight"])
            dice.rolls += 1
            event = {"event": "roll", "side": ALIEN, "dice": list(dice.faces), "roll": dice.rolls}
        else:
            dice = self.defence_dice
            if which in ("flight", "both"):
                dice.flight = self.rng.choice(faces["spaceship_flight"])
            if which in ("shot", "both"):
                dice.shot = self.rng.choice(faces["shot"])
            dice.rolls += 1
            event = {"event": "roll", "side": DEFENCE, "flight": dice.flight, "shot": dice.shot,
                     "roll": dice.rolls}
        if self.mode == STRATEGY:
            event["last"] = dice.rolls >= self.options.max_rolls
            dice.committed = dice.committed or event["last"]
        return [event]

    def _any_keep(self, side, args):
        dice = self.alien_dice if side == ALIEN else self.defence_dice
        if not dice.rolls:
            raise IllegalAction("Roll first.")
        if self.mode == STRATEGY and dice.committed:
            raise IllegalAction("Your dice are already kept.")
        if self.mode == ARCADE:
            raise IllegalAction("In Arcade Mode there is nothing to keep: use the dice or roll again.")
        if self._dry:
            return []
        dice.committed = True
        return [{"event": "keep", "side": side}]

    def _any_done(self, side, args):
        if self.mode == ARCADE:
            raise IllegalAction("Arcade Mode has no turns: roll again when you like.")
        if self._dry:
            return []
        events = [{"event": "turn_end", "side": side, "turn": self.turns}]
        if side == DEFENCE:
            self.reactor_active = False
        self.turn = DEFENCE if side == ALIEN else ALIEN
        self.turns += 1
        self.alien_dice, self.defence_dice, self.flown = AlienDice(), DefenceDice(), set()
        if self.turn == DEFENCE and self.reactor_next:
            self.reactor_next, self.reactor_active = False, True
        events.append({"event": "turn", "side": self.turn, "turn": self.turns,
                       "reactor": self.turn == DEFENCE and self.reactor_active})
        return events

    # --- the Alien --------------------------------------------------------------

    def _saucer(self, text: str) -> Saucer:
        cell = self.board.parse_cell(text)
        saucer = self.saucer_at(cell)
        if saucer is None:
            raise IllegalAction(f"There is no saucer at {cell_name(cell)}.")
        return saucer

    def _alien_fly(self, side, args):
        if not args:
            raise IllegalAction("Say which saucer and where: fly B3 forward.")
        saucer = self._saucer(args[0])
        path = self._flight_path(saucer.cell, args[1:])
        dice = self.alien_dice
        if not dice.rolls:
            raise IllegalAction("Roll the flight dice first.")
        if saucer.id in self.flown:
            raise IllegalAction(f"The saucer at {cell_name(saucer.cell)} has flown this turn already.")
        if not 1 <= len(path) <= 2:
            raise IllegalAction("A saucer flies one or two spaces.")
        previous = saucer.cell
        for i, target in enumerate(path):
            self._check_step(previous, target)
            previous = target
            if target[0] == self.board.last_row:
                path = path[:i + 1]      # the last row is reached: the game ends there
                break
        free_dice = [i for i in range(2) if not dice.used[i]]
        chosen = _assign_dice([dice.faces[i] for i in free_dice], [self.board.colour(t) for t in path])
        if chosen is None:
            needed = " and ".join(self.board.colour(t) for t in path)
            have = " and ".join(dice.faces[i] for i in free_dice) or "no dice"
            raise IllegalAction(f"That flight needs {needed}; you have {have} left.")
        if self._dry:
            return []
        for k in chosen:
            dice.used[free_dice[k]] = True
        dice.committed = True
        self.flown.add(saucer.id)
        start = saucer.cell
        saucer.cell = path[-1]
        events = [{"event": "flight", "saucer": saucer.colour, "from": cell_name(start),
                   "to": cell_name(saucer.cell), "path": [cell_name(c) for c in path]}]
        return events + self._after_saucer_move(saucer)

    def _flight_path(self, start: Cell, words: list[str]) -> list[Cell]:
        """Directions ("forward left") or target cells ("to C3 to D3") -> cells."""
        path, here = [], start
        for word in words:
            if word == "to":
                continue
            if word in ("back", "backward", "backwards"):
                raise IllegalAction("Saucers never fly backwards.")
            if word in STEPS:
                dr, dc = STEPS[word]
                here = (here[0] + dr, here[1] + dc)
                if not self.board.contains(here):
                    raise IllegalAction("That flight leaves the board.")
            else:
                here = self.board.parse_cell(word)
            path.append(here)
        if not path:
            raise IllegalAction("Say where: forward, left, right, or a space like C3.")
        return path

    def _check_step(self, start: Cell, target: Cell) -> None:
        dr, dc = target[0] - start[0], target[1] - start[1]
        if dr < 0:
            raise IllegalAction("Saucers never fly backwards.")
        if dr and dc:
            raise IllegalAction("Saucers never fly diagonally: forward or sideways, one space at a time.")
        if abs(dr) + abs(dc) != 1:
            raise IllegalAction("A saucer flies one space at a time to a neighbouring space; "
                                "it never flies over another space.")
        other = self.saucer_at(target)
        if other:
            raise IllegalAction(f"{cell_name(target)} holds the {other.colour} saucer: "
                                "saucers never fly onto or over another saucer.")
        obstacle = self.obstacle_at(target)
        if obstacle:
            raise IllegalAction(f"{cell_name(target)} is blocked by {obstacle}.")

    def _after_saucer_move(self, saucer: Saucer, bonus: bool = True) -> list[dict]:
        """Win check, then the bonus space the saucer's flight ended on."""
        if saucer.cell[0] == self.board.last_row:
            self.winner = ALIEN
            return [{"event": "alarm", "saucer": saucer.colour, "cell": cell_name(saucer.cell)},
                    self._game_over()]
        if bonus and self.board.bonus_colour(saucer.cell) == saucer.colour and self.alien_chips:
            return self._alien_chip(saucer)
        return []

    def _alien_chip(self, saucer: Saucer) -> list[dict]:
        chip = self.alien_chips.pop(0)     # shuffled at set-up: a random face-down chip
        event = {"event": "chip", "side": ALIEN, "chip": chip, "title": CHIP_TITLES[chip],
                 "saucer": saucer.colour, "cell": cell_name(saucer.cell)}
        events = [event]
        if chip == "shield":
            if saucer.shield:
                event["result"] = "fizzled"
            else:
                saucer.shield = True
                event["result"] = "shield"
        elif chip == "engine":
            ahead = (saucer.cell[0] + 1, saucer.cell[1])
            if self.free(ahead):
                start, saucer.cell = saucer.cell, ahead
                event["result"] = "moved"
                events.append({"event": "flight", "saucer": saucer.colour, "from": cell_name(start),
                               "to": cell_name(ahead), "path": [cell_name(ahead)], "by": "engine"})
                events += self._after_saucer_move(saucer)
            else:
                event["result"] = "fizzled"
        elif chip == "rift":
            choices = self._rift_choices(saucer)
            if not choices:
                event["result"] = "fizzled"
            elif len(choices) == 1:
                event["result"] = "moved"
                events += self._rift(self.saucer_at(choices[0]), saucer.cell[0])
            else:
                event["result"] = "choose"
                self.pending = Pending(ALIEN, "rift", None, tuple(choices), saucer.cell[0])
        elif chip == "hit":
            if self.boosters:
                self.boosters -= 1
                event["result"] = "booster_lost"
                event["boosters"] = self.boosters
            else:
                event["result"] = "fizzled"
        elif chip == "repair":
            choices = self._repair_choices()
            if choices:
                event["result"] = "choose"
                self.pending = Pending(ALIEN, "repair", None, tuple(choices))
            else:
                event["result"] = "fizzled"
        elif chip == "reactor":
            self.reactor_next = True
            event["result"] = "reactor"
        return events

    def _rift_choices(self, trigger: Saucer) -> list[Cell]:
        return self._rift_choices_to(trigger.cell[0])

    def _rift_choices_to(self, target_row: int) -> list[Cell]:
        choices = []
        for s in self.alive():
            if s.cell[0] >= target_row:
                continue
            column = s.cell[1]
            if all(self.free((row, column)) for row in range(s.cell[0] + 1, target_row + 1)):
                choices.append(s.cell)
        return sorted(choices)

    def _rift(self, saucer: Saucer, target_row: int) -> list[dict]:
        start = saucer.cell
        saucer.cell = (target_row, start[1])
        events = [{"event": "flight", "saucer": saucer.colour, "from": cell_name(start),
                   "to": cell_name(saucer.cell), "path": [cell_name(saucer.cell)], "by": "rift"}]
        return events + self._after_saucer_move(saucer)

    def _repair_choices(self) -> list[Cell]:
        if not any(s.cell is None for s in self.saucers):
            return []
        return [(0, c) for c in range(self.board.columns) if self.free((0, c))]

    def _alien_clear(self, side, args):
        if len(args) != 2 or args[0] != "magnet":
            raise IllegalAction("Say clear magnet and its space, like clear magnet C4.")
        cell = self.board.parse_cell(args[1])
        if cell not in self.magnets:
            raise IllegalAction(f"There is no magnetic field at {cell_name(cell)}.")
        neighbours = [(cell[0] + dr, cell[1] + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        if not any(self.saucer_at(n) for n in neighbours):
            raise IllegalAction("To clear a magnetic field a saucer must stand next to it.")
        dice = self.alien_dice
        free = [i for i in range(2) if dice.rolls and not dice.used[i] and dice.faces[i] == "orange"]
        if not free:
            raise IllegalAction("Clearing a magnetic field takes an orange flight die.")
        if self._dry:
            return []
        dice.used[free[0]] = True
        dice.committed = True
        self.magnets.remove(cell)
        return [{"event": "magnet_cleared", "cell": cell_name(cell)}]

    def _alien_sacrifice(self, side, args):
        if len(args) != 1:
            raise IllegalAction("Say which saucer: sacrifice C3.")
        saucer = self._saucer(args[0])
        if self.asteroid is None:
            raise IllegalAction("There is no asteroid to remove.")
        if saucer.cell != (self.asteroid[0] - 1, self.asteroid[1]):
            raise IllegalAction(f"Only the saucer directly in front of the asteroid, at "
                                f"{cell_name((self.asteroid[0] - 1, self.asteroid[1]))}, can remove it.")
        if self._dry:
            return []
        start = saucer.cell
        saucer.cell, saucer.shield = None, False
        asteroid, self.asteroid = self.asteroid, None
        events = [{"event": "asteroid_removed", "cell": cell_name(asteroid), "saucer": saucer.colour,
                   "from": cell_name(start)}]
        if not self.alive():
            self.winner = DEFENCE
            events.append(self._game_over())
        return events

    # --- the Defence ------------------------------------------------------------

    def _defence_ship(self, side, args):
        n = _number(args, "Say the space: ship 4.")
        dice = self.defence_dice
        if not dice.rolls:
            raise IllegalAction("Roll first.")
        if dice.flight_used:
            raise IllegalAction("The spaceship has used its flight die this turn.")
        if self.reactor_active and n not in (1, 6):
            raise IllegalAction("Reactor damage: the spaceship may only fly to 1 or 6 this turn.")
        if dice.flight != n:
            raise IllegalAction(f"The flight die shows {dice.flight}, not {n}.")
        if self.ship == n - 1:
            raise IllegalAction(f"The spaceship is already on space {n}.")
        if self._dry:
            return []
        start, self.ship = self.ship, n - 1
        dice.flight_used = dice.committed = True
        return [{"event": "spaceship_flight", "from": start + 1, "to": n, "by": "die"}]

    def _defence_booster(self, side, args):
        if len(args) != 1 or args[0] not in ("left", "right"):
            raise IllegalAction("Say booster left or booster right.")
        if not self.boosters:
            raise IllegalAction("You have no boosters left.")
        if self.reactor_active:
            raise IllegalAction("Reactor damage: no boosters this turn.")
        target = self.ship + (-1 if args[0] == "left" else 1)
        if not 0 <= target < self.board.columns:
            raise IllegalAction(f"The spaceship is at the {args[0]} end of the defence line.")
        if self._dry:
            return []
        start, self.ship = self.ship, target
        self.boosters -= 1
        return [{"event": "booster", "direction": args[0], "from": start + 1, "to": target + 1,
                 "boosters": self.boosters}]

    def _defence_gps(self, side, args):
        n = _number(args, "Say the space: gps 4.")
        gps = [k for k in self.kept if k[0] == "gps"]
        if not gps:
            raise IllegalAction("You have no GPS.")
        if self.reactor_active:
            raise IllegalAction("Reactor damage: no GPS flight this turn.")
        if self.ship == n - 1:
            raise IllegalAction(f"The spaceship is already on space {n}.")
        if self._dry:
            return []
        self.kept.remove(gps[0])
        start, self.ship = self.ship, n - 1
        return [{"event": "spaceship_flight", "from": start + 1, "to": n, "by": "gps"}]

    def _defence_shoot(self, side, args):
        if args not in ([], ["outpost"]):
            raise IllegalAction("Say shoot, or shoot outpost.")
        dice = self.defence_dice
        if args:
            if self.outpost is None:
                raise IllegalAction("You have no outpost.")
            column, source = self.outpost, "outpost"
        else:
            column, source = self.ship, "ship"
        if not dice.rolls:
            raise IllegalAction("Roll first.")
        if dice.shot_used:
            raise IllegalAction("The shot die is used this turn.")
        target = self.nearest_in_column(column)
        if target is None:
            raise IllegalAction(f"No saucer in column {column + 1}.")
        if target.colour != dice.shot:
            raise IllegalAction(f"The nearest saucer in column {column + 1} is {target.colour}, at "
                                f"{cell_name(target.cell)}; the shot die shows {dice.shot}.")
        if self._dry:
            return []
        dice.shot_used = dice.committed = True
        return self._hit(target, source, "shot")

    def _defence_plasma(self, side, args):
        cannons = [k for k in self.kept if k[0] == "plasma" and (not args or k[1] == args[0])]
        if not cannons:
            raise IllegalAction("You have no plasma cannon" + (f" of {args[0]}." if args else "."))
        target = self.nearest_in_column(self.ship)
        if target is None:
            raise IllegalAction(f"No saucer in column {self.ship + 1}.")
        matching = [k for k in cannons if k[1] == target.colour]
        if not matching:
            raise IllegalAction(f"The nearest saucer in column {self.ship + 1} is {target.colour}; "
                                f"the plasma cannon is {cannons[0][1]}.")
        if self._dry:
            return []
        self.kept.remove(matching[0])
        return self._hit(target, "ship", "plasma")

    def _hit(self, saucer: Saucer, source: str, weapon: str) -> list[dict]:
        event = {"event": "shot", "from": source, "weapon": weapon, "column": saucer.cell[1] + 1,
                 "target": cell_name(saucer.cell), "saucer": saucer.colour}
        if saucer.shield and weapon != "plasma":
            saucer.shield = False
            event["result"] = "shield"
            return [event]
        event["result"] = "destroyed"
        saucer.cell, saucer.shield = None, False
        self.destroyed[saucer.colour] += 1
        events = [event]
        if not self.alive():
            self.winner = DEFENCE
            return events + [self._game_over()]
        if self.destroyed[saucer.colour] % 2 == 0 and self.defence_chips[saucer.colour]:
            events += self._defence_chip(saucer.colour)
        return events

    def _defence_chip(self, colour: str) -> list[dict]:
        chip = self.defence_chips[colour].pop(0)   # shuffled at set-up: a random face-down chip
        event = {"event": "chip", "side": DEFENCE, "chip": chip, "title": CHIP_TITLES[chip],
                 "colour": colour}
        if chip in ("asteroid", "magnet", "outpost", "comet1", "comet2"):
            choices = self._choices(chip)
        elif chip in ("mine1", "mine2"):
            gain = min(int(chip[-1]), self.booster_supply)
            self.booster_supply -= gain
            self.boosters += gain
            event.update(result="boosters", gained=gain, boosters=self.boosters)
            return [event]
        else:   # plasma, gps: kept for a later turn
            self.kept.append((chip, colour))
            event["result"] = "kept"
            return [event]
        if not choices:
            event["result"] = "fizzled"
        else:
            event["result"] = "choose"
            self.pending = Pending(DEFENCE, chip, colour, tuple(choices))
        return [event]

    # --- chip choices (both sides) -----------------------------------------------

    def _choices(self, chip: str, row: int | None = None) -> list[Cell]:
        """What a chip's owner may choose now (Arcade Mode: the board moves meanwhile)."""
        if chip in ("asteroid", "magnet"):
            return [c for c in self.board.cells() if self.free(c) and not self.board.bonus_colour(c)]
        if chip == "outpost":
            return [(self.board.last_row, c) for c in range(self.board.columns)
                    if self.free((self.board.last_row, c))]
        if chip in ("comet1", "comet2"):
            return sorted(s.cell for s in self.alive() if self.free((s.cell[0] - 1, s.cell[1])))
        if chip == "rift":
            return self._rift_choices_to(row)
        return self._repair_choices()

    def _refresh_pending(self) -> list[dict]:
        """After every action: the open choice follows the board, or fizzles if none is left."""
        p = self.pending
        if p is None or self.winner:
            return []
        choices = tuple(self._choices(p.chip, p.row))
        if choices:
            self.pending = replace(p, choices=choices)
            return []
        self.pending = None
        return [{"event": "chip", "side": p.side, "chip": p.chip, "title": CHIP_TITLES[p.chip],
                 "result": "fizzled", "colour": p.colour}]

    def _pending_question(self) -> str:
        p = self.pending
        what = {"asteroid": "where the asteroid goes", "magnet": "where the magnetic field goes",
                "outpost": "where the outpost goes, in the last row",
                "comet1": "which saucer the comet pushes back", "comet2": "which saucer the comet pushes back",
                "rift": "which saucer the rift moves forward",
                "repair": "where the repaired saucer returns, in row A"}[p.chip]
        return f"First choose {what}: say choose and a space, like choose {cell_name(p.choices[0])}."

    def _any_choose(self, side, args):
        p = self.pending
        if p is None or p.side != side:
            raise IllegalAction("There is nothing to choose now.")
        colour = None
        if len(args) == 2 and args[0] in SAUCER_COLOURS:
            colour, args = args[0], args[1:]
        if len(args) != 1:
            raise IllegalAction(self._pending_question())
        cell = self.board.parse_cell(args[0])
        if cell not in p.choices:
            raise IllegalAction(f"{cell_name(cell)} cannot be chosen. " + self._pending_question())
        if p.chip == "repair":
            destroyed = [s for s in self.saucers if s.cell is None and (colour is None or s.colour == colour)]
            if not destroyed:
                raise IllegalAction(f"No {colour} saucer has been destroyed.")
            if colour is None and len({s.colour for s in destroyed}) > 1:
                raise IllegalAction("Say which colour returns: choose "
                                    + " or ".join(sorted({s.colour for s in destroyed})) + f" {cell_name(cell)}.")
        if self._dry:
            return []
        self.pending = None
        event = {"event": "chosen", "side": side, "chip": p.chip, "cell": cell_name(cell)}
        events = [event]
        if p.chip == "asteroid":
            self.asteroid = cell
        elif p.chip == "magnet":
            self.magnets.append(cell)
        elif p.chip == "outpost":
            self.outpost = cell[1]
        elif p.chip in ("comet1", "comet2"):
            saucer = self.saucer_at(cell)
            target = cell
            for _ in range(int(p.chip[-1])):
                back = (target[0] - 1, target[1])
                if not self.free(back):
                    break
                target = back
            saucer.cell = target
            event.update(saucer=saucer.colour, to=cell_name(target))
        elif p.chip == "rift":
            events += self._rift(self.saucer_at(cell), p.row)
        elif p.chip == "repair":
            saucer = destroyed[0]
            saucer.cell, saucer.shield = cell, False
            event["saucer"] = saucer.colour
        return events

    def _game_over(self) -> dict:
        return {"event": "game_over", "winner": self.winner, "turns": self.turns}

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
        other.alien_dice = replace(self.alien_dice, faces=list(self.alien_dice.faces),
                                   used=list(self.alien_dice.used))
        other.defence_dice = replace(self.defence_dice)
        other.flown = set(self.flown)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other


def _number(args: list[str], usage: str) -> int:
    if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= 6:
        raise IllegalAction(usage + " Spaces run from 1 to 6.")
    return int(args[0])


def _assign_dice(faces: list[str], needed: list[str]) -> list[int] | None:
    """Indices into `faces`, one distinct die per needed colour, or None."""
    if len(needed) == 1:
        return next(([i] for i, f in enumerate(faces) if f == needed[0]), None)
    if len(needed) == 2 and len(faces) == 2:
        if faces[0] == needed[0] and faces[1] == needed[1]:
            return [0, 1]
        if faces[1] == needed[0] and faces[0] == needed[1]:
            return [1, 0]
    return None
