"""Battleship: Outer Space's rules in short, for `rules`: spoken line by line, so that
typing or `stop` cuts them off. In our own words, from the rulebook."""
from __future__ import annotations

RULES = [
    "Battleship: Outer Space rules, in short. Each side hides a fleet of five spaceships on its "
    "three sector grids, each 10 by 10: rows A to J, columns 1 to 10.",
    "The fleet: the Quadron, 8 holes; the Rocket Raider and the Celestial Crawler, 6 holes each; "
    "the Tricorn Fighter, 3; the Dueler, 2. Each ship has its own shape, may be turned, "
    "and never overlaps another.",
    "On your turn you call a whole line, not a point: a sector and a row or a column, "
    "like sector 2 row D.",
    "The answer is hit or miss. Hit means a ship lies on that line, and every hole of every ship "
    "on it is hit; you are not told how many.",
    "A ship with every hole hit is vaporized, and its owner names it. "
    "The first side to vaporize the other's whole fleet wins.",
    "Say help for what you can say now.",
]
