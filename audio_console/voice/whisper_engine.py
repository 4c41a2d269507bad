"""Whisper with decoding constrained to the current grammar's phrases.

Whisper is a sequence model: given the audio, it gives the probability of each next
text token. Rather than letting it write anything and parsing that (it writes
"Red row alpha." for "read row alpha"), the engine searches only the written forms
of the grammar's phrases (phrase_trie.py): a beam search over the trie
(whisper_search.py). Each phrase's score is its total log-probability with the end
of text included, so a short phrase ("yes") does not win by being short. Beside the
best phrase the trust layer gets its margin over the best phrase of a different
command, the no-speech probability and a free transcript (Evidence in recognizer.py).

The pipeline: the utterance's samples (a quiet one lifted) -> log-mel features in an
encoder window (mel.py) -> the decoding backend (whisper_backend.py: encode, then
log-probabilities after token prefixes, several utterances in shared passes) -> the
phrase search -> Decoded; a cleaned copy in steady noise and a second look at other
speeds (second_look.py). The model folder and its tokens: whisper_model.py.
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass

import numpy as np

from audio_console.voice.audio import pcm_samples
from audio_console.voice.keywords import SEARCHED_ALONE, KeywordOpinion, word_grammar
from audio_console.voice.mel import HOP, RATE, log_mel
from audio_console.voice.phrase_trie import PhraseTrie, TrieCache, example_text, transcript_command
from audio_console.voice.recognizer import Decoded, Evidence, RecognizerError
from audio_console.voice.second_look import SECOND_LOOK_SPEEDS, with_cleaned_copy, with_second_look
from audio_console.voice.vad import SecondOpinion
from audio_console.voice.whisper_backend import Backend, BackgroundLoad
from audio_console.voice.whisper_decoder import one_blas_thread
from audio_console.voice.whisper_model import open_model
from audio_console.voice.whisper_search import advance_together, search_together, searching

MAX_SECONDS = 30.0        # Whisper's window; a command is far shorter
POSITIONS_LEFT = 64       # decoder positions our search may need after the prompt
# A quiet utterance (peak below QUIET) is lifted to a peak of `level`: more quiet
# commands are right (docs/measurements/voice-constants.md).
QUIET = 0.1
LEVEL_MAX_GAIN = 30.0


@dataclass
class WhisperOptions:
    """How an utterance is decoded (the defaults are play's)."""
    # Whisper's prompt: a few of the grammar's own phrases as it writes them, read as
    # what was said before (phrase_trie.example_text): the best phrase is more often
    # the one said (docs/measurements/voice-constants.md); the trust layer was refitted for it
    # (scripts/fit_whisper_trust.py).
    context: str | None = "grammar"
    examples: int = 6                  # phrases in that prompt
    free_tokens: int = 8               # the free transcript is only a witness: a few words suffice
    window_pad: float = 0.5            # seconds of silence after the utterance in the encoder window
    window_step: float = 1.0           # the window is rounded up to whole seconds
    level: float | None = 0.5          # a quiet utterance's peak is lifted to this
    denoise: bool = True               # a cleaned copy too, in steady noise (denoise.py)
    speeds: tuple[float, ...] = SECOND_LOOK_SPEEDS   # the second look's speeds; () for none
    keywords: bool = True              # the one-word commands' second opinion (keywords.py)


def window_frames(samples: int, pad: float = 0.5, step: float = 1.0) -> int:
    """Encoder window (10 ms frames) for an utterance of `samples`: its length plus
    `pad`, rounded up to `step` seconds, at most 30 s. Even: the encoder halves it."""
    seconds = samples / RATE + pad
    if step > 0:
        seconds = math.ceil(seconds / step - 1e-9) * step
    frames = int(round(min(MAX_SECONDS, max(step or 0.5, seconds)) * RATE / HOP))
    return frames + (frames % 2)


class WhisperRecognizer:
    name = "whisper"

    def __init__(self, model_path=None, expected_sha256: str | None = None, options: WhisperOptions | None = None):
        model = open_model(model_path, expected_sha256)
        self.model_path, self.model_name, self.embedded = model.path, model.name, model.embedded
        self.tokens = model.tokens
        self.tokenizer = model.tokens.tokenizer
        self.multilingual = model.tokens.multilingual
        self.options = options or WhisperOptions()
        self._backend = BackgroundLoad(model.path)
        self._tries = TrieCache(self.tokenizer)
        self._word_tries = TrieCache(self.tokenizer)    # the opinion's words searched alone (keywords.py)
        self.word_tries: dict[str, PhraseTrie] = {}
        self.dropped_words: list[str] = []
        self.grammar = None
        self.trie: PhraseTrie | None = None
        self.prompt = list(self.tokens.start)
        self._second_opinion = SecondOpinion()   # on noise Whisper doubts about
        # yes / no / stop from the encoder states: fitted on the embedded tiny.en's
        self._keywords = KeywordOpinion.load() if model.embedded and self.options.keywords else None
        self.set_context(self.options.context)

    def describe(self) -> str:
        return f"Whisper {self.model_name}" + (", built in" if self.embedded else f" ({self.model_path})")

    def backend(self) -> Backend:
        """The decoding backend, loaded now if its background load has not begun."""
        return self._backend.get()

    def close(self) -> None:
        """Wait for the backend's background load to end (whisper_backend.BackgroundLoad)."""
        self._backend.close()

    # --- the prompt and the grammar ------------------------------------------------

    def set_context(self, text: str | None) -> None:
        """Text Whisper reads as what was said before the utterance (its prompt), or
        None, or "grammar": a few of the current grammar's own phrases (example_text).
        Commands written in the console's style make it write what it hears that way."""
        self.options.context = text
        if text != "grammar":
            self._prompt_from(text)
        elif self.trie is not None:
            self._use_examples(self.trie)
        else:
            self.prompt = list(self.tokens.start)

    def _use_examples(self, trie: PhraseTrie) -> None:
        if trie.examples is None:
            trie.examples = example_text(trie.phrases, self.options.examples)
        self._prompt_from(trie.examples)

    def _prompt_from(self, text: str | None) -> None:
        start, previous = self.tokens.start, self.tokens.previous
        if text and previous is not None:
            self.prompt = [previous, *self.tokens.encode(" " + text.strip()), *start]
        else:
            self.prompt = list(start)

    def set_grammar(self, grammar) -> None:
        if grammar is self.grammar:
            return
        self._backend.soon()
        self.grammar, self.trie = grammar, self._tries.trie(grammar)
        tries = {word: self._word_tries.trie(word_grammar(grammar, word)) for word in SEARCHED_ALONE} if self._keywords else {}
        self.word_tries = {word: trie for word, trie in tries.items() if trie.phrases}
        if self.options.context == "grammar":
            self._use_examples(self.trie)

    # --- the utterance ------------------------------------------------------------

    def samples(self, pcm: bytes) -> np.ndarray:
        """The utterance as float samples (at most 30 s), a quiet one lifted."""
        x = pcm_samples(pcm)[: int(MAX_SECONDS * RATE)]
        level = self.options.level
        if level is not None and len(x):
            # a quiet speaker's features sit low in Whisper's log-mel range: an
            # utterance whose peak (its 99.9th percentile, not one click) is below
            # QUIET is lifted to `level`; a normal one is left as it is
            peak = float(np.quantile(np.abs(x), 0.999))
            if 1e-4 < peak < QUIET:
                x = x * min(LEVEL_MAX_GAIN, level / peak)
        return x

    def features(self, pcm: bytes) -> np.ndarray:
        """The utterance's log-mel features [mels, frames] in its encoder window."""
        x = self.samples(pcm)
        return log_mel(x, window_frames(len(x), self.options.window_pad, self.options.window_step))

    # --- decoding -------------------------------------------------------------------

    def decode(self, pcm: bytes, voiced: bool = False) -> Decoded:
        """One whole utterance, the best phrase of the grammar and the evidence.
        `voiced`: the voice detector cut it out itself (it is not asked again)."""
        # numpy's BLAS on one thread: on two, log_mel's filter product spun the second
        # core for nothing and the threads left spinning slowed the decoder pass after
        # encode() (docs/measurements/voice-constants.md)
        with one_blas_thread():
            decoded, heard_pcm = with_cleaned_copy(pcm, self.decode_all, voiced, self.options.denoise)
            return with_second_look(decoded, heard_pcm, self.decode_all, self.options.speeds, self.grammar)

    def decode_all(self, pcms: list[bytes], voiced: bool) -> list[Decoded]:
        """A decode of each utterance; they share their backend passes (the second
        look's two speeds take about 1.5 times as long as one decode, not twice)."""
        trie, grammar = self.trie, self.grammar
        if grammar is None or trie is None:
            raise RecognizerError("no grammar set")
        started = time.perf_counter()
        backend = self.backend()
        if len(self.prompt) + POSITIONS_LEFT > backend.positions:
            raise RecognizerError("the context is too long for the model's positions")
        tokens = self.tokens
        encoded = backend.encode([self.features(pcm) for pcm in pcms])
        together = backend.together(encoded, self.prompt, tokens, self.options.free_tokens + 1)
        found = search_together([searching(trie, u.suppressed(u.cache[()][1], True), tokens.eot, tokens.stops)
                                 for u in together.utterances], advance_together(together, tokens.stops))
        keywords = [self._keywords(states, len(pcm) // 2) if self._keywords is not None else None
                    for pcm, states in zip(pcms, encoded)]
        own = self._own_word_scores(together, found, keywords)
        transcripts = together.transcripts()
        seconds = (time.perf_counter() - started) / len(pcms)
        decoded = []
        for pcm, u, said, result, keyword, word in zip(pcms, together.utterances, transcripts, found, keywords, own):
            no_speech = (float(np.exp(u.after_sot()[tokens.no_speech_id]))
                         if tokens.no_speech_id is not None else 0.0)
            if not voiced:
                no_speech = self._second_opinion(pcm, no_speech)
            decoded.append(self._decoded(result, self.tokenizer.decode(list(said)).strip(), no_speech, seconds,
                                         keyword, word))
        return decoded

    def _own_word_scores(self, together, found: list, keywords: list) -> list[tuple[float, float] | None]:
        """For each utterance whose keyword opinion names a word of SEARCHED_ALONE while
        the best phrase is another command: that word's best written form's score a token
        in a search of that word's phrases alone (keywords.word_grammar) on the same
        decoder state (a pass or two), and its total log-probability less the best
        phrase's (above 0: the full search's beam dropped the word); None where not
        searched."""
        out: list[tuple[float, float] | None] = [None] * len(found)
        trie, words = self.trie, self.word_tries
        assert trie is not None
        picked = [i for i, (result, keyword) in enumerate(zip(found, keywords))
                  if keyword is not None and keyword[0] in words
                  and result[0] is not None and trie.commands[result[0][0]] != keyword[0]]
        if not picked:
            return out
        tokens, utterances = self.tokens, together.utterances
        advance = advance_together(together, tokens.stops)

        position = {i: k for k, i in enumerate(picked)}

        def advance_picked(kept: dict) -> dict:
            answers = advance({picked[k]: entries for k, entries in kept.items()})
            return {position[i]: answer for i, answer in answers.items()}

        results = search_together([searching(words[keywords[i][0]], utterances[i].suppressed(
            utterances[i].cache[()][1], True), tokens.eot, tokens.stops) for i in picked], advance_picked)
        for i, (best, _, length, _, _) in zip(picked, results):
            if best is not None:
                out[i] = (best[1] / length, best[1] - found[i][0][1])
        return out

    def _decoded(self, result, transcript: str, no_speech: float, seconds: float,
                 keyword: tuple[str, float] | None = None, word: tuple[float, float] | None = None) -> Decoded:
        """A Decoded from the search's result and the witnesses: the free transcript
        and the no-speech probability (with the voice detector's second opinion unless
        it cut the utterance out itself)."""
        assert self.trie is not None and self.grammar is not None
        trie = self.trie
        best, margin, tokens, calls, runner_up = result
        heard_command = transcript_command(self.grammar, transcript)
        pieced = self._has_pieced_word(transcript)
        talk = trie.talk_words(transcript)
        if best is None:
            evidence = Evidence(None, -99.0, 0.0, no_speech, transcript, False, pieced, talk)
            text = ""
        else:
            phrase, total = best
            command = trie.commands[phrase]
            evidence = Evidence(command, total / tokens, margin, no_speech, transcript,
                                heard_command == command, pieced, talk,
                                trie.phrases[runner_up] if runner_up is not None else None,
                                keyword=keyword[0] if keyword else None, keyword_p=keyword[1] if keyword else 0.0,
                                keyword_score=word[0] if word else None, keyword_margin=word[1] if word else 0.0)
            text = trie.phrases[phrase]
        confidence = math.exp(evidence.score) if best is not None else 0.0
        return Decoded(text, words=[(w, confidence) for w in text.split()], seconds=seconds, evidence=evidence,
                       detail={"transcript": transcript, "no_speech": round(no_speech, 3),
                               "score": round(evidence.score, 3), "margin": round(margin, 3),
                               "calls": calls, "talk": talk, "runner_up": evidence.runner_up,
                               "keyword": keyword and [keyword[0], round(keyword[1], 3)],
                               "keyword_phrase": word and [round(word[0], 3), round(word[1], 3)]})

    def _has_pieced_word(self, transcript: str) -> bool:
        """Whether a word of the transcript takes more than one token (as written,
        after a space): one the model does not know whole. (Letters only: "I'm" is two
        tokens for any word.)"""
        return any(len(self.tokens.encode(" " + word)) > 1 for word in set(re.findall(r"[A-Za-z]+", transcript)))
