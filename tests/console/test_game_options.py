"""Each game declares its command-line options as data (GameInfo.options) and the
parser is built from them: what a game reads from the parsed arguments is exactly what
it declares, a flag two games take means one thing, and a game option given to the
wrong game is a one-line error naming it."""
import argparse

import pytest

from audio_console.app import cli
from audio_console.console.menu import MenuConsole
from audio_console.console.save_options import options_checker
from audio_console.contract.base import InputError
from audio_console.contract.game_options import LEVEL, OTHERS, Option
from audio_console.app.games import GAMES, HELP_ORDER
from audio_console.base.settings import Settings


def test_a_game_reads_from_the_command_line_exactly_the_options_it_declares():
    parser = cli.build_parser()
    for name, info in GAMES.items():
        read = set(info.options_from_args(parser.parse_args(["--game", name])))
        assert read == {option.dest for option in info.options}, name


def test_help_lists_every_game_once_and_each_flag_once():
    assert sorted(info.name for info in HELP_ORDER) == sorted(GAMES)
    flags = [a.option_strings[0] for a in cli.build_parser()._actions if a.option_strings]
    assert len(flags) == len(set(flags))
    assert {"--option", "--time-limit", "--practice", "--opponent", "--level", "--placement",
            "--mode", "--pace", "--peng", "--chips"} <= set(flags)


def test_a_declared_option_is_parsed_with_its_type_choices_and_default():
    args = cli.build_parser().parse_args(["--game", "galaxis", "--time-limit", "--level", "1"])
    assert args.time_limit == 60.0 and args.level == 1 and args.peng is False and args.chips is None
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["--level", "4"])


def test_two_games_may_not_give_one_flag_two_meanings(monkeypatch):
    other = type(HELP_ORDER[0])("other", "Other", lambda *a: None,
                                options=(Option("--level", help="another level", group=OTHERS),))
    monkeypatch.setattr(cli, "HELP_ORDER", (HELP_ORDER[0], other))
    assert LEVEL in HELP_ORDER[0].options
    with pytest.raises(ValueError, match="--level"):
        cli.add_game_options(argparse.ArgumentParser())


def test_an_option_of_another_game_is_refused_by_name(capsys):
    with pytest.raises(SystemExit):
        cli.parse_args(["--game", "battleship", "--option", "2"])
    assert capsys.readouterr().err == ("audio-console: --option does not apply to Battleship: Outer Space. "
                                       "audio-console --help lists the options.\n")


def menu_paths(info):
    """Every set of answers the game's menu questions can give."""
    paths: list[dict] = [{}]
    for question in info.questions:
        grown = []
        for answers in paths:
            asked = question.ask_if(answers)
            grown += [{**answers, question.key: v} for _, v in question.choices] if asked else [answers]
        paths = grown
    return paths


def test_every_game_the_menu_can_start_has_the_options_a_save_may_hold():
    """The menu gives a game its declared options, each at its default when not asked,
    and nothing a save could not be resumed with; every path makes the game or says
    in one sentence why not (Arcade Mode with no computer)."""
    check = options_checker(GAMES)
    menu = MenuConsole(GAMES)
    for name, info in GAMES.items():
        paths = menu_paths(info)
        assert len(paths) > 3, name
        for answers in paths:
            menu.info, menu.answers = info, answers
            chosen = menu.chosen_options()
            assert {option.dest for option in info.options} <= set(chosen), (name, answers)
            check(name, chosen)
            try:
                info.create(chosen, 3, Settings(), 0.0)
            except InputError as error:
                assert str(error).count(". ") == 0 and "computer" in str(error), (answers, error)


# What the menu may ask that the command line says otherwise: Arkade's difficulty
# presets (several options at once), Galaxis's option with its opponent or a drill in
# one answer, Arkade's walkthrough as a mode.
MENU_ONLY_KEYS = {"arkade": {"difficulty"}}
MENU_ONLY_VALUES = {("galaxis", "option"): {"1 computer", "3 computer", "2 computer", "ear", "ear-long", "tutorial"},
                    ("arkade", "mode"): {"tutorial"}}


def test_the_menu_asks_for_declared_options_and_offers_values_they_accept():
    for name, info in GAMES.items():
        declared = {option.dest: option for option in info.options}
        keys = {question.key for question in info.questions}
        assert keys - set(declared) == MENU_ONLY_KEYS.get(name, set()), name
        for question in info.questions:
            option = declared.get(question.key)
            for _, value in question.choices if option else ():
                accepted = (value is None or value in (option.choices or ())
                            or (option.choices is None and option.type is not None
                                and option.type(str(value)) == value))
                menu_only = MENU_ONLY_VALUES.get((name, question.key), set())
                assert accepted or value in menu_only, (name, question.key, value)
