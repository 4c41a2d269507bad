#!/usr/bin/env python3
"""The voice detector's drift: silero carried over a whole stream, and relayed.

Replays the stop rounds recorded by `bench_bargein.py --audio DIR` (each round: what
the microphone heard, `*-mic.wav`, and the sound server canceller's output the
console listened to, `*-cleaned.wav`), each run's rounds one after the other through
one detector, as the listener hears a session: silero's state carried from the first
chunk to the last (the code before) and silero relayed (silero.RelayedSilero, the
console's: two streams begun again in turn, none older than --period). Each round's real stop is
found in the microphone by correlation with its corpus clip; a stop counts as heard
when the detector gives SPEECH_PROBABILITY or more on a chunk of the word. Also the
share of the chunks outside the words called a voice (the console's leftover echo,
which the level rule must then hold back).

    python scripts/bench_detector_drift.py --stops CORPUS [--period 10] DIR [DIR ...]
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from audio_console.voice import silero  # noqa: E402
from audio_console.voice.audio import read_wav  # noqa: E402
from audio_console.voice.vad import SPEECH_PROBABILITY  # noqa: E402

PAD = 0.1       # seconds either side of the word's loud part


def located(clip: np.ndarray, heard: np.ndarray) -> int:
    """Where `clip` begins in `heard` (the peak of their cross-correlation)."""
    n = len(heard) + len(clip)
    f = np.fft.irfft(np.fft.rfft(heard, n) * np.conj(np.fft.rfft(clip, n)), n)[:len(heard)]
    return int(np.argmax(f))


def word_span(clip: np.ndarray) -> tuple[int, int]:
    loud = np.flatnonzero(np.abs(clip) > 0.05 * np.max(np.abs(clip)))
    return int(loud[0]), int(loud[-1])


def rounds(folder: Path, corpus: Path) -> list[tuple[np.ndarray, int, int]]:
    """(cleaned audio, word start, word end in samples) of each recorded round, in order."""
    out = []
    for mic in sorted(folder.glob("*-mic.wav")):
        cleaned = mic.with_name(mic.name.replace("-mic.wav", "-cleaned.wav"))
        name = re.search(r"(cmd-\d+)", mic.name)
        source = corpus / "clean" / f"{name.group(1)}.wav" if name else None
        if not cleaned.exists() or source is None or not source.exists():
            continue
        clip, heard, audio = read_wav(source)[0], read_wav(mic)[0], read_wav(cleaned)[0]
        start, end = word_span(clip)
        at = located(clip, heard)
        pad = int(PAD * silero.RATE)
        out.append((audio, max(0, at + start - pad), min(len(audio), at + end + pad)))
    return out


def replay(detector, recorded) -> tuple[int, int, int]:
    """(stops heard, chunks outside words called a voice, chunks outside words)."""
    heard = voiced = outside = 0
    for audio, start, end in recorded:
        best = 0.0
        for at in range(0, len(audio) - silero.CHUNK + 1, silero.CHUNK):
            p = detector(audio[at:at + silero.CHUNK].astype(np.float32))
            if at + silero.CHUNK > start and at < end:
                best = max(best, p)
            else:
                outside += 1
                voiced += p >= SPEECH_PROBABILITY
        heard += best >= SPEECH_PROBABILITY
    return heard, voiced, outside


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stops", required=True, help="the words corpus the stops came from (make_real_corpus.py)")
    ap.add_argument("--period", type=float, help="seconds between a relayed stream's beginnings "
                    f"(the console's: {silero.RELAY_CHUNKS * silero.CHUNK / silero.RATE:.0f})")
    ap.add_argument("runs", nargs="+", help="folders of bench_bargein.py --audio, one run each")
    args = ap.parse_args()
    if args.period:
        silero.RELAY_CHUNKS = round(args.period * silero.RATE / silero.CHUNK)
    totals = {"carried": [0, 0, 0], "relayed": [0, 0, 0]}
    count = 0
    print(f"{'run':<24} {'stops':>5} | {'carried':>14} | {'relayed':>14}   (stops heard, leftover called a voice)")
    for run in args.runs:
        recorded = rounds(Path(run), Path(args.stops))
        count += len(recorded)
        cells = []
        for name, detector in (("carried", silero.Silero()), ("relayed", silero.RelayedSilero())):
            result = replay(detector, recorded)
            totals[name] = [a + b for a, b in zip(totals[name], result)]
            cells.append(f"{result[0]:>3} {100 * result[1] / max(1, result[2]):5.1f} %")
        print(f"{Path(run).name[-24:]:<24} {len(recorded):>5} | {cells[0]:>14} | {cells[1]:>14}")
    for name, (heard, voiced, outside) in totals.items():
        print(f"{name}: {heard} of {count} stops heard; leftover called a voice {100 * voiced / max(1, outside):.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
