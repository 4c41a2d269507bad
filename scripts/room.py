"""A room for the listening benchmarks: a player's voice and people chatting around it.

`Voices.say(text)` renders a phrase (hibari-tts, the natural neural voice, or flite)
as 16 kHz float32; `chatter(seconds)` is several synthetic voices talking at once
without pause (everyday sentences, each voice its own turns with short gaps), the
"three people chatting in the background" of issue 15. `level_db(x)` is the active
speech level, so chatter can be set a number of dB below the player. `room_tone` plays
a faint room tone into the microphone sink in a loop (`in_a_loop`, ended by `stop_loop`).
"""
from __future__ import annotations

import random
import subprocess
import tempfile
from pathlib import Path

import numpy as np

import make_speech_corpus as corpus  # the corpus's speakers and talk
from audio_console.voice.audio import write_wav

RATE = 16000
ROOM_TONE_DB = -70.0      # a quiet room through a real microphone (its own noise)

# The corpus's tuning talk and a few more everyday sentences (no command words).
TALK = corpus.TALK["tune"] + [
    "we went to the seaside last summer", "the children are playing in the garden",
    "did you see the match yesterday", "I have to finish this report by Friday",
    "the shop on the corner closed down", "she bought a new bicycle last week",
]
CHATTER_VOICES = ["flite:kal", "flite:awb", "flite:rms", "espeak:en-us+m3", "espeak:en+f3"]


class Voices:
    """The corpus's speakers (make_speech_corpus.Speakers), each phrase rendered once
    and trimmed of the synthesiser's silence."""
    def __init__(self):
        self._speakers = corpus.Speakers(tempfile.mkdtemp(prefix="room-"))
        self._cache: dict = {}

    def say(self, text: str, voice: str = "hibari:heart", speed: float = 1.0) -> np.ndarray:
        key = (text, voice, speed)
        if key not in self._cache:
            self._cache[key] = trim(self._speakers.say(voice, text, speed))
        return self._cache[key]


def trim(x: np.ndarray) -> np.ndarray:
    """The speech without the synthesiser's leading and trailing silence."""
    loud = np.flatnonzero(np.abs(x) > 0.02 * (np.max(np.abs(x)) or 1))
    return x[loud[0]:loud[-1] + 1] if len(loud) else x


def level_db(x: np.ndarray) -> float:
    """Active speech level: power over the 30 ms frames within 30 dB of the loudest."""
    n = len(x) // 480 * 480
    p = (x[:n].reshape(-1, 480) ** 2).mean(axis=1) + 1e-12
    active = p[p > p.max() * 1e-3]
    return float(10 * np.log10(active.mean()))


def chatter(voices: Voices, seconds: float, talkers: int = 3, seed: int = 0) -> np.ndarray:
    """`talkers` voices, each saying everyday sentences one after another with gaps of
    0.2-0.8 s, all at the same level, summed: continuous background talk (peak 0.5)."""
    rng = random.Random(seed)
    n = int(seconds * RATE)
    out = np.zeros(n, np.float32)
    for t in range(talkers):
        voice = CHATTER_VOICES[(seed + t) % len(CHATTER_VOICES)]
        track, at = np.zeros(n, np.float32), int(rng.uniform(0, 0.5) * RATE)
        while at < n:
            x = voices.say(rng.choice(TALK), voice, rng.choice([0.9, 1.0, 1.1]))
            x = x * (10 ** ((-20 - level_db(x)) / 20))
            k = min(len(x), n - at)
            track[at:at + k] += x[:k]
            at += k + int(rng.uniform(0.2, 0.8) * RATE)
        out += track
    return (out * (0.5 / (np.max(np.abs(out)) or 1))).astype(np.float32)


def at_level(x: np.ndarray, db: float) -> np.ndarray:
    """x scaled so that its active speech level is `db` dBFS."""
    return (x * (10 ** ((db - level_db(x)) / 20))).astype(np.float32)


def in_a_loop(path: Path, mic: str) -> subprocess.Popen:
    """`path` played into the microphone sink over and over, until stop_loop."""
    return subprocess.Popen(["bash", "-c", f"while true; do paplay --device={mic} {path}; done"])


def stop_loop(loop: subprocess.Popen) -> None:
    """Ends an in_a_loop: its paplay first (killing bash alone leaves it playing)."""
    subprocess.run(["pkill", "-P", str(loop.pid)], check=False)
    loop.kill()
    subprocess.run(["pkill", "-P", str(loop.pid)], check=False)


def room_tone(tmp: Path, mic: str) -> subprocess.Popen:
    """White noise at ROOM_TONE_DB dBFS into the microphone sink in a loop, as a real
    microphone always hears a little (a null sink's monitor is exact zeros otherwise)."""
    tone = np.random.default_rng(0).standard_normal(10 * RATE) * 10 ** (ROOM_TONE_DB / 20)
    write_wav(tmp / "tone.wav", tone.astype(np.float32), RATE)
    return in_a_loop(tmp / "tone.wav", mic)
