"""The games the console offers, in menu order. Each game declares its own GameInfo
in its package's entry.py (audio_console/contract/gameinfo.py has the types). Also
which grammar the recognizers listen with for a game named on the command line."""
from __future__ import annotations

from audio_console.arkade.entry import GAME as ARKADE
from audio_console.battleship.entry import GAME as BATTLESHIP
from audio_console.commands.grammar import Grammar
from audio_console.commands.vocabulary import common_grammar
from audio_console.contract.gameinfo import GameInfo
from audio_console.galaxis.commands import grammar as galaxis_grammar
from audio_console.galaxis.entry import GAME as GALAXIS
from audio_console.base.settings import Settings

GAMES: dict[str, GameInfo] = {game.name: game for game in (GALAXIS, ARKADE, BATTLESHIP)}
# `audio-console --help` lists the games' options in this order, each option once
HELP_ORDER: tuple[GameInfo, ...] = (GALAXIS, BATTLESHIP, ARKADE)


def grammar_for_game(game: str, phase: str = "searching") -> Grammar:
    """The grammar a game listens with in `phase`, common commands included, for
    `audio-console recognize` and the speech benchmarks (live play passes the
    console's current grammar to Listener.set_grammar instead). Galaxis: option 3's
    grammar, which says the most ("caution D5")."""
    if game == "galaxis":
        return galaxis_grammar(phase, 3) + common_grammar()
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}")
    console = GAMES[game].create({}, 0, Settings(), 0.0)
    return console.grammar() + common_grammar()
