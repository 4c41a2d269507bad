"""Whether an utterance the recognizer could not make out was surely a person
talking to the console, so that it is asked to be said again instead of being met
with silence (background talk, a cough, a door still get nothing).

The voice detector has already let only voiced sound louder than the room through
(vad.py). Talking to the console is, beyond that: short (a command is under 2.5 s;
a remark to someone else is a sentence), clearly louder than the room (close to the
microphone, not across it), and, where Whisper wrote anything, a few words at most
that it took for speech. docs/listen.md gives what was measured on real speech.
"""
from __future__ import annotations

import numpy as np

from audio_console.voice.audio import pcm_samples

FRAME = 480                    # 30 ms at 16 kHz
SPEECH_WITHIN_DB = 25.0        # frames this close to the loudest are the speech
SHORTEST, LONGEST = 0.25, 2.5  # seconds of speech
LOUDER_THAN_ROOM_DB = 15.0     # the speech's level over the room's background
MOST_WORDS = 3                 # Whisper's free transcript: a try at a command, not a sentence
NO_SPEECH_BELOW = 0.6          # ... and Whisper took it for speech


def spoke_to_me(pcm: bytes, room_db: float | None, evidence=None) -> bool:
    """True when `pcm` (one utterance, 16 kHz int16) was surely said to the console;
    `evidence` is Whisper's (recognizer.Evidence: no_speech, transcript)."""
    levels = _frame_db(pcm)
    if not len(levels):
        return False
    loud = np.flatnonzero(levels > levels.max() - SPEECH_WITHIN_DB)
    seconds = (loud[-1] - loud[0] + 1) * FRAME / 16000
    if not SHORTEST <= seconds <= LONGEST:
        return False
    if room_db is not None and not louder_than_room(pcm, room_db, levels):
        return False
    if evidence is None:
        return False   # an engine that gives no evidence (Vosk) writes words whenever it heard some
    words = "".join(c if c.isalnum() else " " for c in evidence.transcript.lower()).split()
    return evidence.no_speech < NO_SPEECH_BELOW and len(set(words)) <= MOST_WORDS


def louder_than_room(pcm: bytes, room_db: float, levels: np.ndarray | None = None,
                     margin: float = LOUDER_THAN_ROOM_DB) -> bool:
    """The utterance's speech is `margin` dB over the room's background (a person near
    the microphone; not what the echo canceller left of the console)."""
    level = speech_db(pcm, levels)
    return level is not None and level - room_db >= margin


def speech_db(pcm: bytes, levels: np.ndarray | None = None) -> float | None:
    """The level (dBFS) of the utterance's speech: its loud frames' 90th percentile
    (None: no frame)."""
    levels = _frame_db(pcm) if levels is None else levels
    if not len(levels):
        return None
    loud = levels > levels.max() - SPEECH_WITHIN_DB
    return float(np.percentile(levels[loud], 90))


def _frame_db(pcm: bytes) -> np.ndarray:
    x = pcm_samples(pcm)
    n = len(x) // FRAME * FRAME
    if not n:
        return np.zeros(0)
    power = (x[:n].reshape(-1, FRAME) ** 2).mean(axis=1)
    return 10 * np.log10(power + 1e-12)
