"""A new game option is one Option in the game's declarations and nothing else: planted
here in Battleship's entry (a copy of its GameInfo), it is listed by --help, parsed with
its type, choices and default, refused in one line when bad or given to another game,
written into the saved game, and checked when a save is read back."""
import dataclasses
import io
import json

import pytest

from audio_console.app import cli
from audio_console.console.save_options import options_checker
from audio_console.console.storage import SaveError
from audio_console.contract.game_options import LEVEL, OTHERS, Option, seconds
from audio_console.app.games import GAMES, HELP_ORDER

SALVO = Option("--salvo", type=int, choices=(1, 2, 3), group=OTHERS, default=1,
               help="Battleship: lines called a turn (default 1)")
DELAY = Option("--think", type=seconds(0.0, 5.0), group=OTHERS, metavar="SECONDS",
               help="Battleship: seconds the computer seems to think")


@pytest.fixture
def planted(monkeypatch):
    """Battleship with two more declared options, as if written in battleship/entry.py."""
    info = dataclasses.replace(GAMES["battleship"], options=(*GAMES["battleship"].options, SALVO, DELAY))
    monkeypatch.setitem(GAMES, "battleship", info)
    monkeypatch.setattr(cli, "HELP_ORDER", tuple(info if i.name == "battleship" else i for i in HELP_ORDER))
    return info


def options(argv):
    args = cli.parse_args(argv)
    return GAMES[args.game].options_from_args(args)


def test_a_planted_option_is_parsed_with_its_type_and_default(planted):
    assert options(["--game", "battleship", "--salvo", "3", "--think", "0.5"]) == {
        "opponent": "computer", "level": 2, "placement": "random", "salvo": 3, "think": 0.5}
    given_none = options(["--game", "battleship"])
    assert given_none["salvo"] == 1 and given_none["think"] is None


def test_a_planted_option_is_listed_by_help(planted, capsys):
    with pytest.raises(SystemExit):
        cli.parse_args(["--help"])
    assert "--salvo {1,2,3}" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--game", "battleship", "--salvo", "4"], "argument --salvo: invalid choice: 4 (choose from 1, 2, 3)"),
    (["--game", "battleship", "--salvo", "two"], "argument --salvo: invalid int value: 'two'"),
    (["--game", "battleship", "--think", "9"], "argument --think: 9 seconds is out of range: say 0 to 5"),
    (["--game", "galaxis", "--salvo", "2"], "--salvo does not apply to Galaxis"),
    (["--salvo", "2"], "--salvo is a game option: name the game with --game"),
])
def test_a_bad_value_of_a_planted_option_is_one_line(planted, capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        cli.parse_args(argv)
    assert stop.value.code == 2
    assert capsys.readouterr().err == f"audio-console: {message}. audio-console --help lists the options.\n"


def test_a_planted_option_is_saved_and_checked_when_the_save_is_read(planted, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr("sys.stdin", io.StringIO("status\n"))
    save = tmp_path / "game.json"
    assert cli.main(["--game", "battleship", "--salvo", "2", "--text", "--save", str(save)]) == 0
    assert "Battleship: Outer Space" in capsys.readouterr().out
    saved = json.loads(save.read_text())
    assert saved["options"]["salvo"] == 2 and saved["options"]["think"] is None
    check = options_checker(GAMES)
    check("battleship", saved["options"])
    for damaged in ({"salvo": 9}, {"salvo": True}, {"think": 60.0}, {"think": "soon"}):
        with pytest.raises(SaveError, match=f"option {next(iter(damaged))} cannot be"):
            check("battleship", {**saved["options"], **damaged})


def test_a_shared_option_keeps_one_meaning_with_each_games_default(planted):
    assert LEVEL.defaulting(2) == LEVEL      # the parser adds --level once
    assert options(["--game", "battleship"])["level"] == 2
    assert options(["--game", "arkade"])["level"] == 2
    assert options(["--game", "galaxis"])["level"] is None     # Galaxis gives level 3 itself


def test_arkade_cross_rule_the_side_not_named_is_the_other_player():
    def sides(*argv):
        chosen = options(["--game", "arkade", *argv])
        return chosen["alien"], chosen["defence"]
    assert sides() == ("human", "computer")
    assert sides("--alien", "computer") == ("computer", "human")
    assert sides("--defence", "human") == ("computer", "human")
    assert sides("--alien", "computer", "--defence", "computer") == ("computer", "computer")


def test_a_planted_option_reaches_a_game_the_menu_starts(planted):
    from audio_console.console.menu import MenuConsole
    menu = MenuConsole(GAMES)
    menu.info, menu.answers = planted, {"opponent": "human", "placement": "manual"}
    assert menu.chosen_options() == {"opponent": "human", "placement": "manual", "level": 2,
                                     "salvo": 1, "think": None}
