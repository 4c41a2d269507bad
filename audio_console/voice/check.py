"""Voice check: the player says a few prompted coordinates; the console reports how
many it understood, which letters it confused, and what to set for this speaker
and microphone. It works with any recognizer: it only sets the listener's grammar
and reads the Heard results, as live play does.

Driven by the session (menu or console), one prompt at a time:

    check = VoiceCheck(random.Random(seed))
    listener.set_grammar(check.grammar())
    while (prompt := check.next_prompt()) is not None:
        say(prompt)                 # "Say: D5."
        say(check.record(heard))    # heard: the next Heard from the listener (or None: timeout)
    for line in check.report(): say(line)
    settings.confirm = check.suggested_confirm()   # if the player agrees
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from audio_console.commands.grammar import Grammar, Rule
from audio_console.commands.vocabulary import PHONETIC, common_grammar, letter_slot, number_slot, point_slot
from audio_console.voice.trust import Heard

PLAIN_CONFUSABLE = set("BCDEGPTVZ")


@dataclass
class Attempt:
    expected: str        # "D5"
    heard: str           # what the recognizer heard ("" for nothing)
    got: str | None      # the coordinate understood, None if rejected
    confirm: bool
    phonetic: bool       # said with the phonetic alphabet


class VoiceCheck:
    def __init__(self, rng: random.Random, count: int = 8, rows: str = "ABCDEFG", columns: int = 9):
        # Half the prompts lean on the letters recognizers confuse most.
        hard = [r for r in rows if r in PLAIN_CONFUSABLE] or list(rows)
        self.prompts = []
        for i in range(count):
            row = rng.choice(hard if i % 2 == 0 else rows)
            self.prompts.append(f"{row}{rng.randint(1, columns)}")
        self.attempts: list[Attempt] = []
        self.rows, self.columns = rows, columns

    def grammar(self) -> Grammar:
        """What to listen for during the check: coordinates, and the common words
        (so that "cancel" or "stop" still work)."""
        point = point_slot("point", letter_slot("row", self.rows), number_slot("column", 1, self.columns),
                           lambda letter, number: f"{letter}{number}")
        return Grammar([Rule("query", "query {point}", ["<point>"])], [point]) + common_grammar()

    def next_prompt(self) -> str | None:
        """The next line to say ("Say: D5."), or None when the check is done."""
        i = len(self.attempts)
        if i >= len(self.prompts):
            return None
        lead = "Voice check. Say each coordinate as you would in a game. " if i == 0 else ""
        return f"{lead}{i + 1} of {len(self.prompts)}. Say: {self.prompts[i]}."

    def record(self, heard: Heard | None) -> str:
        """Take the answer to the current prompt; returns a short line to say back."""
        expected = self.prompts[len(self.attempts)]
        got = None
        if heard is not None and heard.command is not None:
            got = dict(heard.command.values).get("point")     # "D5", from a game's grammar too
        text = heard.text if heard is not None else ""
        phonetic = any(word in sum(PHONETIC.values(), []) for word in text.split())
        would_confirm = heard is not None and heard.confirm
        self.attempts.append(Attempt(expected, text, got, would_confirm, phonetic))
        if got == expected:
            return f"Understood {got}." + (" (I would have asked to confirm.)" if would_confirm else "")

        if got is None:
            return "Not understood."
        return f"I understood {got}."

    # --- the report ----------------------------------------------------------------

    def understood(self) -> int:
        return sum(a.got == a.expected for a in self.attempts)

    def confusions(self) -> Counter:
        """(said letter, understood letter) -> count, for wrong rows only."""
        return Counter((a.expected[0], a.got[0]) for a in self.attempts
                       if a.got and a.got[0] != a.expected[0])

    def suggested_style(self) -> str:
        """"phonetic" when plain letters went wrong, "plain" when they worked, and
        "already phonetic" when the player said (nearly) every row in the phonetic
        alphabet: then nothing is known about plain letters, so nothing is said of them."""
        plain = [a for a in self.attempts if not a.phonetic]
        if self.attempts and len(plain) * 4 <= len(self.attempts):
            return "already phonetic"
        plain_trouble = sum(1 for a in plain if a.got is None or a.got[0] != a.expected[0])
        if plain_trouble >= 2 or (plain_trouble == 1 and len(plain) <= 4):
            return "phonetic"
        return "plain"

    def suggested_confirm(self) -> str:
        n = len(self.attempts) or 1
        right = self.understood() / n
        wrong = sum(1 for a in self.attempts if a.got and a.got != a.expected) / n
        if wrong == 0 and right >= 0.9:
            return "unsure"
        if wrong > 0.15 or right < 0.6:
            return "always"
        return "unsure"

    def report(self) -> list[str]:
        """The lines to say."""
        n = len(self.attempts)
        lines = [f"Voice check: understood {self.understood()} of {n}."]
        wrong = [a for a in self.attempts if a.got and a.got != a.expected]
        missed = [a for a in self.attempts if a.got is None]
        if wrong:
            lines.append("Misheard: " + ", ".join(f"{a.expected} as {a.got}" for a in wrong) + ".")
        confusions = self.confusions()
        if confusions:
            lines.append("Letters confused: " + ", ".join(
                f"{said} heard as {got}" + (f" {k} times" if k > 1 else "")
                for (said, got), k in confusions.most_common()) + ".")
        if missed:
            lines.append(f"Not understood: {', '.join(a.expected for a in missed)}.")
        style = self.suggested_style()
        if style == "phonetic":
            lines.append("Suggestion: say rows in the phonetic alphabet, for example delta five, "
                         "not D five.")
        elif style == "already phonetic":
            lines.append("Phonetic alphabet: keep using it, it is the surest way to say a row.")
        else:
            lines.append("Plain letters work well for you; the phonetic alphabet is always understood too.")
        confirm = self.suggested_confirm()
        lines.append({"unsure": "Suggested confirm setting: unsure (I ask only when unsure).",
                      "always": "Suggested confirm setting: always (I repeat every coordinate before acting).",
                      }[confirm])
        return lines
