"""Set-ups for Arkade rules tests: a game with saucers, dice and chips placed by hand."""
import random

from audio_console.arkade.board import LETTERS, Space
from audio_console.arkade.rules import ALIEN, DEFENCE, Game, Options, Saucer


def cell(name: str):
    return (LETTERS.index(name[0]), int(name[1:]) - 1)


def space(name: str) -> Space:
    """A space as an action names it: space("B3")."""
    return Space.at(name[0], int(name[1:]))


def game_with(saucers: dict[str, str], turn: str = ALIEN, alien_dice=None, defence_dice=None,
              alien_chips=(), defence_chips=None, ship: int = 1, boosters: int = 6, **options) -> Game:
    """A Strategy game with exactly these saucers ({"B3": "yellow"}), whose turn it is,
    rolled dice (("blue", "green") or (4, "pink")), and the chips still face down."""
    game = Game(Options(**options), random.Random(0))
    game.saucers = [Saucer(i, colour, cell(name)) for i, (name, colour) in enumerate(saucers.items())]
    # a destroyed saucer of each colour in reserve, so that "all destroyed" needs the ones above
    game.turn = turn
    game.ship = ship - 1
    game.boosters = boosters
    game.alien_chips = list(alien_chips)
    game.defence_chips = {"yellow": [], "pink": [], "purple": []}
    if defence_chips:
        game.defence_chips.update({k: list(v) for k, v in defence_chips.items()})
    if alien_dice:
        game.alien_dice.faces = list(alien_dice)
        game.alien_dice.rolls = 1
    if defence_dice:
        game.defence_dice.flight, game.defence_dice.shot = defence_dice
        game.defence_dice.rolls = 1
    return game


def where(game: Game) -> dict[str, str]:
    """{"B3": "yellow", ...} of the saucers on the board."""
    from audio_console.arkade.board import cell_name
    return {cell_name(s.cell): s.colour for s in game.alive()}


def snapshot(game: Game):
    """Everything that makes up the game's state, for "nothing changed" checks."""
    return game.snapshot()


def logged(events) -> list[dict]:
    """The --log form of the events an action returned (the public contract)."""
    return [e.log() for e in events]
