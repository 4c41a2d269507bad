"""Arkade's bonus chips: what each one does when drawn, and the choices some leave
open (a space for the asteroid, the saucer a comet pushes back, ...).

A chip is drawn face down from the piles shuffled at set-up. The functions here act
on the rules core's Game (passed in; this module does not import it) and return
the events that happened.

  Alien (a saucer ends its flight on a bonus space of its colour): shield, engine,
  rift, hit, repair, reactor.
  Defence (every second saucer of a colour destroyed): asteroid, magnet, outpost,
  mine1, mine2, comet1, comet2, plasma, gps.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from audio_console.arkade.actions import Choose
from audio_console.arkade.board import Cell, Space, cell_name
from audio_console.arkade.events import (
    AlienChipDrawn, Apply, ChipLapsed, Chosen, DefenceChipDrawn, Event, SaucerFlew,
)
from audio_console.arkade.pieces import ALIEN, DEFENCE, IllegalAction, Saucer

PLACED = ("asteroid", "magnet", "outpost", "comet1", "comet2")   # Defence chips that ask for a space
MINES = ("mine1", "mine2")
KEPT = ("plasma", "gps")                                         # kept for a later turn

QUESTIONS = {
    "asteroid": "where the asteroid goes",
    "magnet": "where the magnetic field goes",
    "outpost": "where the outpost goes, in the last row",
    "comet1": "which saucer the comet pushes back",
    "comet2": "which saucer the comet pushes back",
    "rift": "which saucer the rift moves forward",
    "repair": "where the repaired saucer returns, in row A",
}


@dataclass
class Pending:
    """A chip effect waiting for its owner's choice (a space or a saucer)."""
    side: str
    chip: str
    colour: str | None           # Defence chip colour
    choices: tuple[Cell, ...]    # cells the owner may choose (kept up to date after every action)
    row: int | None = None       # Rift: the target row (the triggering saucer's row)


def pending_question(pending: Pending) -> str:
    """What the owner of an open choice is asked (and told when they try something else)."""
    return (f"First choose {QUESTIONS[pending.chip]}: say choose and a space, "
            f"like choose {cell_name(pending.choices[0])}.")


def choice_action(game, cell: Cell) -> Choose:
    """The action that chooses `cell` for the open choice."""
    if game.pending.chip == "repair":
        colours = sorted({s.colour for s in game.saucers if s.cell is None})
        return Choose(Space(*cell), colours[0])
    return Choose(Space(*cell))


# --- drawing ---------------------------------------------------------------------

def alien_chip(game, saucer: Saucer) -> list[Event]:
    chip = game.alien_chips.pop(0)     # shuffled at set-up: a random face-down chip
    cell = saucer.at
    follow: list[Event] = []
    if chip == "shield":
        result = "fizzled" if saucer.shield else "shield"
        saucer.shield = True
    elif chip == "engine":
        ahead = (cell[0] + 1, cell[1])
        if game.free(ahead):
            saucer.cell = ahead
            result = "moved"
            follow = [SaucerFlew(saucer.colour, cell, ahead, (ahead,), by="engine"),
                      *game.after_saucer_move(saucer)]
        else:
            result = "fizzled"
    elif chip == "rift":
        choices = rift_choices(game, cell[0])
        if not choices:
            result = "fizzled"
        elif len(choices) == 1:
            result = "moved"
            follow = rift(game, game.saucer_at(choices[0]), cell[0])
        else:
            result = "choose"
            game.pending = Pending(ALIEN, "rift", None, tuple(choices), cell[0])
    elif chip == "hit":
        if game.boosters:
            game.boosters -= 1
            drawn = AlienChipDrawn(chip, saucer.colour, cell, "booster_lost", boosters=game.boosters)
            return [drawn]
        result = "fizzled"
    elif chip == "repair":
        choices = repair_choices(game)
        if choices:
            result = "choose"
            game.pending = Pending(ALIEN, "repair", None, tuple(choices))
        else:
            result = "fizzled"
    else:   # reactor
        game.reactor_next = True
        result = "reactor"
    return [AlienChipDrawn(chip, saucer.colour, cell, result), *follow]


def defence_chip(game, colour: str) -> list[Event]:
    chip = game.defence_chips[colour].pop(0)   # shuffled at set-up: a random face-down chip
    if chip in MINES:
        gain = min(int(chip[-1]), game.booster_supply)
        game.booster_supply -= gain
        game.boosters += gain
        return [DefenceChipDrawn(chip, colour, "boosters", gained=gain, boosters=game.boosters)]
    if chip in KEPT:
        game.kept.append((chip, colour))
        return [DefenceChipDrawn(chip, colour, "kept")]
    options = choices(game, chip)
    if not options:
        return [DefenceChipDrawn(chip, colour, "fizzled")]
    game.pending = Pending(DEFENCE, chip, colour, tuple(options))
    return [DefenceChipDrawn(chip, colour, "choose")]


# --- choices -------------------------------------------------------------------------

def choices(game, chip: str, row: int | None = None) -> list[Cell]:
    """What a chip's owner may choose now (Arcade Mode: the board moves meanwhile)."""
    board = game.board
    if chip in ("asteroid", "magnet"):
        return [c for c in board.cells() if game.free(c) and not board.bonus_colour(c)]
    if chip == "outpost":
        return [(board.last_row, c) for c in range(board.columns) if game.free((board.last_row, c))]
    if chip in ("comet1", "comet2"):
        return sorted(s.at for s in game.alive() if game.free((s.at[0] - 1, s.at[1])))
    if chip == "rift":
        if row is None:
            raise ValueError("a rift's choices need its target row")
        return rift_choices(game, row)
    return repair_choices(game)


def rift_choices(game, target_row: int) -> list[Cell]:
    """Saucers behind `target_row` with a free way up to it in their column."""
    found = []
    for s in game.alive():
        if s.at[0] >= target_row:
            continue
        column = s.at[1]
        if all(game.free((row, column)) for row in range(s.at[0] + 1, target_row + 1)):
            found.append(s.at)
    return sorted(found)


def repair_choices(game) -> list[Cell]:
    if not any(s.cell is None for s in game.saucers):
        return []
    return [(0, c) for c in range(game.board.columns) if game.free((0, c))]


def rift(game, saucer: Saucer, target_row: int) -> list[Event]:
    start = saucer.at
    saucer.cell = end = (target_row, start[1])
    return [SaucerFlew(saucer.colour, start, end, (end,), by="rift"),
            *game.after_saucer_move(saucer)]


def refresh_pending(game) -> list[Event]:
    """After every action: the open choice follows the board, or lapses if none is left."""
    p = game.pending
    if p is None or game.winner:
        return []
    options = tuple(choices(game, p.chip, p.row))
    if options:
        game.pending = replace(p, choices=options)
        return []
    game.pending = None
    return [ChipLapsed(p.side, p.chip, p.colour)]


def check_choose(game, side: str, action: Choose) -> Apply:
    """Check "choose C4" / "choose pink A3"; return what carrying it out does."""
    p = game.pending
    if p is None or p.side != side:
        raise IllegalAction("There is nothing to choose now.")
    colour = action.colour
    cell = game.board.on_board(action.space)
    if cell not in p.choices:
        raise IllegalAction(f"{cell_name(cell)} cannot be chosen. " + pending_question(p))
    destroyed = []
    if p.chip == "repair":
        destroyed = [s for s in game.saucers if s.cell is None and (colour is None or s.colour == colour)]
        if not destroyed:
            raise IllegalAction(f"No {colour} saucer has been destroyed.")
        if colour is None and len({s.colour for s in destroyed}) > 1:
            raise IllegalAction("Say which colour returns: choose "
                                + " or ".join(sorted({s.colour for s in destroyed})) + f" {cell_name(cell)}.")

    def choose() -> list[Event]:
        game.pending = None
        if p.chip == "asteroid":
            game.asteroid = cell
        elif p.chip == "magnet":
            game.magnets.append(cell)
        elif p.chip == "outpost":
            game.outpost = cell[1]
        elif p.chip in ("comet1", "comet2"):
            saucer = game.saucer_at(cell)
            target = cell
            for _ in range(int(p.chip[-1])):
                back = (target[0] - 1, target[1])
                if not game.free(back):
                    break
                target = back
            saucer.cell = target
            return [Chosen(side, p.chip, cell, saucer.colour, target)]
        elif p.chip == "rift":
            return [Chosen(side, p.chip, cell), *rift(game, game.saucer_at(cell), p.row)]
        elif p.chip == "repair":
            saucer = destroyed[0]
            saucer.cell, saucer.shield = cell, False
            return [Chosen(side, p.chip, cell, saucer.colour)]
        return [Chosen(side, p.chip, cell)]
    return choose
