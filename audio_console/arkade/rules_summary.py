"""Arkade's rules in short, for `rules`: said a page at a time (more: the next page;
console/pager.py packs the lines into pages of about 20 s), each line a message, so
that typing or `stop` cuts them off. In our own words, from the rulebook; each line
begins with what it is about, and the first three pages are enough to begin."""
from __future__ import annotations

GOAL = ("Arkade rules, in short. To win: the Alien flies a saucer to row {last}; "
        "the Defence destroys every saucer.")
SIDES = ("The 12 saucers, yellow, pink and purple, start in rows A and B; "
         "the Defence's spaceship patrols beyond row {last}, shooting up its column.")
DICE = "Dice: every space is blue, orange or green, and the Alien's two flight dice show these same colours."
FLIGHT = ("Each die flies a saucer one space, forward or sideways, onto a free space of its colour; "
          "never backwards, diagonally or over a saucer.")
ALIEN = "To play the Alien: roll, then fly B1 forward or fly B1 left; two saucers a space each, or one saucer two."
FINDING = "To find a flight: read row C names each space's colour, what is at C3 one space; or what can I do."
DEFENCE = "The Defence rolls two dice: flight, 1 to 6, and shot, a saucer colour."
SHIP = ("Ship to 4 flies to the column rolled; booster left or right, one column a booster; "
        "shoot hits the column's nearest saucer if it has the shot die's colour.")
MODES = {
    "strategy": ["Strategy Mode: the sides take turns, the Alien first; say done to end your turn.",
                 "Rolls: up to {rolls} a turn, with roll again; the last counts. Bonus spaces and chips bring shields, "
                 "asteroids, a plasma cannon and more."],
    "arcade": ["Arcade Mode: both sides play at once; roll, use what you can, then roll for new dice.",
               "The computer rolls every {pace}; computer pace 5 seconds slows it. "
               "Pause stops the clock; while you hear a long answer, the computer waits."],
}
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
    general = [GOAL, SIDES, DICE, FLIGHT, ALIEN, FINDING, DEFENCE, SHIP]
    return [line.format(last=last_row) for line in general] + \
        [line.format(rolls=rolls, pace=pace) for line in MODES[mode]]
