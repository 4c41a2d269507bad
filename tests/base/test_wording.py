"""The shared words: every game counts things the same way."""
from audio_console.base.wording import counted, noun, number_word, sentence, word_number


def test_one_thing_is_singular_and_every_other_count_plural():
    assert counted(1, "booster") == "1 booster"
    assert counted(0, "saucer") == "0 saucers"
    assert counted(3, "ship", words=True) == "three ships"
    assert counted(2, "quadron", "quadrons") == "2 quadrons"
    assert noun(1, "action") == "action" and noun(5, "action") == "actions"


def test_numbers_as_words_and_back():
    assert number_word(0) == "zero" and number_word(10) == "ten" and number_word(99) == "99"
    assert word_number("seven") == 7 and word_number("7") == 7 and word_number("Ten ") == 10
    assert word_number("banana") is None and word_number("9" * 5000) is None


def test_a_sentence_starts_with_a_capital_and_keeps_the_rest():
    assert sentence("fleet ready.") == "Fleet ready."
    assert sentence("  D5 answered 2.") == "D5 answered 2."
