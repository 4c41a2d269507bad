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
from audio_console.galaxis.rules import OWN_SHIP
from audio_console.wording import counted


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


@dataclass
class BoardMemory:
    answers: dict[Point, int | str] = field(default_factory=dict)
    ships: dict[Point, str] = field(default_factory=dict)        # point -> how it was found
    ruled_out: set[Point] = field(default_factory=set)
    closed: set[Point] = field(default_factory=set)              # queried by the other team
    own_stored: list[Point] = field(default_factory=list)
    pending: Point | None = None
    _undo: list[tuple[str, Point]] = field(default_factory=list)

    # --- what the game tells it -------------------------------------------------

    def record_answer(self, point: Point, answer: int | str) -> None:
        self.answers[point] = answer
        self.ruled_out.discard(point)
        self.pending = None
        if answer == DISCOVERED:
            self.ships[point] = "discovered"

    def record_gift(self, point: Point) -> None:
        """Option 3: the other team queried its own position: that ship is ours."""
        self.ships[point] = "given away by the other team"
        self.ruled_out.discard(point)

    def record_closed(self, point: Point) -> None:
        self.closed.add(point)

    # --- info pegs, and undo --------------------------------------------------

    def mark(self, point: Point) -> str:
        p = format_point(point)
        if point in self.ships:
            raise ValueError(f"{p} is a spaceship; it cannot be ruled out")
        if point in self.ruled_out:
            raise ValueError(f"{p} is already ruled out")
        self.ruled_out.add(point)
        self._undo.append(("mark", point))
        return f"{p} ruled out."

    def unmark(self, point: Point) -> str:
        p = format_point(point)
        if point not in self.ruled_out:
            raise ValueError(f"{p} is not ruled out")
        self.ruled_out.discard(point)
        self._undo.append(("unmark", point))
        return f"{p} no longer ruled out."

    def undo(self) -> str:
        """Undo the last mark or unmark; answers are never undone."""
        if self.pending is not None:
            point, self.pending = self.pending, None
            return f"{format_point(point)} cancelled."
        if not self._undo:
            raise ValueError("nothing to undo; answers can never be undone")
        action, point = self._undo.pop()
        if action == "mark":
            self.ruled_out.discard(point)
            return f"Undone: {format_point(point)} no longer ruled out."
        self.ruled_out.add(point)
        return f"Undone: {format_point(point)} ruled out again."

    # --- what it tells the player ---------------------------------------------

    def describe(self, point: Point) -> str:
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
            notes.append("queried by the other team")
        if point in self.ruled_out:
            notes.append("ruled out")
        if point == self.pending:
            notes.append("being queried")
        return f"{p}: {', '.join(notes) if notes else 'unknown'}."

    def short(self, point: Point) -> str:
        """One point in a word or two, for reading a row or a column."""
        if point in self.ships:
            return "ship"
        if point in self.answers:
            a = self.answers[point]
            return OWN_SHIP if a == OWN_SHIP else str(a)
        if point in self.closed:
            return "closed"
        if point in self.ruled_out:
            return "out"
        if point in self.own_stored:
            return "stored"
        return "open"

    def read_line(self, kind: str, index: int) -> str:
        name = f"Row {ROWS[index]}" if kind == "row" else f"Column {index + 1}"
        parts = [f"{format_point(p)} {self.short(p)}" for p in line_points(kind, index)]
        return f"{name}: " + ", ".join(parts) + "."

    def open_points(self) -> list[Point]:
        """Points with nothing known about them yet."""
        return [p for p in ALL_POINTS if p not in self.answers and p not in self.ships
                and p not in self.ruled_out and p not in self.closed]

    def summary(self, ships_total: int = 4) -> list[str]:
        def points(ps) -> str:
            return ", ".join(format_point(p) for p in sorted(ps)) or "none"
        queried = [f"{format_point(p)} {self.short(p)}" for p in sorted(self.answers)]
        lines = [
            f"Found {len(self.ships)} of {ships_total}: {points(self.ships)}.",
            f"Queried {len(self.answers)}: {', '.join(queried) or 'none'}.",
            f"Ruled out {len(self.ruled_out)}: {points(self.ruled_out)}.",
        ]
        if self.closed:
            lines.append(f"Queried by the other team {len(self.closed)}: {points(self.closed)}.")
        if self.own_stored:
            lines.append(f"Your stored positions: {points(self.own_stored)}.")
        lines.append(f"Still open: {len(self.open_points())} of {len(ROWS) * COLUMNS}.")
        return lines
