#!/usr/bin/env python3
"""Listening latency: how long after the end of speech the session gets its Heard.

Plays synthesized coordinates into the PulseAudio null sink console_mic (its monitor
must be the default source: scripts/setup.sh start_pulseaudio) and times, per
utterance, end of playback -> on_heard, split into endpointing (the Endpointer's
decision that speech ended) and decoding. Prints medians, and the floor the
PortAudio/PulseAudio round trip alone costs (a trivial energy endpointer's figure
from PITFALLS.md is 150-160 ms).

    python scripts/bench_listen.py [--count 6]
"""
from __future__ import annotations

import argparse
import queue
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from audio_console.output.sink import NullSink  # noqa: E402
from audio_console.settings import Settings  # noqa: E402
from audio_console.voice import open_listener  # noqa: E402
from audio_console.voice.grammars import grammar_for_game  # noqa: E402

PHRASES = ["delta five", "bravo three", "golf nine", "charlie two", "echo seven", "foxtrot one",
           "alpha four", "delta eight"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=6)
    args = ap.parse_args(argv)
    if subprocess.run(["pactl", "info"], capture_output=True).returncode != 0:
        print("no PulseAudio server: run scripts/setup.sh's start_pulseaudio first", file=sys.stderr)
        return 2
    grammar = grammar_for_game("galaxis")
    messages: list[str] = []
    listener = open_listener(Settings(), NullSink(), messages.append)
    print("\n".join(messages))
    if listener is None:
        return 2
    listener.set_grammar(grammar)
    heard: queue.Queue = queue.Queue()
    decode_seconds: list[float] = []
    recognizer = listener.recognizer
    original = recognizer.decode

    def timed_decode(pcm, naive=False):
        result = original(pcm, naive)
        decode_seconds.append(result.seconds)
        return result

    recognizer.decode = timed_decode
    listener.start(lambda h: heard.put((time.monotonic(), h)))
    latencies, right = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        try:
            time.sleep(0.5)
            for i in range(args.count):
                phrase = PHRASES[i % len(PHRASES)]
                wav = Path(tmp) / f"{i}.wav"
                subprocess.run(["flite", "-voice", "slt", "-t", phrase, "-o", str(wav)], check=True)
                subprocess.run(["paplay", "--device=console_mic", str(wav)], check=True)
                ended = time.monotonic()
                try:
                    at, h = heard.get(timeout=6)
                except queue.Empty:
                    print(f"{phrase}: nothing heard")
                    continue
                latencies.append(at - ended)
                right += h.command is not None and h.command.text == grammar.parse(phrase).text
                print(f"{phrase}: heard {h.text!r} -> {h.command}, {1000 * (at - ended):.0f} ms after the end")
                time.sleep(0.5)
        finally:
            listener.stop()
    if latencies:
        lat, dec = statistics.median(latencies), statistics.median(decode_seconds)
        print(f"median end of speech -> Heard: {1000 * lat:.0f} ms; of which decoding {1000 * dec:.0f} ms, "
              f"endpointing and audio path {1000 * (lat - dec):.0f} ms; {right}/{args.count} right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
