"""The Alien's own actions: fly a saucer, clear a magnetic field, sacrifice a saucer
to remove the asteroid.

Each check_ function checks an action against the Game (passed in; this module does
not import it), raising IllegalAction and changing nothing, and returns the
function that carries it out.
"""
from __future__ import annotations

from typing import Callable

from audio_console.arkade.actions import ClearMagnet, Fly, Sacrifice, Step
from audio_console.arkade.board import Cell, cell_name
from audio_console.arkade.dice import assign_dice
from audio_console.arkade.events import Apply, AsteroidRemoved, Event, GameOver, MagnetCleared, SaucerFlew
from audio_console.arkade.pieces import DEFENCE, STEPS, IllegalAction, Saucer


def _saucer(game, space: Cell) -> Saucer:
    cell = game.board.on_board(space)
    saucer = game.saucer_at(cell)
    if saucer is None:
        raise IllegalAction(f"There is no saucer at {cell_name(cell)}.")
    return saucer


def check_fly(game, action: Fly) -> Apply:
    saucer = _saucer(game, action.start)
    path = _flight_path(game, saucer.at, action.route)
    dice = game.alien_dice
    if not dice.rolls:
        raise IllegalAction("Roll the flight dice first.")
    if saucer.id in game.flown:
        raise IllegalAction(f"The saucer at {cell_name(saucer.at)} has flown this turn already.")
    if not 1 <= len(path) <= 2:
        raise IllegalAction("A saucer flies one or two spaces.")
    previous = saucer.at
    for i, target in enumerate(path):
        _check_step(game, previous, target)
        previous = target
        if target[0] == game.board.last_row:
            path = path[:i + 1]      # the last row is reached: the game ends there
            break
    free_dice = dice.free()
    chosen = assign_dice([dice.faces[i] for i in free_dice], [game.board.colour(t) for t in path])
    if chosen is None:
        needed = " and ".join(game.board.colour(t) for t in path)
        have = " and ".join(dice.faces[i] for i in free_dice) or "no dice"
        raise IllegalAction(f"That flight needs {needed}; you have {have} left.")

    def fly() -> list[Event]:
        for k in chosen:
            dice.used[free_dice[k]] = True
        dice.committed = True
        game.flown.add(saucer.id)
        start, saucer.cell = saucer.at, path[-1]
        return [SaucerFlew(saucer.colour, start, path[-1], tuple(path)), *game.after_saucer_move(saucer)]
    return fly


def _flight_path(game, start: Cell, route: tuple[Step, ...]) -> list[Cell]:
    """Directions (forward, left) or target spaces (C3, D3) -> cells."""
    path, here = [], start
    for step in route:
        if step == "back":
            raise IllegalAction("Saucers never fly backwards.")
        if isinstance(step, str):
            if step not in STEPS:
                raise IllegalAction("Say where: forward, left, right, or a space like C3.")
            dr, dc = STEPS[step]
            here = (here[0] + dr, here[1] + dc)
            if not game.board.contains(here):
                raise IllegalAction("That flight leaves the board.")
        else:
            here = game.board.on_board(step)
        path.append(here)
    if not path:
        raise IllegalAction("Say where: forward, left, right, or a space like C3.")
    return path


def _check_step(game, start: Cell, target: Cell) -> None:
    dr, dc = target[0] - start[0], target[1] - start[1]
    if dr < 0:
        raise IllegalAction("Saucers never fly backwards.")
    if dr and dc:
        raise IllegalAction("Saucers never fly diagonally: forward or sideways, one space at a time.")
    if abs(dr) + abs(dc) != 1:
        raise IllegalAction("A saucer flies one space at a time to a neighbouring space; "
                            "it never flies over another space.")
    other = game.saucer_at(target)
    if other:
        raise IllegalAction(f"{cell_name(target)} holds the {other.colour} saucer: "
                            "saucers never fly onto or over another saucer.")
    obstacle = game.obstacle_at(target)
    if obstacle:
        raise IllegalAction(f"{cell_name(target)} is blocked by {obstacle}.")


def check_clear(game, action: ClearMagnet) -> Apply:
    cell = game.board.on_board(action.space)
    if cell not in game.magnets:
        raise IllegalAction(f"There is no magnetic field at {cell_name(cell)}.")
    neighbours = [(cell[0] + dr, cell[1] + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    if not any(game.saucer_at(n) for n in neighbours):
        raise IllegalAction("To clear a magnetic field a saucer must stand next to it.")
    dice = game.alien_dice
    orange = [i for i in range(2) if dice.rolls and not dice.used[i] and dice.faces[i] == "orange"]
    if not orange:
        raise IllegalAction("Clearing a magnetic field takes an orange flight die.")

    def clear() -> list[Event]:
        dice.used[orange[0]] = True
        dice.committed = True
        game.magnets.remove(cell)
        return [MagnetCleared(cell)]
    return clear


def check_sacrifice(game, action: Sacrifice) -> Apply:
    saucer = _saucer(game, action.space)
    if game.asteroid is None:
        raise IllegalAction("There is no asteroid to remove.")
    if saucer.cell != (game.asteroid[0] - 1, game.asteroid[1]):
        raise IllegalAction(f"Only the saucer directly in front of the asteroid, at "
                            f"{cell_name((game.asteroid[0] - 1, game.asteroid[1]))}, can remove it.")

    def sacrifice() -> list[Event]:
        start = saucer.at
        saucer.cell, saucer.shield = None, False
        asteroid, game.asteroid = game.asteroid, None
        events: list[Event] = [AsteroidRemoved(asteroid, saucer.colour, start)]
        if not game.alive():
            game.winner = DEFENCE
            events.append(GameOver(game.winner, game.turns))
        return events
    return sacrifice


CHECKS: dict[type, Callable[..., Apply]] = {Fly: check_fly, ClearMagnet: check_clear, Sacrifice: check_sacrifice}
