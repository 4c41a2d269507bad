"""The words of every board view, defined once (docs/commands.md, "The board's words").

A player who trusts one view must never be told otherwise by another, so three kinds
of knowledge are kept apart in every game, and each has its own words:

- what the console's answers prove: an answer heard, a ship found, RULED_OUT (no
  ship can be there) and CERTAIN_SHIP (a ship must be there);
- the player's own marks: MARKED ("marked by you", an info peg the player placed)
  and AUTO_MARKED (a peg auto mark placed, only ever where the answers rule out);
- what is still possible: UNKNOWN.

Galaxis's board memory, assistant, review and auto mark and Battleship's memory say
these; audio/sonify.py takes the short words as the kinds it plays.
"""
from __future__ import annotations

# Short words: one point or line in a readout ("Row D: D1 ruled out, ...").
RULED_OUT = "ruled out"
CERTAIN_SHIP = "certain ship"
MARKED = "marked by you"
UNKNOWN = "unknown"
CLOSED = "closed"          # Galaxis option 3: queried by the other team
STORED = "stored"          # Galaxis option 3: one of your own positions

# The same words in a sentence ("D6: ruled out by the answers.").
RULED_OUT_LONG = "ruled out by the answers"
CERTAIN_SHIP_LONG = "certainly a ship, by the answers"
AUTO_MARKED = "marked for you by auto mark"
NOT_RULED_OUT = "the answers do not rule it out"
ALSO_RULED_OUT = "the answers rule it out too"
CLOSED_LONG = "closed: queried by the other team, so no ship of theirs"


def marked_note(ruled_out: bool) -> str:
    """The player's own mark, with what the answers say of the same point."""
    return MARKED + ("" if ruled_out else f"; {NOT_RULED_OUT}")


def counted_points(label: str, names: list[str]) -> str:
    """'Ruled out 26: A2, A5, ...' -- the one form of a list of points in every view."""
    return f"{label} {len(names)}: {', '.join(names) or 'none'}."
