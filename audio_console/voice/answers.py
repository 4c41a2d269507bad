"""The answers' own bar: an utterance heard while "Did you say D5?" waits.

Right after that question the player very likely says yes or no (or the point
again, or another command). The usual bar drops a real "yes" in noise that Whisper
wrote "Yeah." but scored under trust.WRITTEN_SHORT_FLOOR, and the point asked
about is lost. While such a question waits, a yes or no is taken when:

- the constrained search chose it, and Whisper, free to write anything, wrote that
  answer alone (trust._written_alone), or began with it and never wrote the other
  answer ("Yes, oh. Yes, oh.", "No, you're holding"; "Yeah, no" is neither);
- it scored at least ANSWER_FLOOR a token, and Whisper did not doubt there was speech.

Every other command keeps the usual bar; so does every other question ("Start a new
game?" loses a game on a false yes). The dialogue (dialogue.py) takes `Heard.as_answer`
only while a "Did you say ...?" waits; the reporting stage sets it on every utterance.
A "no" taken as "yes" would make the move the player refused: on the real one-word
tuning corpus (40 people a word, 5 conditions) none was (docs/voice-real.md).
"""
from __future__ import annotations

import re
from dataclasses import replace

from audio_console.commands.grammar import Grammar
from audio_console.voice.recognizer import Decoded
from audio_console.voice.second_look import SECOND_LOOK_FLOOR
from audio_console.voice.trust import WHISPER_ASK_NO_SPEECH, Heard, _written_alone, whisper_confidence

ANSWERS = ("yes", "no")
# Below this mean log-probability a token, what Whisper finds in remarks and chatter
# is as likely as a command (second_look.py); at this floor more real answers are
# taken in noise and no answer for the other (docs/measurements/voice-constants.md).
ANSWER_FLOOR = SECOND_LOOK_FLOOR
# How Whisper writes each answer when it begins a transcript with it.
SAID_AS = {"yes": frozenset({"yes", "yeah", "yep", "yup"}), "no": frozenset({"no", "nope"})}


def as_answer(decoded: Decoded, grammar: Grammar, settings) -> Heard | None:
    """`decoded` heard as the answer to "Did you say ...?", if the answers' bar takes
    it as yes or no (None: it is not an answer by that bar; the usual one stands)."""
    evidence, text = decoded.evidence, decoded.text.strip()
    command = grammar.parse(text) if text else None
    if evidence is None or command is None or command.name not in ANSWERS or settings.clarity > 0.5:
        return None
    if evidence.no_speech >= WHISPER_ASK_NO_SPEECH or evidence.score < ANSWER_FLOOR:
        return None
    if not (_written_alone(command, evidence, grammar) or begins_with(evidence.transcript, command.name)):
        return None
    return Heard(text, command, round(whisper_confidence(evidence), 3), False)


def with_answer(heard: Heard, decoded: Decoded, grammar: Grammar, settings) -> Heard:
    """`heard` (the usual bar's decision) with `as_answer` set when the answers' bar
    would act where the usual one does not."""
    if heard.action == "act":
        return heard
    answer = as_answer(decoded, grammar, settings)
    return heard if answer is None else replace(heard, as_answer=answer)


def begins_with(transcript: str, answer: str) -> bool:
    """The free transcript's first word is `answer` (as Whisper writes it), and no
    word of it is the other answer."""
    words = re.findall(r"[a-z']+", transcript.lower())
    other = SAID_AS["no" if answer == "yes" else "yes"]
    return bool(words) and words[0] in SAID_AS[answer] and not other.intersection(words)
