"""Beam search over a grammar's phrase trie, scored by Whisper's decoder.

A beam search over the trie (phrase_trie.py), one batched decoder step per branching
level; a chain of tokens without a branch is forced in the same step. Each phrase's
score is its total log-probability with the end of text included, so a short phrase
("yes") does not win by being short. The decoder is reached through `advance`
(advance_together: on the backend's decoding state, whisper_backend.py).
"""
from __future__ import annotations

import math
from typing import Callable, Generator

import numpy as np

from audio_console.voice.phrase_trie import Node, PhraseTrie

BEAM = 3                  # phrase prefixes kept per branching level
BEAM_FIRST = 3            # ... and for the first word (5 lost more than it won on tuning clips)
PRUNE = 5.0               # prefixes this many nats below the best are dropped
MAX_LEVELS = 16
LOOKAHEAD = 2             # a node's next tokens are computed with it when it has at most this many


class Stop:
    """A phrase followed by a written "." in the search: only its end of text is left."""
    __slots__ = ("phrase", "command")

    def __init__(self, phrase: int, command: int):
        self.phrase, self.command = phrase, command


Entry = tuple[float, "Node | Stop", list[int]]     # (score, node, tokens so far)
# advance(kept entries) -> (new frontier, next-token log-probs of each, whether a decoder call was made)
Advance = Callable[[list[Entry]], tuple[list[Entry], list[np.ndarray], bool]]
Searching = Generator[list[Entry], tuple[list[Entry], list[np.ndarray], bool], tuple]


def chain(node: Node | Stop) -> tuple[list[int], Node | Stop]:
    """The tokens of `node`'s branch-free chain and the node at its end."""
    tokens = []
    while not isinstance(node, Stop) and node.phrase < 0 and len(node.children) == 1:
        token, node = next(iter(node.children.items()))
        tokens.append(token)
    return tokens, node


def lookahead(node: Node | Stop, tokens: list[int], stops: list[int], fanout: int) -> list[list[int]]:
    """What the next level will likely ask after `tokens` at `node`: the stops after a
    whole phrase, and each child's chain where there are at most `fanout` children."""
    if isinstance(node, Stop):
        return []
    out = [tokens + [stop] for stop in stops] if node.phrase >= 0 else []
    if len(node.children) <= fanout:
        for token, child in node.children.items():
            out.append(tokens + [token] + chain(child)[0])
    return out


def end_score(lp: np.ndarray, tokens: list[int], eot: int) -> float:
    """Log-probability that the phrase ends after its "." or ",": the end of text,
    or the phrase said again (Whisper tiny repeats a short command into the
    silence after it: "Yes. Yes. Yes."), which also means nothing else was said.
    (Counting a repetition without the stop, "D7 D7", cost more right commands
    than it won on the tuning corpus.)"""
    return float(np.logaddexp(lp[eot], lp[tokens[0]]))


def search(trie: PhraseTrie, root_lp: np.ndarray, advance: Advance, eot: int, stops: list[int]):
    """The beam search (searching) with its decoder steps made by `advance`."""
    return search_together([searching(trie, root_lp, eot, stops)], lambda kept: {0: advance(kept[0])})[0]


def search_together(searches: list[Searching],
                    advance_all: Callable[[dict[int, list[Entry]]], dict[int, tuple]]) -> list:
    """Several searches (searching) level by level in step, so that one decoder pass
    can serve all of them: advance_all gets the kept entries of each search still
    going, by its index, and returns each one's advance result by the same index.
    Returns each search's result."""
    results: list = [None] * len(searches)
    asked: dict[int, list[Entry]] = {}
    for i, running in enumerate(searches):
        try:
            asked[i] = next(running)
        except StopIteration as done:
            results[i] = done.value
    while asked:
        answers = advance_all(asked)
        asked = {}
        for i, answer in answers.items():
            try:
                asked[i] = searches[i].send(answer)
            except StopIteration as done:
                results[i] = done.value
    return results


def searching(trie: PhraseTrie, root_lp: np.ndarray, eot: int, stops: list[int]) -> Searching:
    """The search as a generator: it yields the entries it keeps at each level and
    is sent back advance's result for them (search, search_together). Returns
    ((phrase, total log-prob) or None, margin over the best different command,
    tokens of the best, decoder calls, the best finished phrase of a different
    command or None: the runner-up, worth asking about when the player says the best
    was not it). A phrase ends with the end of text, directly or after a "." (whose
    end of text is then scored too: "Sector 2." may go on as "Sector 2. Row D.")."""
    finished: dict[int, tuple[float, int]] = {}    # phrase -> (total, tokens)
    pruned: list[tuple[float, Node | Stop]] = []    # (upper bound, node) of dropped prefixes
    frontier: list[Entry] = [(0.0, trie.root, [])]
    dists = [root_lp]
    calls = 0

    def finish(phrase, total, tokens):
        if total > finished.get(phrase, (-math.inf, 0))[0]:
            finished[phrase] = (total, tokens)

    for _ in range(MAX_LEVELS):
        candidates: list[Entry] = []
        for (score, node, tokens), lp in zip(frontier, dists):
            if isinstance(node, Stop):           # the "." or "," was scored; now the end
                finish(node.phrase, score + end_score(lp, tokens, eot), len(tokens) + 1)
                continue
            if node.phrase >= 0:
                finish(node.phrase, score + float(lp[eot]), len(tokens) + 1)
                for stop in stops:
                    candidates.append((score + float(lp[stop]), Stop(node.phrase, node.command), tokens + [stop]))
            for token, child in node.children.items():
                candidates.append((score + float(lp[token]), child, tokens + [token]))
        if not candidates:
            break
        candidates.sort(key=lambda c: -c[0])
        best_done = max((s for s, _ in finished.values()), default=-math.inf)
        floor = max(candidates[0][0], best_done) - PRUNE
        width = BEAM_FIRST if calls == 0 else BEAM
        keep = [c for c in candidates[:width] if c[0] >= floor and c[0] > best_done - PRUNE]
        pruned.extend((c[0], c[1]) for c in candidates[len(keep):len(keep) + width * 4])
        if not keep:
            break
        frontier, dists, called = yield keep
        calls += called
    if not finished:
        return None, 0.0, 0, calls, None
    phrase, (total, length) = max(finished.items(), key=lambda kv: kv[1][0])
    margin, runner_up = margin_over_rivals(trie, phrase, total, finished, pruned)
    return (phrase, total), margin, length, calls, runner_up


def margin_over_rivals(trie: PhraseTrie, phrase: int, total: float, finished: dict[int, tuple[float, int]],
                       pruned: list[tuple[float, "Node | Stop"]]) -> tuple[float, int | None]:
    """The best phrase's margin over the best different command, and the best
    finished phrase of a different command (the runner-up) or None.

    The rival is the best finished phrase of another command. Where that one is of
    another kind (a short "say more" finishing far below "C 1."), the close rival of
    the same kind (C8) may have been dropped unfinished: its prefix's score bounds it,
    so an unrelated phrase finishing does not lift the margin."""
    command, mine, kind = trie.commands[phrase], trie.command_index(phrase), trie.kind(phrase)
    rival, runner_up = max(((s, p) for p, (s, _) in finished.items() if trie.commands[p] != command),
                           default=(-math.inf, None))
    if runner_up is not None and trie.kind(runner_up) != kind:
        near = max((bound for bound, node in pruned if node.command != mine and _kind(trie, node) == kind),
                   default=-math.inf)
        rival = max(rival, near)
    if rival == -math.inf:
        # no other command finished: the best dropped prefix of another command
        # bounds it from above (a loose bound: its words were not all scored)
        rival = max((bound for bound, node in pruned if node.command != mine), default=-math.inf)
    margin = total - rival if rival > -math.inf else 30.0
    return min(margin, 30.0), runner_up


def _kind(trie: PhraseTrie, node: "Node | Stop") -> int:
    return trie.kind(node.phrase) if isinstance(node, Stop) else trie.kind_below(node)


def score_chains(entries, rows) -> tuple[list[Entry], list[np.ndarray]]:
    """The new frontier from kept entries and their log-prob rows: entries are
    (score, node at the chain's end, tokens before the chain, chain); each one's rows
    are the log-probs after tokens + chain[:i] for i = 0 .. len(chain)."""
    frontier, dists = [], []
    for (score, node, tokens, chained), lp in zip(entries, rows):
        for i, token in enumerate(chained):
            score += float(lp[i][token])
        frontier.append((score, node, tokens + chained))
        dists.append(lp[len(chained)])
    return frontier, dists


def advance_together(together, stops: list[int]):
    """The searches' step on a backend's decoding state (whisper_utterance.Together):
    for every search still going (by the index of its utterance), every kept prefix
    along its branch-free chain, all searches in one pass from their cached states."""
    def advance_all(kept: dict[int, list]) -> dict[int, tuple]:
        requests: list[tuple[list, list]] = [([], []) for _ in together.utterances]
        entries_of = {}
        for i, keep in kept.items():
            entries, ahead = [], []
            for score, node, tokens in keep:
                chained, end = chain(node)
                entries.append((score, end, tokens, chained))
                ahead += lookahead(end, tokens + chained, stops, LOOKAHEAD)
            entries_of[i] = entries
            requests[i] = ([(tokens + chained, len(tokens)) for _, _, tokens, chained in entries], ahead)
        passes = [u.passes for u in together.utterances]
        rows = together.rows(requests)
        answers = {}
        for i, entries in entries_of.items():
            frontier, dists = score_chains(entries, rows[i])
            answers[i] = (frontier, dists, together.utterances[i].passes > passes[i])
        return answers
    return advance_all
