"""What a game declares to the console: how to make it, its command-line options and
the questions the menu asks for it. Each game's package has an `entry.py` with one
GameInfo; audio_console/app/games.py collects them. A game's options are read from the
command line by its declared Options alone; only a rule between options (Arkade: the
side not named is the other player) is the game's own code, its `cross_rule`."""
from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from audio_console.contract.adapter import GameAdapter
from audio_console.contract.game_options import Option, read_options
from audio_console.base.settings import Settings


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
    options: Sequence[Option] = ()             # its command-line options, for cli.py
    questions: list[Question] = field(default_factory=list)
    # options -> options: a rule between options, after each has its declared default
    cross_rule: Callable[[dict], dict] | None = None

    def options_from(self, given: Mapping[str, Any]) -> dict:
        """The game's options from the values given by key (the parsed command line, the
        menu's answers), by its declarations: each declared option, its declared default
        when not given, then the rule between options."""
        options = read_options(self.options, given)
        return self.cross_rule(options) if self.cross_rule else options

    def options_from_args(self, args: argparse.Namespace) -> dict:
        return self.options_from(vars(args))
