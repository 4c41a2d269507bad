"""Computer players for the Alien and the Defence, at three levels.

`next_action(game, side, level, rng)` returns the next action for `side` (actions.py,
the same values a player's commands become). It keeps no state of its own: the
plan is worked out afresh from the game each time, and the only randomness is the
`rng` handed in, which the console derives from the seed and the move number. So a
game replays exactly.

Levels:
  easy    never rerolls, plays the first good flight or shot it finds, keeps boosters
  normal  rerolls when the dice give nothing useful, spends boosters on threats
  hard    rerolls by expected value, weighs threats by distance to the last row
"""
from __future__ import annotations

import itertools
import random

from audio_console.arkade.actions import (
    Action, Booster, ClearMagnet, Done, Fly, Plasma, Reroll, Roll, Shoot, ShipTo, UseGps,
)
from audio_console.arkade.board import SAUCER_COLOURS, SPACE_COLOURS, Space
from audio_console.arkade.rules import ALIEN, ARCADE, DEFENCE, STEPS, STRATEGY, Game

LEVELS = ("easy", "normal", "hard")


def player_rng(seed: int, side: str, move: int) -> random.Random:
    """The computer's randomness for one move: derived from the game's seed and the
    move number, so that a saved game replays the computer's choices exactly."""
    return random.Random(f"arkade:{seed}:{side}:{move}")


def next_action(game: Game, side: str, level: str = "normal", rng: random.Random | None = None) -> Action | None:
    """The computer's next action for `side`, or None when it has nothing to do."""
    rng = rng or random.Random(0)
    if game.finished():
        return None
    if game.mode == STRATEGY and game.turn != side:
        return None
    if game.pending and game.pending.side == side:
        return _choose(game, side, level, rng)
    if side == ALIEN:
        return _alien(game, level, rng)
    return _defence(game, level, rng)


# --- the Alien -----------------------------------------------------------------

def _cell_value(game: Game, saucer, cell) -> float:
    """How good it is for the Alien to have `saucer` on `cell`."""
    row = cell[0]
    last = game.board.last_row
    value = row * row
    if row == last - 1:
        value += 12            # one step from winning: the Defence must answer it
    if game.alien_chips and game.board.bonus_colour(cell) == saucer.colour:
        value += 6
    return value


def _single_steps(game: Game, faces: list[str | None]):
    """(delta, saucer, directions, dice indices) for every flight the free dice allow."""
    occupied = {s.at for s in game.alive()}
    result = []
    for saucer in game.alive():
        if saucer.id in game.flown:
            continue
        base = _cell_value(game, saucer, saucer.at)
        for d1, (dr, dc) in STEPS.items():
            c1 = (saucer.at[0] + dr, saucer.at[1] + dc)
            if not game.board.contains(c1) or c1 in occupied or game.obstacle_at(c1):
                continue
            col1 = game.board.colour(c1)
            for i, face in enumerate(faces):
                if face != col1:
                    continue
                result.append((_cell_value(game, saucer, c1) - base, saucer, [d1], [i], [c1]))
                for d2, (er, ec) in STEPS.items():
                    c2 = (c1[0] + er, c1[1] + ec)
                    if not game.board.contains(c2) or c2 in occupied or game.obstacle_at(c2):
                        continue
                    for j, face2 in enumerate(faces):
                        if j != i and face2 == game.board.colour(c2):
                            result.append((_cell_value(game, saucer, c2) - base, saucer, [d1, d2], [i, j],
                                           [c1, c2]))
                break   # one die of that colour is enough to list the step
    return result


def _best_plan(game: Game, faces: list[str | None], level: str):
    """The best use of the free dice: (value, [flights]) with flights as step tuples."""
    steps = [s for s in _single_steps(game, faces) if s[0] > 0 or level == "easy"]
    best: tuple[float, list] = (0.0, [])
    for step in steps:
        if step[0] > best[0]:
            best = (step[0], [step])
    if level == "easy":
        return best
    singles = [s for s in steps if len(s[2]) == 1]
    singles.sort(key=lambda s: -s[0])
    for a, b in itertools.combinations(singles[:12], 2):
        if a[1].id == b[1].id or a[3][0] == b[3][0] or a[4][-1] == b[4][-1]:
            continue
        value = a[0] + b[0]
        if value > best[0]:
            best = (value, [a, b])
    return best


def _alien(game: Game, level: str, rng: random.Random) -> Action:
    dice = game.alien_dice
    arcade = game.mode == ARCADE
    if not dice.rolls:
        return Roll()
    faces = [f if not used else None for f, used in zip(dice.faces, dice.used)]
    free = [f for f in faces if f]
    if free:
        value, plan = _best_plan(game, faces, level)
        if not dice.committed and not arcade and level != "easy" and dice.rolls < game.options.max_rolls:
            choice = _alien_reroll(game, faces, value, level)
            if choice:
                return choice
        if plan:
            delta, saucer, directions, _, _ = plan[0]
            return Fly(Space(*saucer.at), tuple(directions))
        if level != "easy":
            clear = _clear_magnet(game, faces)
            if clear:
                return clear
    return Roll() if arcade else Done()


def _alien_reroll(game: Game, faces, value: float, level: str) -> Reroll | None:
    """Reroll when the expected best plan beats the current one."""
    options = {"both": [(a, b) for a in SPACE_COLOURS for b in SPACE_COLOURS],
               "first": [(a, faces[1]) for a in SPACE_COLOURS],
               "second": [(faces[0], b) for b in SPACE_COLOURS]}
    if level == "normal":
        # normal: reroll both only when the dice give no forward progress at all
        return Reroll("both") if value < 1 else None
    best_name, best_value = None, value + 0.5   # a small margin: keep a good roll
    for name, outcomes in options.items():
        expected = sum(_best_plan(game, list(o), level)[0] for o in outcomes) / len(outcomes)
        if expected > best_value:
            best_name, best_value = name, expected
    return Reroll(best_name) if best_name else None


def _clear_magnet(game: Game, faces) -> ClearMagnet | None:
    if "orange" not in faces:
        return None
    for magnet in game.magnets:
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if game.saucer_at((magnet[0] + dr, magnet[1] + dc)):
                return ClearMagnet(Space(*magnet))
    return None


# --- the Defence ----------------------------------------------------------------

def _threat(game: Game, row: int, level: str) -> float:
    if level == "easy":
        return 1.0 + row
    distance = game.board.last_row - row
    return 100.0 / (distance * distance)


def _shot_plan(game: Game, flight: int | None, shot: str | None, level: str, flight_used: bool):
    """Best (value, column, use_die, boosters) to shoot with these dice, or None."""
    if shot is None:
        return None
    ship = game.ship
    budget = 0 if game.reactor_active else {"easy": 0, "normal": 2, "hard": 3}[level]
    budget = min(budget, game.boosters)
    best: tuple[float, int | str, bool, int] | None = None    # (value, column or "outpost", ...)
    for column in range(game.board.columns):
        target = game.nearest_in_column(column)
        if target is None or target.colour != shot:
            continue
        costs = [(abs(column - ship), False)]
        if flight is not None and not flight_used and flight - 1 != ship:
            if not game.reactor_active or flight in (1, 6):
                costs.append((abs(column - (flight - 1)), True))
        cost, use_die = min(costs)
        urgent = game.board.last_row - target.at[0] <= 2
        if cost > budget and not (urgent and cost <= game.boosters and not game.reactor_active):
            continue
        value = _threat(game, target.at[0], level) - cost * (1.5 if level == "hard" else 3.0)
        if best is None or value > best[0]:
            best = (value, column, use_die, cost)
    if game.outpost is not None:
        target = game.nearest_in_column(game.outpost)
        if target is not None and target.colour == shot:
            value = _threat(game, target.at[0], level)
            if best is None or value >= best[0]:
                best = (value, "outpost", False, 0)
    return best


def _defence(game: Game, level: str, rng: random.Random) -> Action:
    dice = game.defence_dice
    arcade = game.mode == ARCADE
    # the plasma cannon fires whenever the ship's column offers its colour
    target = game.nearest_in_column(game.ship)
    if target and any(k == ("plasma", target.colour) for k in game.kept) and level != "easy":
        return Plasma(target.colour)
    if not dice.rolls:
        return Roll()
    if not dice.shot_used:
        plan = _shot_plan(game, dice.flight, dice.shot, level, dice.flight_used)
        can_reroll = not arcade and not dice.committed and dice.rolls < game.options.max_rolls
        if can_reroll and level != "easy":
            choice = _defence_reroll(game, plan, level)
            if choice:
                return choice
        if plan:
            _, column, use_die, _ = plan
            if column == "outpost":
                return Shoot(outpost=True)
            if use_die and not dice.flight_used and dice.flight is not None:
                return ShipTo(dice.flight)
            if column == game.ship:
                return Shoot()
            return Booster("left") if column < game.ship else Booster("right")
        gps = [k for k in game.kept if k[0] == "gps"]
        if gps and not game.reactor_active and level != "easy":
            for column in sorted(range(6), key=lambda c: -_column_threat(game, c)):
                t = game.nearest_in_column(column)
                if t and t.colour == dice.shot and column != game.ship:
                    return UseGps(column + 1)
    # no shot: bring the ship under the most dangerous column with the flight die
    if not dice.flight_used and dice.flight and dice.flight - 1 != game.ship and level != "easy":
        if not game.reactor_active or dice.flight in (1, 6):
            here, there = _column_threat(game, game.ship), _column_threat(game, dice.flight - 1)
            if there > here:
                return ShipTo(dice.flight)
    return Roll() if arcade else Done()


def _column_threat(game: Game, column: int) -> float:
    target = game.nearest_in_column(column)
    return -1 if target is None else target.at[0]


def _defence_reroll(game: Game, plan, level: str) -> Reroll | None:
    dice = game.defence_dice
    current = plan[0] if plan else 0.0
    if level == "normal":
        return Reroll("both") if plan is None else None
    options: dict[str, list[tuple[int | None, str | None]]] = {
        "shot": [(dice.flight, s) for s in SAUCER_COLOURS],
        "flight": [(f, dice.shot) for f in range(1, 7)],
        "both": [(f, s) for f in range(1, 7) for s in SAUCER_COLOURS],
    }
    best_name, best_value = None, current + 1.0
    for name, outcomes in options.items():
        total = 0.0
        for flight, shot in outcomes:
            p = _shot_plan(game, flight, shot, level, False)
            total += p[0] if p else 0.0
        expected = total / len(outcomes)
        if expected > best_value:
            best_name, best_value = name, expected
    return Reroll(best_name) if best_name else None


# --- chip choices -------------------------------------------------------------------

def _choose(game: Game, side: str, level: str, rng: random.Random) -> Action:
    p = game.pending
    if p is None:
        raise ValueError("no choice is open")
    choices = list(p.choices)
    if level == "easy":
        return game.choice_action(rng.choice(choices))
    if p.chip in ("asteroid", "magnet"):
        # block the space right in front of the most advanced saucer, else the nearest one
        lead = sorted(game.alive(), key=lambda s: -s.at[0])
        for s in lead:
            ahead = (s.at[0] + 1, s.at[1])
            if ahead in choices:
                return game.choice_action(ahead)
        return game.choice_action(max(choices))
    if p.chip == "outpost":
        return game.choice_action(max(choices, key=lambda c: _column_threat(game, c[1])))
    if p.chip in ("comet1", "comet2"):
        return game.choice_action(max(choices, key=lambda c: c[0]))
    if p.chip == "rift":
        return game.choice_action(min(choices, key=lambda c: c[0]))   # the longest jump
    if p.chip == "repair":
        return game.choice_action(max(choices, key=lambda c: abs(c[1] - game.ship)))
    return game.choice_action(choices[0])
