"""Issue 13 item 9: Galaxis's review replays the game in the order it was played,
counts as the game counted, and names the team."""
from tests.conftest import run_console

# Storing: each team's "ready" agrees to the read-back of its four, the next takes the console.
OPTION_3_GAME = ["B2", "C5", "E7", "F3", "ready", "ready", "G9", "A1", "D5", "C5", "ready", "ready",
                 "D4", "ready", "B2", "ready", "D4", "ready", "C5", "C5", "ready",   # C5: asked once, then given away
                 "caution spaceship E7", "ready", "caution spaceship C5", "ready", "F3", "ready",
                 "review", "quit"]


def review_lines(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "eview of" in line)
    end = next(i for i, line in enumerate(lines) if line.startswith("End of review"))
    return lines[start:end + 1]


def test_option_3_review_follows_the_game_in_order_and_counts_as_it_did(tmp_path):
    result = run_console(["--game", "galaxis", "--option", "3", "--text", "--seed", "5"],
                         OPTION_3_GAME, tmp_path)
    assert "Team 2 wins! All four ships found. Queries: team 1 2, team 2 4." in result.stdout
    lines = review_lines(result.stdout)
    assert lines[0] == "Team 2: review of 4 queries."
    assert lines[1].startswith("Query 1: B2 answered discovered.")
    assert "certain ship" not in lines[1]          # E7 was given away only later
    assert lines[2] == "Query 2: C5 was your own ship, given to the other team."
    assert lines[3] == "E7 was given away by the other team: a ship for you."
    assert lines[4].startswith("Query 3, caution: C5 answered discovered.")
    assert lines[5].startswith("Query 4: F3 answered discovered.")
    assert lines[-1] == "End of review: team 2 found 4 of 4 ships in 4 queries."


def test_a_one_team_review_counts_its_queries(tmp_path):
    result = run_console(["--game", "galaxis", "--text", "--seed", "5"],
                         ["D4", "E5", "review", "quit"], tmp_path)
    lines = review_lines(result.stdout)
    assert lines[0] == "Review of 2 queries."
    assert [line.split(":")[0] for line in lines[1:3]] == ["Query 1", "Query 2"]
    assert lines[-1] == "End of review: 0 of 4 ships found in 2 queries."


def test_option_1_against_the_computer_reviews_the_players_queries_alone(tmp_path):
    """Both teams hunt the same ships: the computer's queries are no empty points."""
    result = run_console(["--game", "galaxis", "--option", "1", "--opponent", "computer", "--text",
                          "--seed", "3"], ["B7", "C4", "D2", "E6", "review", "quit"], tmp_path)
    assert "Traceback" not in result.stderr
    lines = review_lines(result.stdout)
    assert lines[0].startswith("Team 1: review of")
    assert all(line.startswith(("Query", "End of review")) for line in lines[1:])
