"""Issue 32 item 2: the message history. `previous message` and `next message` step
through the lines said (the last 200 kept), `history` reads the last five, and
`repeat` stays the last reply: in every game, the menu and the drills, typed and in
the grammar the recognizers listen with."""
import pytest

from audio_console.commands.vocabulary import common_grammar
from audio_console.console.history import HISTORY_SIZE, MessageHistory
from audio_console.contract.base import Message
from audio_console.app.games import GAMES
from tests.robust.helpers import make_session

# Per place: how to open it, and two commands that each say something different.
PLACES = {
    "galaxis": (lambda s: s.open_game(GAMES["galaxis"], {"option": 2}, 1), ["query D5", "query B2", "query C3", "query E7"]),
    "battleship": (lambda s: s.open_game(GAMES["battleship"], {"opponent": "computer"}, 1),
                   ["status", "help"]),
    "arkade": (lambda s: s.open_game(GAMES["arkade"], {"mode": "strategy"}, 1), ["status", "help"]),
    "menu": (lambda s: s.open_menu([]), ["help", "status"]),
    "ear drill": (lambda s: s.open_game(GAMES["galaxis"], {"practice": "ear"}, 3), ["status", "hint", "skip", "status"]),
    "tutorial": (lambda s: s.open_game(GAMES["galaxis"], {"practice": "tutorial"}, 1), ["status", "help"]),
    "long ear drill": (lambda s: s.open_game(GAMES["galaxis"], {"practice": "ear-long"}, 3),
                       ["status", "hint", "skip", "status"]),
    "galaxis option 1": (lambda s: s.open_game(GAMES["galaxis"], {"option": 1}, 1), ["status", "help"]),
    "galaxis option 3 storing": (lambda s: s.open_game(GAMES["galaxis"], {"option": 3}, 1), ["status", "help"]),
    "galaxis demonstration": (lambda s: s.open_game(GAMES["galaxis"], {"option": 2, "opponent": "computer"}, 1),
                              ["status", "next", "next"]),
    "battleship placing": (lambda s: s.open_game(GAMES["battleship"], {"opponent": "computer",
                                                                       "placement": "manual"}, 1),
                           ["status", "help"]),
    "arkade arcade": (lambda s: s.open_game(GAMES["arkade"], {"mode": "arcade"}, 1), ["status", "dice"]),
    "arkade tutorial": (lambda s: s.open_game(GAMES["arkade"], {"practice": "tutorial"}, 1),
                        ["status", "what now"]),
}


def said_after(out, before: str) -> list[str]:
    return out.getvalue()[len(before):].splitlines()


# Where the place itself takes "previous" or "next" (the menu's question before, the
# tutorial's steps, the demonstration's next query), the player says "previous
# message" and "next message".
TAKEN = {"menu", "tutorial", "galaxis demonstration"}


@pytest.mark.parametrize("place", sorted(PLACES))
def test_previous_next_history_and_repeat_everywhere(tmp_path, place):
    session, out, sink = make_session(tmp_path)
    open_place, commands = PLACES[place]
    open_place(session)
    for command in commands:
        before = out.getvalue()
        session.type(command)
    kept = [m.text for m in session.history.lines]
    assert len(kept) >= 5 and kept[-1] in said_after(out, before)   # the newest line said

    before = out.getvalue()
    session.type("previous message")
    assert said_after(out, before) == [kept[-2]]         # one line back from the newest
    if place not in TAKEN:                                 # the short words
        before = out.getvalue()
        session.type("previous")
        assert said_after(out, before) == [kept[-3]]
        before = out.getvalue()
        session.type("next")
        assert said_after(out, before) == [kept[-2]]
    before = out.getvalue()
    session.type("next message")
    assert said_after(out, before) == [kept[-1]]
    before = out.getvalue()
    session.type("next message")
    assert said_after(out, before) == ["No later message: that was the newest."]
    before = out.getvalue()
    session.type("history")
    assert said_after(out, before) == ["Last five messages, oldest first:"] + kept[-5:]
    before = out.getvalue()
    session.type("repeat")
    last_reply = [m.text for m in session.last_messages if m.text]
    assert said_after(out, before)[:len(last_reply)] == last_reply   # repeat: still the last reply
    assert last_reply[-1] in kept
    assert [m.text for m in session.history.lines] == kept     # read-backs are not kept again


def test_the_first_previous_after_a_new_line_starts_again_from_the_newest(tmp_path):
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES["galaxis"], {"option": 2}, 1)
    session.type("query D5")
    session.type("previous message")
    session.type("previous message")
    session.type("query B2")
    kept = [m.text for m in session.history.lines]
    before = out.getvalue()
    session.type("previous message")
    assert said_after(out, before) == [kept[-2]]


def test_the_ends_of_the_history_are_said_and_the_place_kept(tmp_path):
    history = MessageHistory()
    assert history.previous().messages[0].text == "No messages yet."
    history.add([Message("one"), Message("two")])
    assert history.next().messages[0].text == "No later message: that was the newest."
    assert history.previous().messages[0].text == "one"
    assert history.previous().messages[0].text == "No earlier message: that was the oldest kept."
    assert history.next().messages[0].text == "two"


def test_two_hundred_lines_are_kept_without_their_signals(tmp_path):
    history = MessageHistory()
    history.add([Message(f"line {n}", signal="answer_1") for n in range(HISTORY_SIZE + 50)])
    assert HISTORY_SIZE >= 200 and len(history.lines) == HISTORY_SIZE
    assert history.lines[0].text == "line 50" and history.lines[0].signal is None
    for _ in range(HISTORY_SIZE - 1):
        history.previous()
    assert history.previous().messages[0].text.startswith("No earlier message")


def test_a_secret_stays_off_the_speakers_when_read_back(tmp_path):
    history = MessageHistory()
    history.add([Message("Your ships: A1, A2.", speech=""), Message("Your turn.")])
    back = history.previous().messages[0]
    assert back.text == "Your ships: A1, A2." and back.spoken == ""


def test_the_history_commands_are_spoken_commands_for_voice(tmp_path):
    grammar = common_grammar()
    phrases = set(grammar.phrases())         # what the recognizers listen for
    for said, name in [("previous message", "previous message"), ("next message", "next message"),
                       ("history", "history"), ("previous", "previous message"), ("next", "next message")]:
        assert grammar.parse(said).name == name
        assert said in phrases


def test_the_history_by_voice(tmp_path):
    """Heard as a recognizer hands them over: the same lines as typed."""
    from audio_console.voice import Heard
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES["battleship"], {"opponent": "computer"}, 1)
    session.type("status")
    session.type("help")
    kept = [m.text for m in session.history.lines]
    before = out.getvalue()
    session.hear(Heard("previous message", session.parse("previous message"), 0.9, False))
    assert said_after(out, before) == [kept[-2]]
    before = out.getvalue()
    session.hear(Heard("history", session.parse("history"), 0.9, False))
    assert said_after(out, before) == ["Last five messages, oldest first:"] + kept[-5:]


def test_the_history_typed_into_the_real_console(tmp_path):
    from tests.conftest import run_console
    done = run_console(["--game", "battleship", "--seed", "1", "--text"],
                       ["status", "previous message", "history", "quit"], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    newest = lines.index("Your fleet: 25 of 25 holes unhit; vaporized: none; enemy calls at you: 0.")
    assert lines[newest + 1] == lines[newest - 1]           # previous message: the line before the newest
    assert lines[newest + 2] == "Last five messages, oldest first:"
    assert lines[newest + 3:newest + 8][-2:] == lines[newest - 1:newest + 1]
    assert lines[newest + 8:] == ["Game saved. Goodbye."]
