"""Voice check: the player says a few prompted coordinates; the console reports how
many it understood, which letters it confused, and what to set for this speaker
and microphone. Voice training: a longer run of prompted phrases (every letter,
plain and phonetic, every number, the common commands) from which the embedded
recognizer adapts to the player's voice and microphone (adaptation.py). The voice
check's recordings can train it too (check.utterances()).

Driven by the session (menu or console), one prompt at a time:

    check = VoiceCheck(random.Random(seed))
    listener.set_grammar(check.grammar())
    while (prompt := check.next_prompt()) is not None:
        say(prompt)                 # "Say: D5."
        say(check.record(heard))    # heard: the next Heard from the listener (or None: timeout)
    for line in check.report(): say(line)
    settings.confirm = check.suggested_confirm()   # if the player agrees

The session passes each utterance's audio too (record(heard, audio=recognizer.last_pcm)),
so that the recordings can adapt the recognizer afterwards:

    training = VoiceTraining(random.Random(seed))      # or the VoiceCheck above
    ... the same prompt / record loop ...
    for line in training.finish(recognizer): say(line)  # adapts, saves, reloads
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from audio_console.commands.grammar import Grammar, Rule
from audio_console.commands.vocabulary import (COMMON_WORDS, NUMBER_WORDS, PHONETIC, common_grammar,
                                               letter_slot, number_slot)
from audio_console.voice.trust import Heard

PLAIN_CONFUSABLE = set("BCDEGPTVZ")


@dataclass
class Attempt:
    expected: str        # "D5"
    heard: str           # what the recognizer heard ("" for nothing)
    got: str | None      # the coordinate understood, None if rejected
    confirm: bool
    phonetic: bool       # said with the phonetic alphabet
    audio: bytes = b""   # the utterance (16 kHz mono int16), for voice training


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
        return Grammar([Rule("query", "query {row}{column}", ["<row> <column>"])],
                       [letter_slot("row", self.rows), number_slot("column", 1, self.columns)]) + common_grammar()

    def next_prompt(self) -> str | None:
        """The next line to say ("Say: D5."), or None when the check is done."""
        i = len(self.attempts)
        if i >= len(self.prompts):
            return None
        lead = "Voice check. Say each coordinate as you would in a game. " if i == 0 else ""
        return f"{lead}{i + 1} of {len(self.prompts)}. Say: {self.prompts[i]}."

    def record(self, heard: Heard | None, audio: bytes = b"") -> str:
        """Take the answer to the current prompt (and its audio, if the session has it);
        returns a short line to say back."""
        expected = self.prompts[len(self.attempts)]
        got = None
        if heard is not None and heard.command is not None and len(heard.command.values) >= 2:
            values = dict(heard.command.values)
            letters = [v for v in values.values() if v.isalpha()]
            digits = [v for v in values.values() if v.isdigit()]
            if letters and digits:
                got = letters[0] + digits[0]
        text = heard.text if heard is not None else ""
        phonetic = any(word in sum(PHONETIC.values(), []) for word in text.split())
        self.attempts.append(Attempt(expected, text, got, bool(heard and heard.confirm), phonetic,
                                     audio if heard is not None else b""))
        if got == expected:
            return f"Understood {got}." + (" (I would have asked to confirm.)" if heard.confirm else "")
        if got is None:
            return "Not understood."
        return f"I understood {got}."

    def utterances(self) -> list:
        """The recorded answers as training material. The words said are not known for
        sure ("d five" or "delta five" for D5): each carries the wordings that mean the
        prompted coordinate, and adaptation picks the one that fits the audio."""
        from audio_console.voice.adaptation import Utterance
        grammar = self.grammar()
        wordings: dict[str, list[str]] = {}
        for phrase in grammar.phrases():
            command = grammar.parse(phrase)
            if command is not None and command.name == "query":
                wordings.setdefault(command.text.split()[-1], []).append(phrase)
        return [Utterance(a.audio, "", wordings.get(a.expected, [])) for a in self.attempts if a.audio]

    # --- the report ----------------------------------------------------------------

    def understood(self) -> int:
        return sum(a.got == a.expected for a in self.attempts)

    def confusions(self) -> Counter:
        """(said letter, understood letter) -> count, for wrong rows only."""
        return Counter((a.expected[0], a.got[0]) for a in self.attempts
                       if a.got and a.got[0] != a.expected[0])

    def suggested_style(self) -> str:
        plain_trouble = sum(n for (said, _), n in self.confusions().items())
        plain_trouble += sum(1 for a in self.attempts if a.got is None and not a.phonetic)
        if plain_trouble >= 2 or (plain_trouble == 1 and len(self.attempts) <= 4):
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

    def report(self, training_available: bool = False) -> list[str]:
        """The lines to say. `training_available`: the recognizer can adapt to this voice
        (pocketsphinx), so a check with misses suggests the voice training."""
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
        if self.suggested_style() == "phonetic":
            lines.append("Suggestion: say rows in the phonetic alphabet, for example delta five, "
                         "not D five.")
        else:
            lines.append("Plain letters work well for you; the phonetic alphabet is always understood too.")
        confirm = self.suggested_confirm()
        lines.append({"unsure": "Suggested confirm setting: unsure (I ask only when unsure).",
                      "always": "Suggested confirm setting: always (I repeat every coordinate before acting).",
                      }[confirm])
        if training_available and self.understood() < n:
            lines.append("Say voice training to adapt the recognizer to your voice and microphone "
                         "(26 short phrases, about two minutes).")
        return lines


# not "cancel", "stop" or "quit": during the training they end it
TRAINING_COMMANDS = ["help", "repeat", "yes", "no", "status", "undo"]


class VoiceTraining:
    """Prompted phrases with known words: every letter of A-J plainly and in the
    phonetic alphabet, every number one to ten, and the common commands. Their
    recordings adapt the recognizer to this voice and microphone."""

    def __init__(self, rng: random.Random, count: int = 26, rows: str = "ABCDEFGHIJ"):
        plain, phonetic = list(rows), list(rows)
        rng.shuffle(plain)
        rng.shuffle(phonetic)
        numbers = [NUMBER_WORDS[n - 1] for n in list(range(1, 11)) * 2]
        rng.shuffle(numbers)
        plain_said = [f"{row.lower()} {number}" for row, number in zip(plain, numbers)]
        phonetic_said = [f"{PHONETIC[row][0]} {number}" for row, number in zip(phonetic, numbers[len(rows):])]
        words = [w for w in TRAINING_COMMANDS if w in COMMON_WORDS]
        prompts = []
        # interleave: plain, phonetic, and a command after every second pair
        for i, pair in enumerate(zip(plain_said, phonetic_said)):
            prompts += pair
            if i % 2 == 1 and words:
                prompts.append(words.pop(0))
        prompts += words
        self.prompts = prompts[:count]
        self.rows = rows
        self.recorded: list[tuple[str, bytes]] = []
        self.missed = 0

    def grammar(self) -> Grammar:
        """What the listener hears during training: the prompts' forms and the common words
        (so that "cancel" or "stop" still work)."""
        return Grammar([Rule("query", "query {row}{column}", ["<row> <column>"])],
                       [letter_slot("row", self.rows), number_slot("column", 1, 10)]) + common_grammar()

    def next_prompt(self) -> str | None:
        i = self.done()
        if i >= len(self.prompts):
            return None
        lead = ("Voice training. Say each phrase as it is written, in your normal voice. "
                if i == 0 else "")
        return f"{lead}{i + 1} of {len(self.prompts)}. Say: {self.prompts[i]}."

    def done(self) -> int:
        return len(self.recorded) + self.missed

    def record(self, heard: Heard | None, audio: bytes = b"") -> str:
        """Take the utterance for the current prompt (its audio is what counts)."""
        prompt = self.prompts[self.done()]
        if heard is None or not audio:
            self.missed += 1
            return "Nothing heard; on to the next."
        self.recorded.append((prompt, audio))
        return "Thank you."

    def utterances(self) -> list:
        from audio_console.voice.adaptation import Utterance
        return [Utterance(audio, prompt) for prompt, audio in self.recorded]

    def finish(self, recognizer=None, home=None) -> list[str]:
        """Adapt to the recordings, save the result in the settings home and (given the
        live recognizer) switch it over. Lines to say; never raises."""
        return train(self.utterances(), recognizer, home)


def train(utterances: list, recognizer=None, home=None) -> list[str]:
    """Adapt the embedded recognizer to these utterances (voice check or training)."""
    from audio_console.voice import adaptation
    try:
        result = adaptation.adapt(utterances, home=home)
    except adaptation.AdaptationError as e:
        return [str(e)]
    seconds = max(1, round(result.seconds))
    lines = [f"Voice training done: adapted to {result.utterances} phrases of your voice "
             f"in {seconds} second{'s' if seconds > 1 else ''}."]
    if recognizer is not None and hasattr(recognizer, "use_adaptation"):
        recognizer.use_adaptation(result)
        lines.append("The recognizer now uses it. Say voice training off to go back to the plain model.")
    else:
        lines.append("It is used from the next start with the built-in recognizer.")
    return lines


def training_off(recognizer=None, home=None) -> str:
    """Back to the plain model (the "voice training off" command)."""
    from audio_console.voice import adaptation
    removed = adaptation.reset(home)
    if recognizer is not None and hasattr(recognizer, "use_adaptation"):
        recognizer.use_adaptation(None)
    return ("Voice training removed: the plain voice model is used again." if removed
            else "There was no voice training; the plain voice model is in use.")
