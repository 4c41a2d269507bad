"""Listening to a row or a column of the board (cells as the Galaxis console builds them:
(column 0-8, 9, row 0-6, the board memory's short word))."""
import pytest

from audio_console.audio.sonify import STEP, line_sonification, row_pitch

from .analysis import count_onsets, dominant_frequency, envelope, side_ratio


def point(samples, rate, index):
    a = int(index * STEP * rate)
    return samples[a:a + int(STEP * rate)]


def test_a_row_pans_from_left_to_right():
    x, rate = line_sonification([(c, 9, 3, "ship") for c in range(9)])
    ratios = [side_ratio(point(x, rate, i)) for i in range(9)]
    assert ratios[0] > 20 and ratios[-1] < 1 / 20
    assert all(a > b for a, b in zip(ratios, ratios[1:]))


def test_a_column_rises_in_pitch_from_row_a_to_row_g_at_one_place():
    x, rate = line_sonification([(4, 9, r, "open") for r in range(7)])
    pitches = [dominant_frequency(point(x, rate, i), rate) for i in range(7)]
    assert all(b > a * 1.08 for a, b in zip(pitches, pitches[1:]))
    assert abs(pitches[0] - row_pitch(0)) < 15
    assert 0.95 < side_ratio(x) < 1.05        # column 5 of 9: the middle


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_answer_n_is_n_countable_pips(n):
    x, rate = line_sonification([(0, 9, 2, str(n))])
    assert count_onsets(envelope(x, rate), min_gap=2) == n


def test_kinds_sound_different():
    kinds = ["open", "out", "0", "2", "ship", "stored", "closed", "own ship", "marked by you"]
    x, rate = line_sonification([(c, 9, 3, k) for c, k in enumerate(kinds)])
    parts = {k: point(x, rate, i) for i, k in enumerate(kinds)}
    energy = {k: float((p ** 2).sum()) for k, p in parts.items()}
    assert energy["open"] < min(v for k, v in energy.items() if k != "open")   # unknown: faintest
    assert dominant_frequency(parts["0"], rate) < row_pitch(3)                  # answer 0: low buzz
    ship_tail = envelope(parts["ship"], rate)[20:40].mean()   # the bell rings on; a pip does not
    assert ship_tail > 5 * envelope(parts["open"], rate)[20:40].mean()
    assert count_onsets(envelope(parts["stored"], rate), min_gap=2) == 2
    assert dominant_frequency(parts["closed"], rate) < dominant_frequency(parts["out"], rate)
    # the player's own peg: two short thuds, where what the answers rule out is one
    assert count_onsets(envelope(parts["marked by you"], rate), min_gap=2) == 2
    assert count_onsets(envelope(parts["out"], rate), min_gap=2) == 1
    assert dominant_frequency(parts["marked by you"], rate) < dominant_frequency(parts["stored"], rate)


def test_off_board_is_refused_and_an_unknown_word_sounds_like_open():
    with pytest.raises(ValueError):
        line_sonification([(0, 9, 7, "open")])
    with pytest.raises(ValueError):
        line_sonification([(9, 9, 0, "open")])
    mystery, _ = line_sonification([(0, 9, 0, "mystery")])
    known, _ = line_sonification([(0, 9, 0, "open")])
    assert (mystery == known).all()
