"""Galaxis answers in words: the signal a buoy's answer plays, why it answers what it
does (beam by beam), and what a query ruled out. The tutorial and the review of a
finished game both say these."""
from __future__ import annotations

from audio_console.base.board_words import RULED_OUT_LONG
from audio_console.galaxis.board import DIRECTIONS, DISCOVERED, Point, answer, beams, format_point
from audio_console.base.wording import counted, noun, number_word

def answer_signal(heard: int | str) -> str:
    """The signal a buoy answer plays: answer_0..answer_4 or discovered."""
    return "discovered" if heard == DISCOVERED else f"answer_{heard}"


def beam_name(direction: tuple[int, int]) -> str:
    """Row A is nearest the player, column 1 on the left."""
    dr, dc = direction
    if dr == 0:
        return "along the row to the right" if dc > 0 else "along the row to the left"
    towards = "away from you" if dr > 0 else "towards you"
    if dc == 0:
        return f"along the column {towards}"
    return f"diagonally {towards} and to the {'right' if dc > 0 else 'left'}"


def explain_answer(point: Point, ships) -> list[str]:
    """Why `point` answers what it does for these ships, beam by beam, in sentences."""
    ships = set(ships)
    name = format_point(point)
    heard = answer(point, ships)
    if not isinstance(heard, int):     # the one answer that is not a count: DISCOVERED
        return [f"{name} is a ship: the buoy answers discovered, two low-high pairs."]

    lines = []
    seeing = []
    for direction, ray in zip(DIRECTIONS, beams(point)):
        on_it = [p for p in ray if p in ships]
        if not on_it:
            continue
        seeing.append(direction)
        first, *behind = on_it
        sentence = (f"The beam {beam_name(direction)} from {name} meets the ship at "
                    f"{format_point(first)}")
        if behind:
            sentence += (f"; {', '.join(format_point(p) for p in behind)} lies behind it in its "
                         "radio shadow, and the beam still counts once")
        lines.append(sentence + ".")
    if heard == 0:
        return [f"{name} answers 0, one long low tone: none of its eight beams meets a ship, "
                f"so every point on them is empty: {RULED_OUT_LONG}, where info pegs go."]
    head = (f"{name} answers {heard}, {counted(heard, 'beep', words=True)}: "
            f"{number_word(heard)} of its eight beams {noun(heard, 'meets', 'meet')} a ship.")
    tail = f"Its other {8 - len(seeing)} beams meet no ship." if len(seeing) < 8 else ""
    return [head] + lines + ([tail] if tail else [])


def ruled_out_sentence(points: list[Point]) -> str:
    if not points:
        return "It rules out no new point."
    names = ", ".join(format_point(p) for p in sorted(points))
    return f"It rules out {counted(len(points), 'point')}: {names}."
