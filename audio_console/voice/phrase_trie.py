"""The written forms of a grammar's phrases as a token trie, for constrained decoding.

Whisper writes what it hears as text ("Delta 5.", "D5", "sector 2, row D"), so each
spoken phrase of the grammar ("delta five") stands for every form Whisper may write
for it: digits or words for numbers, capital or small first letters, a letter and
a digit joined ("D5"), a comma after a coordinate part inside a longer command.
Arkade's 9,000 phrases have hundreds of thousands of such forms, so the token trie
is built lazily: a word trie of the spoken phrases is built at once (fast), and a
token node's children are worked out the first time the search visits it.

Whisper's tokenizer (GPT-2's byte-level BPE) splits text into words with their
leading space, and letters from digits, and never merges across those pieces: a
form's tokens are its written words' tokens, each word tokenized once.
"""
from __future__ import annotations

import re

NUMBERS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
           "seven": "7", "eight": "8", "nine": "9", "ten": "10", "zero": "0"}
PHONETIC = {"alpha", "alfa", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
            "hotel", "india", "juliet", "juliett"}
ACRONYMS = {"gps": "GPS"}
# Words Whisper writes as their homophone: "Red row Echo", "sector to", "D for".
HOMOPHONES = {"read": "red", "two": "to", "four": "for"}
# Words Whisper writes as other words, found in its free transcripts of the tuning
# corpora: "unmark bravo nine" comes out "and Mark Bravo 9." or "in Mark Bravo 9."
ALSO_WRITTEN = {"unmark": ["and Mark", "and mark", "in Mark", "un-mark"]}
WORD = re.compile(r"[A-Za-z0-9']+")
LETTER_DIGITS = re.compile(r"[a-z]?\d+")     # "d5", "5": a coordinate as Whisper joins it


def words_of(text: str) -> set[str]:
    """The different words of a transcript, in lower case ("D5", "I'm" are one each)."""
    return {w.lower() for w in WORD.findall(text)}


def kind_of(command) -> tuple[str, ...]:
    """A command's kind: the names of its slots ("query D5", "mark D5": a point; "stop",
    "say more": none). The phrase search weighs a command against others of its kind."""
    return tuple(name for name, _ in command.values)


def _word_forms(word: str, first: bool) -> list[str]:
    """How Whisper may write one spoken word: digits for numbers, capital letters,
    a capital at the start (it also writes short commands in lower case)."""
    if word in NUMBERS:
        forms = [NUMBERS[word], word.capitalize(), word] if first else [NUMBERS[word], word]
        return forms + ([HOMOPHONES[word]] if word in HOMOPHONES and not first else [])
    if len(word) == 1:
        return [word.upper()]
    if word in ACRONYMS:
        return [ACRONYMS[word]]
    forms = [word.capitalize(), word] if word in PHONETIC or first else [word]
    if word in HOMOPHONES:
        same = HOMOPHONES[word]
        forms += [same.capitalize(), same] if first else [same]
    for other in ALSO_WRITTEN.get(word, ()):
        forms += [other[0].upper() + other[1:], other] if first else [other]
    return forms


def _comma_after(word: str) -> bool:
    """Whisper often writes a comma after a coordinate part inside a longer command:
    "Sector 1, column 3", "Fly G6, forward"."""
    return word in NUMBERS or word in PHONETIC


def written_forms(phrase: str) -> list[str]:
    """"delta five" -> ["Delta 5", "Delta five", ...]; "d five" -> also "D5". (For
    reading and tests; the trie builds the same forms as tokens.)"""
    forms = [""]
    words = phrase.split()
    for i, word in enumerate(words):
        joinable = i > 0 and len(words[i - 1]) == 1 and word in NUMBERS
        grown = []
        for form in forms:
            for written in _word_forms(word, i == 0):
                grown.append(f"{form} {written}" if form else written)
                if joinable and written.isdigit():
                    grown.append(form + written)
        if i + 1 < len(words) and _comma_after(word):
            grown += [form + "," for form in grown]
        forms = grown
    return forms


class WordNode:
    __slots__ = ("children", "phrase", "word", "depth", "command", "kind")

    def __init__(self, word: str = "", depth: int = 0):
        self.children: dict[str, WordNode] = {}
        self.phrase = -1        # index of the phrase ending here
        self.word = word        # the word that led here
        self.depth = depth
        self.command = -1       # the one command below (index), -2 when several
        self.kind = -1          # the one kind of command below (kind_of), -2 when several


class Node:
    """A token node: the pending parts of words that lead here."""
    __slots__ = ("items", "_children", "phrase", "command", "trie")

    def __init__(self, items, trie):
        # each item: (word node reached when the word ends, its tokens still to come,
        # must_continue: a comma was written, so the phrase cannot end there)
        self.items = items
        self._children: dict[int, Node] | None = None
        self.phrase = -1
        self.command = -1
        self.trie = trie

    @property
    def children(self) -> dict[int, "Node"]:
        if self._children is None:
            self._children = self.trie._expand(self)   # noqa: SLF001 - built on first visit
        return self._children


class PhraseTrie:
    """Every written form of every spoken phrase of `grammar`, as a lazy token trie."""

    def __init__(self, grammar, tokenizer):
        self._tokenizer = tokenizer
        self._tokens: dict[str, tuple[int, ...]] = {}
        self._options: dict[tuple, list[tuple[tuple[int, ...], bool]]] = {}
        self.phrases: list[str] = []         # spoken phrase per index
        self.commands: list[str] = []        # its canonical command text
        self.examples: str | None = None     # example_text() of the phrases, once asked for
        self._vocabulary: set[str] | None = None
        command_ids: dict[str, int] = {}
        kind_ids: dict[tuple[str, ...], int] = {}
        self._command_kind: list[int] = []   # per command index: its kind (kind_of)
        self.words = WordNode()
        for phrase, command in grammar.phrase_commands():
            node = self.words
            for word in phrase.split():
                child = node.children.get(word)
                if child is None:
                    child = node.children[word] = WordNode(word, node.depth + 1)
                node = child
            if node.phrase < 0:
                node.phrase = len(self.phrases)
                self.phrases.append(phrase)
                self.commands.append(command.text)
                if command.text not in command_ids:
                    command_ids[command.text] = len(command_ids)
                    self._command_kind.append(kind_ids.setdefault(kind_of(command), len(kind_ids)))
        self._command_index = [command_ids[c] for c in self.commands]
        self._mark_commands(self.words)
        self.root = self._node(self._arrive(self.words, False, first=True), terminal=None)

    # --- building ------------------------------------------------------------------

    def tokens(self, text: str) -> tuple[int, ...]:
        ids = self._tokens.get(text)
        if ids is None:
            ids = self._tokens[text] = tuple(self._tokenizer.encode(text, add_special_tokens=False).ids)
        return ids

    def _mark_commands(self, root: WordNode) -> None:
        """Each word node's one command below it, and its one kind of command, or -2
        when several (iteratively)."""
        order, stack = [], [root]
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(node.children.values())
        for node in reversed(order):
            found = {self._command_index[node.phrase]} if node.phrase >= 0 else set()
            kinds = {self._command_kind[c] for c in found}
            for child in node.children.values():
                found.add(child.command)
                kinds.add(child.kind)
            node.command = found.pop() if len(found) == 1 else -2
            node.kind = kinds.pop() if len(kinds) == 1 else -2

    def _word_options(self, parent: WordNode, child: WordNode, first: bool):
        """(tokens, must_continue) for writing child.word after parent's word."""
        word = child.word
        joinable = len(parent.word) == 1 and word in NUMBERS
        comma = bool(child.children) and _comma_after(word)
        key = (word, first, joinable, comma)
        options = self._options.get(key)
        if options is None:
            options = []
            for written in _word_forms(word, first):
                options.append((self.tokens(" " + written), False))
                if joinable and written.isdigit():
                    options.append((self.tokens(written), False))   # "D5": no space before the digit
            if comma:
                options += [(ids + self.tokens(","), True) for ids, _ in options]
            self._options[key] = options
        return options

    def _arrive(self, word_node: WordNode, must_continue: bool, first: bool = False):
        """The items that start each next word after `word_node`."""
        items = []
        for child in word_node.children.values():
            for ids, comma in self._word_options(word_node, child, first):
                items.append((child, ids, comma))
        return items

    def _node(self, items, terminal) -> Node:
        node = Node(items, self)
        if terminal is not None:
            node.phrase = terminal
        commands = {item[0].command for item in items}
        if terminal is not None:
            commands.add(self._command_index[terminal])
        node.command = commands.pop() if len(commands) == 1 else -2
        return node

    def _expand(self, node: Node) -> dict[int, Node]:
        groups: dict[int, list] = {}
        for word_node, ids, comma in node.items:
            groups.setdefault(ids[0], []).append((word_node, ids[1:], comma))
        children = {}
        for token, items in groups.items():
            pending, terminal = [], None
            for word_node, rest, comma in items:
                if rest:
                    pending.append((word_node, rest, comma))
                    continue
                if word_node.phrase >= 0 and not comma and terminal is None:
                    terminal = word_node.phrase
                pending.extend(self._arrive(word_node, comma))
            children[token] = self._node(pending, terminal)
        return children

    @property
    def vocabulary(self) -> set[str]:
        """Every word, in lower case, that some written form of some phrase uses
        ("delta", "5", "red", "and" of "and Mark"); made on first use."""
        if self._vocabulary is None:
            spoken, stack = set(), [self.words]
            while stack:
                node = stack.pop()
                spoken.add(node.word)
                stack.extend(node.children.values())
            spoken.discard("")
            self._vocabulary = {w.lower() for word in spoken for first in (True, False)
                                for form in _word_forms(word, first) for w in WORD.findall(form)}
        return self._vocabulary

    def talk_words(self, transcript: str) -> int:
        """How many different words of a transcript no phrase uses, in any written
        form ("I think we should order pizza" has 6; "Delta 5.", "D5 D5" and "Rule
        out B5" none): many of them mean talk, not a misheard command."""
        return sum(1 for w in words_of(transcript) if w not in self.vocabulary and not LETTER_DIGITS.fullmatch(w))

    def command_below(self, node: Node) -> int:
        """The one command every phrase below `node` says, or -2 when several."""
        return node.command

    def command_index(self, phrase: int) -> int:
        return self._command_index[phrase]

    def kind(self, phrase: int) -> int:
        """The kind of the command `phrase` says (kind_of), as a number."""
        return self._command_kind[self._command_index[phrase]]

    def kind_below(self, node: Node) -> int:
        """The one kind of command every phrase below `node` says, or -2 when several."""
        kinds = {item[0].kind for item in node.items}
        if node.phrase >= 0:
            kinds.add(self.kind(node.phrase))
        return kinds.pop() if len(kinds) == 1 else -2


SHORT_COMMANDS = ("hint",)


def example_text(phrases, count: int = 6) -> str:
    """A few of the phrases as Whisper writes them ("Rule out Echo 6. Scan Bravo 9."),
    chosen greedily to name as many different words as possible, the phonetic
    alphabet first: Whisper reads it as what was said before (its prompt), and then
    writes the commands in the same way."""
    phrases = sorted(set(phrases))
    covered: set = {"alfa", "juliett"}   # spelling variants: their twins are named instead
    chosen = []
    for _ in range(count):
        def gain(phrase):
            new = set(phrase.split()) - covered
            return (2 * len(new & PHONETIC) + len(new), -len(phrase), phrase)
        best = max(phrases, key=gain, default=None)
        if best is None or gain(best)[0] == 0:
            break
        chosen.append(best)
        covered |= set(best.split())
    # The one-word command a hands-free player says most: named too, or a short "hint"
    # in chatter loses to the points the prompt names (bench_voice_game.py).
    chosen += [word for word in SHORT_COMMANDS if word in phrases]
    return " ".join(written_forms(phrase)[0] + "." for phrase in chosen)


def transcript_command(grammar, transcript: str) -> str | None:
    """The command a free transcript says, if any: the whole of it, or a command said
    again and again (Whisper repeats a short command into the silence after it: "D7
    D7 D7 D7", "Charlie five, Charlie five, Charlie"), its last word perhaps cut short
    where the transcript's tokens ran out ("Hint Hint Hint Hint H", "C4 C4 C4 C4 C").
    A command followed by other words is none: "Delta 4 is a good film." is chatter,
    not D4 (with the prompt, tiny.en writes chatter close to commands in the
    commands' style)."""
    if not transcript:
        return None
    command = grammar.parse(transcript)
    if command is not None:
        return command.text
    words = re.sub(r"[.,?!]", " ", transcript).split()
    for n in range(len(words), 0, -1):
        command = grammar.parse(" ".join(words[:n]))
        if command is not None:
            said = [w.lower() for w in words[:n]]
            rest = [w.lower() for w in words[n:]]
            last = len(rest) - 1
            if all(w == said[i % n] or (i == last and said[i % n].startswith(w)) for i, w in enumerate(rest)):
                return command.text
            return None
    return None


class TrieCache:
    """The tries of the grammars seen lately: the console's grammars come back every
    turn (the listener swaps two at every utterance), and a trie is built once per
    phrase set."""

    def __init__(self, tokenizer, size: int = 8):
        self.tokenizer, self.size = tokenizer, size
        self._by_phrases: dict = {}      # phrase set -> PhraseTrie
        self._by_identity: dict = {}     # id(grammar) -> (grammar, PhraseTrie): a quick swap back

    def trie(self, grammar) -> PhraseTrie:
        known = self._by_identity.get(id(grammar))
        if known is not None and known[0] is grammar:
            return known[1]
        key = frozenset(grammar.phrases())
        trie = self._by_phrases.get(key)
        if trie is None:
            trie = PhraseTrie(grammar, self.tokenizer)
            _put(self._by_phrases, key, trie, self.size)
        _put(self._by_identity, id(grammar), (grammar, trie), self.size)
        return trie


def _put(cache: dict, key, value, size: int) -> None:
    if len(cache) >= size:
        cache.pop(next(iter(cache)))
    cache[key] = value
