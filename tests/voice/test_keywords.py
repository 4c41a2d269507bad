"""The one-word commands' second opinion from Whisper's encoder states (keywords.py)."""
import json

import numpy as np

from audio_console.voice.keywords import KeywordOpinion, pooled


def test_the_states_after_the_utterance_are_left_out_of_the_pooling():
    # 3 frames of speech (0.06 s) in a window of 10: the padding's states would pull the mean
    states = np.zeros((10, 2), np.float32)
    states[:3] = [[1.0, 3.0], [2.0, 1.0], [3.0, 2.0]]
    states[3:] = -5.0
    assert pooled(states, 3 * 320).tolist() == [2.0, 2.0, 3.0, 3.0]
    assert pooled(states, 1).tolist() == [1.0, 3.0, 1.0, 3.0]     # at least one state


def test_the_fitted_opinion_ships_and_fits_tiny_en_only():
    opinion = KeywordOpinion.load()
    assert opinion is not None and opinion.classes == ("yes", "no", "stop", "other")
    assert opinion.fits(384) and not opinion.fits(512)             # tiny.en, not base
    assert opinion(np.zeros((50, 512), np.float32), 16000) is None


def test_an_opinion_names_its_most_likely_word(tmp_path):
    path = tmp_path / "k.json"
    weights = np.zeros((4, 4))
    weights[0, 2] = 10.0            # the first state feature's mean speaks for "stop"
    path.write_text(json.dumps({"model": "tiny.en", "classes": ["yes", "no", "stop", "other"],
                                "weights": weights.tolist(), "bias": [0, 0, 0, 1]}))
    opinion = KeywordOpinion.load(path)
    word, p = opinion(np.array([[1.0, 0.0], [1.0, 0.0]], np.float32), 640)
    assert word == "stop" and p > 0.99
    assert opinion(np.zeros((2, 2), np.float32), 640)[0] == "other"


def test_a_missing_or_damaged_file_means_no_opinion(tmp_path):
    assert KeywordOpinion.load(tmp_path / "absent.json") is None
    (tmp_path / "bad.json").write_text("{\"classes\": [")
    assert KeywordOpinion.load(tmp_path / "bad.json") is None


def test_each_word_is_searched_alone_in_the_grammar_of_the_moment(galaxis_grammar):
    from audio_console.commands.grammar import Grammar, Rule
    from audio_console.voice.keywords import word_grammar
    assert list(word_grammar(galaxis_grammar, "stop").phrases()) == ["stop"]
    assert list(word_grammar(galaxis_grammar, "yes").phrases()) == ["yes"]     # not its typed "okay"
    assert list(word_grammar(Grammar([Rule("query", "query {x}", ["delta"])]), "stop").phrases()) == []
