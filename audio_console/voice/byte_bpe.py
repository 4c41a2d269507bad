"""Whisper's English tokenizer (GPT-2's byte-level BPE) in a few compact tables.

The `tokenizers` library held about 17 MB resident for it (its code and its hash
tables, docs/measurements/memory.md); these arrays take under 2. They give the
library's own ids: a word's bytes are merged pairwise, the merge of lowest rank
first, as tokenizer.json lists them; in GPT-2's vocabulary the token a merge makes
has the id 256 + the merge's rank. A tokenizer.json laid out otherwise (a
multilingual Whisper's) is not read here: load() returns None and the library reads
it. Text that is not plain printable ASCII, or that names a special token, is
handed to the library too (loaded then): GPT-2's pattern of Unicode letters and
numbers needs no copy here.
"""
from __future__ import annotations

import bisect
import json
import re
from array import array
from functools import lru_cache
from pathlib import Path
from typing import Any

# GPT-2's split into words (tokenizers' ByteLevel), its \p{L} and \p{N} for ASCII
WORDS = re.compile(r"'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+")
PLAIN = re.compile(r"[\x20-\x7e\t\n\r]*")
FIRST_MERGE = 256


@lru_cache(maxsize=None)
def byte_spelling() -> tuple[str, ...]:
    """GPT-2's printable character for each byte (bytes_to_unicode)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    spelled, extra = {}, 0
    for b in range(256):
        if b in printable:
            spelled[b] = chr(b)
        else:
            spelled[b] = chr(256 + extra)
            extra += 1
    return tuple(spelled[b] for b in range(256))


class Encoding:
    """The part of tokenizers' Encoding the console reads."""
    __slots__ = ("ids",)

    def __init__(self, ids: list[int]):
        self.ids = ids


class ByteBpe:
    """encode / decode / token_to_id / id_to_token, as tokenizers.Tokenizer gives them.
    Tables: every token's bytes in one bytes object with offsets; the merges as sorted
    pair keys (left id << 20 | right id) beside the id each pair makes; the ids in
    the order of their bytes, for token_to_id."""

    def __init__(self, vocab: dict[str, int], merges: list[str], special: dict[str, int], path: Path):
        unspell = {ord(c): b for b, c in enumerate(byte_spelling())}
        size = max(max(vocab.values()), max(special.values(), default=0)) + 1
        spelled: list[str] = [""] * size
        for token, i in {**vocab, **special}.items():
            spelled[i] = token
        self._special = frozenset(special.values())
        as_bytes = [t.encode("utf-8") if i in self._special else t.translate(unspell).encode("latin-1")
                    for i, t in enumerate(spelled)]
        self._blob = b"".join(as_bytes)
        self._ends = array("l", [0] * size)
        end = 0
        for i, piece in enumerate(as_bytes):
            end += len(piece)
            self._ends[i] = end
        self._byte_id = [vocab[c] for c in byte_spelling()]
        pairs = sorted((vocab[left] << 20 | vocab[right], FIRST_MERGE + rank)
                       for rank, (left, right) in enumerate(m.split(" ") for m in merges))
        self._pair_keys = array("q", (k for k, _ in pairs))
        self._pair_ids = array("l", (i for _, i in pairs))
        self._by_bytes = array("l", sorted(range(size), key=lambda i: (as_bytes[i], i)))
        self._path = path
        self._library: Any = None

    @classmethod
    def load(cls, path: Path) -> ByteBpe | None:
        """The tokenizer of a tokenizer.json laid out as GPT-2's, else None."""
        data = json.loads(path.read_text(encoding="utf-8"))
        model, pre, decoder = data.get("model") or {}, data.get("pre_tokenizer") or {}, data.get("decoder") or {}
        if (model.get("type") != "BPE" or model.get("dropout") or model.get("continuing_subword_prefix")
                or model.get("end_of_word_suffix") or data.get("normalizer") is not None
                or pre.get("type") != "ByteLevel" or pre.get("add_prefix_space") or not pre.get("use_regex", True)
                or decoder.get("type") != "ByteLevel"):
            return None
        vocab, merges = model.get("vocab") or {}, model.get("merges") or []
        added = data.get("added_tokens") or []
        if (not all(isinstance(m, str) and m.count(" ") == 1 for m in merges)
                or any(vocab.get(m.replace(" ", "")) != FIRST_MERGE + r for r, m in enumerate(merges))
                or not all(t.get("special") for t in added) or not set(byte_spelling()) <= vocab.keys()
                or max(vocab.values(), default=0) >= 1 << 20):
            return None
        try:
            return cls(vocab, merges, {t["content"]: int(t["id"]) for t in added}, path)
        except KeyError:         # a merge of pieces the vocabulary lacks
            return None

    def _bytes_of(self, i: int) -> bytes:
        return self._blob[self._ends[i - 1] if i else 0:self._ends[i]]

    def token_to_id(self, token: str) -> int | None:
        special = token.startswith("<|")
        unspell = {c: b for b, c in enumerate(byte_spelling())}
        if not special and not all(c in unspell for c in token):
            return None
        target = token.encode("utf-8") if special else bytes(unspell[c] for c in token)
        at = bisect.bisect_left(self._by_bytes, target, key=self._bytes_of)
        while at < len(self._by_bytes) and self._bytes_of(self._by_bytes[at]) == target:
            i = self._by_bytes[at]
            if (i in self._special) == special:
                return i
            at += 1
        return None

    def id_to_token(self, i: int) -> str | None:
        if not 0 <= i < len(self._ends) or (i >= FIRST_MERGE and self._ends[i] == self._ends[i - 1]):
            return None
        piece = self._bytes_of(i)
        return piece.decode("utf-8") if i in self._special else "".join(byte_spelling()[b] for b in piece)

    def encode(self, text: str, add_special_tokens: bool = False) -> Encoding:
        """The ids of `text`; with add_special_tokens (which the console never asks),
        the library's, which adds the start and end tokens."""
        if add_special_tokens or not PLAIN.fullmatch(text) or "<|" in text:
            return Encoding(self.library().encode(text, add_special_tokens=add_special_tokens).ids)
        ids: list[int] = []
        for word in WORDS.findall(text):
            ids += self._word([self._byte_id[b] for b in word.encode("ascii")])
        return Encoding(ids)

    def decode(self, ids: list[int]) -> str:
        """The text of `ids`, special tokens left out; bytes that are not UTF-8 become U+FFFD."""
        return b"".join(self._bytes_of(i) for i in ids
                        if 0 <= i < len(self._ends) and i not in self._special).decode("utf-8", "replace")

    def library(self):
        """tokenizers' own Tokenizer of the same file, loaded when first needed."""
        if self._library is None:
            import tokenizers
            self._library = tokenizers.Tokenizer.from_file(str(self._path))
        return self._library

    def _merged(self, left: int, right: int) -> int | None:
        key = left << 20 | right
        at = bisect.bisect_left(self._pair_keys, key)
        return self._pair_ids[at] if at < len(self._pair_keys) and self._pair_keys[at] == key else None

    def _word(self, pieces: list[int]) -> list[int]:
        """One word's byte tokens merged, the merge of lowest rank (lowest id) first."""
        while len(pieces) > 1:
            made = [self._merged(a, b) for a, b in zip(pieces, pieces[1:])]
            best = min((m for m in made if m is not None), default=None)
            if best is None:
                break
            at = made.index(best)
            pieces[at:at + 2] = [best]
        return pieces
