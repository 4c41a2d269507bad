"""Listening to the board: "listen to row D" / "listen to column 5" (docs/signals.md).

One short sound per point, in the order given: panned from left (column 1) to
right (the last column), pitched by row (row A, nearest the player, lowest; each
row a whole tone higher), with a timbre for what is known there:

    open / unknown          a faint short pip
    ruled out / out         a dull, quickly dying thud (a point the answers rule out)
    marked by you           two quick short thuds (the player's own info peg, where the
                            answers do not rule the point out)
    closed                  the thud, lower (queried by the other team)
    stored                  two quick soft mid pips (an own position stored, option 3)
    0 / answer_0            a short low buzz (the answer-0 timbre)
    1-4 / answer_1-4        1 to 4 quick bright pips (count them, like the answer beeps)
    ship / discovered       a bell (a discovered ship, or a certain ship not yet queried)
    own ship                a low hum (option 3: own ship revealed)

It is a review aid beside the spoken readout, never a replacement for it. A kind
word not in this list sounds like "unknown"; a point off the board raises ValueError.

    stereo, rate = line_sonification(cells, rows=7)

`cells` is a sequence of (position, of how many, row, kind): position is the
point's column, 0-based, out of `of how many` columns (it sets the stereo
place); row is 0-based (0 = A) out of `rows` (it sets the pitch); kind is one of
the words above (the board memory's short words). The result is float32 stereo
(n, 2) at `rate` (48000 Hz); the engine plays it through play_board_line(cells, rows).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from audio_console.audio.signals import PEAK, Tone, _pan_gains, _tone
from audio_console.base.board_words import CERTAIN_SHIP, MARKED, RULED_OUT, STORED, UNKNOWN

SAMPLE_RATE = 48000
STEP = 0.32          # seconds from one point to the next
BASE_PITCH = 330.0   # row 1 (A)
KINDS = (UNKNOWN, "ruled_out", "marked", "closed", STORED, "answer_0", "answer_1", "answer_2",
         "answer_3", "answer_4", "ship", "own_ship")
# The board views' words (board_words.py) as the kinds they play; "open" and "out" are
# older names kept for callers outside the package.
ALIASES = {"open": UNKNOWN, "out": "ruled_out", RULED_OUT: "ruled_out", MARKED: "marked",
           CERTAIN_SHIP: "ship", "discovered": "ship", "own ship": "own_ship",
           "0": "answer_0", "1": "answer_1", "2": "answer_2", "3": "answer_3", "4": "answer_4"}


def row_pitch(row: int) -> float:
    """Row 0 (A) lowest, each row a whole tone higher."""
    return BASE_PITCH * 2 ** (2 * row / 12)


def column_pan(position: int, columns: int) -> float:
    """Column 0 at the left (-0.9) to the last column at the right (0.9)."""
    if columns <= 1:
        return 0.0
    return -0.9 + 1.8 * position / (columns - 1)


def point_tones(kind: str, pitch: float) -> list[tuple[float, Tone]]:
    """The sound of one point: tones with their start within the step (seconds)."""
    kind = ALIASES.get(str(kind).strip().lower(), str(kind).strip().lower())
    if kind == "unknown":
        return [(0.0, Tone(pitch, on=(0.06, 0.06), wave="sine", level=0.3))]
    if kind == "ruled_out":
        return [(0.0, Tone(pitch / 2, on=(0.12, 0.12), wave="triangle", level=0.6, decay=0.03))]
    if kind == "marked":      # a knock-knock: a peg placed by hand, not proved
        return [(i * 0.09, Tone(pitch / 2, on=(0.05, 0.05), wave="triangle", level=0.6, decay=0.02))
                for i in range(2)]
    if kind == "closed":
        return [(0.0, Tone(pitch / 3, on=(0.12, 0.12), wave="triangle", level=0.6, decay=0.03))]
    if kind == "stored":
        return [(i * 0.09, Tone(pitch, on=(0.06, 0.06), wave="soft", level=0.6)) for i in range(2)]
    if kind == "own_ship":
        return [(0.0, Tone(pitch / 2, on=(0.28, 0.28), wave="buzz", level=0.6, attack=0.03))]
    if kind == "answer_0":
        return [(0.0, Tone(pitch / 2, on=(0.2, 0.2), wave="buzz", level=0.7))]
    if kind.startswith("answer_") and kind[-1] in "1234":
        return [(i * 0.065, Tone(pitch * 2, on=(0.04, 0.04), wave="soft", level=0.8))
                for i in range(int(kind[-1]))]
    if kind == "ship":
        return [(0.0, Tone(pitch * 2, on=(0.28, 0.28), wave="bell", decay=0.1))]
    # A word this table does not know yet (a new note in the board memory): heard as
    # "unknown" rather than stopping the game; the spoken readout still says it.
    return point_tones("unknown", pitch)


def line_sonification(cells: Sequence[tuple[int, int, int, str]], rows: int = 7,
                      sample_rate: int = SAMPLE_RATE, step: float = STEP) -> tuple[np.ndarray, int]:
    """A row or column of the board memory: (stereo float32 (n, 2), sample rate)."""
    cells = list(cells)
    n = int(round((len(cells) * step + 0.1) * sample_rate))
    out = np.zeros((max(n, 1), 2))
    rng = np.random.default_rng(0)
    for index, (position, columns, row, kind) in enumerate(cells):
        if not (0 <= position < columns and 0 <= row < rows):
            raise ValueError(f"point at position {position} of {columns}, row {row} of {rows} "
                             "is not on the board")
        left, right = _pan_gains(column_pan(position, columns))
        for offset, tone in point_tones(kind, row_pitch(row)):
            start = int(round((index * step + offset) * sample_rate))
            mono = _tone(tone, tone.on[0], sample_rate, rng)
            end = min(len(out), start + len(mono))
            out[start:end, 0] += left * mono[:end - start]
            out[start:end, 1] += right * mono[:end - start]
    # A fixed scale, not normalised: "unknown" stays faint beside a ship's bell.
    return (out * PEAK).astype(np.float32), sample_rate
