"""The console's own small lines (issue 30, item 9): stop confirms in print (and stays
silent), quick signals says what changed, a game that cannot start is a command-line
error like the others, and --help names every option and the recognize subcommand.
Through the real session and the real command line."""
import re
import subprocess
import sys

from tests.conftest import ROOT, run_console
from tests.robust.helpers import make_session, start


def test_stop_is_confirmed_on_the_screen_and_not_spoken(tmp_path):
    session, out, sink = make_session(tmp_path)
    start(session, "galaxis", seed=1, option=2)
    session.type("D5")
    answer = out.getvalue().splitlines()[-2]
    spoken = len(sink.spoken)
    session.type("stop")
    assert out.getvalue().splitlines()[-1] == "Stopped."
    assert len(sink.spoken) == spoken                       # nothing said over the silence
    session.type("repeat")
    assert answer in out.getvalue().splitlines()[-2:]       # repeat still repeats the answer


def test_quick_signals_says_what_changed(tmp_path):
    result = run_console(["--game", "galaxis", "--seed", "1", "--text"],
                         ["quick signals", "faithful signals", "quit"], tmp_path)
    assert "Quick signals: the same sounds, about a third as long, with shorter gaps." in result.stdout
    assert "Faithful signals: the sounds as long as on the 1980 console." in result.stdout


def test_the_quick_signals_line_says_true_lengths():
    from audio_console.audio.signals import SIGNALS, duration
    ratios = sorted(duration(name, "quick") / duration(name, "faithful") for name in SIGNALS
                    if duration(name, "faithful") >= 1.0)
    assert ratios and 0.2 <= ratios[len(ratios) // 2] <= 0.45        # the long ones: about a third


def test_a_game_that_cannot_start_is_a_command_line_error(tmp_path):
    result = run_console(["--game", "galaxis", "--option", "2", "--time-limit", "30", "--text"], [], tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("audio-console: cannot start Galaxis: the time limit is for options 1 and 3. "
                             "audio-console --help lists the options.\n")


def test_a_refusal_that_ends_its_sentence_is_still_one_sentence(tmp_path):
    result = run_console(["--game", "arkade", "--mode", "arcade", "--alien", "human", "--defence", "human",
                          "--text"], [], tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("audio-console: cannot start Arkade: Arcade Mode needs the computer on one side: "
                             "one player, one keyboard. audio-console --help lists the options.\n")


def test_help_describes_every_game_option_and_the_recognize_subcommand(tmp_path):
    text = subprocess.run([sys.executable, "-m", "audio_console", "--help"], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "COLUMNS": "200"}).stdout
    # each option with its help, which argparse may put on the lines below it
    blocks = {block.split()[0]: " ".join(block.split()) for block in re.split(r"\n(?=  --)", text)
              if block.startswith("  --")}
    for flag, words in {"--opponent": "or the computer", "--level": "strongest", "--placement": "ship by ship",
                        "--mode": "arcade", "--alien": "the Alien side", "--defence": "the Defence side"}.items():
        assert words in blocks[flag], blocks[flag]
    assert "audio-console recognize --game GAME" in text and "JSON line" in text


def test_help_says_which_options_each_game_takes_from_its_declarations():
    from audio_console.app.games import HELP_ORDER
    text = subprocess.run([sys.executable, "-m", "audio_console", "--help"], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "COLUMNS": "300"}).stdout
    lines = text.splitlines()
    start = lines.index("Game options, by game:")
    by_game = dict(line.split(" takes ", 1) for line in lines[start + 1:start + 1 + len(HELP_ORDER)])
    assert by_game["Battleship: Outer Space"] == "--opponent, --level, --placement."
    for info in HELP_ORDER:       # every declared option, and only those, on its game's line
        assert by_game[info.title].rstrip(".").split(", ") == [option.flag for option in info.options]
    assert "(audio-console recognize --help for more)" in text     # never broken at a hyphen
