"""Whether Whisper's free transcript says a NATO point the way it sounds, though not
the way it is spelled: "Boxtrot 7. Boxtrot 7" for "foxtrot seven", "Charlie 3.
Charley 3. Charley" for "charlie three", "Go 3" for "golf three".

Real people's clearly said points were asked about only because the free transcript
spelled the alphabet word as another word (issue 28): the best constrained phrase was
the right point in every such case. The trust layer counts a transcript that sounds
like the phrase as agreeing with it. The number must be written exactly, and each
alphabet word must sound nearer to the phrase's word than to any other alphabet word,
so a transcript that names another point never agrees.
"""
from __future__ import annotations

from audio_console.voice.phrase_trie import NUMBERS, PHONETIC, WORD

# Letters a listener (and Whisper) mixes up: a swap inside one group costs half a letter.
SOUND_GROUPS = ("bpfvw", "dt", "gkcq", "szx", "aeiouy", "mn", "lr")
SPELLINGS = (("ph", "f"), ("ck", "k"), ("ch", "c"), ("x", "ks"), ("ey", "i"), ("ie", "i"))
NEAR_PART = 0.5      # at most this many letters' cost per sound of the alphabet word
NEARER_BY = 1.0      # and at least this much nearer to it than to any other alphabet word
PREFIX_LETTERS = 2   # "Go" for "golf": the start of one alphabet word only, this long or more
WORDS_PER_LETTER = 2  # "Box truck": an alphabet word written as at most two words


def sounds_like_point(phrase: str, transcript: str) -> bool:
    """The transcript says the point `phrase` ("foxtrot seven") once or again and
    again, perhaps cut short at its end, with every alphabet word sounding like the
    phrase's and every number exactly the phrase's."""
    words = phrase.split()
    if len(words) != 2 or words[0] not in PHONETIC or words[1] not in NUMBERS:
        return False
    letter, number = words
    chunks, tail = _chunks(transcript)
    if not chunks:
        return False
    for said_letter, said_number in chunks:
        if said_number not in (number, NUMBERS[number]) or not _sounds_like(said_letter, letter):
            return False
    return not tail or _sounds_like(tail, letter) or any(said.startswith(tail) for said, _ in chunks)


def _chunks(transcript: str) -> tuple[list[tuple[str, str]], str]:
    """The transcript as (letter part joined, number) pairs and what follows the last
    number ("Box truck 3. Box" -> [("boxtruck", "3")], "box"); no pairs when a letter
    part is missing or longer than WORDS_PER_LETTER words."""
    chunks: list[tuple[str, str]] = []
    part: list[str] = []
    for token in (w.lower() for w in WORD.findall(transcript)):
        if token.isdigit() or token in NUMBERS:
            if not part or len(part) > WORDS_PER_LETTER:
                return [], ""
            chunks.append(("".join(part), token))
            part = []
        else:
            part.append(token)
    if len(part) > WORDS_PER_LETTER:
        return [], ""
    return chunks, "".join(part)


def _sounds_like(said: str, letter: str) -> bool:
    """`said` is near the alphabet word `letter` and nearer to it than to any other,
    or the start of it alone."""
    if len(said) >= PREFIX_LETTERS and letter.startswith(said):
        return not any(other.startswith(said) for other in PHONETIC - {letter, _other_spelling(letter)})
    distance = sound_distance(said, letter)
    if distance > NEAR_PART * len(_as_sounds(letter)):
        return False
    return all(sound_distance(said, other) >= distance + NEARER_BY
               for other in PHONETIC - {letter, _other_spelling(letter)})


def _other_spelling(letter: str) -> str:
    return {"alpha": "alfa", "alfa": "alpha", "juliet": "juliett", "juliett": "juliet"}.get(letter, letter)


def sound_distance(a: str, b: str) -> float:
    """Edit distance between two words as they sound: a letter swapped for one of its
    SOUND_GROUPS costs half, any other change one."""
    a, b = _as_sounds(a), _as_sounds(b)
    previous = [float(j) for j in range(len(b) + 1)]
    for i, x in enumerate(a, 1):
        row = [float(i)]
        for j, y in enumerate(b, 1):
            row.append(min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + _swap_cost(x, y)))
        previous = row
    return previous[-1]


def _as_sounds(word: str) -> str:
    word = word.lower()
    for spelled, sound in SPELLINGS:
        word = word.replace(spelled, sound)
    return "".join(c for i, c in enumerate(word) if i == 0 or c != word[i - 1])


def _swap_cost(x: str, y: str) -> float:
    if x == y:
        return 0.0
    return 0.5 if any(x in group and y in group for group in SOUND_GROUPS) else 1.0
