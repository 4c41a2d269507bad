"""Which grammar the recognizers listen with for a game named on the command line
(`recognize`, the benchmarks): the game's own grammar plus the common commands.
Live play passes the console's current grammar to Listener.set_grammar instead."""
from __future__ import annotations

from audio_console.commands.grammar import Grammar
from audio_console.commands.vocabulary import common_grammar


def grammar_for_game(game: str, phase: str = "searching") -> Grammar:
    """The grammar a game listens with in `phase`, common commands included.
    Galaxis: option 3's grammar, which says the most ("caution D5")."""
    if game == "galaxis":
        from audio_console.galaxis.commands import grammar
        return grammar(phase, 3) + common_grammar()
    from audio_console.games import GAMES
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}")
    from audio_console.settings import Settings
    console = GAMES[game].create({}, 0, Settings(), 0.0)
    return console.grammar() + common_grammar()
