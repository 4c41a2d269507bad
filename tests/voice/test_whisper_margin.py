"""The phrase search's margin (whisper_search.margin_over_rivals): a short phrase of an
unrelated command that finishes far below the best must not lift the margin of a
point over the close rival point the beam dropped ("c eight" that Whisper writes
"C 1." was acted on as C1 once "say more" joined the grammar)."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from audio_console.commands.grammar import Grammar, Rule, Slot, SlotOption
from audio_console.voice.audio import wav_pcm16
from audio_console.voice.phrase_trie import PhraseTrie
from audio_console.voice.whisper_engine import WhisperRecognizer
from audio_console.voice.whisper_search import chain, score_chains, search

EOT, STOP, VOCABULARY, UNLIKELY = 0, 1, 32, -12.0


class Tokenizer:
    """One token per written word (with its leading space, as Whisper's BPE has them)."""

    def __init__(self):
        self.ids = {"<eot>": EOT, ".": STOP}

    def encode(self, text, add_special_tokens=False):
        return SimpleNamespace(ids=[self.ids.setdefault(text, len(self.ids))])


def grammar(with_say_more: bool) -> Grammar:
    points = Slot("point", [SlotOption(("c", "one"), "C1"), SlotOption(("c", "eight"), "C8")])
    rules = [Rule("query", "query {point}", ["<point>"])]
    if with_say_more:
        rules.append(Rule("more", "more", ["say more"]))
    return Grammar(rules, [points])


def decode(with_say_more: bool, heard: dict) -> tuple[str, float, str | None]:
    """The search over the grammar with a made-up decoder: heard[written prefix][next
    written token] = its log-probability (UNLIKELY otherwise). Returns (best phrase,
    margin, runner-up phrase)."""
    tokenizer = Tokenizer()
    trie = PhraseTrie(grammar(with_say_more), tokenizer)

    def row(tokens) -> np.ndarray:
        names = {i: text for text, i in tokenizer.ids.items()}     # the trie is built as searched
        lp = np.full(VOCABULARY, UNLIKELY)
        for text, value in heard.get(tuple(names[t] for t in tokens), {}).items():
            lp[tokenizer.encode(text).ids[0]] = value
        return lp

    def advance(kept):
        entries, rows = [], []
        for score, node, tokens in kept:
            chained, end = chain(node)
            entries.append((score, end, tokens, chained))
            rows.append([row(tokens + chained[:i]) for i in range(len(chained) + 1)])
        frontier, dists = score_chains(entries, rows)
        return frontier, dists, True

    best, margin, _, _, runner_up = search(trie, row([]), advance, EOT, [STOP])
    return trie.phrases[best[0]], margin, trie.phrases[runner_up] if runner_up is not None else None


# "C 1" clearly, "C 8" a little less (dropped: the beam keeps three), and "Say more"
# kept on its first word's sound but ending far below.
C_ONE_OR_EIGHT = {
    (): {" C": -0.5, " Say": -1.0},
    (" C",): {" 1": -0.5, "1": -1.0, " one": -1.6, " 8": -2.5},
    (" Say",): {" more": -1.0},
    (" C", " 1"): {"<eot>": -0.3},
    (" C", "1"): {"<eot>": -0.5},
    (" Say", " more"): {"<eot>": -9.0},
}


def test_an_unrelated_short_phrase_does_not_lift_the_margin_over_the_dropped_close_rival():
    without = decode(False, C_ONE_OR_EIGHT)
    with_it = decode(True, C_ONE_OR_EIGHT)
    assert without[0] == with_it[0] == "c one"
    assert with_it[2] == "say more"               # it finished, far below "C 1"
    assert abs(with_it[1] - without[1]) < 1e-9    # yet the margin is the one C8 leaves
    assert with_it[1] < 2.0                       # C8 was close: not a margin to act on alone


def test_a_close_rival_that_finished_bounds_the_margin_whatever_else_finished():
    heard = {**C_ONE_OR_EIGHT, (" C",): {" 1": -0.5, " 8": -1.5}, (" C", " 8"): {"<eot>": -0.5}}
    without = decode(False, heard)
    with_it = decode(True, heard)
    assert without[2] == with_it[2] == "c eight"
    assert abs(with_it[1] - 1.2) < 1e-9 and abs(without[1] - 1.2) < 1e-9   # -0.8 against -2.0


# --- a real recording through the real model -------------------------------------------

REAL = Path(__file__).parent / "real"


def less_the_short_forms(galaxis: Grammar) -> Grammar:
    """Galaxis less "more" / "say more" / "tell me more" and the spoken "the rules" /
    "how to play": short phrases Whisper finishes on babble far below any point."""
    rules = [r for r in galaxis.rules if not (r.name == "more" or (r.name == "rules" and "the rules" in r.patterns))]
    return Grammar(rules, list(galaxis.slots.values()))


@pytest.fixture(scope="module")
def whisper():
    recognizer = WhisperRecognizer()
    yield recognizer
    recognizer.close()


def test_real_talk_matched_to_a_point_gets_no_margin_from_the_short_phrases(whisper, galaxis_grammar):
    # an address read out ("2. Crystal Springs will live on."): the search's best is a
    # point, and "the rules" finishing far below it once lifted its margin 0.3 -> 5.7
    margins = []
    for grammar in (less_the_short_forms(galaxis_grammar), galaxis_grammar):
        whisper.set_grammar(grammar)
        margins.append(whisper.decode(wav_pcm16(REAL / "address.wav")).evidence.margin)
    assert margins[1] <= margins[0] + 0.5
