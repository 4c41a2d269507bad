"""The Arkade command language: the issue's phrases parse to the core's actions.
(That the recognizer can hear every spoken phrase: tests/voice/test_phrase_reach.py.)"""
import pytest

from audio_console.arkade.board import load_board
from audio_console.arkade.commands import grammar

PHRASES = {
    "roll": "roll",
    "reroll the shot die": "reroll shot",
    "roll the shot die again": "reroll shot",
    "roll the flight die again": "reroll flight",
    "roll again": "reroll both",
    "roll the first die again": "reroll first",
    "keep": "keep",
    "ship to four": "ship 4",
    "ship to 4": "ship 4",
    "booster left": "booster left",
    "shoot": "shoot",
    "shoot from the outpost": "shoot outpost",
    "fly the yellow saucer at B3 forward": "fly B3 forward",
    "fly the saucer at bravo three forward then left": "fly B3 forward left",
    "fly b3 to c3": "fly B3 to C3",
    "use the plasma cannon": "plasma",
    "use the pink plasma cannon": "plasma pink",
    "use the gps to two": "gps 2",
    "choose charlie four": "choose C4",
    "choose the pink saucer at A1": "choose pink A1",
    "clear the magnetic field at C2": "clear magnet C2",
    "sacrifice the saucer at C3": "sacrifice C3",
    "done": "done",
    "where are my saucers": "saucers",
    "column three": "read column 3",
    "nearest saucers": "nearest",
    "read row C": "read row C",
    "what can I do": "options",
    "listen to column two": "listen column 2",
    "what is at D4": "what D4",
}


@pytest.mark.parametrize("said,canonical", PHRASES.items())
def test_phrases_parse_to_the_cores_actions(said, canonical):
    assert grammar(8).parse(said).text == canonical


def test_rows_beyond_the_board_are_not_understood():
    assert grammar(8).parse("read row J") is None
    assert grammar(10).parse("read row J").text == "read row J"


def test_reroll_is_typed_only():
    # the spoken form is "roll the shot die again"
    assert "reroll" not in grammar(load_board().rows).words()


def test_the_recognizers_get_a_bounded_phrase_list_that_all_parses():
    # the voice engines enumerate every spoken phrase; a loose spoken grammar would
    # give millions (rows x columns x directions x optional words)
    g = grammar(load_board().rows)
    phrases = list(g.phrases())
    assert len(phrases) < 10000
    assert all(g.parse(p) is not None for p in phrases)
    assert "fly the yellow saucer at b 3 forward" in phrases or "fly the yellow saucer at bravo three forward" in phrases
