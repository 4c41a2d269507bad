"""The Battleship: Outer Space command grammar, per phase (docs/commands.md).

Shooting:  "sector two row delta" / "shoot 2 row D"        -> shoot 2 row D
           "sector one column three"                      -> shoot 1 column 3
           "sector two" (choose the current sector)       -> sector 2
           "row delta" / "column three" (current sector)  -> shoot row D / shoot column 3
Placing:   "quadron sector one B3 across" (try it there)  -> position quadron 1 B3 across
           "turn it" / "move to C4" / "place" / "random" / "remove dueler" / "done"
           "place quadron sector one B3 across" places at once (typed).
Review:    "read sector 2", "my fleet", "my sector 1", "what about sector 2 row D".
Passing:   "ready" (the next player has the console).

Ship names are listened for as Whisper writes them ("quadron", "tricorn fighter",
"dueler"); the split forms that sound alike ("quad ron", "tri corn fighter", "duel
er") and short ones ("quad", "duel") are typed only. In the
long placement phrase the corner's row is said in the phonetic alphabet ("bravo
three"), which keeps each phase's spoken phrases to a few thousand.
"""
from __future__ import annotations

from audio_console.battleship.footprints import HEADINGS, SHIP_NAMES
from audio_console.battleship.board import Square
from audio_console.commands.grammar import Grammar, Rule, Slot, SlotOption
from audio_console.commands.vocabulary import PHONETIC, letter_slot, number_slot, point_slot, what_is_missing
from audio_console.base.wording import word_number

ROW_LETTERS = "ABCDEFGHIJ"

# ship -> (typed-only forms, spoken forms); the canonical value is the lower-case name.
# One spoken form per ship keeps the recognizers' phrase lists small.
SHIP_WORDS: dict[str, tuple[list[str], list[str]]] = {
    "Quadron": (["quad ron", "quad"], ["quadron"]),
    "Rocket Raider": (["rocket", "raider"], ["rocket raider"]),
    "Celestial Crawler": (["crawler", "celestial"], ["celestial crawler"]),
    "Tricorn Fighter": (["tricorn", "tri corn fighter", "tri corn", "fighter"], ["tricorn fighter"]),
    "Dueler": (["duel er", "duel"], ["dueler"]),
}
PLACING, SHOOTING, PASSING, OVER = "placing", "shooting", "passing", "over"


def ship_slot() -> Slot:
    options = []
    for ship in SHIP_NAMES:
        typed, spoken = SHIP_WORDS[ship]
        value = ship.lower()
        options += [SlotOption(tuple(words.split()), value) for words in spoken]
        options += [SlotOption(tuple(words.split()), value, spoken=False) for words in typed]
    return Slot("ship", options)


def ship_name(value: str) -> str:
    """'rocket raider' -> 'Rocket Raider'."""
    return next(s for s in SHIP_NAMES if s.lower() == value)


def phonetic_slot(name: str) -> Slot:
    """A row letter said in the phonetic alphabet only ("bravo"); the plain letter is
    typed only. For the long placement phrase, where a lone "b" would be too easily
    misheard and every spoken form multiplies the recognizers' phrase list."""
    slot = letter_slot(name, ROW_LETTERS)
    return Slot(name, [SlotOption(o.words, o.value, spoken=len(o.words[0]) > 1) for o in slot.options])


def slots() -> list[Slot]:
    column = number_slot("column", 1, 10)
    # A ship's corner ("bravo three") and a square to move it to ("C4") are Squares.
    return [number_slot("sector", 1, 3), letter_slot("row", ROW_LETTERS), column,
            point_slot("corner", phonetic_slot("corner"), column, Square.at),
            point_slot("square", letter_slot("row", ROW_LETTERS), column, Square.at),
            ship_slot(), Slot("heading", [SlotOption((h,), h) for h in HEADINGS])]


SHOOT_RULES = [
    Rule("shoot", "shoot {sector} row {row}", ["[shoot|fire] [at] [sector] <sector> row <row>"]),
    Rule("shoot", "shoot {sector} column {column}", ["[shoot|fire] [at] [sector] <sector> column <column>"]),
    Rule("shoot here", "shoot row {row}", ["[shoot|fire] [at] row <row>"]),
    Rule("shoot here", "shoot column {column}", ["[shoot|fire] [at] column <column>"]),
    Rule("sector", "sector {sector}", ["sector <sector>"]),
]
PLACE_RULES = [
    Rule("position", "position {ship} {sector} {corner} {heading}",
         ["<ship> sector <sector> <corner> <heading>"]),
    Rule("position", "position {ship} {sector} {corner} {heading}",
         ["[position|try|put] <ship> [in] [sector] <sector> [at] <corner> <heading>"], spoken=False),
    Rule("place", "place {ship} {sector} {corner} {heading}",
         ["place <ship> [in] [sector] <sector> [at] <corner> <heading>"], spoken=False),
    Rule("place", "place", ["place", "place it"]),
    Rule("turn", "turn", ["turn it", "turn", "rotate", "rotate it"]),
    Rule("move", "move {square}", ["move [it] [to] <square>"]),
    Rule("move sector", "move sector {sector}", ["move [it] [to] sector <sector>", "sector <sector>"]),
    Rule("random", "random", ["random", "random placement", "place at random", "place the rest at random"]),
    Rule("remove", "remove {ship}", ["remove <ship>", "take back <ship>"]),
    Rule("done", "done", ["done", "finished", "fleet ready"]),
]
REVIEW_RULES = [
    Rule("read sector", "read sector {sector}", ["read [sector] <sector>"]),
    Rule("read", "read", ["read", "read sector"]),
    Rule("what", "what {sector} row {row}", ["what [about|is] [at] [sector] <sector> row <row>"]),
    Rule("what", "what {sector} column {column}", ["what [about|is] [at] [sector] <sector> column <column>"]),
    Rule("what here", "what row {row}", ["what [about|is] [at] row <row>"]),
    Rule("what here", "what column {column}", ["what [about|is] [at] column <column>"]),
    Rule("my fleet", "my fleet", ["my fleet", "fleet"]),
    Rule("my sector", "my sector {sector}", ["my sector <sector>"]),
]
PASS_RULES = [Rule("ready", "ready", ["ready", "i am ready", "go"])]


def grammar_for(phase: str) -> Grammar:
    """What can be said in `phase` (without the common commands)."""
    rules = {PLACING: PLACE_RULES + REVIEW_RULES, SHOOTING: SHOOT_RULES + REVIEW_RULES,
             PASSING: PASS_RULES, OVER: REVIEW_RULES}[phase]
    return Grammar(rules, slots())


def full_grammar() -> Grammar:
    """Every Battleship command, for replaying recorded actions."""
    return Grammar(PLACE_RULES + SHOOT_RULES + REVIEW_RULES + PASS_RULES, slots())


SPOKEN_LETTERS = {word for words in PHONETIC.values() for word in words}
POINT_NOT_SHOT = ("A shot here is a whole row or column, not one point: say a sector and a row "
                  "or a column, like sector 2 row D or sector 2 column 5.")


def a_point(tokens: list[str]) -> bool:
    """"D5", "d 5", "delta five", "sector 2 D5": one point, as Galaxis is played."""
    if tokens[:1] == ["sector"]:
        tokens = tokens[2:]
    letter = len(tokens) == 2 and (len(tokens[0]) == 1 and tokens[0].isalpha() or tokens[0] in SPOKEN_LETTERS)
    return letter and word_number(tokens[1]) is not None

# Commands said without the line or sector they need: what to add (not "Not understood").
WHICH_LINE = "Which line? Say the sector and the line too, like what about sector 2 row D."
NO_CHANCE = "Battleship has no chance of a line; say hint, then why."
MISSING = {("what",): WHICH_LINE, ("what", "about"): WHICH_LINE, ("what", "is"): WHICH_LINE,
           ("what", "is", "at"): WHICH_LINE, ("check",): WHICH_LINE,
           ("shoot",): "Where? Say a sector and a row or a column too, like shoot sector 2 row D.",
           ("fire",): "Where? Say a sector and a row or a column too, like fire sector 2 row D.",
           ("my", "sector"): "Which sector? Say my sector 1, 2 or 3.",
           ("mark",): "Battleship has no marks: every line you called is remembered; say read sector 2.",
           ("chance",): NO_CHANCE, ("chance", "of"): NO_CHANCE}


def missing_part(tokens: list[str]) -> str | None:
    """What a line that names a command but not its line or sector lacks, or None."""
    return what_is_missing(tokens, MISSING, whatever_follows=(("mark",),))


# What each command does, to name it when it cannot be done now.
DOING = {"shoot": "Shooting", "shoot here": "Shooting", "sector": "Choosing a sector",
         "position": "Trying a ship", "place": "Placing a ship", "turn": "Turning a ship",
         "move": "Moving a ship", "move sector": "Moving a ship", "random": "Placing at random",
         "remove": "Removing a ship", "done": "Finishing the fleet", "ready": "Ready"}
