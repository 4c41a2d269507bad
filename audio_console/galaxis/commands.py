"""The Galaxis command language, per phase (docs/commands.md). The same grammar gives
the typed parser and the recognizers' vocabulary."""
from __future__ import annotations

from audio_console.commands.grammar import Grammar, Rule, normalize
from audio_console.commands.vocabulary import PHONETIC, letter_slot, number_slot, point_slot
from audio_console.galaxis.board import COLUMNS, ROWS, PointError, point_at
from audio_console.base.wording import word_number

# A point ("delta five", "D5") is a Point; a row or a column alone is its letter or number.
SLOTS = [point_slot("point", letter_slot("row", ROWS), number_slot("column", 1, COLUMNS), point_at),
         point_slot("new", letter_slot("row", ROWS), number_slot("column", 1, COLUMNS), point_at),
         letter_slot("row", ROWS), number_slot("column", 1, COLUMNS)]

QUERY = Rule("query", "query {point}",
             ["<point>", "(query|search|scan) <point>"])
CAUTION = Rule("caution", "caution {point}",
               ["caution [spaceship] <point>"])
STORE = Rule("store", "store {point}",
             ["<point>", "store <point>"])
# Option 3: move a stored position before the console passes: "change A1", then the
# new point (two short phrases keep the spoken list small); typed also in one go.
CHANGE = Rule("change", "change {point}", ["change <point>"])
CHANGE_TYPED = Rule("change", "change {point} {new}", ["change <point> [to] <new>"], spoken=False)

# Questions about the board memory, and info pegs: every phase.
REVIEW = [
    Rule("what", "what {point}",
         ["what [is] [at|about] <point>", "check <point>"]),
    Rule("read", "read row {row}", ["read row <row>", "row <row>"]),
    Rule("read", "read column {column}", ["read column <column>", "column <column>"]),
    Rule("listen", "listen row {row}", ["listen [to] row <row>"]),
    Rule("listen", "listen column {column}", ["listen [to] column <column>"]),
    Rule("mark", "mark {point}", ["mark <point>", "rule out <point>"]),
    Rule("unmark", "unmark {point}", ["unmark <point>", "clear <point>"]),
]


def grammar(phase: str = "searching", option: int = 2) -> Grammar:
    """What can be said in a phase ("storing", "searching", "over") of an option."""
    if phase == "storing":
        rules = [STORE, CHANGE, CHANGE_TYPED]
    elif phase == "searching":
        rules = [QUERY] + ([CAUTION] if option == 3 else [])
    else:
        rules = [QUERY]      # so that a point after the end is answered "the game is over"
    return Grammar(rules + REVIEW, SLOTS)


def replay_grammar() -> Grammar:
    """Parses every recorded action of any phase (canonical forms); "time out" is
    recorded when a turn's time ran out."""
    return Grammar([Rule("query", "query {point}", ["query <point>"]),
                    Rule("store", "store {point}", ["store <point>"]), CAUTION, CHANGE_TYPED,
                    Rule("undo", "undo", ["undo"]), Rule("time out", "time out", ["time out"])]
                   + REVIEW, SLOTS)


LETTER_WORDS = {word: letter for letter, words in PHONETIC.items() for word in words}
COMMAND_WORDS = {"query", "search", "scan", "store", "caution", "spaceship", "what", "is", "at",
                 "about", "mark", "unmark", "rule", "out", "check", "clear", "chance", "of",
                 "probability", "how", "likely", "the", "change", "to"}
# Commands that need a point: their first words, and how to ask for it.
NEEDS_POINT = {("what",): "what is at D5", ("check",): "check D5", ("mark",): "mark D5",
               ("rule", "out"): "rule out D5", ("unmark",): "unmark D5", ("clear",): "clear D5",
               ("chance",): "chance of D5", ("probability",): "probability of D5",
               ("how", "likely"): "how likely is D5", ("caution",): "caution D5",
               ("query",): "query D5", ("store",): "store D5", ("change",): "change A1"}


def explain(text: str, option: int) -> str | None:
    """Why a typed or heard line is not a command here, when it looks like one: a
    point or a row or column off the board, or caution outside option 3."""
    words = normalize(text)
    if words[:1] == ["caution"] and option != 3:
        return "Caution spaceship is for option 3, where a team may query its own stored positions."
    if len(words) >= 2 and words[-2] in ("row", "column") and words[0] in ("read", "listen"):
        line, value = words[-2], words[-1]
        letter = LETTER_WORDS.get(value, value.upper() if len(value) == 1 else None)
        number = value if value.isdigit() else (
            str(word_number(value)) if word_number(value) else None)
        try:
            if line == "row" and letter:
                point_at(letter, 1)
            elif line == "column" and number:
                point_at("A", int(number))
        except PointError as error:
            reason = str(error)
            return reason[:1].upper() + reason[1:] + "."
    tokens = [t for t in words if t not in COMMAND_WORDS]
    if not tokens:
        for start, example in NEEDS_POINT.items():
            if tuple(words[:len(start)]) == start:
                return f"Which point? Say the point too, like {example}."
    if len(tokens) == 2:
        letter = LETTER_WORDS.get(tokens[0], tokens[0].upper() if len(tokens[0]) == 1 else None)
        number = tokens[1] if tokens[1].isdigit() else (
            str(word_number(tokens[1])) if word_number(tokens[1]) else None)
        if letter and number:
            try:
                point_at(letter, int(number))
            except PointError as error:
                return f"{letter}{number} is not on the board: {error}."
    return None
