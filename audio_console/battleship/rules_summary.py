"""Battleship: Outer Space's rules in short, for `rules`: said a page at a time
(console/pager.py packs the lines into pages of about 20 s), line by line, so that
typing or `stop` cuts them off. In our own words, from the rulebook; each line begins
with what it is about."""
from __future__ import annotations

RULES = [
    "Battleship rules, in short. Each side hides five spaceships on three sector grids "
    "of rows A to J and columns 1 to 10.",
    "The fleet: Quadron, 8 holes; Rocket Raider and Celestial Crawler, 6 each; Tricorn Fighter, 3; Dueler, 2.",
    "Each ship has its own shape, may be turned, and never overlaps another.",
    "Your turn: call a whole line, not a point: a sector and a row or a column, like sector 2 row D.",
    "Answer: hit or miss. Hit: every hole of every ship on that line is hit; you are not told how many.",
    "A ship with every hole hit is vaporized, and its owner names it. "
    "To win: vaporize the other's whole fleet first.",
]
