"""When one decode is not enough: a cleaned copy in steady noise, and a second look
at other speeds for an utterance the console would not act on; the best scoring
decode is kept.

Both take `decode_all(pcms, voiced)`, which decodes several utterances together (on
our decoder they share their passes: whisper_utterance.Together).
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable

from audio_console.voice.denoise import cleaned, steady_noise
from audio_console.voice.recognizer import Decoded
from audio_console.voice.speed import at_speed
from audio_console.voice.trust import worth_a_second_look

DecodeAll = Callable[[list[bytes], bool], list[Decoded]]

# A second look at an utterance the console would not act on: the same sound at these
# speeds (speed.py) decoded too, the best scoring of the three decodes kept, and then
# asked about: more commands right, none more wrong (docs/measurements/voice-constants.md).
# Not for what is surely no speech or talk (it would not be acted on anyway).
SECOND_LOOK_SPEEDS = (0.9, 1 / 0.9)   # the sound 1.11 times as long, and 0.9 times
# A decode at another speed is kept only if it scores at least this (mean log-probability
# per token): below it, what it finds in remarks and chatter is as likely as a command
# ("Let's see." as "d six"): the floor keeps nearly all the second look's gain and
# few of its questions to remarks (docs/measurements/voice-constants.md).
SECOND_LOOK_FLOOR = -1.8


def score_of(decoded: Decoded) -> float:
    """A decode's best phrase's mean log-probability per token (-inf without one)."""
    return decoded.evidence.score if decoded.evidence is not None else -math.inf


def with_cleaned_copy(pcm: bytes, decode_all: DecodeAll, voiced: bool, denoise: bool) -> tuple[Decoded, bytes]:
    """One decode and the input it came from; in steady noise (denoise.py) a
    cleaned copy is decoded too and the better scoring of the two kept. Held-out:
    right in white noise 20 dB 37 -> 39 of 45 and 10 dB 30 -> 33, the other
    conditions, wrong commands and reject clips acted on unchanged."""
    if not denoise or not steady_noise(pcm):
        return decode_all([pcm], voiced)[0], pcm
    clean_pcm = cleaned(pcm)
    decoded, other = decode_all([pcm, clean_pcm], voiced)
    chosen = other if score_of(other) > score_of(decoded) else decoded
    chosen.detail["denoised"] = chosen is other
    chosen.seconds = decoded.seconds + other.seconds
    return chosen, clean_pcm if chosen is other else pcm


def with_second_look(decoded: Decoded, heard_pcm: bytes, decode_all: DecodeAll, speeds, grammar) -> Decoded:
    """`decoded`, or for an utterance the console would not act on, the best scoring
    of it and the same input (`heard_pcm`: the cleaned copy if that won) at other
    `speeds`. A decode the second look chose is marked `second_look`: asked about,
    not acted on outright (but for a command that only makes the console speak,
    written alone), so it turns "say again" into a question but never makes a move
    on its own (acting on the same command when the first look asked: tuning 32
    questions saved for 1 wrong move, held-out wrong 0.3 -> 1.0 %)."""
    if not speeds or grammar is None or not worth_a_second_look(decoded, grammar):
        return decoded
    # the first look had a voice in it: the voice detector is not asked again
    tries = [decoded] + decode_all([at_speed(heard_pcm, speed) for speed in speeds], True)
    all_speeds = [1.0, *speeds]
    best = max(range(len(tries)), key=lambda i: score_of(tries[i]))
    if score_of(tries[best]) < SECOND_LOOK_FLOOR:
        best = 0
    chosen = tries[best]
    chosen.detail["speed"] = round(all_speeds[best], 3)
    if chosen is not decoded:
        if chosen.evidence is not None:
            chosen.evidence = replace(chosen.evidence, second_look=True)
        if "denoised" in decoded.detail:
            chosen.detail["denoised"] = decoded.detail["denoised"]
    chosen.seconds = sum(t.seconds for t in tries)
    return chosen
