"""The Defence's own actions: fly the spaceship by its die, a booster or the GPS,
shoot from the ship or the outpost, fire the plasma cannon.

Each check_ function checks an action against the Game (passed in; this module does
not import it), raising IllegalAction and changing nothing, and returns the
function that carries it out.
"""
from __future__ import annotations

from typing import Callable

from audio_console.arkade.actions import Booster, Plasma, Shoot, ShipTo, UseGps
from audio_console.arkade import chips
from audio_console.arkade.board import cell_name
from audio_console.arkade.events import Apply, BoosterFired, Event, GameOver, ShotFired, SpaceshipFlew
from audio_console.arkade.pieces import DEFENCE, IllegalAction, Saucer


def check_ship(game, action: ShipTo) -> Apply:
    n = _number(action.column, "Say the space: ship to four.")
    dice = game.defence_dice
    if not dice.rolls:
        raise IllegalAction("Roll first.")
    if dice.flight_used:
        raise IllegalAction("The spaceship has used its flight die this turn.")
    if game.reactor_active and n not in (1, 6):
        raise IllegalAction("Reactor damage: the spaceship may only fly to 1 or 6 this turn.")
    if dice.flight != n:
        raise IllegalAction(f"The flight die shows {dice.flight}, not {n}.")
    if game.ship == n - 1:
        raise IllegalAction(f"The spaceship is already on space {n}.")

    def fly() -> list[Event]:
        start, game.ship = game.ship, n - 1
        dice.flight_used = dice.committed = True
        return [SpaceshipFlew(start + 1, n, "die")]
    return fly


def check_booster(game, action: Booster) -> Apply:
    direction = action.direction
    if direction not in ("left", "right"):
        raise IllegalAction("Say booster left or booster right.")
    if not game.boosters:
        raise IllegalAction("You have no boosters left.")
    if game.reactor_active:
        raise IllegalAction("Reactor damage: no boosters this turn.")
    target = game.ship + (-1 if direction == "left" else 1)
    if not 0 <= target < game.board.columns:
        raise IllegalAction(f"The spaceship is at the {direction} end of the defence line.")

    def boost() -> list[Event]:
        start, game.ship = game.ship, target
        game.boosters -= 1
        return [BoosterFired(direction, start + 1, target + 1, game.boosters)]
    return boost


def check_gps(game, action: UseGps) -> Apply:
    n = _number(action.column, "Say the space: use the GPS to four.")
    gps = [k for k in game.kept if k[0] == "gps"]
    if not gps:
        raise IllegalAction("You have no GPS.")
    if game.reactor_active:
        raise IllegalAction("Reactor damage: no GPS flight this turn.")
    if game.ship == n - 1:
        raise IllegalAction(f"The spaceship is already on space {n}.")

    def fly() -> list[Event]:
        game.kept.remove(gps[0])
        start, game.ship = game.ship, n - 1
        return [SpaceshipFlew(start + 1, n, "gps")]
    return fly


def check_shoot(game, action: Shoot) -> Apply:
    dice = game.defence_dice
    if action.outpost:
        if game.outpost is None:
            raise IllegalAction("You have no outpost.")
        column, source = game.outpost, "outpost"
    else:
        column, source = game.ship, "ship"
    if not dice.rolls:
        raise IllegalAction("Roll first.")
    if dice.shot_used:
        raise IllegalAction("The shot die is used this turn.")
    target = game.nearest_in_column(column)
    if target is None:
        raise IllegalAction(f"No saucer in column {column + 1}.")
    if target.colour != dice.shot:
        raise IllegalAction(f"The nearest saucer in column {column + 1} is {target.colour}, at "
                            f"{cell_name(target.cell)}; the shot die shows {dice.shot}.")

    def shoot() -> list[Event]:
        dice.shot_used = dice.committed = True
        return _hit(game, target, source, "shot")
    return shoot


def check_plasma(game, action: Plasma) -> Apply:
    colour = action.colour
    cannons = [k for k in game.kept if k[0] == "plasma" and (not colour or k[1] == colour)]
    if not cannons:
        raise IllegalAction("You have no plasma cannon" + (f" of {colour}." if colour else "."))
    target = game.nearest_in_column(game.ship)
    if target is None:
        raise IllegalAction(f"No saucer in column {game.ship + 1}.")
    matching = [k for k in cannons if k[1] == target.colour]
    if not matching:
        raise IllegalAction(f"The nearest saucer in column {game.ship + 1} is {target.colour}; "
                            f"the plasma cannon is {cannons[0][1]}.")

    def fire() -> list[Event]:
        game.kept.remove(matching[0])
        return _hit(game, target, "ship", "plasma")
    return fire


def _hit(game, saucer: Saucer, source: str, weapon: str) -> list[Event]:
    cell = saucer.at
    if saucer.shield and weapon != "plasma":
        saucer.shield = False
        return [ShotFired(source, weapon, cell, saucer.colour, "shield")]
    saucer.cell, saucer.shield = None, False
    game.destroyed[saucer.colour] += 1
    events: list[Event] = [ShotFired(source, weapon, cell, saucer.colour, "destroyed")]
    if not game.alive():
        game.winner = DEFENCE
        return events + [GameOver(game.winner, game.turns)]
    if game.destroyed[saucer.colour] % 2 == 0 and game.defence_chips[saucer.colour]:
        events += chips.defence_chip(game, saucer.colour)
    return events


def _number(n: int, usage: str) -> int:
    if not 1 <= n <= 6:
        raise IllegalAction(usage + " Spaces run from 1 to 6.")
    return n


CHECKS: dict[type, Callable[..., Apply]] = {ShipTo: check_ship, Booster: check_booster, UseGps: check_gps,
                                             Shoot: check_shoot, Plasma: check_plasma}
