"""The Galaxis command language, per phase (VOICE.md). The same grammar gives
the typed parser and the recognizers' vocabulary."""
from __future__ import annotations

from audio_console.commands.grammar import Grammar, Rule
from audio_console.commands.vocabulary import letter_slot, number_slot
from audio_console.galaxis.board import COLUMNS, ROWS

SLOTS = [letter_slot("row", ROWS), number_slot("column", 1, COLUMNS)]

QUERY = Rule("query", "query {row}{column}",
             ["<row> <column>", "(query|search|scan) <row> <column>"])
CAUTION = Rule("caution", "caution {row}{column}",
               ["caution [spaceship] <row> <column>"])
STORE = Rule("store", "store {row}{column}",
             ["<row> <column>", "store <row> <column>"])

# Questions about the board memory, and info pegs: every phase.
REVIEW = [
    Rule("what", "what {row}{column}",
         ["what [is] [at|about] <row> <column>", "check <row> <column>"]),
    Rule("read", "read row {row}", ["read row <row>", "row <row>"]),
    Rule("read", "read column {column}", ["read column <column>", "column <column>"]),
    Rule("listen", "listen row {row}", ["listen [to] row <row>"]),
    Rule("listen", "listen column {column}", ["listen [to] column <column>"]),
    Rule("mark", "mark {row}{column}", ["mark <row> <column>", "rule out <row> <column>"]),
    Rule("unmark", "unmark {row}{column}", ["unmark <row> <column>", "clear <row> <column>"]),
]


def grammar(phase: str = "searching", option: int = 2) -> Grammar:
    """What can be said in a phase ("storing", "searching", "over") of an option."""
    if phase == "storing":
        rules = [STORE]
    elif phase == "searching":
        rules = [QUERY] + ([CAUTION] if option == 3 else [])
    else:
        rules = [QUERY]      # so that a point after the end is answered "the game is over"
    return Grammar(rules + REVIEW, SLOTS)


def replay_grammar() -> Grammar:
    """Parses every recorded action of any phase (canonical forms)."""
    return Grammar([Rule("query", "query {row}{column}", ["query <row> <column>"]),
                    Rule("store", "store {row}{column}", ["store <row> <column>"]), CAUTION,
                    Rule("undo", "undo", ["undo"])]
                   + REVIEW, SLOTS)
