#!/usr/bin/env python3
"""Where the time from the end of speech to the Heard goes, live (issue 28's 300 ms).

The console's own listener (default settings, the VAD cutter, acting early) hears
commands said by flite into the PulseAudio microphone sink, as `bench_listen.py`
does; the cutter's frames are timed as the worker takes them, so that each
utterance's latency (end of speech -> on_heard) splits into:
  arrival   end of speech -> the worker takes the frame that holds it (the
            microphone path: PulseAudio, PortAudio's buffer, the 30 ms block)
  hang      -> the last frame the cutter counts as speech (silero's own hang-over
            and the 6 dB rule; 0 or less: speech's soft end already counted as silence)
  silence   -> the early guess (EARLY_WINDOW of frames without speech)
  decode    -> on_heard (the decode of the guess, the trust layer)
Prints the median of each part, and the machine's load beside it. `--early-window S`
tries another silence before the early guess (voice/cutting.py EARLY_WINDOW, 0.18 s) without
changing the code: the commands understood show whether a shorter one cuts words.

    python scripts/bench_listen_split.py [--count 12] [--early-window 0.12] [--voice hibari:heart] [--pause 0.15]
"""
from __future__ import annotations

import argparse
import os
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_listen import PAUSED, PHRASES, WARM_UP, _collect, _play, ms, say  # noqa: E402
from room import RATE, Voices, at_level  # noqa: E402

from audio_console.app.games import grammar_for_game  # noqa: E402
from audio_console.output.sink import NullSink  # noqa: E402
from audio_console.base.settings import Settings  # noqa: E402
from audio_console.voice import cutting, open_listener, vad  # noqa: E402
from audio_console.voice.audio import write_wav  # noqa: E402
from audio_console.voice.frames import FRAME_BYTES  # noqa: E402

FRAME = FRAME_BYTES / 32000      # seconds of audio in a cutter frame


class FrameClock:
    """Wraps VadCutter.push: when the worker took each frame, and what the cutter made of it."""

    def __init__(self):
        self.frames: list[tuple[float, bool, bool]] = []   # (time, counted as speech, early guess set)
        original = vad.VadCutter.push
        clock = self

        def push(cutter, frame):
            out = original(cutter, frame)
            clock.frames.append((time.monotonic(), cutter.in_speech and cutter._quiet == 0,
                                 cutter.early is not None))
            return out
        vad.VadCutter.push = push


def split(frames, spoken_end: float, heard_at: float) -> dict | None:
    """The parts of one utterance's latency, from the frames taken since it was played."""
    last = next((i for i in range(len(frames) - 1, -1, -1) if frames[i][1]), None)
    # the guess that was acted on: after the last speech (a guess between words, on a
    # half command, waited)
    guess = next((t for t, _, early in frames[last:] if early), None) if last is not None else None
    if guess is None:
        return None
    last_speech = frames[last][0]
    return {"latency": heard_at - spoken_end, "to last speech frame": last_speech - spoken_end,
            "silence": guess - last_speech, "decode": heard_at - guess}


def speaker(voice: str | None):
    """say(text, path) -> the clip's trailing silence: flite slt (bench_listen's) or a room voice."""
    if voice is None:
        return lambda text, path: say(text, path, 0)
    voices = Voices()

    def natural(text: str, path: Path) -> float:
        x = at_level(voices.say(text, voice), -20.0)
        write_wav(path, np.concatenate([x, np.zeros(int(0.3 * RATE), np.float32)]), RATE)
        return 0.3
    return natural


class Player:
    """Says phrases into the microphone sink and times the listener's answer to each."""

    def __init__(self, clock: FrameClock, heard: queue.Queue, grammar, wait: float):
        self.clock, self.heard, self.grammar, self.wait = clock, heard, grammar, wait
        self.parts: dict = {}

    def one(self, phrase: str, wav: Path, trailing: float) -> bool:
        """Plays wav (phrase said, `trailing` s of silence after it); True if heard
        once as the command said. Prints the split."""
        while not self.heard.empty():   # a late answer to the one before is not this one's
            self.heard.get_nowait()
        start = len(self.clock.frames)
        _play(wav)
        spoken_end = time.monotonic() - trailing
        got = [(t, h) for t, h in _collect(self.heard, self.wait) if t > spoken_end]
        row = split(self.clock.frames[start:], spoken_end, got[0][0]) if len(got) == 1 else None
        said = [h.command.text if h.command else h.text for _, h in got]
        print(f"  {phrase!r}: heard {said}; " + (", ".join(f"{k} {ms(v)}" for k, v in row.items())
                                                  if row else "no split"), flush=True)
        if "..." not in phrase:
            for key, value in (row or {}).items():
                self.parts.setdefault(key, []).append(value)
        expected = self.grammar.parse(" ".join(phrase.replace("...", " ").split())).text
        return said == [expected]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=len(PHRASES))
    ap.add_argument("--wait", type=float, default=3.0)
    ap.add_argument("--voice", help="a natural voice (hibari:heart) instead of flite slt")
    ap.add_argument("--early-window", type=float, help="seconds of silence before the early guess")
    ap.add_argument("--pause", type=float, help="also commands with a pause of this many seconds inside (flite)")
    args = ap.parse_args(argv)
    if args.early_window is not None:
        cutting.EARLY_WINDOW = args.early_window
    grammar = grammar_for_game("galaxis")
    clock = FrameClock()
    messages: list[str] = []
    listener = open_listener(Settings(), NullSink(), messages.append)
    if listener is None:
        print("\n".join(messages))
        return 2
    listener.set_grammar(grammar)
    heard: queue.Queue = queue.Queue()
    player = Player(clock, heard, grammar, args.wait)
    right = paused_right = 0
    listener.start(lambda h: heard.put((time.monotonic(), h)))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            speak = speaker(args.voice)
            speak(WARM_UP, Path(tmp) / "warm.wav")
            time.sleep(0.5)
            _play(Path(tmp) / "warm.wav")
            _collect(heard, 5.0)     # the first decode is slow on a loaded machine
            for i, phrase in enumerate(PHRASES[: args.count]):
                wav = Path(tmp) / f"p{i}.wav"
                right += player.one(phrase, wav, speak(phrase, wav))
            for i, phrase in enumerate(PAUSED if args.pause else []):
                wav = Path(tmp) / f"q{i}.wav"
                paused_right += player.one(phrase, wav, say(phrase, wav, args.pause))
    finally:
        listener.stop()
    load = os.getloadavg()[0]
    paused = f"paused {args.pause:g} s whole {paused_right}/{len(PAUSED)} | " if args.pause else ""
    print(f"load {load:.1f} | early window {1000 * cutting.EARLY_WINDOW:.0f} ms | understood "
          f"{right}/{min(args.count, len(PHRASES))} | {paused}"
          + " | ".join(f"{k} {ms(statistics.median(v))}" for k, v in player.parts.items()))
    print(f"latency: end of speech (end of playback minus the clip's trailing silence) -> on_heard; to last "
          f"speech frame: -> the worker took the last frame the cutter counted as speech (the microphone path, "
          f"{1000 * FRAME:.0f} ms frames, and silero's hang-over); silence: -> the early guess; decode: -> on_heard; "
          f"paused: a command with a pause inside heard once, whole")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
