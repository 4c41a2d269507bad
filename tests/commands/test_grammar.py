"""One parser for typed and spoken commands (docs/commands.md): every spoken form also works typed."""
import pytest

from audio_console.commands.grammar import normalize
from audio_console.commands.vocabulary import common_grammar
from audio_console.galaxis.commands import grammar

SEARCH = grammar("searching", 3) + common_grammar()


@pytest.mark.parametrize("said, canonical", [
    ("delta five", "query D5"), ("d5", "query D5"), ("D 5", "query D5"), ("D-5", "query D5"),
    ("Delta Five", "query D5"), ("alfa one", "query A1"), ("golf nine", "query G9"),
    ("search echo 3", "query E3"),
    ("caution spaceship delta five", "caution D5"), ("Caution! Spaceship! D5", "caution D5"),
    ("what is at D5", "what D5"), ("what is at delta five", "what D5"), ("what about c 2", "what C2"),
    ("read row D", "read row D"), ("read row delta", "read row D"), ("read column 5", "read column 5"),
    ("read column five", "read column 5"), ("listen to row b", "listen row B"),
    ("mark D5", "mark D5"), ("rule out D5", "mark D5"), ("unmark d5", "unmark D5"),
    ("repeat", "repeat"), ("help", "help"), ("status", "status"), ("undo", "undo"), ("yes", "yes"),
    ("no", "no"), ("cancel", "cancel"), ("stop", "stop"), ("quit", "quit"), ("new game", "new game"),
    ("hint", "hint"), ("louder", "louder"), ("softer", "softer"), ("faster", "faster"),
    ("slower", "slower"), ("summary", "summary"), ("quick signals", "timing quick"),
])
def test_canonical_forms(said, canonical):
    assert str(SEARCH.parse(said)) == canonical


@pytest.mark.parametrize("said", ["k12", "h1", "d0", "d10", "delta", "five", "banana", "", "read row k",
                                  "caution", "mark", "spaceship delta five"])
def test_refuses_what_is_not_a_command(said):
    assert SEARCH.parse(said) is None


def test_caution_only_in_option3_and_storing_phase_has_its_own_words():
    assert grammar("searching", 1).parse("caution d5") is None
    assert str(grammar("storing", 3).parse("d5")) == "store D5"


def test_every_spoken_phrase_parses_and_uses_only_listed_words():
    words = SEARCH.words()
    phrases = list(SEARCH.phrases())
    assert "delta five" in phrases and "caution spaceship delta five" in phrases
    for phrase in phrases:
        assert SEARCH.parse(phrase) is not None, phrase
        assert set(phrase.split()) <= words
    assert not any(w.isdigit() for w in words)            # digits are typed, never listened for


def test_jsgf_names_every_word_the_parser_knows_by_voice():
    jsgf = SEARCH.jsgf("galaxis")
    assert jsgf.startswith("#JSGF V1.0;") and "public <command>" in jsgf
    for word in SEARCH.words():
        assert word in jsgf


def test_normalize_splits_letters_from_digits():
    assert normalize("D5!") == ["d", "5"] and normalize("sector2 rowD") == ["sector", "2", "rowd"]


def test_a_group_may_hold_several_words():
    from audio_console.commands.grammar import Grammar, Rule
    from audio_console.commands.vocabulary import letter_slot, number_slot
    g = Grammar([Rule("chance", "chance {row}{column}", ["[what is the] chance [of] <row> <column>"])],
                [letter_slot("row", "ABCDEFG"), number_slot("column", 1, 9)])
    assert str(g.parse("what is the chance of d5")) == "chance D5"
    assert str(g.parse("chance d5")) == "chance D5"
    assert g.parse("what is chance of d5") is None            # a group is taken whole or not at all
    assert {"what", "is", "the"} <= g.words() and "what is the" not in g.words()
    assert "what is the chance of delta five" in set(g.phrases())
    assert "[what is the] chance" in g.jsgf()


def test_typed_synonyms_are_never_listened_for():
    from audio_console.galaxis.assistant import assistant_grammar
    g = assistant_grammar(False)
    assert str(g.parse("automark on")) == "auto mark on" and "automark" not in g.words()
