"""Arkade's rules in short, for `rules`: said a page of two lines at a time (more: the
next page; console/pager.py), each line a message, so that typing or `stop` cuts them
off. In our own words, from the rulebook; the first page is enough to begin."""
from __future__ import annotations

GOAL = ("Arkade rules, in short. The Alien flies twelve saucers, yellow, pink and purple, from rows "
        "A and B towards row {last}, where the Defence's spaceship guards its line and shoots up its column. "
        "A saucer that reaches row {last} wins for the Alien; the Defence wins by destroying every saucer.")
ALIEN = ("Every space of the board is blue, orange or green, and the Alien's two flight dice show "
         "these same colours. Each die flies a saucer one space, forward or sideways, onto a free space "
         "of its colour: never backwards, diagonally or over a saucer. So two saucers fly a space each, "
         "or one saucer two, or fewer.")
HOW_TO = ("To play the Alien: say roll, then fly a saucer, for example fly B1 forward, or "
          "fly B1 left. To find a flight yourself, read row C names the colour of every space in row C, "
          "what is at C3 names one space, and what can I do names the flights your dice allow.")
DEFENCE = ("The Defence rolls a flight die, 1 to 6, and a shot die of the saucer colours. It may "
           "move the spaceship to the column rolled, move one column sideways for each booster it "
           "spends, and shoot the nearest saucer in its column if that saucer has the shot die's colour. "
           "To play it: roll, ship to 4, booster left, shoot.")
MODES = {
    "strategy": ("Strategy Mode: the sides take turns, the Alien first; say done to end your turn. Each "
                 "may roll up to {rolls} times; the last roll counts. Bonus spaces and chips bring shields, "
                 "asteroids, a plasma cannon and more."),
    "arcade": ("Arcade Mode: both sides play at once. Roll, use what you can, and roll again; "
               "the computer rolls every {pace}. Computer pace 5 seconds slows it, at any time; "
               "say pause at any time. While you hear a long answer, the computer waits."),
}
CLOSING = "Say help for what you can say now."
# The start of a game: for a newcomer, and one line on how to play the side taken.
# "how to play", not "rules": said alone, "rules" is often heard as "hint" (docs/commands.md)
NEW_PLAYER = "New to Arkade? Say how to play for the rules, or menu for the walkthrough. Say help for commands."
HOW_TO_PLAY = {
    "alien": "To play: roll; each die shows a space colour; fly a saucer onto a free space of that colour, "
             "forward or sideways, for example fly B1 forward.",
    "defence": "To play: roll; ship to the column your flight die shows, or booster left or right; "
               "shoot when the nearest saucer in your column has the shot die's colour.",
}


def rules_lines(mode: str, last_row: str, rolls: int, pace: str) -> list[str]:
    return [GOAL.format(last=last_row), ALIEN, HOW_TO, DEFENCE,
            MODES[mode].format(rolls=rolls, pace=pace), CLOSING]
