"""Items 2-5 of issue 12: long lines, junk characters, invalid UTF-8 and out-of-range
numeric options are refused with one line; the game goes on as it was."""
import os
import subprocess
import sys

import pytest

from audio_console.console.typed import MAX_LINE, refusal
from tests.conftest import ROOT, run_console

from .helpers import make_session, start


def run_bytes(args, data: bytes, tmp_path, **env):
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home"), **env}
    done = subprocess.run([sys.executable, "-m", "audio_console", *args], input=data,
                          capture_output=True, timeout=60, env=environ, cwd=ROOT)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


# --- item 2: a held-down key -------------------------------------------------------

@pytest.mark.parametrize("game", ["galaxis", "battleship", "arkade"])
def test_five_thousand_digits_are_one_refusal(tmp_path, game):
    code, out, err = run_bytes(["--game", game, "--seed", "1", "--text"],
                               b"D" + b"9" * 5000 + b"\nstatus\nquit\n", tmp_path)
    assert code == 0 and "Traceback" not in err
    assert out.count("That line is too long") == 1
    assert "Goodbye" in out


def test_a_line_with_no_end_of_many_megabytes_is_refused_not_stored(tmp_path):
    code, out, err = run_bytes(["--game", "galaxis", "--seed", "1", "--text"],
                               b"9" * 3_000_000 + b"\nD5\n", tmp_path)
    assert code == 0 and out.count("That line is too long") == 1
    assert "D5 answered" in out


# --- item 3: junk is refused, not stripped into a move ------------------------------------

JUNK = ["ϣᵉC5⨭", "\x1b[D5", "\x00D5", "\ufeffD5", "D5\x07", "D\u200b5", "D５", "Ｄ5", "D5 ☺",
        "d5 #", "D5; rm -rf /", "\x1bOA", "D%5", "<D5>", "D5\u00a0"]


@pytest.mark.parametrize("line", JUNK)
def test_junk_around_a_move_is_refused_and_changes_nothing(tmp_path, line):
    session, out, sink = make_session(tmp_path)
    console = start(session, "galaxis", option=2)
    before = list(session.saved.actions)
    session.type(line)
    assert session.saved.actions == before == []
    said = out.getvalue().strip().splitlines()[-1]
    assert said.startswith(("Not understood", "That line")), said
    assert said in sink.spoken          # printed and spoken alike


FORGIVEN = ["D5", "  d5  ", "D-5", "d 5", "D5?", "D5.", "\tD5\r", "query D5", "'D5'", "(D5)", "D5!"]


@pytest.mark.parametrize("line", FORGIVEN)
def test_what_a_player_types_around_a_move_is_forgiven(tmp_path, line):
    session, out, sink = make_session(tmp_path)
    start(session, "galaxis", option=2)
    session.type(line)
    assert session.saved.actions == ["query D5"], out.getvalue()


def test_words_with_apostrophes_pass_the_character_check():
    for line in ["what's the chance", "don't", "it’s D5", "yes, D5", "a/b", 'say "help"']:
        assert refusal(line) is None
    assert refusal("x" * (MAX_LINE + 1)).startswith("That line is too long")


# --- item 4: invalid UTF-8 ----------------------------------------------------------

def test_an_invalid_byte_is_one_unreadable_line_and_the_session_goes_on(tmp_path):
    code, out, err = run_bytes(["--game", "galaxis", "--seed", "1", "--text"],
                               b"D5\n\xe9\nD6\n\xff\xfe\x00garbage\nD7\n", tmp_path,
                               PYTHONIOENCODING="utf-8:strict", LC_ALL="C.UTF-8")
    assert code == 0 and "Traceback" not in err
    assert out.count("That line was not readable text.") == 2
    assert "D6 answered" in out and "D7 answered" in out


# --- item 5: numeric options ------------------------------------------------------------

@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "-1", "0", "1e400", "99999", "abc"])
def test_time_limit_out_of_range_is_one_line(tmp_path, value):
    done = run_console(["--game", "galaxis", "--option", "1", f"--time-limit={value}", "--text"],
                       ["status", "quit"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--time-limit" in done.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("value", ["inf", "nan", "-3", "0", "1e9"])
def test_pace_out_of_range_is_one_line(tmp_path, value):
    done = run_console(["--game", "arkade", "--mode", "arcade", f"--pace={value}", "--text"], ["quit"], tmp_path)
    assert done.returncode == 2 and "--pace" in done.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("option,value", [("--seed", "1" * 5000), ("--seed", "x"), ("--level", "9"),
                                          ("--boosters", "-1"), ("--rolls", "1e9"), ("--option", "nan")])
def test_other_numeric_options_are_checked(tmp_path, option, value):
    done = run_console(["--game", "arkade", f"{option}={value}", "--text"], ["quit"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_a_time_limit_in_range_still_plays(tmp_path):
    done = run_console(["--game", "galaxis", "--option", "1", "--time-limit", "30", "--text"],
                       ["status", "quit"], tmp_path)
    assert done.returncode == 0 and "Time limit: 30 seconds a turn." in done.stdout
