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
    marked: set[Point] = field(default_factory=set)              # the player's own info pegs
    closed: set[Point] = field(default_factory=set)              # queried by the other team
    own_stored: list[Point] = field(default_factory=list)
    pending: Point | None = None
    _undo: list[tuple[str, Point]] = field(default_factory=list)

    # --- what the game tells it -------------------------------------------------

    def record_answer(self, point: Point, answer: int | str) -> None:
        self.answers[point] = answer
        self.marked.discard(point)
        self.pending = None
        if answer == DISCOVERED:
            self.ships[point] = "discovered"

    def record_gift(self, point: Point) -> None:
        """Option 3: the other team queried its own position: that ship is ours."""
        self.ships[point] = "given away by the other team"
        self.marked.discard(point)

    def record_closed(self, point: Point) -> None:
        self.closed.add(point)

    # --- info pegs, and undo --------------------------------------------------

    def mark(self, point: Point, known: Known = NOTHING_KNOWN) -> str:
        p = format_point(point)
        if point in self.ships:
            raise ValueError(f"{p} is a spaceship; it cannot be marked")
        if point in self.answers:
            raise ValueError(f"{p} was queried; its answer is kept, no mark is needed")
        if point in self.marked:
            raise ValueError(f"{p} is already marked by you")
        self.marked.add(point)
        self._undo.append(("mark", point))
        agree = ("the answers rule it out too" if point in known.ruled_out
                 else "the answers do not rule it out")
        return f"{p} marked by you: an info peg, your note that no ship is there; {agree}."

    def unmark(self, point: Point) -> str:
        p = format_point(point)
        if point not in self.marked:
            raise ValueError(f"{p} is not marked by you")
        self.marked.discard(point)
        self._undo.append(("unmark", point))
        return f"{p} no longer marked by you."

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
            return f"Undone: {format_point(point)} no longer marked by you."
        self.marked.add(point)
        return f"Undone: {format_point(point)} marked by you again."

    # --- what it tells the player ---------------------------------------------
    # One vocabulary in every view: "ruled out" is what the answers prove empty,
    # "marked by you" the player's own peg, "unknown" a point nothing is known about.

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
            notes.append("closed: queried by the other team, so no ship of theirs")
        if point in known.ruled_out:
            notes.append("ruled out by the answers")
        if point in known.ships:
            notes.append("certainly a ship, by the answers")
        if point in self.marked:
            notes.append("marked by you" + ("" if point in known.ruled_out
                                            else "; the answers do not rule it out"))
        if point == self.pending:
            notes.append("being queried")
        return f"{p}: {', '.join(notes) if notes else 'unknown'}."

    def short(self, point: Point, known: Known = NOTHING_KNOWN) -> str:
        """One point in a word or two, for reading a row or a column."""
        if point in self.ships:
            return "ship"
        if point in self.answers:
            a = self.answers[point]
            return OWN_SHIP if a == OWN_SHIP else str(a)
        if point in self.closed:
            return "closed"
        if point in known.ships:
            return "certain ship"
        if point in known.ruled_out:
            return "ruled out"
        if point in self.marked:
            return "marked by you"
        if point in self.own_stored:
            return "stored"
        return "unknown"

    def read_line(self, kind: str, index: int, known: Known = NOTHING_KNOWN) -> str:
        name = f"Row {ROWS[index]}" if kind == "row" else f"Column {index + 1}"
        parts = [f"{format_point(p)} {self.short(p, known)}" for p in line_points(kind, index)]
        return f"{name}: " + ", ".join(parts) + "."

    def unknown_points(self, known: Known = NOTHING_KNOWN) -> list[Point]:
        """Points with nothing known about them yet (the word "unknown" of the views)."""
        return [p for p in ALL_POINTS if self.short(p, known) in ("unknown", "stored")]

    def summary(self, known: Known = NOTHING_KNOWN, ships_total: int = 4) -> list[str]:
        def points(ps) -> str:
            return ", ".join(format_point(p) for p in sorted(ps)) or "none"
        queried = [f"{format_point(p)} {self.short(p)}" for p in sorted(self.answers)]
        ruled_out = [p for p in known.ruled_out if p not in self.closed]
        lines = [
            f"Found {len(self.ships)} of {ships_total}: {points(self.ships)}.",
            f"Queried {len(self.answers)}: {', '.join(queried) or 'none'}.",
            f"Ruled out {len(ruled_out)}: {points(ruled_out)}.",
        ]
        certain = [p for p in known.ships if p not in self.ships]
        if certain:
            lines.append(f"Certainly ships {len(certain)}: {points(certain)}.")
        own_marks = [p for p in self.marked if p not in known.ruled_out]
        if own_marks:
            lines.append(f"Marked by you, not ruled out by the answers {len(own_marks)}: {points(own_marks)}.")
        if self.closed:
            lines.append(f"Closed, queried by the other team {len(self.closed)}: {points(self.closed)}.")
        if self.own_stored:
            lines.append(f"Your stored positions: {points(self.own_stored)}.")
        lines.append(f"Unknown: {len(self.unknown_points(known))} of {len(ROWS) * COLUMNS}.")
        return lines
