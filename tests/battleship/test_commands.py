"""The Battleship grammar: every form of docs/commands.md typed and spoken, per phase, in real words."""
import pytest

from audio_console.battleship.commands import OVER, PASSING, PLACING, SHOOTING, full_grammar, grammar_for


@pytest.mark.parametrize("said, canonical", [
    ("sector two row delta", "shoot 2 row D"),
    ("sector one column three", "shoot 1 column 3"),
    ("Sector 2 row D", "shoot 2 row D"),
    ("shoot 2 row D", "shoot 2 row D"),
    ("shoot 1 column 3", "shoot 1 column 3"),
    ("fire at sector three column ten", "shoot 3 column 10"),
    ("sector two", "sector 2"),
    ("row delta", "shoot row D"),
    ("column 7", "shoot column 7"),
    ("read sector 2", "read sector 2"),
    ("what about sector two row delta", "what 2 row D"),
    ("what 2 row D", "what 2 row D"),
    ("what about row J", "what row J"),
    ("my fleet", "my fleet"),
    ("my sector one", "my sector 1"),
])
def test_shooting_phrases(said, canonical):
    assert grammar_for(SHOOTING).parse(said).text == canonical


@pytest.mark.parametrize("said, canonical", [
    ("quadron sector one B3 across", "position quadron 1 B3 across"),
    ("quad ron sector one bravo three across", "position quadron 1 B3 across"),
    ("rocket raider sector 2 j1 up", "position rocket raider 2 J1 up"),
    ("tri corn fighter sector three charlie ten down", "position tricorn fighter 3 C10 down"),
    ("duel er sector one alpha one left", "position dueler 1 A1 left"),
    ("place celestial crawler sector 2 D4 down", "place celestial crawler 2 D4 down"),
    ("turn it", "turn"),
    ("place", "place"),
    ("move to C4", "move C4"),
    ("move to sector three", "move sector 3"),
    ("random", "random"),
    ("place the rest at random", "random"),
    ("remove dueler", "remove dueler"),
    ("done", "done"),
])
def test_placing_phrases(said, canonical):
    assert grammar_for(PLACING).parse(said).text == canonical


def test_each_phase_hears_only_its_own_commands():
    assert grammar_for(PLACING).parse("sector two row delta") is None
    assert grammar_for(SHOOTING).parse("quadron sector one B3 across") is None
    assert grammar_for(PASSING).parse("ready").text == "ready"
    assert grammar_for(PASSING).parse("my fleet") is None       # nothing secret while passing
    assert grammar_for(OVER).parse("my fleet").text == "my fleet"


def test_out_of_range_is_not_a_command():
    for text in ("sector 4 row D", "sector 2 row K", "sector 1 column 11", "quadron sector 1 B11 across"):
        assert grammar_for(SHOOTING).parse(text) is None and grammar_for(PLACING).parse(text) is None


def test_every_recorded_action_parses_back_to_itself():
    grammar = full_grammar()
    for action in ("place quadron 1 B3 across", "place rocket raider 2 J1 up", "place tricorn fighter 3 A1 left",
                   "place celestial crawler 1 A1 down", "place dueler 3 J9 across", "remove tricorn fighter",
                   "done", "shoot 2 row D", "shoot 1 column 10"):
        assert grammar.parse(action).text == action


def test_each_phase_stays_small_enough_for_the_recognizers():
    # The recognizers list (vosk) or search (Whisper's phrase trie) every spoken phrase of a phase.
    # (That each of them can be heard: tests/voice/test_phrase_reach.py.)
    counts = {phase: sum(1 for _ in grammar_for(phase).phrases()) for phase in (PLACING, SHOOTING, PASSING, OVER)}
    assert max(counts.values()) < 10000, counts
    placing = set(grammar_for(PLACING).phrases())
    assert "quadron sector one bravo three across" in placing
    assert "tricorn fighter sector three juliet ten up" in placing
    assert "sector two row delta" in set(grammar_for(SHOOTING).phrases())
