"""Galaxis's rules in short, for `rules`: said a page at a time (console/pager.py packs
the lines into pages of about 20 s), each line a message, so that typing or `stop`
cuts them off like any speech. In our own words, from the rulebook; each line begins
with what it is about."""
from __future__ import annotations

GENERAL = [
    "Galaxis rules, in short. Four spaceships hide among 63 points, rows A to G and columns 1 to 9: "
    "find them by querying the space buoy at a point.",
    "A buoy on a ship answers discovered: query again at once.",
    "Any other buoy counts how many of its eight beams meet a ship, along its row, column "
    "and both diagonals, each way: 0 to 4.",
    "A ship hides what lies behind it on its beam; a 0 empties every point on its eight beams.",
]
OPTIONS = {
    1: ["Option 1: two teams take turns hunting the same four ships, each team with its own board; "
        "the first team to find all four wins. The other team hears the answer, never the point."],
    2: ["Option 2: you alone. Find all four in as few queries as you can; your best game is kept."],
    3: ["Option 3: each team first stores four secret positions, then the teams take turns hunting "
        "the other team's; every query is announced and closes that point to the other team.",
        "Caution spaceship: querying your own stored position gives that ship away, unless you say "
        "caution spaceship first, betting the other team hid a ship there too."],
}
TIME_LIMIT = "Time limit: {seconds:g} seconds a turn; a warning sounds before the end, then the turn passes."


def rules_lines(option: int | None = None, time_limit: float | None = None) -> list[str]:
    """The general rules, then those of `option` (None: all three, for the practice drills)."""
    chosen = OPTIONS[option] if option in OPTIONS else [line for lines in OPTIONS.values() for line in lines]
    timed = [TIME_LIMIT.format(seconds=time_limit)] if time_limit else []
    return GENERAL + chosen + timed
