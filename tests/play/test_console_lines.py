"""Issue 13 item 6 (a long refused line is echoed cut, with its length) and item 14
(louder, softer, faster, slower say the level and when it is at its end)."""
from audio_console.app.games import GAMES
from tests.robust.helpers import make_session


def session_with_galaxis(tmp_path):
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES["galaxis"], {"option": 2}, 1)
    return session, out, sink


def test_a_long_unknown_line_is_echoed_short_with_its_length(tmp_path):
    session, out, sink = session_with_galaxis(tmp_path)
    session.type(" ".join(["banana"] * 28))
    line = out.getvalue().splitlines()[-1]
    assert line == "Not understood: banana banana banana ... (28 words). Say help to hear what you can say."
    session.type("banana split")
    assert out.getvalue().splitlines()[-1].startswith("Not understood: banana split.")


def test_the_menu_echoes_short_too(tmp_path):
    session, out, sink = make_session(tmp_path)
    session.open_menu([])
    session.type(" ".join(["banana"] * 25))
    assert out.getvalue().splitlines()[-1].startswith("Not understood: banana banana banana ... (25 words).")


def test_louder_and_slower_say_the_level_and_the_end(tmp_path):
    session, out, sink = session_with_galaxis(tmp_path)
    for _ in range(5):
        session.type("louder")
    said = [line for line in out.getvalue().splitlines() if "olume" in line]
    assert said == ["Louder: volume 9 of 10.", "Louder: volume 10 of 10.", "Volume at maximum: volume 10 of 10.",
                    "Volume at maximum: volume 10 of 10.", "Volume at maximum: volume 10 of 10."]
    for _ in range(12):
        session.type("slower")
    said = [line for line in out.getvalue().splitlines() if "words a minute" in line]
    assert said[0] == "Slower: speech 150 words a minute."
    assert said[3] == "Slower: speech 80 words a minute."
    assert said[-1] == "Speech at its slowest: 80 words a minute."


def test_a_command_line_mistake_is_one_line_error_first(tmp_path):          # item 15
    from tests.conftest import run_console
    done = run_console(["--game", "chess"], [], tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == ["audio-console: argument --game: invalid choice: 'chess' (choose from "
                                        "'arkade', 'battleship', 'galaxis'). audio-console --help lists the options."]
    done = run_console(["--game", "battleship", "--option", "2", "--text"], [], tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["audio-console: --option does not apply to Battleship: Outer Space. "
                                        "audio-console --help lists the options."]
    done = run_console(["--game", "galaxis", "--option", "1", "--opponent", "computer", "--text"], ["quit"], tmp_path)
    assert done.returncode == 0 and "Team 2 is the computer" in done.stdout
