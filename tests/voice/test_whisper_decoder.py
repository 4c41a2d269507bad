"""Our Whisper decoder (whisper_decoder.py, an ONNX Runtime graph over the weights of
whisper_weights.py) against CTranslate2 on real speech: the same log-probabilities,
the same transcript, the same command chosen."""
from __future__ import annotations

import shutil
import struct
from pathlib import Path

import numpy as np
import pytest

from audio_console.games import grammar_for_game
from audio_console.voice.audio import wav_pcm16
from audio_console.voice.recognizer import RecognizerError
from audio_console.voice.whisper_decoder import DecoderUnavailable, WhisperDecoder, log_softmax
from audio_console.voice.whisper_utterance import Together, Utterance
from audio_console.voice.whisper_engine import WhisperRecognizer, embedded_model_path
from audio_console.voice.whisper_weights import DecoderWeights, UnsupportedModel, read_model_bin


@pytest.fixture(scope="module")
def exact():
    """CTranslate2 in float32: what our decoder computes, to rounding."""
    return WhisperRecognizer(compute_type="float32")


@pytest.fixture(scope="module")
def whisper():
    return WhisperRecognizer()


def forced_log_probs(recognizer, encoded, tokens):
    """CTranslate2's log-probabilities of each forced token after the prompt."""
    result = recognizer.model.generate(encoded, [recognizer.prompt + tokens], beam_size=1,
                                       max_length=recognizer._max_length(len(tokens) + 1), return_logits_vocab=True,
                                       suppress_blank=False, suppress_tokens=[])[0]
    return np.array([log_softmax(result.logits[0][i])[t] for i, t in enumerate(tokens)])


def whole_pass(decoder, encoded, prompt, tokens):
    """The log-probs after each of `tokens` (and after the prompt), the prompt and
    the tokens in one pass."""
    audio = decoder.audio(np.asarray(encoded))
    _, rows = decoder.step(audio, [(decoder.empty(), prompt + tokens)],
                           list(range(len(prompt) - 1, len(prompt) + len(tokens))))
    return rows


def own_log_probs(recognizer, encoded, tokens):
    decoder = recognizer.decoder()
    assert decoder is not None, "onnxruntime and onnx are dependencies: our decoder is the default"
    rows = whole_pass(decoder, encoded, recognizer.prompt, tokens)
    return np.array([rows[i][t] for i, t in enumerate(tokens)])


def test_log_probs_of_a_spoken_command_agree_with_ctranslate2(speech, galaxis_grammar, exact, whisper):
    pcm = wav_pcm16(speech.say("delta five"))
    for recognizer in (exact, whisper):
        recognizer.set_grammar(galaxis_grammar)
        encoded = recognizer.encode(pcm)
        # what was said, and a phrase that was not
        for text in (" Delta 5.", " Sector 9, row B."):
            tokens = recognizer.tokenizer.encode(text, add_special_tokens=False).ids + [recognizer.eot]
            ours, theirs = own_log_probs(recognizer, encoded, tokens), forced_log_probs(recognizer, encoded, tokens)
            # float32 both sides: rounding only; int8 CTranslate2: close, as int8 is to float
            # (up to 0.38 nats on the unlikely phrase's tokens, about -12, with the prompt
            # naming "Hint.")
            tolerance = 1e-3 if recognizer is exact else 0.5
            assert np.abs(ours - theirs).max() < tolerance, (text, ours, theirs)


def test_kept_state_gives_what_one_pass_gives(speech, exact, galaxis_grammar):
    """A prefix extended step by step from cached state, several at once (each row
    seeing only its own prefix), scores as the whole sequence run in one pass."""
    exact.set_grammar(galaxis_grammar)
    decoder = exact.decoder()
    encoded = np.asarray(exact.encode(wav_pcm16(speech.say("charlie seven"))))[0]
    utterance = Utterance(decoder, encoded, exact.prompt, exact._start[0], exact.suppress, exact.suppress_begin,
                          exact.eot, 4)
    a = exact.tokenizer.encode(" Charlie 7.", add_special_tokens=False).ids
    b = exact.tokenizer.encode(" Charlie seven", add_special_tokens=False).ids
    first = utterance.rows([(a[:1], 0)])[0]
    stepped_a, stepped_b = utterance.rows([(a, 1), (b, 1)])
    whole_a = whole_pass(decoder, encoded, exact.prompt, a)
    whole_b = whole_pass(decoder, encoded, exact.prompt, b)
    assert np.abs(first[0] - whole_a[0]).max() < 1e-4
    assert np.abs(stepped_a - whole_a[1:]).max() < 1e-4
    assert np.abs(stepped_b - whole_b[1:]).max() < 1e-4
    # Whisper's no-speech probability, read after <|startoftranscript|> in the prompt's pass
    sot_row = whole_pass(decoder, encoded, exact.prompt[:exact.prompt.index(exact._start[0]) + 1], [])[0]
    assert np.abs(utterance.after_sot() - sot_row).max() < 1e-4


def test_utterances_decoded_together_score_as_each_alone(speech, exact, galaxis_grammar):
    """Two utterances in shared passes (the second look's two speeds): every row
    attends to its own utterance's audio only, so each gets what it gets alone."""
    exact.set_grammar(galaxis_grammar)
    decoder = exact.decoder()
    pcms = [wav_pcm16(speech.say(text)) for text in ("charlie seven", "mark bravo seven")]
    encodeds = [np.asarray(exact.encode(pcm))[0] for pcm in pcms]

    def utterance(encoded, start):
        return Utterance(decoder, encoded, exact.prompt, exact._start[0], exact.suppress, exact.suppress_begin,
                         exact.eot, 4, start=start)
    alone = [utterance(e, True) for e in encodeds]
    together = Together([utterance(e, False) for e in encodeds])
    asked = [[(exact.tokenizer.encode(text, add_special_tokens=False).ids, 0)]
             for text in (" Charlie 7.", " Mark B7.")]
    joint = together.rows([(asked[0], []), (asked[1], [])])
    for i, single in enumerate(alone):
        assert np.abs(joint[i][0] - single.rows(asked[i])[0]).max() < 1e-4
        assert np.abs(together.utterances[i].after_sot() - single.after_sot()).max() < 1e-4
    assert together.transcripts() == [single.transcript_tokens() for single in alone]
    # the whole decode: the same command, score and transcript as one at a time
    for pair, one in zip(exact._decode_together(pcms, False, True), [exact._decode_once(p, False, True) for p in pcms]):
        assert (pair.evidence.command, pair.evidence.transcript) == (one.evidence.command, one.evidence.transcript)
        assert pair.evidence.score == pytest.approx(one.evidence.score, abs=1e-4)
    assert [d.evidence.command for d in exact._decode_together(pcms, False, True)] == ["query C7", "mark B7"]


@pytest.mark.parametrize("game,said,command", [
    ("galaxis", "delta five", "query D5"),
    ("galaxis", "mark bravo seven", "mark B7"),
    ("battleship", "sector two row delta", "shoot 2 row D"),
])
def test_own_decoder_and_ctranslate2_paths_choose_the_same_command(speech, whisper, game, said, command):
    ct2 = WhisperRecognizer(own_decoder=False)
    for recognizer in (whisper, ct2):
        recognizer.set_grammar(grammar_for_game(game))
    pcm = wav_pcm16(speech.say(said))
    ours, theirs = whisper.decode(pcm), ct2.decode(pcm)
    assert ours.evidence.command == theirs.evidence.command == command, (said, ours.detail, theirs.detail)
    assert ours.evidence.transcript == theirs.evidence.transcript
    assert ours.evidence.score == pytest.approx(theirs.evidence.score, abs=0.2)
    assert ours.evidence.no_speech == pytest.approx(theirs.evidence.no_speech, abs=0.05)
    assert ours.detail["calls"] <= theirs.detail["calls"] + 1


def test_noise_is_no_command_on_the_own_decoders_path(speech, galaxis_grammar, whisper):
    whisper.set_grammar(galaxis_grammar)
    decoded = whisper.decode(wav_pcm16(speech.noise(1.5, 0.1)))
    assert decoded.evidence.no_speech > 0.5 or decoded.evidence.command is None or decoded.evidence.score < -1.0


def test_without_onnxruntime_ctranslate2_searches_alone(speech, galaxis_grammar, monkeypatch):
    """onnxruntime or onnx missing (our decoder cannot be built): the same search on
    CTranslate2, slower, never a crash."""
    def unavailable(weights):
        raise DecoderUnavailable("No module named 'onnxruntime'")
    monkeypatch.setattr(WhisperDecoder, "load", unavailable)
    recognizer = WhisperRecognizer()
    assert recognizer.decoder() is None
    recognizer.set_grammar(galaxis_grammar)
    pcm = wav_pcm16(speech.say("delta five"))
    decoded = recognizer.decode(pcm)
    assert decoded.evidence.command == "query D5", decoded.detail
    # several utterances at once (the second look) are decoded one after another
    pair = recognizer._decode_together([pcm, pcm], False, True)
    assert [d.evidence.command for d in pair] == ["query D5", "query D5"]
    assert all(d.seconds > 0 for d in pair)


def test_a_model_file_of_another_kind_is_refused_by_the_reader(tmp_path):
    """model.bin of another architecture: the recognizer then decodes with
    CTranslate2 alone (decoder() is None), never a crash."""
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


def test_a_model_our_decoder_does_not_read_is_decoded_by_ctranslate2(tmp_path, speech, galaxis_grammar):
    source = embedded_model_path()
    folder = tmp_path / "quantized"
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("model.bin"))
    with_int8_embeddings(source / "model.bin", folder / "model.bin")
    recognizer = WhisperRecognizer(folder)
    assert recognizer.decoder() is None
    recognizer.set_grammar(galaxis_grammar)
    pcm = wav_pcm16(speech.say("delta five"))
    decoded = recognizer.decode(pcm)
    assert decoded.evidence.command == "query D5", decoded.detail
    # several utterances at once (the second look) are decoded one after another
    pair = recognizer._decode_together([pcm, pcm], False, True)
    assert [d.evidence.command for d in pair] == ["query D5", "query D5"]
    assert all(d.seconds > 0 for d in pair)


def test_the_embedded_models_decoder_has_tiny_en_s_shape():
    variables = read_model_bin(embedded_model_path() / "model.bin")
    weights = DecoderWeights(variables)
    assert (weights.vocabulary, weights.dim, weights.heads, len(weights.layers)) == (51864, 384, 6, 4)


def test_ctranslate2_is_loaded_only_where_our_graphs_cannot_decode(speech, galaxis_grammar):
    """CTranslate2's copy of the model held about 330 MB beside our graphs."""
    ours = WhisperRecognizer()
    ours.set_grammar(galaxis_grammar)
    assert ours.decode(wav_pcm16(speech.say("delta five"))).evidence.command == "query D5"
    assert ours._model is None
    fallback = WhisperRecognizer(own_decoder=False)        # it decodes: loaded at once
    assert fallback._model is not None and not fallback.model.is_multilingual


def test_a_multilingual_model_is_known_from_its_vocabulary_and_told_the_language(tmp_path):
    """Whisper base is multilingual: known from model.bin's vocabulary, without loading
    CTranslate2's copy, and prompted <|en|><|transcribe|>."""
    source = embedded_model_path()
    folder = tmp_path / "multilingual"
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("model.bin"))
    with_one_token_more(source / "model.bin", folder / "model.bin")
    recognizer = WhisperRecognizer(folder)
    assert recognizer.multilingual and recognizer._model is None
    assert [recognizer.tokenizer.id_to_token(t) for t in recognizer.prompt[-4:]] == [
        "<|startoftranscript|>", "<|en|>", "<|transcribe|>", "<|notimestamps|>"]
    assert not WhisperRecognizer().multilingual
