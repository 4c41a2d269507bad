""""stop" said over the console's own speech.

While the console speaks, what a player says over it is most likely "stop": the
listener held the console's sound at the onset of the word (barge-in,
echo_cancel.Hold), and the word it heard was cut short by the canceller at its
start, spoken by someone with the console loud in the room, and often only half
written by Whisper ("Duh.", "Done.", "T t t"). A "stop" taken wrongly only silences
the console (the player says "repeat" to hear it again); a stop missed leaves a
blind player unable to cut the console off. So while the console was held for the
utterance, Whisper's best phrase "stop" is taken on weaker evidence than the trust
layer asks for elsewhere. docs/listen.md gives what was measured.
"""
from __future__ import annotations

from audio_console.voice.phrase_trie import words_of
from audio_console.voice.trust import Heard

STOP = "stop"
# the best phrase "stop" scored at least this a token (mean log-probability): above
# the real stops said over the console and missed, below most talk and noise whose
# best phrase was "stop" (docs/measurements/voice-constants.md)
FLOOR = -3.0
MOST_WORDS = 2          # Whisper's free transcript: a word or two, not a sentence


def stop_over_speech(heard: Heard, decoded, grammar, held: bool) -> Heard:
    """`heard`, or "stop" acted on when the utterance began over the console's
    speech (`held`), was not acted on, and Whisper's best phrase was "stop" with a
    voice in it and a word or two written."""
    evidence = getattr(decoded, "evidence", None)
    if not held or heard.action == "act" or evidence is None or evidence.command != STOP:
        return heard
    if evidence.no_speech >= 1.0 or evidence.score < FLOOR:
        return heard   # the voice detector heard no voice, or no likeness to "stop"
    if len(set(words_of(evidence.transcript))) > MOST_WORDS:
        return heard   # a sentence: talk over the console, not a command
    command = grammar.parse(STOP)
    if command is None:
        return heard
    return Heard(STOP, command, heard.confidence, False)
