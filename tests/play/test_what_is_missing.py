"""A command said without the point, line or space it needs names what is missing,
in Battleship and Arkade as in Galaxis (issue 30, item 9), and Galaxis's words that
another game has no use for (mark, chance, why) say why not. Typed into the real console."""
from tests.conftest import run_console


def lines_of(args, typed, tmp_path):
    result = run_console(args + ["--text"], typed + ["quit"], tmp_path)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_battleship_names_the_missing_line_or_sector(tmp_path):
    lines = lines_of(["--game", "battleship", "--seed", "3"],
                     ["what is at", "what about", "shoot", "my sector", "mark A1", "chance of",
                      "what is at sector 1 row B"], tmp_path)
    assert lines.count("Which line? Say the sector and the line too, like what about sector 2 row D.") == 2
    assert "Where? Say a sector and a row or a column too, like shoot sector 2 row D." in lines
    assert "Which sector? Say my sector 1, 2 or 3." in lines
    assert "Battleship has no marks: every line you called is remembered; say read sector 2." in lines
    assert "Battleship has no chance of a line; say hint, then why." in lines
    assert "Sector 1 row B: unknown, not called yet." in lines       # "what is at" as in Galaxis
    assert not [l for l in lines if l.startswith("Not understood")]


def test_arkade_names_the_missing_space_or_line(tmp_path):
    lines = lines_of(["--game", "arkade", "--seed", "3"],
                     ["what is at", "read row", "listen to column", "choose", "mark A1", "why", "what is at C3"],
                     tmp_path)
    assert "Which space? Say the space too, like what is at C3." in lines
    assert "Which row? Say the row too, like read row C." in lines
    assert "Which column? Say the column too, like listen to column 3." in lines
    assert "Which saucer? Say its space too, like choose C3." in lines
    assert "Arkade has no marks: both sides see every piece; say what is at C3." in lines
    assert "Arkade has no hints: what can I do names every move your dice allow." in lines
    assert any(l.startswith("C3: ") for l in lines)
    assert not [l for l in lines if l.startswith("Not understood")]
