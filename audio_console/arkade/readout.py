"""Arkade's board read out: what is at a space, a row or a column in words and in
sound, where the saucers and the spaceship are, the dice, the chips.

Arkade hides nothing from either side, so unlike Galaxis and Battleship there is no
memory of one player's knowledge: every answer is read straight off the rules core's
Game. Nothing here changes the game.
"""
from __future__ import annotations

from audio_console.arkade.actions import Action, Fly, UseGps
from audio_console.arkade.board import LETTERS, Cell, cell_name
from audio_console.arkade.commands import spoken
from audio_console.arkade.pieces import DEFENCE
from audio_console.base.wording import counted, number_word, one_of, sentence

# Sonification kinds of the shared table (audio/sonify.py): a saucer is counted in
# pips (yellow 1, pink 2, purple 3), an empty space a faint pip, an obstacle a thud.
SOUND_OF = {"yellow": "answer_1", "pink": "answer_2", "purple": "answer_3"}


def describe_cell(game, cell: Cell) -> str:
    words = [game.board.colour(cell)]
    bonus = game.board.bonus_colour(cell)
    if bonus:
        words.append(f"{bonus} bonus space")
    saucer = game.saucer_at(cell)
    if saucer:
        words.append(f"{saucer.colour} saucer" + (" shielded" if saucer.shield else ""))
    obstacle = game.obstacle_at(cell)
    if obstacle:
        words.append(obstacle)
    return ", ".join(words)


def sound_kind(game, cell: Cell) -> str:
    saucer = game.saucer_at(cell)
    if saucer:
        return SOUND_OF[saucer.colour]
    return "ruled_out" if game.obstacle_at(cell) else "unknown"


def row_cells(game, row: int) -> list[Cell]:
    return [(row, c) for c in range(game.board.columns)]


def column_cells(game, column: int) -> list[Cell]:
    return [(r, column) for r in range(game.rows)]


def read_row(game, row: int) -> str:
    parts = [f"{c + 1} {describe_cell(game, (row, c))}" for c in range(6)]
    return f"Row {LETTERS[row]}: " + "; ".join(parts) + "."


def read_column(game, column: int, viewer: str | None) -> str:
    """A column from row A down; `viewer` is the side asking (None: a spectator)."""
    parts = [f"{LETTERS[r]} {describe_cell(game, (r, column))}" for r in range(game.rows)]
    whose = "Your" if viewer == DEFENCE else "The Defence's"
    ship = f" {whose} spaceship is below it." if game.ship == column else ""
    return f"Column {column + 1}, from row A to the defence line: " + "; ".join(parts) + "." + ship


def what_is_at(game, cell: Cell) -> str:
    return f"{cell_name(cell)}: {describe_cell(game, cell)}."


def _saucer_words(saucer) -> str:
    return f"{saucer.colour} at {cell_name(saucer.cell)}" + (" shielded" if saucer.shield else "")


def saucers(game) -> str:
    alive = sorted(game.alive(), key=lambda s: (-s.cell[0], s.cell[1]))
    if not alive:
        return "No saucers left."
    return (f"{counted(len(alive), 'saucer')}, nearest the defence line first: "
            + "; ".join(map(_saucer_words, alive)) + ".")


def nearest(game) -> str:
    parts = []
    for column in range(6):
        s = game.nearest_in_column(column)
        mark = " (spaceship)" if column == game.ship else ""
        parts.append(f"column {column + 1}{mark}: " + (_saucer_words(s) if s else "none"))
    return "Nearest saucer in each column: " + "; ".join(parts) + "."


def dice(game) -> list[str]:
    a, d = game.alien_dice, game.defence_dice
    return [
        "Alien dice: " + (" and ".join(f + (" used" if u else "") for f, u in zip(a.faces, a.used))
                          if a.rolls else "not rolled") + ".",
        "Defence dice: " + (
            f"flight {d.flight}{' used' if d.flight_used else ''}, shot {d.shot}{' used' if d.shot_used else ''}"
            if d.rolls else "not rolled") + ".",
    ]


def spaceship(game) -> str:
    outpost = f" Outpost in column {game.outpost + 1}." if game.outpost is not None else ""
    return f"Spaceship in column {game.ship + 1}; {counted(game.boosters, 'booster')}.{outpost}"


def chips(game) -> str:
    kept = ", ".join(f"{colour} {kind}" for kind, colour in game.kept) or "none"
    defence = ", ".join(f"{c} {len(v)}" for c, v in game.defence_chips.items())
    return (f"Alien: {counted(len(game.alien_chips), 'face-down chip')}. "
            f"Defence face-down chips: {defence}. "
            f"Defence keeps: {kept}.")


def board(game) -> list[str]:
    """The board's side and bonus spaces, and the chips' pieces on it."""
    bonus = "; ".join(f"{colour} at {cell_name(cell)}" for cell, colour in game.board.bonus)
    lines = [f"{game.board.title.capitalize()}: rows A to {LETTERS[game.rows - 1]}, columns 1 to 6. "
             f"Bonus spaces: {bonus or 'none'}."]
    extra = []
    if game.asteroid:
        extra.append(f"asteroid at {cell_name(game.asteroid)}")
    extra += [f"magnetic field at {cell_name(m)}" for m in game.magnets]
    if game.outpost is not None:
        extra.append(f"outpost at {cell_name((game.board.last_row, game.outpost))}")
    if extra:
        lines.append("On the board: " + "; ".join(extra) + ".")
    return lines


def colour_at(game, cell: Cell) -> str | None:
    """The colour of the saucer at `cell` (None: no saucer there)."""
    saucer = game.saucer_at(cell)
    return saucer.colour if saucer else None


FIRST_FLIGHTS = 3     # flights named at once: a listener keeps three in mind, not twelve
FLIGHTS_A_PAGE = 5    # then five for each `more`


def options(game, legal: list[Action]) -> tuple[list[str], list[list[str]]]:
    """'What can I do': the `legal` actions as said (the GPS's spaces on one line), then
    the flights, those of the saucers nearest the defence line first: the count and the
    first three, and the rest in pages for `more`."""
    def say(action: Action) -> str:
        return spoken(action, lambda cell: colour_at(game, cell))
    # the saucers nearest the defence line first, one-space flights before two
    flights = sorted((a for a in legal if isinstance(a, Fly)),
                     key=lambda a: (-a.start.row, len(a.route), a.start.column))
    others = [say(a) for a in legal if not isinstance(a, (Fly, UseGps))]
    gps = [number_word(a.column) for a in legal if isinstance(a, UseGps)]
    if gps:             # one line for the GPS's spaces, not six
        others.append(f"use the GPS to {one_of(gps)}")
    lines = ["You can: " + "; ".join(others) + "." if others else "No other actions."]
    if not flights:
        return lines, []
    said = [say(a) for a in flights]
    first, rest = said[:FIRST_FLIGHTS], said[FIRST_FLIGHTS:]
    pages = [rest[at:at + FLIGHTS_A_PAGE] for at in range(0, len(rest), FLIGHTS_A_PAGE)]
    lines.append(f"{counted(len(flights), 'flight')}" + (", nearest the defence line first" if rest else "")
                 + ": " + "; ".join(first) + "." + (f" Say more for the other {len(rest)}." if rest else ""))
    return lines, [page_line(page, number, len(pages)) for number, page in enumerate(pages, 1)]


def page_line(flights: list[str], number: int, pages: int) -> list[str]:
    left = pages - number
    return [sentence("; ".join(flights)) + "." + (" Say more for the rest." if left else "")]
