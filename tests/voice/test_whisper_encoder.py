"""Our Whisper encoder (whisper_encoder.py, an ONNX Runtime graph over model.bin's
encoder weights) against CTranslate2's on real speech, and the engine without it."""
from __future__ import annotations

import numpy as np
import pytest

from audio_console.voice.audio import wav_pcm16
from audio_console.voice.whisper_encoder import WhisperEncoder
from audio_console.voice.recognizer import RecognizerError
from audio_console.voice.whisper_engine import WhisperRecognizer
from audio_console.voice.whisper_model import embedded_model_path
from audio_console.voice.whisper_weights import UnsupportedModel
from tests.voice.ct2_reference import Reference


@pytest.fixture(scope="module")
def exact():
    return WhisperRecognizer()


def test_encoder_output_agrees_with_ctranslate2(speech, exact):
    encoder = WhisperEncoder.load(embedded_model_path())
    reference = Reference(embedded_model_path())
    for text, voice in (("delta five", "flite:slt"), ("sector two row delta, please", "espeak:en-us")):
        pcm = wav_pcm16(speech.say(text, voice))
        theirs = np.asarray(reference.encode(exact.features(pcm)))[0]
        ours = encoder(exact.features(pcm)[None])[0]
        assert ours.shape == theirs.shape
        assert np.abs(ours - theirs).max() < 2e-3, text


def test_utterances_of_one_window_encode_together_as_each_alone(speech, exact):
    """The second look's speeds are encoded in one run: each as it is alone."""
    encoder = WhisperEncoder.load(embedded_model_path())
    features = [exact.features(wav_pcm16(speech.say(text))) for text in ("charlie seven", "hint")]
    frames = max(f.shape[-1] for f in features)
    features = [np.pad(f, ((0, 0), (0, frames - f.shape[-1])), constant_values=float(f.min())) for f in features]
    both = encoder(np.stack(features))
    for one, feature in zip(both, features):
        assert np.abs(one - encoder(feature[None])[0]).max() < 1e-4


def test_an_encoder_our_graph_does_not_read_is_said_not_crashed_on(speech, galaxis_grammar, monkeypatch):
    """Quantized encoder weights: a RecognizerError naming them, not a traceback."""
    def unsupported(model_dir):
        raise UnsupportedModel("quantized encoder weights")
    monkeypatch.setattr(WhisperEncoder, "load", unsupported)
    recognizer = WhisperRecognizer()
    recognizer.set_grammar(galaxis_grammar)
    with pytest.raises(RecognizerError, match="quantized encoder weights"):
        recognizer.decode(wav_pcm16(speech.say("mark bravo seven")))
