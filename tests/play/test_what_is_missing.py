"""A command said without the point, line or space it needs names what is missing,
in Battleship and Arkade as in Galaxis (issue 30, item 9), and Galaxis's words that
another game has no use for (mark, chance, why) say why not. Typed into the real console."""
import pytest

from tests.conftest import run_console

BATTLESHIP = {
    "what is at": "Which line? Say the sector and the line too, like what about sector 2 row D.",
    "what about": "Which line? Say the sector and the line too, like what about sector 2 row D.",
    "shoot": "Where? Say a sector and a row or a column too, like shoot sector 2 row D.",
    "my sector": "Which sector? Say my sector 1, 2 or 3.",
    "mark A1": "Battleship has no marks: every line you called is remembered; say read sector 2.",
    "chance of": "Battleship has no chance of a line; say hint, then why.",
    "what is at sector 1 row B": "Sector 1 row B: unknown, not called yet.",    # as Galaxis says it
}
ARKADE = {
    "what is at": "Which space? Say the space too, like what is at C3.",
    "read row": "Which row? Say the row too, like read row C.",
    "listen to column": "Which column? Say the column too, like listen to column 3.",
    "choose": "Which saucer? Say its space too, like choose C3.",
    "mark A1": "Arkade has no marks: both sides see every piece; say what is at C3.",
    "why": "Arkade has no hints: what can I do names every move your dice allow; how to play, the rules.",
}


@pytest.mark.parametrize("game, answers", [("battleship", BATTLESHIP), ("arkade", ARKADE)])
def test_a_command_without_its_line_or_space_says_what_to_add(game, answers, tmp_path):
    typed = list(answers)
    result = run_console(["--game", game, "--seed", "3", "--text"], typed + ["quit"], tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    said = [lines.index(answers[line]) for line in typed]        # each answered, in the order typed
    assert said == sorted(said)
    expected = list(answers.values())
    assert all(lines.count(answer) == expected.count(answer) for answer in expected)
    assert not [line for line in lines if line.startswith("Not understood")]
