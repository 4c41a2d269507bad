"""Issue 13 item 3: Galaxis with two human teams keeps one privacy rule, Battleship's:
at each change of turn the console is passed, and nothing secret is printed or spoken
until the next team says ready; then the team at the console hears its own board."""
from audio_console.app.games import GAMES
from tests.robust.helpers import make_session


def play(tmp_path, option, lines, **options):
    session, out, sink = make_session(tmp_path)
    session.open_game(GAMES["galaxis"], {"option": option, **options}, 5)
    marks = []
    for line in lines:
        marks.append((len(out.getvalue()), len(sink.spoken)))
        session.type(line)
    return out.getvalue(), sink.spoken, marks


def test_option_1_keeps_the_queried_point_off_the_screen_and_the_speakers(tmp_path):
    text, spoken, marks = play(tmp_path, 1, ["D4", "summary", "what is at D4", "hint", "ready", "summary"])
    before_ready = text[marks[0][0]:marks[4][0]]
    said = " ".join(spoken[marks[0][1]:marks[4][1]])
    assert "Team 1: answered 2: two ships sighted." in before_ready
    assert "Pass the console to team 2. Team 2: say ready." in before_ready
    assert "D4" not in before_ready and "D4" not in said
    assert before_ready.count("The console is passing to team 2: team 2, say ready first.") == 3
    after = text[marks[4][0]:]
    assert after.startswith("Team 2: your query.")
    assert "Found 0 of 4" in after and "D4" not in after        # team 2's own board: D4 is not on it


def test_option_1_hints_are_spoken_to_the_team_at_the_console(tmp_path):
    text, spoken, marks = play(tmp_path, 1, ["hint"])
    hint = [line for line in text.splitlines() if line.startswith("Hint: ")][0]
    assert hint in spoken and "Answer on your screen." not in spoken


def test_option_3_passes_the_console_between_the_storing_teams(tmp_path):
    stores = ["A1", "A2", "A3", "A4"]
    # (each team's done agrees to the read-back of its four positions, said to it alone)
    text, spoken, marks = play(tmp_path, 3, stores + ["done", "B1", "summary", "ready", "B1", "B2", "B3", "B4",
                                                       "done", "ready", "summary"])
    between = text[marks[5][0]:marks[7][0]]
    assert between.count("The console is passing to team 2") == 2
    assert "A1" not in between and not any("A1" in s for s in spoken[marks[4][1]:marks[-1][1]])
    mine = text[marks[-1][0]:]
    assert "Your stored positions: A1, A2, A3, A4." in mine    # team 1 again, after its ready


def test_the_clock_waits_for_ready(tmp_path):
    session, out, sink = make_session(tmp_path)
    now = [0.0]
    session.clock = lambda: now[0]
    session.open_game(GAMES["galaxis"], {"option": 1, "time_limit": 10.0}, 5)
    session.type("D4")
    now[0] = 100.0
    session._tick()
    assert "time is up" not in out.getvalue()
    session.type("ready")
    now[0] = 105.0
    session._tick()
    assert "time is up" not in out.getvalue()
    now[0] = 111.0
    session._tick()
    assert "Team 2: time is up; the turn passes." in out.getvalue()


def test_against_the_computer_nothing_is_passed(tmp_path):
    text, spoken, marks = play(tmp_path, 1, ["D4"], opponent="computer", level=1)
    assert "Pass the console" not in text and "D4 answered 2" in text


def test_the_message_history_is_emptied_when_the_console_is_passed(tmp_path):
    """Issue 32 item 2: `history` and `previous message` never read team 1's stored
    ships to team 2."""
    stores = ["A1", "A2", "A3", "A4"]
    text, spoken, marks = play(tmp_path, 3, stores[:3] + ["summary", "A4", "done", "ready", "history"]
                               + ["previous message"] * 15)
    before = text[:marks[5][0]]
    assert "A1, A2, A3" in before                  # team 1 heard where it stored its ships
    after = text[marks[5][0]:]
    assert "Last " in after and not [square for square in stores if square in after]
