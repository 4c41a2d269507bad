"""Listening to a row or a column of the board."""
import numpy as np
import pytest

from audio_console.audio.sonify import SAMPLE_RATE, STEP, line_sonification, row_pitch

from .analysis import band_envelope, count_onsets, dominant_frequency, envelope, side_ratio

RATE = SAMPLE_RATE


def point(samples, index):
    a = int(index * STEP * RATE)
    return samples[a:a + int(STEP * RATE)]


def test_a_row_pans_from_left_to_right():
    x = line_sonification([(4, c, "ship") for c in range(1, 10)])
    ratios = [side_ratio(point(x, i)) for i in range(9)]
    assert ratios[0] > 20 and ratios[-1] < 1 / 20
    assert all(a > b for a, b in zip(ratios, ratios[1:]))


def test_a_column_rises_in_pitch_from_row_a_to_row_g_at_one_place():
    x = line_sonification([(r, 5, "unknown") for r in range(1, 8)])
    pitches = [dominant_frequency(point(x, i), RATE) for i in range(7)]
    assert all(b > a * 1.08 for a, b in zip(pitches, pitches[1:]))
    assert abs(pitches[0] - row_pitch(1)) < 15
    assert 0.95 < side_ratio(x) < 1.05        # column 5 of 9: the middle


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_answer_n_is_n_countable_pips(n):
    x = line_sonification([(3, 1, f"answer_{n}")])
    assert count_onsets(envelope(x, RATE), min_gap=2) == n


def test_kinds_sound_different():
    kinds = ["unknown", "ruled_out", "answer_0", "answer_2", "ship"]
    x = line_sonification([(4, c, k) for c, k in enumerate(kinds, 1)], columns=5)
    parts = [point(x, i) for i in range(len(kinds))]
    energy = [float((p ** 2).sum()) for p in parts]
    assert energy[0] < min(energy[1:])                 # unknown is the faintest
    assert dominant_frequency(parts[2], RATE) < row_pitch(4)   # answer 0: low buzz
    ship_tail = envelope(parts[4], RATE)[20:40].mean()  # the bell rings on; a pip does not
    assert ship_tail > 5 * envelope(parts[0], RATE)[20:40].mean()


def test_off_board_or_unknown_kind_is_refused():
    with pytest.raises(ValueError):
        line_sonification([(8, 1, "unknown")])
    with pytest.raises(ValueError):
        line_sonification([(1, 1, "mystery")])
