"""Issue 30 item 5: `rules` in every game speaks a short rules summary, a page at a
time (`more`: the next), a line at a time (so that typing or stop cuts it off, like any speech); Arkade has a first-game
walkthrough that explains the dice colours and how to find a move without `what can
I do`, followed here by typing what its coach says, through the real session."""
import re

import pytest

from audio_console.app.games import GAMES
from tests.conftest import run_console
from tests.robust.helpers import make_session

GAMES_AND_OPTIONS = [
    ("galaxis", {"option": 1}, ["Galaxis rules, in short.", "Option 1: two teams", "never the point"]),
    ("galaxis", {"option": 2}, ["eight beams", "Option 2: you alone"]),
    ("galaxis", {"option": 3, "time_limit": 60.0}, ["caution spaceship", "a turn lasts 60 seconds"]),
    ("battleship", {"opponent": "computer"}, ["Battleship: Outer Space rules, in short.", "hit or miss",
                                              "Quadron, 8 holes"]),
    ("arkade", {"mode": "strategy"}, ["Arkade rules, in short.", "flight dice show these same colours",
                                      "Strategy Mode: the sides take turns", "read row C", "fly B1 forward",
                                      "ship to 4"]),
    ("arkade", {"mode": "arcade"}, ["Arcade Mode: both sides play at once", "every 3 seconds",
                                    "Computer pace 5 seconds slows it, at any time"]),
    ("galaxis", {"practice": "tutorial"}, ["Galaxis rules, in short.", "Option 3"]),
]


@pytest.mark.parametrize("game, options, facts", GAMES_AND_OPTIONS)
def test_rules_in_every_game_are_said_a_page_at_a_time(tmp_path, game, options, facts):
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES[game], options, 1)
    pages = []
    for asked in ["rules"] + ["more"] * 4:
        mark, said = len(out.getvalue()), len(sink.spoken)
        session.type(asked)
        page = out.getvalue()[mark:].splitlines()
        assert page == sink.spoken[said:], asked        # printed and spoken, line by line
        pages.append(page)
    ends = [page[-1] for page in pages]
    count = next(i for i, end in enumerate(ends) if end.endswith("Say help for what you can say now.")) + 1
    assert 2 <= count <= 4
    for number, end in enumerate(ends[:count - 1], 1):  # each page says what more brings
        assert end == f"Rules, part {number} of {count}. Say more for part {number + 1}."
    assert ends[count] == "Nothing more to say: that was all of it. Say repeat to hear it again."
    rules = [line for page in pages[:count] for line in page]
    text = " ".join(rules)
    for fact in facts:
        assert fact in text, fact
    assert "shared" not in text and "rulebooks" not in text
    assert all(len(line) < 400 for line in rules)       # each a sentence or three: cut off between them
    assert sum(len(line) for line in pages[0]) < 800     # the first page: well under a minute of speech
    mark = len(out.getvalue())
    session.type("how do I play")                       # typed in other words: the same rules
    assert out.getvalue()[mark:].splitlines() == pages[0]
    mark = len(out.getvalue())
    session.type("repeat")                              # the page again (then the prompt)
    assert out.getvalue()[mark:].splitlines()[:len(pages[0])] == pages[0]


def test_rules_is_understood_in_the_menu_and_from_the_command_line(tmp_path):
    result = run_console(["--text", "--save", str(tmp_path / "s.json")], ["rules", "quit"], tmp_path)
    assert "Each game's rules are told in short when you choose it and say rules" in result.stdout
    assert "Not understood" not in result.stdout
    result = run_console(["--text", "--save", str(tmp_path / "s.json")],
                         ["arkade", "rules", "more", "arcade", "rules", "more", "more"], tmp_path)
    assert "Not understood" not in result.stdout
    assert result.stdout.count("Arkade rules, in short.") == 2    # the chosen game's, in the menu
    assert "Strategy Mode: the sides take turns" not in result.stdout  # page 3 only once arcade was chosen
    assert "Arcade Mode: both sides play at once." in result.stdout
    result = run_console(["--game", "arkade", "--text", "--save", str(tmp_path / "s.json")], ["rules"], tmp_path)
    assert "Arkade rules, in short." in result.stdout and "Not understood" not in result.stdout


def said_next(text: str, prompt: str) -> str:
    """What the coach's last line tells the player to say ("Say fly the pink saucer at B1 forward.")."""
    lines = [line for line in text.splitlines() if line != prompt]
    found = re.findall(r"[Ss]ay ([A-Za-z0-9 ]+?)[.:,;]", "\n".join(lines))
    return found[-1] if found else ""


def test_the_arkade_walkthrough_is_followed_by_typing_what_it_says(tmp_path):
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES["arkade"], {"mode": "strategy", "practice": "tutorial"}, 7)
    intro = out.getvalue()
    assert "Your two flight dice show these same colours" in intro
    assert "Every space is blue, orange or green." in intro
    typed, after = [], intro
    for _ in range(40):
        mark = len(out.getvalue())
        line = said_next(after, session.console.prompt())      # from the coach's last answer
        assert line, out.getvalue()[-600:]
        typed.append(line)
        session.type(line)
        after = out.getvalue()[mark:]
        assert "Not understood" not in after and "cannot" not in after, (line, after)
        if "That was the walkthrough" in after or session.console.finished():
            break
    text = out.getvalue()
    assert "That was the walkthrough: the game goes on without me." in text or session.console.finished()
    assert "the colours of the board's spaces" in text
    assert "To find a flight yourself, without what can I do: read row" in text
    assert text.count("Say done: then the Defence plays its turn.") >= 2
    assert "The Defence has played" in text and "Your turn again: say roll." in text
    assert "what can I do" not in typed and sum(t.startswith("fly") for t in typed) >= 4
    assert not (tmp_path / "game.json").exists()           # practice: never saved


def test_the_walkthrough_what_now_and_its_refusals(tmp_path):
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES["arkade"], {"practice": "tutorial"}, 7)
    session.type("roll")
    mark = len(out.getvalue())
    session.type("what now")
    again = out.getvalue()[mark:]
    assert "the colours of the board's spaces" in again and "For example" in again
    before = session.console.core.snapshot()
    mark = len(out.getvalue())
    session.type("fly A1 back")                            # refused as in a game, nothing changes
    assert out.getvalue()[mark:] == "Saucers never fly backwards.\n"
    assert session.console.core.snapshot() == before


def test_the_walkthrough_from_the_menu_and_the_command_line(tmp_path):
    result = run_console(["--text", "--save", str(tmp_path / "s.json")], ["arkade", "walkthrough", "roll"], tmp_path)
    assert "Arkade walkthrough: a first game, explained step by step." in result.stdout
    assert "Who plays the Alien?" not in result.stdout and "Your dice show" in result.stdout
    result = run_console(["--game", "arkade", "--practice", "tutorial", "--text", "--seed", "3",
                          "--save", str(tmp_path / "t.json")], ["roll"], tmp_path)
    assert result.returncode == 0 and "Your dice show" in result.stdout
    refused = run_console(["--game", "arkade", "--practice", "ear", "--text"], [], tmp_path)
    assert refused.returncode == 2
    assert "Arkade has no ear practice; --practice tutorial is its first-game walkthrough" in refused.stderr
