"""Arkade's rules in short, for `rules`: spoken line by line, so that typing or `stop`
cuts them off. In our own words, from the rulebook."""
from __future__ import annotations

GOAL = ("Arkade rules, in short. The Alien flies twelve saucers, yellow, pink and purple, from rows "
        "A and B towards the defence line below row {last}. The Defence moves one spaceship along "
        "that line, columns 1 to 6, and shoots up its column. The Alien wins when a saucer reaches "
        "row {last}; the Defence wins when every saucer is destroyed.")
ALIEN = ("Every space of the board is blue, orange or green, and the Alien's two flight dice show "
         "these same colours. A die lets a saucer fly one space, forward or sideways, onto a free "
         "space of the die's colour: never backwards, diagonally, or over another saucer. "
         "So two saucers fly one space each, or one saucer two spaces.")
DEFENCE = ("The Defence rolls a flight die, 1 to 6, and a shot die of the saucer colours. It may "
           "move the spaceship to the column rolled, move one column sideways for each booster it "
           "spends, and shoot the nearest saucer in its column if that saucer has the shot die's colour.")
MODES = {
    "strategy": ("Strategy Mode: the sides take turns, the Alien first. Each may roll up to {rolls} "
                 "times; the last roll counts. Bonus spaces and chips bring shields, asteroids, "
                 "a plasma cannon and more."),
    "arcade": ("Arcade Mode: both sides play at once. Roll, use what you can, and roll again; "
               "the computer rolls every {pace}. Say pause at any time."),
}
FINDING = ("To find a move yourself: after a roll, read row C names the colour of each space of "
           "row C, and what is at C3 names one space; a saucer flies onto the space in front of it "
           "or beside it that has a die's colour. Say help for what you can say now.")


def rules_lines(mode: str, last_row: str, rolls: int, pace: str) -> list[str]:
    return [GOAL.format(last=last_row), ALIEN, DEFENCE,
            MODES[mode].format(rolls=rolls, pace=pace), FINDING]
