"""A long spoken line starts with its first clause, so that its first sound is not
held back while the whole line renders."""
from audio_console.audio.engine import first_part


def test_a_long_line_is_cut_after_its_first_clause():
    assert first_part("E7 answered 2, two ships sighted, earlier. Still your turn.") == \
        ("E7 answered 2,", "two ships sighted, earlier. Still your turn.")
    hint = "Hint 1: query D5. D5 is the best query now: of the 595,665 placements left"
    assert first_part(hint) == ("Hint 1: query D5.", "D5 is the best query now: of the 595,665 placements left")


def test_short_lines_and_numbers_stay_whole():
    for line in ("Say again.", "D5, answer one", "Found 0 of 4 in 2 queries.", "of the 595,665 placements left"):
        assert first_part(line) == (line, "")
