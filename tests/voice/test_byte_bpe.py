"""Our GPT-2 tokenizer tables (voice/byte_bpe.py) give the `tokenizers` library's ids
and text for the embedded Whisper's tokenizer.json: every word of every grammar the
console listens with, each written as Whisper may write it, the prompts, and random
text; so the phrase trie, the prompt and the free transcript are what they were."""
from __future__ import annotations

import random

import pytest

from audio_console.voice.byte_bpe import ByteBpe
from audio_console.voice.phrase_trie import _word_forms, example_text
from audio_console.voice.whisper_model import embedded_model_path, read_tokenizer
from tests.voice.test_phrase_reach import every_grammar, library_tokenizer


@pytest.fixture(scope="module")
def both():
    library = library_tokenizer()
    ours = read_tokenizer(embedded_model_path() / "tokenizer.json")
    assert isinstance(ours, ByteBpe)      # the embedded tokenizer.json is GPT-2's layout
    return ours, library


def texts() -> list[str]:
    found = {"Hello world's", " I'm  here", "  spaces  ", " it's 12.5%!", "'S cap", "a\n\nb", " x  \n y", ""}
    for _, grammar in every_grammar():
        for word in grammar.words():
            for first in (True, False):
                found.update(" " + w for w in _word_forms(word, first))
                found.update(_word_forms(word, first))
        found.add(" " + example_text([p for p, _ in grammar.phrase_commands()], 6))
    rng = random.Random(29)
    letters = "abcdefghijklmnopqrstuvwxyzDGKQXZ0123456789'.,?!-% \t\n"
    found.update("".join(rng.choice(letters) for _ in range(rng.randint(1, 24))) for _ in range(3000))
    return sorted(found)


def test_the_same_ids_as_the_library(both):
    ours, library = both
    differ = [t for t in texts() if ours.encode(t, add_special_tokens=False).ids
              != library.encode(t, add_special_tokens=False).ids]
    assert differ == []


def test_text_the_tables_do_not_cover_goes_to_the_library(both):
    ours, library = both
    for text in (" café au lait", " naïve", "<|endoftext|> hi", " 東京"):
        assert ours.encode(text).ids == library.encode(text, add_special_tokens=False).ids


def test_the_same_text_and_special_ids_as_the_library(both):
    ours, library = both
    rng = random.Random(29)
    for _ in range(3000):          # any tokens: specials and timestamps are left out, split UTF-8 replaced
        ids = [rng.randrange(51864) for _ in range(rng.randint(0, 8))] + [rng.randrange(300) for _ in range(3)]
        assert ours.decode(ids) == library.decode(ids), ids
    for name in ("<|startoftranscript|>", "<|notimestamps|>", "<|endoftext|>", "<|startofprev|>",
                 "<|nospeech|>", "<|nocaptions|>", ".", ",", " alpha", "not a token"):
        assert ours.token_to_id(name) == library.token_to_id(name), name
    for i in [*range(0, 51864, 101), 50256, 50362, 50363, 50364, 51863]:
        assert ours.id_to_token(i) == library.id_to_token(i), i


def test_a_tokenizer_laid_out_otherwise_is_left_to_the_library(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text('{"model": {"type": "WordPiece", "vocab": {}}, "pre_tokenizer": {"type": "ByteLevel"}}')
    assert ByteBpe.load(path) is None
