"""Issue 30 item 5: `rules` in every game speaks a short rules summary, a page of
about 20 s at a time (`more`: the next), a line at a time (so that typing or stop cuts
it off, like any speech); Arkade has a first-game walkthrough that explains the dice
colours and how to find a move without `what can I do`, followed here by typing what
its coach says, through the real session."""
import re

import pytest

from audio_console.app.games import GAMES
from audio_console.console.pager import PAGE_WORDS
from tests.conftest import run_console
from tests.robust.helpers import make_session

# Words a second of the slowest page of rules at the default rate (the numbers and
# letters of Battleship's grids), by scripts/bench_rules_speech.py in
# docs/measurements/rules-speech.md: a page of PAGE_WORDS words takes at most
# PAGE_WORDS / SLOWEST_WORDS_A_SECOND seconds.
SLOWEST_WORDS_A_SECOND = 2.7
PAGE_SECONDS = 20.5          # "about 20 s": what a listener can hold before the next choice
LAST_PAGE = "Last part. Say how to play to start again, or help for commands."
NOTHING_MORE = "Nothing more to say: that was all of it. Say repeat to hear it again."

ARKADE = ["Arkade rules, in short.", "To win: the Alien flies a saucer to row H", "the Defence destroys every saucer",
          "yellow, pink and purple", "every space is blue, orange or green",
          "the Alien's two flight dice show these same colours", "forward or sideways, onto a free space of its colour",
          "never backwards, diagonally or over a saucer", "fly B1 forward", "read row C", "what can I do"]
DEFENCE = ["flight, 1 to 6", "Ship to 4 flies to the column rolled", "booster left or right", "shoot hits the column's nearest saucer"]
GAMES_AND_OPTIONS = [
    ("galaxis", {"option": 1}, ["Galaxis rules, in short.", "answers discovered", "0 to 4", "a 0 empties",
                                "Option 1: two teams", "never the point"]),
    ("galaxis", {"option": 2}, ["eight beams", "Option 2: you alone"]),
    ("galaxis", {"option": 3, "time_limit": 60.0}, ["caution spaceship", "Time limit: 60 seconds a turn"]),
    ("battleship", {"opponent": "computer"}, ["Battleship rules, in short.", "rows A to J and columns 1 to 10",
                                              "Quadron, 8 holes", "like sector 2 row D", "hit or miss",
                                              "To win: vaporize the other's whole fleet"]),
    ("arkade", {"mode": "strategy"}, ARKADE + DEFENCE + ["Strategy Mode: the sides take turns", "say done",
                                                         "up to 3 a turn"]),
    ("arkade", {"mode": "arcade"}, ARKADE + DEFENCE + ["Arcade Mode: both sides play at once", "every 3 seconds",
                                                       "computer pace 5 seconds slows it", "the computer waits"]),
    ("galaxis", {"practice": "tutorial"}, ["Galaxis rules, in short.", "Option 3"]),
]


def heard_pages(session, out, sink) -> list[list[str]]:
    """`rules`, then `more` until nothing more is said: each page as printed (and spoken)."""
    pages = []
    for asked in ["rules"] + ["more"] * 9:
        mark, said = len(out.getvalue()), len(sink.spoken)
        session.type(asked)
        page = out.getvalue()[mark:].splitlines()
        assert page == sink.spoken[said:], asked        # printed and spoken, line by line
        if page == [NOTHING_MORE]:
            return pages
        pages.append(page)
    raise AssertionError(f"more never ran out: {pages[-1]}")


@pytest.mark.parametrize("game, options, facts", GAMES_AND_OPTIONS)
def test_rules_in_every_game_are_said_in_pages_of_about_20_seconds(tmp_path, game, options, facts):
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES[game], options, 1)
    pages = heard_pages(session, out, sink)
    count = len(pages)
    assert 3 <= count <= 6
    for number, page in enumerate(pages, 1):          # each page ends with what to say next
        words = sum(len(line.split()) for line in page)
        assert words <= PAGE_WORDS and words / SLOWEST_WORDS_A_SECOND <= PAGE_SECONDS, (words, page)
        assert page[-1] == (LAST_PAGE if number == count else
                            f"Say more for part {number + 1} of {count}, or go on playing."), page
    rules = [line for page in pages for line in page]
    text = " ".join(rules)
    for fact in facts:
        assert fact in text, fact
    assert "shared" not in text and "rulebooks" not in text
    assert all(len(line) < 300 for line in rules)       # each a sentence or two: cut off between them
    mark = len(out.getvalue())
    session.type("how do I play")                       # typed in other words: the rules from the start
    assert out.getvalue()[mark:].splitlines() == pages[0]
    mark = len(out.getvalue())
    session.type("repeat")                              # the page again (then the prompt)
    assert out.getvalue()[mark:].splitlines()[:len(pages[0])] == pages[0]


@pytest.mark.parametrize("mode", ["strategy", "arcade"])
def test_arkade_says_the_goal_the_dice_colours_and_how_to_fly_in_its_first_three_pages(tmp_path, mode):
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES["arkade"], {"mode": mode}, 1)
    pages = [" ".join(page) for page in heard_pages(session, out, sink)]
    assert "To win: the Alien flies a saucer to row H" in pages[0] and "destroys every saucer" in pages[0]
    assert "flight dice show these same colours" in pages[1] and "never backwards" in pages[1]
    assert "fly B1 forward" in pages[2] and "read row C" in pages[2]


def test_repeat_says_the_page_heard_and_rules_again_starts_over(tmp_path):
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES["arkade"], {"mode": "strategy"}, 1)
    pages = heard_pages(session, out, sink)
    session.type("rules")
    session.type("more")
    session.type("more")                                # page 3 heard
    for asked, page in [("repeat", 2), ("rules", 0), ("more", 1), ("more", 2), ("more", 3)]:
        mark = len(out.getvalue())
        session.type(asked)
        assert out.getvalue()[mark:].splitlines()[:len(pages[page])] == pages[page], asked


def test_rules_is_understood_in_the_menu_and_from_the_command_line(tmp_path):
    result = run_console(["--text", "--save", str(tmp_path / "s.json")], ["rules", "quit"], tmp_path)
    assert "Each game's rules are told in short when you choose it and say rules" in result.stdout
    assert "Not understood" not in result.stdout
    result = run_console(["--text", "--save", str(tmp_path / "s.json")],
                         ["arkade", "rules", "more", "arcade", "rules", "more", "more", "more", "more"],
                         tmp_path)
    assert "Not understood" not in result.stdout
    assert result.stdout.count("Arkade rules, in short.") == 2    # the chosen game's, in the menu
    assert "Strategy Mode: the sides take turns" not in result.stdout  # the last page only once arcade was chosen
    assert "Say more for part 2 of 5, or go on choosing." in result.stdout.splitlines()   # the menu's question waits
    assert "Arcade Mode: both sides play at once;" in result.stdout
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
