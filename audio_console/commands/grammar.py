"""A small phrase grammar that serves the keyboard and the recognizers alike.

A Rule has a canonical template ("query {row}{column}") and patterns in a tiny
notation:

    word        a literal word
    [word]      an optional word; [a|b] optional alternatives
    (a|b)       one of several words
    <slot>      a slot, filled from the grammar's Slot table

A choice inside [...] or (...) may be several words: "[what is the] chance".

The same rules produce the parser (typed or recognized text -> Command), the set
of spoken words and every spoken phrase (for the recognizers: Whisper's phrase
trie, vosk's phrase list), so what the console understands and what it listens
for cannot drift apart. The JSGF text of a grammar names it exactly (the listener
uses it as the grammar's key).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence


@dataclass(frozen=True)
class Command:
    """A parsed command. `text` is its canonical form ("query D5"); `values` holds
    each slot's canonical text, `typed` its value (a <point> slot gives a Point)."""
    name: str
    text: str
    values: tuple[tuple[str, str], ...] = ()
    typed: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)

    def get(self, slot: str) -> str:
        return dict(self.values)[slot]

    def value(self, slot: str) -> Any:
        """The slot's typed value (its text when the slot has no type)."""
        typed = dict(self.typed)
        return typed[slot] if slot in typed else self.get(slot)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class SlotOption:
    words: tuple[str, ...]   # the tokens that say it
    value: Any               # what it means ("D", "5", Point(3, 4)); str(value) is its text
    spoken: bool = True      # False: typed only (digits); recognizers never get it


@dataclass
class Slot:
    name: str
    options: list[SlotOption]

    def spoken_options(self) -> list[SlotOption]:
        return [o for o in self.options if o.spoken]


@dataclass
class Rule:
    name: str
    template: str
    patterns: list[str]
    spoken: bool = True      # False: typed only (not offered to the recognizers)


def _command(rule: Rule, values: dict) -> Command:
    """The Command a rule makes of its slots' values (the template gives its text)."""
    texts = {name: str(value) for name, value in values.items()}
    typed = tuple((name, value) for name, value in sorted(values.items()) if not isinstance(value, str))
    return Command(rule.name, rule.template.format(**texts).strip(), tuple(sorted(texts.items())), typed)


# --- pattern compilation -----------------------------------------------------

@dataclass(frozen=True)
class _Words:
    choices: tuple[tuple[str, ...], ...]    # each choice is one or more words
    optional: bool


@dataclass(frozen=True)
class _SlotRef:
    name: str


_TOKEN = re.compile(r"\[[^\]]+\]|\([^)]+\)|<[^>]+>|[^\s]+")


def _choices(group: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(choice.split()) for choice in group.split("|"))


def _compile(pattern: str) -> tuple[_Words | _SlotRef, ...]:
    elements: list[_Words | _SlotRef] = []
    for token in _TOKEN.findall(pattern):
        if token.startswith("["):
            elements.append(_Words(_choices(token[1:-1]), True))
        elif token.startswith("("):
            elements.append(_Words(_choices(token[1:-1]), False))
        elif token.startswith("<"):
            elements.append(_SlotRef(token[1:-1]))
        else:
            elements.append(_Words(((token,),), False))
    return tuple(elements)


def normalize(text: str) -> list[str]:
    """Typed or recognized text -> tokens: lower case, no punctuation, and letters
    split from digits so that 'd5', 'D 5' and 'D-5' all read as 'd 5'."""
    text = text.lower().replace("'", "")
    text = re.sub(r"[^a-z0-9]+", " ", text)
    text = re.sub(r"(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])", " ", text)
    return text.split()


class Grammar:
    def __init__(self, rules: Sequence[Rule], slots: Sequence[Slot] = ()):
        self.rules = list(rules)
        self.slots = {s.name: s for s in slots}
        self._compiled = [(rule, [_compile(p) for p in rule.patterns]) for rule in self.rules]
        for rule, patterns in self._compiled:
            for pattern in patterns:
                for element in pattern:
                    if isinstance(element, _SlotRef) and element.name not in self.slots:
                        raise ValueError(f"rule {rule.name!r} uses unknown slot <{element.name}>")

    def __add__(self, other: "Grammar") -> "Grammar":
        return Grammar(self.rules + other.rules, list({**self.slots, **other.slots}.values()))

    # --- parsing -------------------------------------------------------------

    def parse(self, text: str) -> Command | None:
        """The command that `text` says, or None when it says nothing this grammar knows."""
        tokens = normalize(text)
        if not tokens:
            return None
        for rule, patterns in self._compiled:
            for pattern in patterns:
                values = self._match(pattern, 0, tokens, 0, {})
                if values is not None:
                    return _command(rule, values)
        return None

    def _match(self, pattern, i, tokens, j, values) -> dict | None:
        if i == len(pattern):
            return dict(values) if j == len(tokens) else None
        element = pattern[i]
        if isinstance(element, _Words):
            for choice in element.choices:
                if tuple(tokens[j:j + len(choice)]) == choice:
                    found = self._match(pattern, i + 1, tokens, j + len(choice), values)
                    if found is not None:
                        return found
            return self._match(pattern, i + 1, tokens, j, values) if element.optional else None
        for option in self.slots[element.name].options:
            n = len(option.words)
            if tuple(tokens[j:j + n]) == option.words:
                found = self._match(pattern, i + 1, tokens, j + n, {**values, element.name: option.value})
                if found is not None:
                    return found
        return None

    # --- what the recognizers listen for ----------------------------------------

    def words(self) -> set[str]:
        """Every word a recognizer may hear in this grammar."""
        result: set[str] = set()
        for rule, patterns in self._compiled:
            if not rule.spoken:
                continue
            for pattern in patterns:
                for element in pattern:
                    if isinstance(element, _Words):
                        for choice in element.choices:
                            result.update(choice)
                    else:
                        for option in self.slots[element.name].spoken_options():
                            result.update(option.words)
        return result

    def phrases(self) -> Iterator[str]:
        """Every spoken phrase of this grammar, each once."""
        seen = set()
        for rule, patterns in self._compiled:
            if not rule.spoken:
                continue
            for pattern in patterns:
                for words in self._expand(pattern, 0):
                    phrase = " ".join(words)
                    if phrase and phrase not in seen:
                        seen.add(phrase)
                        yield phrase

    def phrase_commands(self) -> Iterator[tuple[str, Command]]:
        """Every spoken phrase once, with the command it says: what parse() gives for
        it, without parsing each (a recognizer's grammar has thousands of phrases)."""
        seen = set()
        for rule, patterns in self._compiled:
            if not rule.spoken:
                continue
            for pattern in patterns:
                for words, values in self._expand_values(pattern, 0):
                    phrase = " ".join(words)
                    if phrase and phrase not in seen:
                        seen.add(phrase)
                        yield phrase, _command(rule, values)

    def _expand_values(self, pattern, i) -> Iterator[tuple[tuple[str, ...], dict]]:
        if i == len(pattern):
            yield (), {}
            return
        element = pattern[i]
        heads: list[tuple[tuple[str, ...], str | None]]
        if isinstance(element, _Words):
            heads = [(c, None) for c in element.choices]
            if element.optional:
                heads.append(((), None))


        else:
            heads = [(o.words, o.value) for o in self.slots[element.name].spoken_options()]
        for head, value in heads:
            for tail, values in self._expand_values(pattern, i + 1):
                if value is not None:
                    values = {**values, element.name: value}
                yield head + tail, values

    def _expand(self, pattern, i) -> Iterator[tuple[str, ...]]:
        if i == len(pattern):
            yield ()
            return
        element = pattern[i]
        if isinstance(element, _Words):
            heads = list(element.choices) + ([()] if element.optional else [])
        else:
            heads = [o.words for o in self.slots[element.name].spoken_options()]
        for head in heads:
            for tail in self._expand(pattern, i + 1):
                yield head + tail

    def jsgf(self, name: str = "commands") -> str:
        """A JSGF grammar accepting exactly the spoken phrases (once pocketsphinx's
        input; now the listener's key for a grammar)."""
        lines = ["#JSGF V1.0;", f"grammar {name};"]
        alternatives = []
        for rule, patterns in self._compiled:
            if not rule.spoken:
                continue
            for pattern in patterns:
                parts = []
                for element in pattern:
                    if isinstance(element, _SlotRef):
                        parts.append(f"<{element.name}>")
                    else:
                        choices = [" ".join(choice) for choice in element.choices]
                        if element.optional:
                            parts.append("[" + " | ".join(choices) + "]")
                        elif len(choices) > 1:
                            parts.append("(" + " | ".join(choices) + ")")
                        else:
                            parts.append(choices[0])
                alternatives.append(" ".join(parts))
        lines.append("public <command> = " + " | ".join(f"( {a} )" for a in alternatives) + " ;")
        used = {e.name for _, ps in self._compiled for p in ps for e in p if isinstance(e, _SlotRef)}
        for slot_name in sorted(used):
            options = sorted({" ".join(o.words) for o in self.slots[slot_name].spoken_options()})
            lines.append(f"<{slot_name}> = " + " | ".join(options) + " ;")
        return "\n".join(lines) + "\n"

    def describe(self) -> list[str]:
        """The first pattern of each rule, as an example for help."""
        return [rule.patterns[0] for rule in self.rules]
