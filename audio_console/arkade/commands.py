"""The Arkade command language (docs/commands.md): one grammar for the keyboard and the
recognizers. An action command becomes the rules core's typed action (`action`);
its canonical form is that action's text ("fly B3 forward", "ship 4", "reroll
shot"). The board questions' canonical forms are "read row C", "nearest", ...

"reroll" is typed only; the spoken form is "roll the shot die again" (plain words
every recognizer knows).
"""
from __future__ import annotations

from typing import Callable

from audio_console.arkade.actions import (
    Action, Booster, ClearMagnet, Choose, Done, Fly, Keep, Plasma, Reroll, Roll, Sacrifice, Shoot, ShipTo,
    Step, UseGps,
)
from audio_console.arkade.board import LETTERS, Cell, Space
from audio_console.commands.grammar import Command, Grammar, Rule, Slot, SlotOption
from audio_console.commands.vocabulary import letter_slot, number_slot, point_slot, what_is_missing
from audio_console.base.wording import number_word


def _words(name: str, options: dict[str, list[str]], typed: dict[str, list[str]] | None = None) -> Slot:
    """A slot of words; `typed` synonyms parse but are not offered to the recognizers."""
    result = [SlotOption(tuple(w.split()), value) for value, words in options.items() for w in words]
    result += [SlotOption(tuple(w.split()), value, spoken=False)
               for value, words in (typed or {}).items() for w in words]
    return Slot(name, result)


def _direction(name: str) -> Slot:
    return _words(name, {"forward": ["forward"], "left": ["left"], "right": ["right"], "back": ["back"]},
                  {"forward": ["forwards", "ahead"], "back": ["backward", "backwards"]})


def slots(rows: int) -> list[Slot]:
    letters = LETTERS[:rows]
    return [
        letter_slot("row", letters), number_slot("column", 1, 6),
        # A space ("bravo three", "B3") is a Space; a flight's later spaces too.
        *(point_slot(name, letter_slot("row", letters), number_slot("column", 1, 6), Space.at)
          for name in ("cell", "cell2", "cell3")),
        number_slot("space", 1, 6),
        _direction("direction"), _direction("direction2"),
        _words("colour", {"yellow": ["yellow"], "pink": ["pink"], "purple": ["purple"]}),
        _words("which", {"both": ["both"], "first": ["first"], "second": ["second"],
                         "flight": ["flight"], "shot": ["shot"]}),
        _words("side", {"left": ["left"], "right": ["right"]}),
        number_slot("seconds", 1, 10),
    ]


# Typed forms may be loose; spoken forms are kept few, because the recognizers get
# every spoken phrase (a flight alone is rows x columns x directions of them).
SAUCERS = ["[the] <colour> [saucer] [at|on] <cell>", "[the] [saucer] [at|on] <cell>"]


def _saucer(before: str, after: str = "") -> list[str]:
    """A saucer named by its space, with or without its colour (typed forms)."""
    return [f"{before} {s} {after}".strip() for s in SAUCERS]


def _typed(rule: Rule) -> Rule:
    return Rule(rule.name, rule.template, rule.patterns, spoken=False)


ACTIONS = [
    # spoken
    Rule("roll", "roll", ["roll"]),
    Rule("reroll", "reroll {which}", ["roll the <which> die again"]),
    Rule("reroll", "reroll both", ["roll again"]),
    Rule("keep", "keep", ["keep"]),
    Rule("done", "done", ["done"]),
    Rule("fly", "fly {cell} {direction} {direction2}",
         ["fly the <colour> saucer at <cell> <direction> <direction2>",
          "fly <cell> <direction> <direction2>"]),
    Rule("fly", "fly {cell} {direction}",
         ["fly the <colour> saucer at <cell> <direction>", "fly <cell> <direction>"]),
    Rule("ship", "ship {space}", ["ship to <space>"]),
    Rule("booster", "booster {side}", ["booster <side>"]),
    Rule("shoot", "shoot outpost", ["shoot from the outpost"]),
    Rule("shoot", "shoot", ["shoot"]),
    Rule("plasma", "plasma {colour}", ["use the <colour> plasma cannon"]),
    Rule("plasma", "plasma", ["use the plasma cannon"]),
    Rule("gps", "gps {space}", ["use the gps to <space>"]),
    Rule("choose", "choose {colour} {cell}", ["choose the <colour> saucer at <cell>"]),
    Rule("choose", "choose {cell}", ["choose <cell>"]),
    Rule("clear", "clear magnet {cell}", ["clear the magnetic field at <cell>"]),
    Rule("sacrifice", "sacrifice {cell}", ["sacrifice the saucer at <cell>"]),
    # typed only: the looser forms a player may type
    Rule("roll", "roll", ["roll [the] dice", "roll [the] die"], spoken=False),
    Rule("reroll", "reroll {which}", ["roll [the] <which> [die|dice] again", "roll again [the] <which> [die|dice]",
                                      "reroll [the] <which> [die|dice]", "re roll [the] <which> [die|dice]"],
         spoken=False),
    Rule("reroll", "reroll both", ["roll [the] dice again", "reroll", "reroll [the] dice"], spoken=False),
    Rule("keep", "keep", ["keep [the] dice", "keep them"], spoken=False),
    Rule("done", "done", ["end [my|the] turn", "pass"], spoken=False),
    Rule("fly", "fly {cell} {direction} {direction2}",
         _saucer("fly", "<direction> [and|then] <direction2>"), spoken=False),
    Rule("fly", "fly {cell} {direction}", _saucer("fly", "<direction>"), spoken=False),
    Rule("fly", "fly {cell} to {cell2} to {cell3}",
         _saucer("fly", "to <cell2> [and|then] to <cell3>"), spoken=False),
    Rule("fly", "fly {cell} to {cell2}", _saucer("fly", "to <cell2>"), spoken=False),
    Rule("ship", "ship {space}", ["[fly|move] [the] [space] ship to <space>", "ship <space>",
                                  "[fly|move] [the] spaceship to <space>"], spoken=False),
    Rule("booster", "booster {side}", ["[use] [a|the] booster <side>", "boost <side>"], spoken=False),
    Rule("shoot", "shoot outpost", ["(shoot|fire) from [the] outpost", "shoot outpost"], spoken=False),
    Rule("shoot", "shoot", ["fire"], spoken=False),
    Rule("plasma", "plasma {colour}", ["(use|fire) [the] <colour> plasma cannon", "plasma <colour>"],
         spoken=False),
    Rule("plasma", "plasma", ["(use|fire) [the] plasma cannon", "plasma"], spoken=False),
    Rule("gps", "gps {space}", ["[use] [the] gps to <space>", "gps <space>"], spoken=False),
    Rule("choose", "choose {colour} {cell}", ["choose [the] <colour> [saucer] [at] <cell>",
                                                     "(place|put) [the] <colour> [saucer] at <cell>"],
         spoken=False),
    Rule("choose", "choose {cell}", ["choose [the] [saucer] [at] <cell>",
                                            "(place|put) [it] at <cell>"], spoken=False),
    Rule("clear", "clear magnet {cell}", ["clear [the] magnetic field [at] <cell>",
                                                 "clear magnet <cell>"], spoken=False),
    Rule("sacrifice", "sacrifice {cell}", _saucer("sacrifice") + _saucer("ram [the] asteroid with"),
         spoken=False),
]

QUESTIONS = [
    Rule("saucers", "saucers", ["where are my saucers"]),
    Rule("nearest", "nearest", ["nearest saucers"]),
    Rule("read", "read row {row}", ["read row <row>"]),
    Rule("read", "read column {column}", ["read column <column>", "column <column>"]),
    Rule("listen", "listen row {row}", ["listen to row <row>"]),
    Rule("listen", "listen column {column}", ["listen to column <column>"]),
    Rule("what", "what {cell}", ["what is at <cell>"]),
    Rule("options", "options", ["what can i do"]),
    Rule("dice", "dice", ["dice"]),
    Rule("where ship", "where ship", ["where is the spaceship"]),
    Rule("chips", "chips", ["bonus chips"]),
    Rule("board", "board", ["read the board"]),
    Rule("pace", "pace {seconds}", ["computer pace <seconds> seconds"]),
    # Arcade Mode: the player starts and pauses the clock.
    Rule("go", "go", ["go", "start"]),
    Rule("pause", "pause", ["pause"]),
    # typed only
    Rule("go", "go", ["go on", "start the game", "resume", "continue"], spoken=False),
    Rule("pause", "pause", ["wait", "hold on"], spoken=False),
    Rule("saucers", "saucers", ["where are [my|the] saucers", "saucers", "my saucers"], spoken=False),
    Rule("nearest", "nearest", ["[the] nearest saucers", "nearest"], spoken=False),
    Rule("read", "read row {row}", ["row <row>"], spoken=False),
    Rule("listen", "listen row {row}", ["listen row <row>"], spoken=False),
    Rule("listen", "listen column {column}", ["listen column <column>"], spoken=False),
    Rule("what", "what {cell}", ["what <cell>"], spoken=False),
    Rule("options", "options", ["options", "moves"], spoken=False),
    Rule("dice", "dice", ["what are the dice", "read the dice"], spoken=False),
    Rule("where ship", "where ship", ["where is [my|the] [space] ship", "where is my spaceship", "spaceship"],
         spoken=False),
    Rule("chips", "chips", ["[my] chips", "what chips"], spoken=False),
    Rule("board", "board", ["board"], spoken=False),
    Rule("pace", "pace {seconds}", ["[computer] pace <seconds> [seconds|second]"], spoken=False),
]


def grammar(rows: int) -> Grammar:
    return Grammar(ACTIONS + QUESTIONS, slots(rows))


# the action commands without slot values, by their canonical text
_PLAIN: dict[str, Action] = {"roll": Roll(), "keep": Keep(), "done": Done(), "reroll both": Reroll("both"),
                             "shoot": Shoot(), "shoot outpost": Shoot(outpost=True), "plasma": Plasma()}


def action_of(command: Command) -> Action:
    """The rules core's action for an action command, from its typed slot values."""
    if command.text in _PLAIN:
        return _PLAIN[command.text]
    name, values = command.name, dict(command.values)
    if name == "reroll":
        return Reroll(command.get("which"))
    if name == "fly":
        route: tuple[Step, ...] = tuple(command.value(slot) for slot in ("direction", "direction2", "cell2", "cell3")
                                        if slot in values)
        return Fly(command.value("cell"), route)
    if name == "ship":
        return ShipTo(int(command.get("space")))
    if name == "gps":
        return UseGps(int(command.get("space")))
    if name == "booster":
        return Booster(command.get("side"))
    if name == "plasma":
        return Plasma(command.get("colour"))
    if name == "choose":
        return Choose(command.value("cell"), values.get("colour"))
    if name == "clear":
        return ClearMagnet(command.value("cell"))
    if name == "sacrifice":
        return Sacrifice(command.value("cell"))
    raise ValueError(f"{command.text!r} is not an action")


_ROLLS = {Reroll("both"): "roll again", Reroll("shot"): "roll the shot die again",
          Reroll("flight"): "roll the flight die again", Reroll("first"): "roll the first die again",
          Reroll("second"): "roll the second die again", Shoot(outpost=True): "shoot from the outpost",
          Plasma(): "use the plasma cannon"}


def spoken(action: Action, colour_at: Callable[[Cell], str | None] | None = None) -> str:
    """An action as a player would say it (ShipTo(4) -> "ship to four").
    `colour_at(space)` names the saucer on a space, for flights."""
    if action in _ROLLS:
        return _ROLLS[action]
    if isinstance(action, ShipTo):
        return f"ship to {number_word(action.column)}"
    if isinstance(action, UseGps):
        return f"use the gps to {number_word(action.column)}"
    if isinstance(action, Plasma):
        return f"use the {action.colour} plasma cannon"
    if isinstance(action, Fly):
        colour = colour_at(action.start) if colour_at else None
        saucer = f"the {colour} saucer" if colour else "the saucer"
        steps = [f"to {step}" if isinstance(step, Space) else step for step in action.route]
        return f"fly {saucer} at {action.start} " + " then ".join(steps)
    if isinstance(action, Choose) and action.colour:
        return f"choose the {action.colour} saucer at {action.space}"
    if isinstance(action, ClearMagnet):
        return f"clear the magnetic field at {action.space}"
    if isinstance(action, Sacrifice):
        return f"sacrifice the saucer at {action.space}"
    return action.text()


# Questions and actions said without the space, line or column they need: what to add
# (not "Not understood").
_WHICH_SPACE = "Which space? Say the space too, like what is at C3."
MISSING = {("what",): _WHICH_SPACE, ("what", "is"): _WHICH_SPACE, ("what", "is", "at"): _WHICH_SPACE,
           ("read",): "Read what? Say read row C or read column 3.",
           ("read", "row"): "Which row? Say the row too, like read row C.",
           ("read", "column"): "Which column? Say the column too, like read column 3.",
           ("listen", "to", "row"): "Which row? Say the row too, like listen to row C.",
           ("listen", "to", "column"): "Which column? Say the column too, like listen to column 3.",
           ("choose",): "Which saucer? Say its space too, like choose C3.",
           ("ship", "to"): "Which column? Say the column too, like ship to four.",
           ("fly",): "Which saucer? Say its space and where to, like fly B3 forward.",
           ("mark",): "Arkade has no marks: both sides see every piece; say what is at C3.",
           ("chance", "of"): "Arkade has no chances to ask: both sides see every piece; say what can I do."}


def missing_part(tokens: list[str]) -> str | None:
    """What a line that names a command but not its space or line lacks, or None."""
    return what_is_missing(tokens, MISSING, whatever_follows=(("mark",),))
