"""Every view of the Galaxis board memory speaks one vocabulary (issue 30, item 1):
"ruled out" is what the answers prove empty, "marked by you" the player's own info
peg, "unknown" a point nothing is known about; and the smaller questions name what
is missing (item 9). Typed into the real console."""
from tests.conftest import run_console

# Seed 6, option 2: D5 answers 0, so its 8 beams' points are empty.
ARGS = ["--game", "galaxis", "--seed", "6", "--text"]


def lines_of(result):
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_after_an_answer_of_0_every_view_calls_the_same_points_ruled_out(tmp_path):
    lines = lines_of(run_console(ARGS, ["D5", "read row D", "which points are ruled out", "summary",
                                        "chance of D6", "what is at D6", "what is at A1",
                                        "listen to row D", "quit"], tmp_path))
    assert "D5 answered 0: no ship in sight." in lines
    ruled = next(l for l in lines if l.startswith("Ruled out ") and "D6" in l)
    listed = set(ruled.split(": ", 1)[1].rstrip(".").split(", "))
    assert len(listed) == int(ruled.split()[2].rstrip(":")) and "D6" in listed
    row = next(l for l in lines if l.startswith("Row D:"))
    assert row == ("Row D: D1 ruled out, D2 ruled out, D3 ruled out, D4 ruled out, D5 0, "
                   "D6 ruled out, D7 ruled out, D8 ruled out, D9 ruled out.")
    assert lines.count(row) == 2                     # listen to row D says the same line
    assert "open" not in " ".join(lines)             # the old second word for "unknown" is gone
    # summary: the same list as which points are ruled out, and the rest unknown
    assert lines.count(ruled) == 2
    assert f"Unknown: {63 - 1 - len(listed)} of 63." in lines
    assert "D6: ruled out by the answers; no chance of a ship." in lines
    assert "D6: ruled out by the answers." in lines
    assert ("A1: unknown." in lines) == ("A1" not in listed)


def test_the_players_own_marks_are_said_apart_from_what_the_answers_rule_out(tmp_path):
    lines = lines_of(run_console(ARGS, ["D5", "mark A1", "mark D6", "what is at A1", "what is at D6",
                                        "read row A", "summary", "unmark A1", "what is at A1", "quit"],
                                 tmp_path))
    assert ("A1 marked by you: an info peg, your note that no ship is there; "
            "the answers do not rule it out.") in lines
    assert ("D6 marked by you: an info peg, your note that no ship is there; "
            "the answers rule it out too.") in lines
    assert "A1: marked by you; the answers do not rule it out." in lines
    assert "D6: ruled out by the answers, marked by you." in lines
    assert next(l for l in lines if l.startswith("Row A:")).startswith("Row A: A1 marked by you, A2 ruled out,")
    assert "Marked by you, not ruled out by the answers 1: A1." in lines
    assert "A1 no longer marked by you." in lines and lines.count("A1: unknown.") == 1


def test_questions_without_a_good_point_say_what_is_missing_or_wrong(tmp_path):
    lines = lines_of(run_console(ARGS, ["what is at", "chance of Q1", "chance of", "mark", "quit"], tmp_path))
    assert "Which point? Say the point too, like what is at D5." in lines
    assert "Q1 is not on the board: row Q is off the board; rows go from A to G." in lines
    assert "Which point? Say the point too, like chance of D5." in lines
    assert "Which point? Say the point too, like mark D5." in lines
    assert not [l for l in lines if l.startswith("Not understood")]


def test_a_mark_after_the_game_is_over_is_refused_in_one_line(tmp_path):
    from tests.galaxis.test_cli import ALL
    lines = lines_of(run_console(["--game", "galaxis", "--seed", "1", "--text"],
                                 ALL + ["mark D5", "unmark D5", "quit"], tmp_path))
    assert lines[-3:] == ["The game is over. Say new game, or quit."] * 2 + ["Goodbye."]
    assert not [l for l in lines if "marked by you" in l]


def test_auto_marks_are_said_as_auto_marks_and_never_as_yours(tmp_path):
    lines = lines_of(run_console(ARGS, ["D5", "auto mark on", "what is at D4", "summary", "unmark D4",
                                        "undo", "what is at D4", "quit"], tmp_path))
    auto = next(l for l in lines if l.startswith("Auto mark: "))
    assert auto.startswith("Auto mark: 26 points ruled out by the answers, marked for you: A2, A5,")
    assert lines.count("D4: ruled out by the answers, marked for you by auto mark.") == 2
    assert "D4 no longer marked for you by auto mark." in lines
    assert "Undone: D4 marked for you by auto mark again." in lines
    assert not [l for l in lines if l.startswith("Marked by you")]    # none of these pegs is the player's


def test_a_chance_or_a_hint_on_a_point_you_marked_says_the_answers_do_not_rule_it_out(tmp_path):
    lines = lines_of(run_console(ARGS, ["D5", "hint", "mark C3", "chance of C3", "hint", "why", "quit"],
                                 tmp_path))
    assert "Hint: C3." in lines
    assert next(l for l in lines if l.startswith("C3: a ship with chance ")).endswith(
        "; marked by you; the answers do not rule it out.")
    assert "Hint: C3, though marked by you." in lines
    why = next(l for l in lines if l.startswith("Why C3: "))
    assert why.endswith("You marked it, but the answers do not rule it out. Hints used: 2.")


def test_listen_plays_your_own_mark_apart_from_what_the_answers_rule_out(tmp_path):
    from audio_console.audio.sonify import STEP
    from tests.audio.analysis import count_onsets, envelope
    from tests.robust.helpers import make_session, start
    session, out, sink = make_session(tmp_path)
    start(session, "galaxis", seed=6, option=2)
    for line in ["D5", "mark A1", "listen to row A"]:
        session.type(line)
    row = next(l for l in out.getvalue().splitlines() if l.startswith("Row A:"))
    assert row.startswith("Row A: A1 marked by you, A2 ruled out, A3 unknown,") and row in sink.spoken
    stereo, rate = sink.samples[-1]
    point = [stereo[int(i * STEP * rate):int((i + 1) * STEP * rate)] for i in range(3)]
    onsets = [count_onsets(envelope(p, rate), min_gap=2) for p in point]
    assert onsets[0] == 2 and onsets[1] == 1              # the player's peg: a knock-knock; proved: one thud
    loud = [float((p ** 2).sum()) for p in point]
    assert loud[2] < min(loud[:2])                        # unknown: the faint pip
