"""The games the console offers, in menu order. Each game declares its own GameInfo
in its package's entry.py (audio_console/console/gameinfo.py has the types)."""
from __future__ import annotations

from audio_console.arkade.entry import GAME as ARKADE
from audio_console.battleship.entry import GAME as BATTLESHIP
from audio_console.console.gameinfo import GameInfo
from audio_console.galaxis.entry import GAME as GALAXIS

GAMES: dict[str, GameInfo] = {game.name: game for game in (GALAXIS, ARKADE, BATTLESHIP)}
