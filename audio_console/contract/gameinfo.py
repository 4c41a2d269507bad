"""What a game declares to the console: how to make it, its command-line options and
the questions the menu asks for it. Each game's package has an `entry.py` with one
GameInfo; audio_console/games.py collects them."""
from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Callable, Sequence

from audio_console.contract.adapter import GameAdapter
from audio_console.contract.game_options import Option
from audio_console.settings import Settings


@dataclass
class Question:
    """A menu question: a spoken/typed answer picks one value."""
    key: str
    prompt: str
    choices: Sequence[tuple[str, object]]      # (words to say, value)
    ask_if: Callable[[dict], bool] = lambda answers: True


@dataclass
class GameInfo:
    name: str
    title: str
    # (options, seed, settings, now) -> a GameAdapter; raises InputError for bad options.
    create: Callable[[dict, int, Settings, float], GameAdapter]
    options_from_args: Callable[[argparse.Namespace], dict]
    questions: list[Question] = field(default_factory=list)
    options: Sequence[Option] = ()             # its command-line options, for cli.py
