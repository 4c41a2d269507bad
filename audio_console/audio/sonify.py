"""Listening to the board: "listen to row D" / "listen to column 5" (SOUNDS.md).

One short sound per point, in order: panned from left (column 1) to right (the
last column), pitched by row (row A, nearest the player, lowest; each row a
whole tone higher), with a timbre for what is known there:

    unknown     a faint short pip
    ruled_out   a dull, quickly dying thud
    answer_0    a short low buzz (the answer-0 timbre)
    answer_1-4  1 to 4 quick bright pips (count them, like the answer beeps)
    ship        a bell (a discovered ship)

It is a review aid beside the spoken readout, never a replacement for it.

    line_sonification(cells, rows=7, columns=9) -> float32 (n, 2) at 48000 Hz

`cells` is a sequence of (row, column, kind) with 1-based row (1 = A) and column.
The console plays the result with sink.play_samples(samples, SAMPLE_RATE).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from audio_console.audio.signals import PEAK, Tone, _pan_gains, _tone

SAMPLE_RATE = 48000
STEP = 0.32          # seconds from one point to the next
BASE_PITCH = 330.0   # row 1 (A)
KINDS = ("unknown", "ruled_out", "answer_0", "answer_1", "answer_2", "answer_3", "answer_4", "ship")
ALIASES = {"discovered": "ship", "0": "answer_0", "1": "answer_1", "2": "answer_2",
           "3": "answer_3", "4": "answer_4"}


def row_pitch(row: int) -> float:
    """Row 1 (A) lowest, each row a whole tone higher."""
    return BASE_PITCH * 2 ** (2 * (row - 1) / 12)


def column_pan(column: int, columns: int) -> float:
    """Column 1 at the left (-0.9) to the last column at the right (0.9)."""
    if columns <= 1:
        return 0.0
    return -0.9 + 1.8 * (column - 1) / (columns - 1)


def point_tones(kind: str, pitch: float) -> list[tuple[float, Tone]]:
    """The sound of one point: tones with their start within the step (seconds)."""
    kind = ALIASES.get(kind, kind)
    if kind == "unknown":
        return [(0.0, Tone(pitch, on=(0.06, 0.06), wave="sine", level=0.3))]
    if kind == "ruled_out":
        return [(0.0, Tone(pitch / 2, on=(0.12, 0.12), wave="triangle", level=0.6, decay=0.03))]
    if kind == "answer_0":
        return [(0.0, Tone(pitch / 2, on=(0.2, 0.2), wave="buzz", level=0.7))]
    if kind.startswith("answer_") and kind[-1] in "1234":
        return [(i * 0.065, Tone(pitch * 2, on=(0.04, 0.04), wave="soft", level=0.8))
                for i in range(int(kind[-1]))]
    if kind == "ship":
        return [(0.0, Tone(pitch * 2, on=(0.28, 0.28), wave="bell", decay=0.1))]
    raise ValueError(f"unknown kind of point {kind!r}; one of {', '.join(KINDS)}")


def line_sonification(cells: Sequence[tuple[int, int, str]], rows: int = 7, columns: int = 9,
                      sample_rate: int = SAMPLE_RATE, step: float = STEP) -> np.ndarray:
    """A row or column of the board memory as stereo float32 (n, 2), peak at most PEAK."""
    cells = list(cells)
    n = int(round((len(cells) * step + 0.1) * sample_rate))
    out = np.zeros((max(n, 1), 2))
    rng = np.random.default_rng(0)
    for index, (row, column, kind) in enumerate(cells):
        if not (1 <= row <= rows and 1 <= column <= columns):
            raise ValueError(f"point row {row}, column {column} is not on a {rows} x {columns} board")
        left, right = _pan_gains(column_pan(column, columns))
        for offset, tone in point_tones(kind, row_pitch(row)):
            start = int(round((index * step + offset) * sample_rate))
            mono = _tone(tone, tone.on[0], sample_rate, rng)
            end = min(len(out), start + len(mono))
            out[start:end, 0] += left * mono[:end - start]
            out[start:end, 1] += right * mono[:end - start]
    # A fixed scale, not normalised: "unknown" stays faint beside a ship's bell.
    return (out * PEAK).astype(np.float32)
