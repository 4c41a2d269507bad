"""What one team knows: its plastic scanner, kept for a player who cannot see it.

Answers (locators), discovered ships (ball pegs), ruled-out points (info pegs),
points closed to the team (option 3: queried by the other team), the team's own
stored positions (option 3), and the point being queried (the bearing peg).
Everything here can be asked for again, in words.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from audio_console.galaxis.board import (
    ALL_POINTS, COLUMNS, DISCOVERED, ROWS, Point, format_point, line_points,
)
from audio_console.base.board_words import (
    ALSO_RULED_OUT, AUTO_MARKED, CERTAIN_SHIP, CERTAIN_SHIP_LONG, CLOSED, CLOSED_LONG, MARKED,
    NOT_RULED_OUT, RULED_OUT, RULED_OUT_LONG, STORED, UNKNOWN, counted_points, marked_note,
)
from audio_console.galaxis.rules import OWN_SHIP
from audio_console.base.wording import counted


def answer_words(answer: int | str) -> str:
    if answer == DISCOVERED:
        return "spaceship discovered"
    if answer == OWN_SHIP:
        return "your own ship, given away"
    if not isinstance(answer, int):    # no other word is an answer
        raise ValueError(f"not a Galaxis answer: {answer!r}")
    if answer == 0:
        return "0, no ship in sight"
    return f"{answer}, {counted(answer, 'ship', words=True)} sighted"


@dataclass(frozen=True)
class Known:
    """What the answers prove, beside the scanner's pegs (the assistant's deduction):
    points no ship can be on (`ruled_out`, not queried, not closed) and points
    certainly holding a ship not yet found (`ships`). Empty without the assistant."""
    ruled_out: frozenset[Point] = frozenset()
    ships: frozenset[Point] = frozenset()


NOTHING_KNOWN = Known()


@dataclass
class BoardMemory:
    answers: dict[Point, int | str] = field(default_factory=dict)
    ships: dict[Point, str] = field(default_factory=dict)        # point -> how it was found
    marked: set[Point] = field(default_factory=set)              # info pegs: the player's and auto mark's
    auto_marked: set[Point] = field(default_factory=set)         # those auto mark placed
    closed: set[Point] = field(default_factory=set)              # queried by the other team
    own_stored: list[Point] = field(default_factory=list)
    pending: Point | None = None
    _undo: list[tuple[str, Point]] = field(default_factory=list)

    # --- what the game tells it -------------------------------------------------

    def record_answer(self, point: Point, answer: int | str) -> None:
        self.answers[point] = answer
        self._unpeg(point)
        self.pending = None
        if answer == DISCOVERED:
            self.ships[point] = "discovered"

    def record_gift(self, point: Point) -> None:
        """Option 3: the other team queried its own position: that ship is ours."""
        self.ships[point] = "given away by the other team"
        self._unpeg(point)

    def record_closed(self, point: Point) -> None:
        self.closed.add(point)

    def _unpeg(self, point: Point) -> None:
        self.marked.discard(point)
        self.auto_marked.discard(point)

    def auto_mark(self, points: list[Point]) -> None:
        """Info pegs auto mark places, on points the answers rule out."""
        self.marked.update(points)
        self.auto_marked.update(points)

    # --- info pegs, and undo --------------------------------------------------

    def mark(self, point: Point, known: Known = NOTHING_KNOWN) -> str:
        p = format_point(point)
        if point in self.ships:
            raise ValueError(f"{p} is a spaceship; it cannot be marked")
        if point in self.answers:
            raise ValueError(f"{p} was queried; its answer is kept, no mark is needed")
        if point in self.marked:
            raise ValueError(f"{p} is already {AUTO_MARKED if point in self.auto_marked else MARKED}")
        self.marked.add(point)
        self._undo.append(("mark", point))
        agree = ALSO_RULED_OUT if point in known.ruled_out else NOT_RULED_OUT
        return f"{p} {MARKED}: an info peg, your note that no ship is there; {agree}."

    def unmark(self, point: Point) -> str:
        p = format_point(point)
        if point not in self.marked:
            raise ValueError(f"{p} is not {MARKED}")
        auto = point in self.auto_marked
        self._unpeg(point)
        self._undo.append(("unmark auto" if auto else "unmark", point))
        return f"{p} no longer {AUTO_MARKED if auto else MARKED}."

    def undo(self) -> str:
        """Undo the last mark or unmark; answers are never undone."""
        if self.pending is not None:
            point, self.pending = self.pending, None
            return f"{format_point(point)} cancelled."
        if not self._undo:
            raise ValueError("nothing to undo; answers can never be undone")
        action, point = self._undo.pop()
        if action == "mark":
            self.marked.discard(point)
            return f"Undone: {format_point(point)} no longer {MARKED}."
        if action == "unmark auto":
            self.auto_mark([point])
            return f"Undone: {format_point(point)} {AUTO_MARKED} again."
        self.marked.add(point)
        return f"Undone: {format_point(point)} {MARKED} again."

    # --- what it tells the player ---------------------------------------------
    # One vocabulary in every view (board_words.py): what the answers prove, the
    # player's own marks, and what is still unknown.

    def describe(self, point: Point, known: Known = NOTHING_KNOWN) -> str:
        """One point in words, as a player would find it on the scanner."""
        p = format_point(point)
        notes = []
        if point in self.ships and point not in self.answers:
            notes.append(f"spaceship, {self.ships[point]}")
        if point in self.answers:
            notes.append(f"answered {answer_words(self.answers[point])}")
        if point in self.own_stored:
            notes.append("one of your stored positions")
        if point in self.closed:
            notes.append(CLOSED_LONG)
        if point in known.ruled_out:
            notes.append(RULED_OUT_LONG)
        if point in known.ships:
            notes.append(CERTAIN_SHIP_LONG)
        if point in self.auto_marked:
            notes.append(AUTO_MARKED)
        elif point in self.marked:
            notes.append(marked_note(point in known.ruled_out))
        if point == self.pending:
            notes.append("being queried")
        return f"{p}: {', '.join(notes) if notes else UNKNOWN}."

    def short(self, point: Point, known: Known = NOTHING_KNOWN) -> str:
        """One point in a word or two, for reading a row or a column."""
        if point in self.ships:
            return "ship"
        if point in self.answers:
            a = self.answers[point]
            return OWN_SHIP if a == OWN_SHIP else str(a)
        if point in self.closed:
            return CLOSED
        if point in known.ships:
            return CERTAIN_SHIP
        if point in known.ruled_out:
            return RULED_OUT
        if point in self.marked:
            return MARKED
        if point in self.own_stored:
            return STORED
        return UNKNOWN

    def read_line(self, kind: str, index: int, known: Known = NOTHING_KNOWN) -> str:
        name = f"Row {ROWS[index]}" if kind == "row" else f"Column {index + 1}"
        parts = [f"{format_point(p)} {self.short(p, known)}" for p in line_points(kind, index)]
        return f"{name}: " + ", ".join(parts) + "."

    def unknown_points(self, known: Known = NOTHING_KNOWN) -> list[Point]:
        """Points with nothing known about them yet (the word "unknown" of the views)."""
        return [p for p in ALL_POINTS if self.short(p, known) in (UNKNOWN, STORED)]

    def summary(self, known: Known = NOTHING_KNOWN, ships_total: int = 4) -> list[str]:
        queried = [f"{format_point(p)} {self.short(p)}" for p in sorted(self.answers)]
        lines = [
            f"Found {len(self.ships)} of {ships_total}: {', '.join(_names(self.ships)) or 'none'}.",
            counted_points("Queried", queried),
            ruled_out_line(p for p in known.ruled_out if p not in self.closed),
        ]
        certain = [p for p in known.ships if p not in self.ships]
        if certain:
            lines.append(certain_ships_line(certain))
        own_marks = [p for p in self.marked if p not in known.ruled_out]
        if own_marks:
            lines.append(counted_points(f"{MARKED.capitalize()}, not {RULED_OUT_LONG}", _names(own_marks)))
        if self.closed:
            lines.append(closed_line(self.closed))
        if self.own_stored:
            lines.append(f"Your stored positions: {', '.join(_names(self.own_stored))}.")
        lines.append(f"{UNKNOWN.capitalize()}: {len(self.unknown_points(known))} of {len(ROWS) * COLUMNS}.")
        return lines


# The lists every view says alike (summary, which points are ruled out).

def _names(points) -> list[str]:
    return [format_point(p) for p in sorted(points)]


def ruled_out_line(points) -> str:
    return counted_points(RULED_OUT.capitalize(), _names(points))


def certain_ships_line(points) -> str:
    return counted_points("Certainly ships", _names(points))


def closed_line(points) -> str:
    return counted_points("Closed, queried by the other team", _names(points))
