"""The signal table, measured the way a player hears it."""
import itertools

import numpy as np
import pytest

from audio_console.audio import signals
from audio_console.audio.signals import synthesise

from .analysis import (band_envelope, band_fraction, count_onsets, dominant_frequency, envelope,
                       side_ratio, sounding_length)

RATE = 48000
GALAXIS = ["search", "answer_0", "answer_1", "answer_2", "answer_3", "answer_4", "discovered",
           "stored", "own_ship", "ready", "turn", "time_warning", "time_out", "victory"]
BATTLESHIP = ["laser", "hit", "miss", "vaporized", "fleet_destroyed"]
ARKADE = ["dice", "saucer_yellow", "saucer_pink", "saucer_purple", "spaceship_flight", "booster",
          "shot", "peng", "shield", "saucer_destroyed", "chip", "alarm"]
COMMON = ["error", "prompt", "listening"]
ANSWERS = ["answer_0", "answer_1", "answer_2", "answer_3", "answer_4", "discovered"]


def test_the_table_has_exactly_the_contract_names():
    assert set(signals.SIGNALS) == set(GALAXIS + BATTLESHIP + ARKADE + COMMON)


@pytest.mark.parametrize("name", sorted(signals.SIGNALS))
@pytest.mark.parametrize("timing", signals.TIMINGS)
def test_every_signal_is_stereo_bounded_and_starts_and_ends_without_a_click(name, timing):
    x = synthesise(name, 0, timing, RATE)
    assert x.dtype == np.float32 and x.ndim == 2 and x.shape[1] == 2
    peak = signals.PEAK * signals.SOFTER.get(name, 1.0)
    assert 0.99 * peak <= np.abs(x).max() <= peak + 1e-6
    assert np.abs(x[:5]).max() < 0.01 and np.abs(x[-5:]).max() < 0.01
    assert abs(len(x) / RATE - signals.duration(name, timing)) < 0.01


@pytest.mark.parametrize("name", sorted(signals.SIGNALS))
def test_quick_timing_is_no_longer_than_faithful(name):
    assert signals.duration(name, "quick") <= signals.duration(name, "faithful")


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_answer_n_is_n_beeps_near_880_hz_about_035_s_apart_when_faithful(n):
    x = synthesise(f"answer_{n}", 0, "faithful", RATE)
    assert 820 <= dominant_frequency(x, RATE) <= 990
    env = envelope(x, RATE)
    assert count_onsets(env) == n
    on = (env > 0.3 * env.max()).sum() * 0.005 / n
    assert 0.3 <= on <= 0.4                                         # each beep ~0.35 s on
    assert abs(sounding_length(x, RATE) - (0.7 * n - 0.35)) < 0.05    # and ~0.35 s off


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_quick_answers_keep_their_count_and_pitch(n):
    x = synthesise(f"answer_{n}", 0, "quick", RATE)
    assert count_onsets(envelope(x, RATE)) == n
    assert 820 <= dominant_frequency(x, RATE) <= 990


def test_answer_0_is_a_long_low_buzz():
    x = synthesise("answer_0", 0, "faithful", RATE)
    assert 120 <= dominant_frequency(x, RATE) <= 175
    assert 1.5 <= sounding_length(x, RATE) <= 2.0
    assert count_onsets(envelope(x, RATE)) == 1


def test_search_signal_alternates_low_and_high_for_about_three_seconds():
    x = synthesise("search", 0, "faithful", RATE)
    assert 2.7 <= sounding_length(x, RATE) <= 3.3
    low = band_envelope(x, RATE, 130, 200)
    high = band_envelope(x, RATE, 300, 630)
    frames = np.arange(len(low))
    low_at = frames[low > 0.5 * low.max()]
    high_at = frames[high > 0.5 * high.max()]
    # low then high, twice: the high part of the first call comes before the second low part
    assert low_at.min() < high_at.min() < low_at[low_at > high_at.min()].min() < high_at.max()


def test_discovered_alternates_about_120_and_820_hz():
    x = synthesise("discovered", 0, "faithful", RATE)
    low = band_envelope(x, RATE, 100, 140)
    high = band_envelope(x, RATE, 780, 860)
    assert count_onsets(low) == 2 and count_onsets(high) == 2
    first_low = np.argmax(low > 0.5 * low.max())
    first_high = np.argmax(high > 0.5 * high.max())
    assert first_low < first_high


def test_own_ship_is_a_long_deep_tone():
    x = synthesise("own_ship", 0, "faithful", RATE)
    assert 150 <= dominant_frequency(x, RATE) <= 180
    assert sounding_length(x, RATE) >= 3.0


@pytest.mark.parametrize("name", ["answer_3", "search", "victory", "turn"])
def test_side_1_is_left_side_2_is_right_centre_is_both(name):
    assert side_ratio(synthesise(name, 1)) > 20
    assert side_ratio(synthesise(name, 2)) < 1 / 20
    assert 0.95 < side_ratio(synthesise(name, 0)) < 1.05


def test_time_warning_ticks_alternate_left_and_right_whatever_the_side():
    x = synthesise("time_warning", 0)
    left, right = envelope(x[:, [0, 0]], RATE), envelope(x[:, [1, 1]], RATE)
    louder_left = [bool(l > r) for l, r in zip(left, right) if max(l, r) > 0.3 * left.max()]
    changes = sum(a != b for a, b in zip(louder_left, louder_left[1:]))
    assert louder_left[0] and changes == 3   # L, R, L, R


def ear_features(x):
    env = envelope(x, RATE)
    return {
        "onsets": count_onsets(env),
        "pitch": dominant_frequency(x, RATE),
        "low_share": band_fraction(x, RATE, 0, 300),
        "length": sounding_length(x, RATE),
    }


@pytest.mark.parametrize("timing", signals.TIMINGS)
@pytest.mark.parametrize("a,b", list(itertools.combinations(ANSWERS, 2)))
def test_every_pair_of_galaxis_answers_differs_clearly_to_the_ear(a, b, timing):
    fa, fb = ear_features(synthesise(a, 0, timing)), ear_features(synthesise(b, 0, timing))
    differences = [
        fa["onsets"] != fb["onsets"],                                         # count the beeps
        max(fa["pitch"], fb["pitch"]) / min(fa["pitch"], fb["pitch"]) > 1.5,  # low buzz vs beep
        (fa["low_share"] > 0.15) != (fb["low_share"] > 0.15),                 # a deep part or none
    ]
    assert any(differences), (a, b, fa, fb)


def test_unknown_names_and_bad_arguments_are_refused_plainly():
    with pytest.raises(signals.UnknownSignal):
        synthesise("answer_5")
    with pytest.raises(ValueError):
        synthesise("answer_1", side=3)
    with pytest.raises(ValueError):
        synthesise("answer_1", timing="slow")


def test_synthesis_is_repeatable():
    assert np.array_equal(synthesise("dice", 2, "quick"), signals._synthesise.__wrapped__("dice", 2, "quick", RATE))
