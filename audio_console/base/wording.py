"""Words every game's lines share: numbers as words, counted nouns, sentences.

One table and one plural rule for all three games, so "1 booster" and "one ships"
cannot creep back in one game while another is fixed.
"""
from __future__ import annotations

NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
                "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]


def number_word(n: int) -> str:
    """'five' for 5; digits beyond twenty, where words stop helping."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def word_number(word: str) -> int | None:
    """5 for 'five' or '5'; None for anything else."""
    word = word.strip().lower()
    if word.isdigit() and len(word) <= 3:
        return int(word)
    return NUMBER_WORDS.index(word) if word in NUMBER_WORDS else None


def noun(count: float, singular: str, plural: str | None = None) -> str:
    """The noun that goes with count: 'ship' for 1, 'ships' for 0 or 2."""
    return singular if count == 1 else (plural or singular + "s")


def counted(count: int, singular: str, plural: str | None = None, words: bool = False) -> str:
    """'1 booster', '3 boosters', or with words=True 'one booster'."""
    number = number_word(count) if words else str(count)
    return f"{number} {noun(count, singular, plural)}"


def article(word: str) -> str:
    """'a' or 'an' before `word` (by its first letter: the games' names need no more)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def sentence(text: str) -> str:
    """The line with its first letter capitalised, the rest as written."""
    text = text.strip()
    return text[:1].upper() + text[1:]


def one_of(items: list[str], joiner: str = "or") -> str:
    """'a', 'a or b', 'a, b or c': a spoken list of choices."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {joiner} " + items[-1]
