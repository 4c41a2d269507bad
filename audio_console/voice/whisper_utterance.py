"""One utterance's decoding state on our Whisper decoder (whisper_decoder.py).

The audio's keys and values and the prompt are computed once; every token prefix
computed since is cached with its next-token log-probabilities, so the phrase search
(whisper_search.py) extends prefixes one pass a level, and the free greedy transcript
rides along in the same passes.
"""
from __future__ import annotations

import numpy as np

from audio_console.voice.whisper_decoder import Audio, Prefix, WhisperDecoder, log_softmax, one_blas_thread

SHORT = 3                 # a greedy transcript this short (tokens) is guessed to repeat itself


class Utterance:
    """One utterance's decoding state: the audio's keys and values, the prompt run
    once, and every token prefix computed so far (relative to the prompt) with its
    next-token log-probabilities. The free greedy transcript advances in the same
    passes as the phrase search's prefixes, as far as computed rows reach: its own
    guessed continuation is computed with them and kept only as far as it holds."""

    def __init__(self, decoder: WhisperDecoder, encoded: np.ndarray, prompt: list[int], sot: int,
                 suppress: list[int], suppress_begin: list[int], eot: int, greedy_steps: int,
                 stops: tuple[int, ...] | list[int] = (), start: bool = True):
        self.decoder = decoder
        self.stops = set(stops)
        with one_blas_thread():
            self.audio = decoder.audio(encoded)
        self.prompt = prompt
        self.sot = sot
        self.prompt_length = len(prompt)
        self.suppress = np.array([t for t in suppress if 0 <= t < decoder.vocabulary], dtype=np.int64)
        self.suppress_begin = np.array([t for t in suppress_begin if 0 <= t < decoder.vocabulary], dtype=np.int64)
        self.eot = eot
        self.greedy: list[int] = []
        self.greedy_left = greedy_steps
        self.passes = 0                 # decoder passes after the prompt's
        self.cache: dict[tuple[int, ...], tuple[Prefix, np.ndarray]] = {}
        self._after_sot = np.zeros(0, np.float32)
        if start:
            Together([self])            # the prompt's pass

    def prompt_item(self) -> tuple[Prefix, list[int]]:
        return self.decoder.empty(), self.prompt

    def prompt_rows(self) -> list[int]:
        # Whisper's no-speech probability is read after <|startoftranscript|>: that
        # row is projected in the prompt's pass, beside the prompt's last one
        return [self.prompt.index(self.sot), len(self.prompt) - 1]

    def started(self, prefix: Prefix, lp: np.ndarray) -> None:
        """The prompt's pass done: its state and the two rows of prompt_rows()."""
        self._after_sot = lp[0]
        self.cache[()] = (prefix, lp[1])

    def after_sot(self) -> np.ndarray:
        """The log-probs after <|startoftranscript|> (Whisper's no-speech token is read there)."""
        return self._after_sot

    def suppressed(self, lp: np.ndarray, first: bool) -> np.ndarray:
        """`lp` without the tokens Whisper's free decoding suppresses (symbols; a blank
        or the end at the start), renormalised."""
        out = lp.copy()
        out[self.suppress] = -np.inf
        if first:
            out[self.suppress_begin] = -np.inf
        return log_softmax(out)

    def rows(self, requests: list[tuple[list[int], int]], ahead: tuple | list[list[int]] = ()) -> list[np.ndarray]:
        """For each (tokens, first): the log-probs after tokens[:k] for k = first ..
        len(tokens), as [len(tokens) - first + 1, vocabulary]. What is not cached yet
        is computed in one pass, together with the greedy transcript's next tokens and
        the sequences `ahead` (a guess at what the next call will ask: a pass costs
        about the same for a few more rows, and a pass saved is 15-20 ms)."""
        return Together([self]).rows([(requests, list(ahead))])[0]

    def plan(self, requests: list[tuple[list[int], int]], ahead: tuple | list[list[int]] = ()) -> list:
        """What rows() must compute: (cached prefix, tokens to add) items, maybe none."""
        self._greedy_take()
        wanted = list(requests) + [(tokens, len(tokens)) for tokens in ahead]
        if self.greedy_left > 0:
            wanted.append((self.greedy + self._draft([t for t, _ in wanted]), len(self.greedy)))
        todo: dict[tuple[int, ...], int] = {}            # sequence to compute -> cached length
        for tokens, _ in wanted:
            key = tuple(tokens)
            if key in self.cache or key in todo:
                continue
            known = len(key) - 1
            while key[:known] not in self.cache:
                known -= 1
            todo[key] = known
        # a sequence that is the start of another one being computed comes with it
        longest = [k for k in todo if not any(len(o) > len(k) and o[:len(k)] == k for o in todo)]
        self.passes += bool(longest)
        return [(self.cache[k[:todo[k]]][0], list(k[todo[k]:])) for k in longest]

    def store(self, work: list, prefixes: list[Prefix], lps: np.ndarray) -> None:
        """Cache what a pass computed for plan()'s items: every prefix along each item
        and the log-probs after it (lps: one row per new token, in the items' order)."""
        at = 0
        for (start_prefix, tokens), prefix in zip(work, prefixes):
            start = len(start_prefix.tokens) - self.prompt_length
            key = prefix.tokens[self.prompt_length:]
            for i in range(len(tokens)):
                length = start + i + 1
                keep = self.prompt_length + length
                view = Prefix(prefix.tokens[:keep], [k[:, :keep] for k in prefix.keys],
                              [v[:, :keep] for v in prefix.values])
                self.cache[key[:length]] = (view, lps[at + i])
            at += len(tokens)
        self._greedy_take()

    def answer(self, requests: list[tuple[list[int], int]]) -> list[np.ndarray]:
        return [np.stack([self.cache[tuple(tokens[:k])][1] for k in range(first, len(tokens) + 1)])
                for tokens, first in requests]

    def _greedy_take(self) -> None:
        """Advance the greedy transcript as far as computed rows reach."""
        while self.greedy_left > 0 and tuple(self.greedy) in self.cache:
            lp = self.cache[tuple(self.greedy)][1].copy()       # the best token, so no renormalising
            lp[self.suppress] = -np.inf
            if not self.greedy:
                lp[self.suppress_begin] = -np.inf
            token = int(np.argmax(lp))
            self.greedy_left -= 1
            if token == self.eot:
                self.greedy_left = 0
            else:
                self.greedy.append(token)

    def _draft(self, sequences: list[list[int]]) -> list[int]:
        """A guess at the greedy transcript's next tokens, checked in the same pass
        (its rows are kept only as far as the guess holds, so the transcript is the
        same as one token at a time): the first search sequence that extends it, then
        the transcript repeating itself (Whisper writes "Charlie 1. Charlie 1. Charlie 1.")."""
        greedy = self.greedy
        guess = next((list(t) for t in sequences if len(t) > len(greedy) and t[:len(greedy)] == greedy), list(greedy))
        while guess and len(guess) < len(greedy) + self.greedy_left - 1:
            earlier = [i for i in range(len(guess) - 1) if guess[i] == guess[-1]]
            # the period of the repetition: since the last token's previous place, or the
            # whole transcript so far after a stop or a short command ("V2" goes on
            # "V2 V2", "Charlie 1." "Charlie 1. Charlie"); a longer sentence that is
            # not repeating is not guessed (a wrong guess of several rows made a pass
            # of the transcript alone 2-3 times as slow as a row by itself)
            if earlier:
                period = len(guess) - 1 - earlier[-1]
            elif guess[-1] in self.stops or len(guess) <= SHORT:
                period = len(guess)
            else:
                break
            guess.append(guess[-period])
        return guess[len(greedy):len(greedy) + self.greedy_left - 1]

    def transcript_tokens(self) -> list[int]:
        """The free greedy transcript, finished alone if the search ended first."""
        while self.greedy_left > 0:
            self.rows([])
        return self.greedy


class Together:
    """Utterances decoded side by side (the second look's speeds; a cleaned copy beside
    the noisy one), or one alone: each pass computes what all of them need, their audio
    joined (a row attends to its own utterance's frames only). A pass costs about the
    same for a few rows or a few dozen (reading the 80 MB output projection dominates),
    so two utterances in one pass cost about 1.4 times one, not twice."""

    def __init__(self, utterances: list[Utterance]):
        self.utterances = utterances
        self.decoder = utterances[0].decoder
        self.audio = Audio.joined([u.audio for u in utterances])
        todo = [u for u in utterances if () not in u.cache]
        if todo:
            self._run([(u, [u.prompt_item()], u.prompt_rows()) for u in todo], prompts=True)

    def rows(self, requests: list[tuple[list, list]]) -> list[list[np.ndarray]]:
        """Utterance.rows for each utterance at once: requests[i] = (its requests,
        its ahead); one pass for all (none if everything is cached)."""
        work = [(u, u.plan(asked, ahead)) for u, (asked, ahead) in zip(self.utterances, requests)]
        self._run([(u, items, list(range(sum(len(t) for _, t in items)))) for u, items in work if items])
        return [u.answer(asked) for u, (asked, _) in zip(self.utterances, requests)]

    def transcripts(self) -> list[list[int]]:
        """Every utterance's free greedy transcript, finished in shared passes."""
        while any(u.greedy_left > 0 for u in self.utterances):
            self.rows([([], []) for _ in self.utterances])
        return [u.greedy for u in self.utterances]

    def _run(self, jobs: list[tuple[Utterance, list, list[int]]], prompts: bool = False) -> None:
        """One pass over several utterances' items; each job is (utterance, items,
        its wanted rows counted within its own items)."""
        if not jobs:
            return
        items, wanted, sources, offset = [], [], [], 0
        for u, its, rows in jobs:
            source = self.utterances.index(u)
            items += its
            sources += [source] * len(its)
            wanted += [offset + r for r in rows]
            offset += sum(len(t) for _, t in its)
        with one_blas_thread():
            prefixes, lps = self.decoder.step(self.audio, items, wanted, sources)
        at_item, at_row = 0, 0
        for u, its, rows in jobs:
            mine = prefixes[at_item:at_item + len(its)]
            lp = lps[at_row:at_row + len(rows)]
            if prompts:
                u.started(mine[0], lp)
            else:
                u.store(its, mine, lp)
            at_item += len(its)
            at_row += len(rows)
