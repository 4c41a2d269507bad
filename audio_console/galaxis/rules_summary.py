"""Galaxis's rules in short, for `rules`: spoken line by line, so that typing or
`stop` cuts them off like any speech. In our own words, from the rulebook."""
from __future__ import annotations

GENERAL = [
    "Galaxis rules, in short. Four spaceships hide among the 63 points of the board, "
    "rows A to G and columns 1 to 9. You find them by querying the space buoy at a point.",
    "A buoy on a ship answers discovered. Any other buoy counts how many of its eight beams "
    "meet a ship: along its row and its column and both diagonals, each way; so 0 to 4. "
    "A ship hides whatever lies behind it on the same beam.",
    "A 0 empties every point on its eight beams. A discovered ship gives you another query at once.",
]
OPTIONS = {
    1: "Option 1: two teams take turns hunting the same four ships, each team with its own board; "
       "the first team to find all four wins. The other team hears the answer, never the point.",
    2: "Option 2: you alone. Find all four in as few queries as you can; your best game is kept.",
    3: "Option 3: each team first stores four secret positions, then the teams take turns hunting "
       "the other team's. Every query is announced to both teams and closes that point to the other. "
       "Querying your own stored position gives that ship away, unless you say caution spaceship "
       "first, betting that the other team hid a ship there too.",
}
TIME_LIMIT = "With a time limit, a turn lasts {seconds:g} seconds; a warning sounds before the end, then the turn passes."
CLOSING = "Say help for what you can say now."


def rules_lines(option: int | None = None, time_limit: float | None = None) -> list[str]:
    """The general rules, then those of `option` (None: all three, for the practice drills)."""
    chosen = [OPTIONS[option]] if option in OPTIONS else list(OPTIONS.values())
    timed = [TIME_LIMIT.format(seconds=time_limit)] if time_limit else []
    return GENERAL + chosen + timed + [CLOSING]
