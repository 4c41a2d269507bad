"""The Galaxis command language, per phase (docs/commands.md). The same grammar gives
the typed parser and the recognizers' vocabulary."""
from __future__ import annotations

from audio_console.commands.grammar import Grammar, Rule
from audio_console.commands.vocabulary import letter_slot, number_slot, point_slot
from audio_console.galaxis.board import COLUMNS, ROWS, point_at

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
