"""A game's command-line options as data: each game's entry lists the Options it takes
(GameInfo.options). audio_console/app/cli.py builds the parser from them, and the game's
options are read back from the parsed arguments by the same declarations
(`read_options`): each declared option, in the declared order, its game's default when
it is not given. An option several games take (--opponent, --level, --practice) is
declared once, here, with the help that names each game's default; a game that has its
own default takes it with `defaulting`."""
from __future__ import annotations

import argparse
import textwrap
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

OTHERS = "opponents and other games"     # the --help heading of the options games share


@dataclass(frozen=True)
class Option:
    """One flag, as argparse.add_argument takes it (a field left None is not passed), and
    the game's value when it is not given. That default is not argparse's: the parsed
    value stays None, so a flag given to a game that does not take it can be told from
    one not given, and a shared flag means the same on the command line whatever each
    game's default (it is left out of ==)."""
    flag: str                                  # "--time-limit"
    help: str
    group: str                                 # the --help heading it is listed under
    choices: Sequence[Any] | None = None
    type: Callable[[str], Any] | None = None
    action: Any = None                         # "store_true", argparse.BooleanOptionalAction
    nargs: str | None = None
    const: Any = None
    metavar: str | None = None
    default: Any = field(default=None, compare=False)   # the game's value when not given

    @property
    def dest(self) -> str:
        """The name of its value in the parsed arguments and in a game's options."""
        return self.flag.lstrip("-").replace("-", "_")

    def add_to(self, parser) -> argparse.Action:
        """Add it to an argparse parser or argument group; the argparse action."""
        names = ("choices", "type", "action", "nargs", "const", "metavar")
        given = {name: getattr(self, name) for name in names if getattr(self, name) is not None}
        return parser.add_argument(self.flag, help=self.help, **given)

    def defaulting(self, value: Any) -> "Option":
        """The same flag with this game's default (LEVEL.defaulting(2))."""
        return replace(self, default=value)


def read_options(declared: Sequence[Option], given: Mapping[str, Any]) -> dict:
    """A game's options from the values given by dest (the parsed arguments, the menu's
    answers): every declared option, its default when it is not given or None."""
    return {option.dest: option.default if given.get(option.dest) is None else given[option.dest]
            for option in declared}


def games_help(games: Sequence[tuple[str, Sequence[Option]]]) -> str:
    """--help's list of which options each game takes, one line a game, from the same
    declarations ("Battleship: Outer Space takes --opponent, --level, --placement.")."""
    lines = [f"{title} takes {', '.join(option.flag for option in options)}." if options
             else f"{title} takes no options of its own." for title, options in games]
    return "\n".join(["Game options, by game:"] + lines)


class ParagraphHelpFormatter(argparse.HelpFormatter):
    """argparse's help, but each line of the description and the epilog filled on its
    own, so that a game's line is not run into the next, and never broken at a hyphen
    ("audio-console", "--time-limit")."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(textwrap.fill(" ".join(line.split()), width, initial_indent=indent,
                                        subsequent_indent=indent, break_on_hyphens=False)
                         for line in text.split("\n"))


def seconds(low: float, high: float):
    """An argparse type: a number of seconds from low to high (not inf, not nan)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not low <= value <= high:   # also false for nan
            raise argparse.ArgumentTypeError(f"{text} seconds is out of range: say {low:g} to {high:g}")
        return value
    return parse


PRACTICE = Option("--practice", choices=("ear", "ear-long", "tutorial"), group="Galaxis",
                  help="practise by ear: a short or long ear-training drill, or the tutorial "
                       "(Arkade: tutorial, a first game explained step by step)")
OPPONENT = Option("--opponent", choices=("human", "computer"), group=OTHERS,
                  help="Galaxis options 1 and 3, Battleship: a second human at this console, "
                       "or the computer (defaults: Galaxis human, Battleship computer; "
                       "Galaxis option 2 with the computer: a demonstration)")
LEVEL = Option("--level", type=int, choices=(1, 2, 3), group=OTHERS,
               help="the computer's level, 1 weakest to 3 strongest "
                    "(defaults: Galaxis 3, Battleship and Arkade 2)")
