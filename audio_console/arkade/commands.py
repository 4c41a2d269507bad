"""The Arkade command language (VOICE.md): one grammar for the keyboard and the
recognizers. Canonical forms are the rules core's actions ("fly B3 forward",
"ship 4", "reroll shot") and the board questions ("read row C", "nearest").

Every spoken word is in the pocketsphinx dictionary ("reroll" is not, so it is
typed only; the spoken form is "roll the shot die again").
"""
from __future__ import annotations

from audio_console.arkade.board import LETTERS
from audio_console.commands.grammar import Grammar, Rule, Slot, SlotOption
from audio_console.commands.vocabulary import letter_slot, number_slot


def _words(name: str, options: dict[str, list[str]]) -> Slot:
    return Slot(name, [SlotOption(tuple(w.split()), value) for value, words in options.items() for w in words])


def slots(rows: int) -> list[Slot]:
    letters = LETTERS[:rows]
    return [
        letter_slot("row", letters), number_slot("column", 1, 6),
        letter_slot("row2", letters), number_slot("column2", 1, 6),
        letter_slot("row3", letters), number_slot("column3", 1, 6),
        number_slot("space", 1, 6),
        _words("direction", {"forward": ["forward", "forwards", "ahead"], "left": ["left"], "right": ["right"],
                             "back": ["back", "backward", "backwards"]}),
        _words("direction2", {"forward": ["forward", "forwards", "ahead"], "left": ["left"], "right": ["right"],
                              "back": ["back", "backward", "backwards"]}),
        _words("colour", {"yellow": ["yellow"], "pink": ["pink"], "purple": ["purple"]}),
        _words("which", {"both": ["both"], "first": ["first"], "second": ["second"],
                         "flight": ["flight"], "shot": ["shot"]}),
        _words("side", {"left": ["left"], "right": ["right"]}),
        number_slot("seconds", 1, 10),
    ]


SAUCERS = ["[the] <colour> [saucer] [at|on] <row> <column>", "[the] [saucer] [at|on] <row> <column>"]


def _saucer(before: str, after: str = "") -> list[str]:
    """A saucer named by its space, with or without its colour."""
    return [f"{before} {s} {after}".strip() for s in SAUCERS]

ACTIONS = [
    Rule("roll", "roll", ["roll", "roll [the] dice", "roll [the] die"]),
    Rule("reroll", "reroll {which}", ["roll [the] <which> [die|dice] again",
                                      "roll again [the] <which> [die|dice]"]),
    Rule("reroll", "reroll both", ["roll again", "roll [the] dice again"]),
    Rule("reroll", "reroll {which}", ["reroll [the] <which> [die|dice]", "re roll [the] <which> [die|dice]"],
         spoken=False),
    Rule("reroll", "reroll both", ["reroll", "reroll [the] dice"], spoken=False),
    Rule("keep", "keep", ["keep", "keep [the] dice", "keep them"]),
    Rule("done", "done", ["done", "end [my|the] turn", "pass"]),
    Rule("fly", "fly {row}{column} {direction} {direction2}",
         _saucer("fly", "<direction> [and|then] <direction2>")),
    Rule("fly", "fly {row}{column} {direction}", _saucer("fly", "<direction>")),
    Rule("fly", "fly {row}{column} to {row2}{column2} to {row3}{column3}",
         _saucer("fly", "to <row2> <column2> [and|then] to <row3> <column3>")),
    Rule("fly", "fly {row}{column} to {row2}{column2}", _saucer("fly", "to <row2> <column2>")),
    Rule("ship", "ship {space}", ["[fly|move] [the] [space] ship to <space>", "ship <space>",
                                  "[fly|move] [the] spaceship to <space>"]),
    Rule("booster", "booster {side}", ["[use] [a|the] booster <side>", "boost <side>"]),
    Rule("shoot", "shoot outpost", ["(shoot|fire) from [the] outpost"]),
    Rule("shoot", "shoot", ["shoot", "fire"]),
    Rule("plasma", "plasma {colour}", ["(use|fire) [the] <colour> plasma cannon"]),
    Rule("plasma", "plasma", ["(use|fire) [the] plasma cannon", "plasma"]),
    Rule("gps", "gps {space}", ["[use] [the] gps to <space>", "gps <space>"]),
    Rule("choose", "choose {colour} {row}{column}", ["choose [the] <colour> [saucer] [at] <row> <column>",
                                                     "(place|put) [the] <colour> [saucer] at <row> <column>"]),
    Rule("choose", "choose {row}{column}", ["choose [the] [saucer] [at] <row> <column>",
                                            "(place|put) [it] at <row> <column>"]),
    Rule("clear", "clear magnet {row}{column}", ["clear [the] magnetic field [at] <row> <column>",
                                                 "clear magnet <row> <column>"]),
    Rule("sacrifice", "sacrifice {row}{column}", _saucer("sacrifice") + _saucer("ram [the] asteroid with")),
]

QUESTIONS = [
    Rule("saucers", "saucers", ["where are [my|the] saucers", "saucers", "my saucers"]),
    Rule("nearest", "nearest", ["[the] nearest saucers", "nearest"]),
    Rule("read", "read row {row}", ["read row <row>", "row <row>"]),
    Rule("read", "read column {column}", ["read column <column>", "column <column>"]),
    Rule("listen", "listen row {row}", ["listen [to] row <row>"]),
    Rule("listen", "listen column {column}", ["listen [to] column <column>"]),
    Rule("what", "what {row}{column}", ["what is at <row> <column>", "what <row> <column>"]),
    Rule("options", "options", ["what can i do", "options", "moves"]),
    Rule("dice", "dice", ["dice", "what are the dice", "read the dice"]),
    Rule("where ship", "where ship", ["where is [my|the] [space] ship", "where is [my|the] spaceship",
                                      "spaceship"]),
    Rule("chips", "chips", ["[my] [bonus] chips", "what chips"]),
    Rule("board", "board", ["board", "read the board"]),
    Rule("pace", "pace {seconds}", ["[computer] pace <seconds> [seconds|second]"]),
]


def grammar(rows: int) -> Grammar:
    return Grammar(ACTIONS + QUESTIONS, slots(rows))


_ROLLS = {"reroll both": "roll again", "reroll shot": "roll the shot die again",
          "reroll flight": "roll the flight die again", "reroll first": "roll the first die again",
          "reroll second": "roll the second die again", "shoot outpost": "shoot from the outpost",
          "plasma": "use the plasma cannon"}
_NUMBERS = ["one", "two", "three", "four", "five", "six"]


def spoken(action: str, colour_at=None) -> str:
    """A canonical action as a player would say it ("ship 4" -> "ship to four").
    `colour_at(cell_name)` names the saucer on a space, for flights."""
    words = action.split()
    verb = words[0] if words else ""
    if action in _ROLLS:
        return _ROLLS[action]
    if verb == "ship":
        return f"ship to {_NUMBERS[int(words[1]) - 1]}"
    if verb == "gps":
        return f"use the gps to {_NUMBERS[int(words[1]) - 1]}"
    if verb == "plasma":
        return f"use the {words[1]} plasma cannon"
    if verb == "fly":
        colour = colour_at(words[1]) if colour_at else None
        saucer = f"the {colour} saucer" if colour else "the saucer"
        rest = words[2:]
        if rest and rest[0] == "to":
            return f"fly {saucer} at {words[1]} " + " then ".join(f"to {c}" for c in rest if c != "to")
        return f"fly {saucer} at {words[1]} " + " then ".join(rest)
    if verb == "choose" and len(words) == 3:
        return f"choose the {words[1]} saucer at {words[2]}"
    if verb == "clear":
        return f"clear the magnetic field at {words[2]}"
    if verb == "sacrifice":
        return f"sacrifice the saucer at {words[1]}"
    return action
