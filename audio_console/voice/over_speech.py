""""stop" said over the console's own speech.

While the console speaks, what a player says over it is most likely "stop": the
listener held the console's sound at the onset of the word (barge-in,
echo_cancel.Hold), and the word it heard was cut short by the canceller at its
start, spoken by someone with the console loud in the room, and often only half
written by Whisper ("Duh.", "Done.", "T t t"). A "stop" taken wrongly only silences
the console (the player says "repeat" to hear it again); a stop missed leaves a
blind player unable to cut the console off. So while the console was held for the
utterance, Whisper's best phrase "stop" is taken on weaker evidence than the trust
layer asks for elsewhere; and where the phrase search wrote the chopped word as
another short command ("No", "Five.", "Sounds" as yes), "stop" is taken on the
encoder states' opinion of it (keywords.py). docs/listen.md and
docs/measurements/barge-in.md give what was measured.

A point said over the console comes through the canceller weaker too: written
alone and right ("Charlie 3. Charlie 3."), its margin over the next command fell from
about 5-6 over silence to 3 over the hint, and it was asked about at 0.63-0.69
against the 0.70 bar. So while the console was held for it a bare NATO point, written
alone, is acted on a little under the bar (docs/measurements/barge-in.md).
"""
from __future__ import annotations

from dataclasses import replace

from audio_console.voice.phrase_trie import words_of
from audio_console.voice.trust import CONFUSION_COST, Heard, nato_point, accept_threshold

STOP = "stop"
# the best phrase "stop" scored at least this a token (mean log-probability): above
# the real stops said over the console and missed, below most talk and noise whose
# best phrase was "stop" (docs/measurements/voice-constants.md)
FLOOR = -4.0
MOST_WORDS = 2          # Whisper's free transcript: a word or two, not a sentence
# a NATO point said while the console was held for it is acted on this much under
# the player's bar (docs/measurements/voice-constants.md)
POINT_ALLOWANCE = 0.1
# over the console, the encoder states' opinion of "stop" this sure takes it when the
# phrase search chose another command (_opinion_of_stop; docs/measurements/barge-in.md)
KEYWORD_P = 0.75
OPINION_FLOOR = -5.0    # ... and "stop" searched alone scored at least this a token


def stop_over_speech(heard: Heard, decoded, grammar, held: bool) -> Heard:
    """`heard`, or "stop" acted on when the utterance began over the console's
    speech (`held`), was not acted on, and Whisper's best phrase was "stop" (or the
    encoder states' opinion named it: `_opinion_of_stop`) with a voice in it and a
    word or two written."""
    evidence = getattr(decoded, "evidence", None)
    if not held or heard.action == "act" or evidence is None:
        return heard
    if evidence.command == STOP:
        score, floor = evidence.score, FLOOR
    elif _opinion_of_stop(evidence):
        score, floor = evidence.keyword_score, OPINION_FLOOR
    else:
        return heard
    if evidence.no_speech >= 1.0 or score < floor:
        return heard   # the voice detector heard no voice, or no likeness to "stop"
    if len(set(words_of(evidence.transcript))) > MOST_WORDS:
        return heard   # a sentence: talk over the console, not a command
    command = grammar.parse(STOP)
    if command is None:
        return heard
    return Heard(STOP, command, heard.confidence, False)


def point_over_speech(heard: Heard, decoded, settings, held: bool) -> Heard:
    """`heard`, or acted on at once when the utterance began over the console's
    speech (`held`), is about to be asked about, is a bare point in the NATO alphabet
    that the free transcript wrote alone, with no word easily heard as another, and
    falls short of the player's bar by at most POINT_ALLOWANCE. Plain letters keep
    their question (B, D, E, G are heard as one another with the same confidence), so
    do five, eight and nine (tuning: "bravo eight" in babble written "Bravo 9." at
    0.68), and every move with "confirm always"."""
    evidence = getattr(decoded, "evidence", None)
    if not held or heard.action != "confirm" or evidence is None or not evidence.agrees:
        return heard
    words = heard.text.split()
    if settings.confirm == "always" or not nato_point(heard.text) or any(w in CONFUSION_COST for w in words):
        return heard
    if heard.confidence < accept_threshold(settings.clarity) - POINT_ALLOWANCE:
        return heard
    return replace(heard, confirm=False)


def _opinion_of_stop(evidence) -> bool:
    """The phrase search chose another command, but the encoder states' opinion of
    the one-word commands (keywords.py) names "stop" at least KEYWORD_P surely and
    the free transcript is not that other command's words. Over the console the
    canceller leaves only a stop's vowel, which the search writes as any short
    command ("no", "query B5", "why"), while the opinion still hears the word
    (docs/measurements/barge-in.md); `keyword_score` is then "stop" searched alone."""
    return (evidence.keyword == STOP and evidence.keyword_p >= KEYWORD_P and not evidence.agrees
            and evidence.keyword_score is not None)
