"""Which grammar the recognizers listen with, for a game and phase.

The lead's game modules own the real grammars (audio_console.galaxis.commands
and audio_console.games). Until they exist on a branch, `standin_galaxis` builds
the same Galaxis vocabulary the same way, so the voice layer can be built and
tested; `grammar_for_game` always prefers the game's own grammar.
"""
from __future__ import annotations

from audio_console.commands.grammar import Grammar, Rule
from audio_console.commands.vocabulary import common_grammar, letter_slot, number_slot


def standin_galaxis() -> Grammar:
    """Galaxis searching phase: rows A-G, columns 1-9, board memory, common words."""
    slots = [letter_slot("row", "ABCDEFG"), number_slot("column", 1, 9)]
    rules = [
        Rule("query", "query {row}{column}", ["<row> <column>", "search <row> <column>"]),
        Rule("caution", "caution {row}{column}", ["caution spaceship <row> <column>"]),
        Rule("what", "what {row}{column}", ["what is at <row> <column>"]),
        Rule("read row", "read row {row}", ["read row <row>"]),
        Rule("read column", "read column {column}", ["read column <column>"]),
        Rule("mark", "mark {row}{column}", ["mark <row> <column>", "rule out <row> <column>"]),
        Rule("unmark", "unmark {row}{column}", ["unmark <row> <column>"]),
    ]
    return Grammar(rules, slots) + common_grammar()


def grammar_for_game(game: str, phase: str = "searching") -> Grammar:
    """The grammar a game listens with in `phase`, common commands included."""
    try:
        from audio_console.galaxis import commands as galaxis_commands  # lead's module
    except ImportError:
        galaxis_commands = None
    if game == "galaxis":
        if galaxis_commands is not None and hasattr(galaxis_commands, "grammar"):
            g = galaxis_commands.grammar(phase, 3)   # option 3 says the most (caution)
            return g if _has_common(g) else g + common_grammar()
        return standin_galaxis()
    try:
        from audio_console.games import GAMES
    except ImportError:
        GAMES = {}
    if game in GAMES:
        from audio_console.settings import Settings
        console = GAMES[game].create({}, 0, Settings(), 0.0)
        return console.grammar() + common_grammar()
    raise ValueError(f"unknown game {game!r}")


def _has_common(grammar: Grammar) -> bool:
    return any(rule.name == "repeat" for rule in grammar.rules)
