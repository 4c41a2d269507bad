"""Words shared by every game: letters (plain and phonetic), numbers, and the
commands every game understands (docs/commands.md)."""
from __future__ import annotations

from audio_console.commands.grammar import Grammar, Rule, Slot, SlotOption
from audio_console.base.wording import number_word

PHONETIC = {
    "A": ["alpha", "alfa"], "B": ["bravo"], "C": ["charlie"], "D": ["delta"],
    "E": ["echo"], "F": ["foxtrot"], "G": ["golf"], "H": ["hotel"],
    "I": ["india"], "J": ["juliet", "juliett"],
}


def letter_slot(name: str, letters: str) -> Slot:
    """A row letter, said plainly ("d") or in the phonetic alphabet ("delta")."""
    options = []
    for letter in letters:
        options.append(SlotOption((letter.lower(),), letter))
        options += [SlotOption((word,), letter) for word in PHONETIC[letter]]
    return Slot(name, options)


def number_slot(name: str, low: int, high: int) -> Slot:
    """A number said as a word ("five") or typed as digits ("5")."""
    options = []
    for n in range(low, high + 1):
        options.append(SlotOption((number_word(n),), str(n)))
        options.append(SlotOption((str(n),), str(n), spoken=False))
    return Slot(name, options)


def point_slot(name: str, rows: Slot, columns: Slot, make) -> Slot:
    """A square said as a row letter and a column number ("delta five", "D5"), whose
    value is make(letter, number): a Point, a cell. Its phrases are those of
    "<rows> <columns>", in the same order; spoken when both parts are."""
    return Slot(name, [SlotOption(row.words + column.words, make(row.value, int(column.value)),
                                  spoken=row.spoken and column.spoken)
                       for row in rows.options for column in columns.options])


# The commands every game understands, each canonical as its own word(s).
COMMON_WORDS = ["repeat", "help", "status", "undo", "yes", "no", "cancel", "stop",
                "quit", "hint", "louder", "softer", "faster", "slower", "summary", "rules"]
# Answers to a question and quick controls: never themselves asked about ("Did you say
# yes?"); when a recognizer is unsure of one, the player says it again.
NEVER_CONFIRMED = frozenset({"yes", "no", "cancel", "stop", "repeat"})
# Commands that only make the console speak (a hint, the help, the board's state, a
# row read out, what is known at a point): a wrong one costs a sentence the player
# can cut off, less than a question would.
ONLY_SPEAK = frozenset({"hint", "why", "help", "status", "summary", "repeat", "rules", "more", "read", "what",
                        "previous message", "next message", "history"})

COMMON_RULES = [Rule(word, word, [word]) for word in COMMON_WORDS] + [
    Rule("new game", "new game", ["new game"]),
    Rule("menu", "menu", ["menu", "main menu"]),
    Rule("timing", "timing {timing}", ["<timing> signals", "signals <timing>"]),
    # Speech and signals each at a volume of its own ("louder" and "softer": both).
    Rule("speech louder", "speech louder", ["speech louder"]),
    Rule("speech softer", "speech softer", ["speech softer"]),
    Rule("signals louder", "signals louder", ["(signals|signal) louder"]),
    Rule("signals softer", "signals softer", ["(signals|signal) softer"]),
    Rule("screen reader", "screen reader {switch}", ["screen reader <switch>"]),
    # The message history: "previous" and "next" alone where a game does not take them
    # (the tutorial's steps, the menu's "previous" question), "... message" everywhere.
    Rule("previous message", "previous message", ["previous [message]"]),
    Rule("next message", "next message", ["next [message]"]),
    Rule("history", "history", ["history", "last messages"]),
    Rule("why", "why", ["why", "why that"]),
    Rule("more", "more", ["more", "say more", "tell me more"]),   # the next page of a long answer
    # "rules" alone is often heard as "hint" (flite and Whisper tiny.en); "how to play" is not
    # ("how do I play" stays typed: "I" is a word of talk, which the recognizer counts)
    Rule("rules", "rules", ["the rules", "how to play"]),
    Rule("long hints", "long hints {switch}", ["long hints <switch>"]),
    # Voice settings (kept between sessions) and the voice check.
    Rule("voice check", "voice check", ["voice check"]),
    Rule("listening", "listening push", ["push to talk"]),
    Rule("listening", "listening always", ["always listen", "always listening"]),
    Rule("headphones", "headphones {switch}", ["headphones <switch>"]),
    Rule("confirm", "confirm {confirm}", ["confirm <confirm>"]),
]
VOICE_SLOTS = [
    Slot("timing", [SlotOption(("quick",), "quick"), SlotOption(("faithful",), "faithful")]),
    Slot("switch", [SlotOption(("on",), "on"), SlotOption(("off",), "off")]),
    Slot("confirm", [SlotOption(("always",), "always"), SlotOption(("unsure",), "unsure"),
                     SlotOption(("when", "unsure"), "unsure"), SlotOption(("never",), "never")]),
]
# Typed synonyms a player would reach for; the recognizers keep to the words above.
TYPED_SYNONYMS = [
    Rule("repeat", "repeat", ["again", "say again", "what"], spoken=False),
    Rule("help", "help", ["h", "commands"], spoken=False),
    Rule("quit", "quit", ["q", "exit", "bye"], spoken=False),
    Rule("yes", "yes", ["y", "yeah", "ok", "okay"], spoken=False),
    Rule("no", "no", ["n", "nope"], spoken=False),
    Rule("stop", "stop", ["quiet", "silence", "shut up"], spoken=False),
    Rule("rules", "rules", ["rule", "how do i play"], spoken=False),
]


def common_grammar() -> Grammar:
    return Grammar(COMMON_RULES + TYPED_SYNONYMS, VOICE_SLOTS)


def what_is_missing(tokens: list[str], missing: dict[tuple[str, ...], str],
                    whatever_follows: tuple[tuple[str, ...], ...] = ()) -> str | None:
    """The answer to a command said without the point, line or space it needs: `missing`
    maps the words said to what to add; a key in `whatever_follows` answers however the
    line goes on (a word another game has no use for: "mark A1"). None: not such a line."""
    said = tuple(tokens)
    for start in whatever_follows:
        if said[:len(start)] == start:
            return missing[start]
    return missing.get(said)
