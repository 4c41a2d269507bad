"""Whisper's text decoder in numpy, with its state kept between calls.

CTranslate2's Python API cannot continue a decode: every `generate` call recomputes
the cross-attention keys and values of the audio and re-reads the prompt, for every
item of a batch (about 20 ms a call for tiny.en). The phrase search extends the same
few prefixes token by token, so here the audio's keys and values are computed once
per utterance, the prompt once, and every extension is one step from a cached
prefix. The weights come straight from CTranslate2's model.bin (format: CTranslate2's
python/ctranslate2/specs/model_spec.py `_serialize`; layout: whisper_spec.py and
transformer_spec.py: pre-norm layers, GELU, learned positions, output tied to the
embeddings); the encoder stays in CTranslate2.
"""
from __future__ import annotations

import contextlib
import os
import re
import struct
import threading
from pathlib import Path

import numpy as np

SPEC = "WhisperSpec"
# CTranslate2's DataType order (include/ctranslate2/types.h); bfloat16 is not read here
DTYPES = {0: np.float32, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.float16}
EPSILON = 1e-5


_blas: list = []


def one_blas_thread():
    """A context in which numpy's BLAS uses one thread: the decoder's products are
    small, and on two busy cores a second BLAS thread made a step up to 50 times
    slower (a prompt pass 1,000 ms against 20). Without threadpoolctl: no change."""
    if not _blas:
        try:
            from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]
            _blas.append(ThreadpoolController())
        except Exception:  # noqa: BLE001 - not installed or no BLAS found: leave it as it is
            _blas.append(None)
    return contextlib.nullcontext() if _blas[0] is None else _blas[0].limit(limits=1, user_api="blas")


_helper: list = []


def _second_core():
    """One worker thread for the other half of the output projection (made once)."""
    if not _helper:
        from concurrent.futures import ThreadPoolExecutor
        _helper.append(ThreadPoolExecutor(1, thread_name_prefix="whisper-projection"))
    return _helper[0]


_LOADED: dict[tuple, "WhisperDecoder"] = {}
_LOADED_LOCK = threading.Lock()


class UnsupportedModel(Exception):
    """model.bin is not a Whisper layout this decoder reads: use CTranslate2 alone."""


def read_model_bin(path: Path, prefix: str = "decoder/") -> dict[str, np.ndarray]:
    """The variables of a CTranslate2 model.bin whose names start with `prefix`
    (aliases resolved), as numpy arrays viewing the file's bytes."""
    data = memoryview(Path(path).read_bytes())
    offset = 0

    def take(fmt: str):
        nonlocal offset
        value = struct.unpack_from(fmt, data, offset)
        offset += struct.calcsize(fmt)
        return value[0]

    def text() -> str:
        nonlocal offset
        size = take("H")
        value = bytes(data[offset:offset + size - 1]).decode("utf-8")
        offset += size
        return value

    version = take("I")
    if version < 5:
        raise UnsupportedModel(f"model.bin format {version} is older than this reader")
    if text() != SPEC:
        raise UnsupportedModel("not a Whisper model")
    take("I")                                  # spec revision
    variables: dict[str, np.ndarray] = {}
    for _ in range(take("I")):
        name = text()
        shape = tuple(take("I") for _ in range(take("B")))
        dtype = take("B")
        size = take("I")
        if name.startswith(prefix):
            if dtype not in DTYPES:
                raise UnsupportedModel(f"{name} has data type {dtype}")
            variables[name] = np.frombuffer(data[offset:offset + size], DTYPES[dtype]).reshape(shape)
        offset += size
    for _ in range(take("I")):
        alias, target = text(), text()
        if target in variables:
            variables[alias] = variables[target]
    return variables


def _weight(variables: dict[str, np.ndarray], name: str) -> np.ndarray:
    """A float32 weight; an int8 one (a model converted with quantization) is scaled
    back by its per-row scale."""
    value = variables[name + "/weight"]
    if value.dtype == np.int8:
        scale = variables[name + "/weight_scale"].astype(np.float32)
        return value.astype(np.float32) / scale.reshape(-1, 1)
    return value.astype(np.float32)


def _transposed(matrix: np.ndarray, block: int = 256) -> np.ndarray:
    """matrix.T as contiguous float32, a block of rows at a time (one pass over the
    80 MB output matrix of tiny.en in about 0.1 s, against 3 s converted and
    transposed whole)."""
    rows, columns = matrix.shape
    out = np.empty((columns, rows), np.float32)
    for i in range(0, rows, block):
        out[:, i:i + block] = matrix[i:i + block].astype(np.float32).T
    return out


def _bias(variables: dict[str, np.ndarray], name: str, size: int) -> np.ndarray:
    value = variables.get(name + "/bias")
    return np.zeros(size, np.float32) if value is None else value.astype(np.float32)


def _norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    centred = x - mean
    variance = (centred * centred).mean(-1, keepdims=True)
    return centred / np.sqrt(variance + EPSILON) * gamma + beta


def log_softmax(x) -> np.ndarray:
    """Log-probabilities over the last axis (of logits, one row or several), float32."""
    x = np.asarray(x, np.float32)
    top = x.max(-1, keepdims=True)
    return x - (top + np.log(np.exp(x - top).sum(-1, keepdims=True)))


def _erf(x: np.ndarray) -> np.ndarray:
    """erf to 1.5e-7 (Abramowitz and Stegun 7.1.26): numpy has none, and Whisper's
    GELU is the erf one (the float32 log-probs agree with CTranslate2's to 1e-5)."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x * np.float32(0.7071067811865476)))


class _Layer:
    """One decoder layer's weights as float32, transposed for x @ w."""

    def __init__(self, v: dict[str, np.ndarray], name: str):
        def linear(part: str) -> tuple[np.ndarray, np.ndarray]:
            weight = _weight(v, f"{name}/{part}")
            return weight.T.copy(), _bias(v, f"{name}/{part}", len(weight))

        def norm(part: str) -> tuple[np.ndarray, np.ndarray]:
            return (v[f"{name}/{part}/layer_norm/gamma"].astype(np.float32),
                    v[f"{name}/{part}/layer_norm/beta"].astype(np.float32))

        self.self_norm, self.cross_norm, self.ffn_norm = norm("self_attention"), norm("attention"), norm("ffn")
        self.qkv, self.qkv_bias = linear("self_attention/linear_0")
        self.self_out, self.self_out_bias = linear("self_attention/linear_1")
        self.query, self.query_bias = linear("attention/linear_0")
        self.kv, self.kv_bias = linear("attention/linear_1")
        self.cross_out, self.cross_out_bias = linear("attention/linear_2")
        self.up, self.up_bias = linear("ffn/linear_0")
        self.down, self.down_bias = linear("ffn/linear_1")


class Prefix:
    """A decoded token sequence: per layer its self-attention keys and values
    [heads, length, head size]."""
    __slots__ = ("tokens", "keys", "values")

    def __init__(self, tokens: tuple[int, ...], keys: list[np.ndarray], values: list[np.ndarray]):
        self.tokens, self.keys, self.values = tokens, keys, values


class Audio:
    """One utterance's cross-attention keys and values, per layer [heads, head size, frames]
    (keys, transposed for q @ k) and [heads, frames, head size] (values)."""
    __slots__ = ("keys", "values")

    def __init__(self, keys: list[np.ndarray], values: list[np.ndarray]):
        self.keys, self.values = keys, values


class WhisperDecoder:
    """Whisper's decoder (float32) over encoder output from CTranslate2."""

    def __init__(self, variables: dict[str, np.ndarray]):
        try:
            if bool(variables.get("decoder/scale_embeddings", np.zeros(1)).reshape(-1)[0]):
                raise UnsupportedModel("scaled embeddings")
            if not bool(variables.get("decoder/pre_norm", np.ones(1)).reshape(-1)[0]):
                raise UnsupportedModel("post-norm layers")
            embeddings = variables["decoder/embeddings/weight"]
            if embeddings.dtype not in (np.float16, np.float32):
                raise UnsupportedModel(f"quantized embeddings ({embeddings.dtype})")
            self.vocabulary, self.dim = embeddings.shape
            self.heads = int(variables["decoder/num_heads"].reshape(-1)[0])
            count = len({k.split("/")[1] for k in variables if re.match(r"decoder/layer_\d+/", k)})
            self.layers = [_Layer(variables, f"decoder/layer_{i}") for i in range(count)]
            self.positions = variables["decoder/position_encodings/encodings"].astype(np.float32)
            self.final_norm = (variables["decoder/layer_norm/gamma"].astype(np.float32),
                               variables["decoder/layer_norm/beta"].astype(np.float32))
            projection = variables.get("decoder/projection/weight", embeddings)
            if projection.dtype not in (np.float16, np.float32):
                raise UnsupportedModel(f"quantized output projection ({projection.dtype})")
            # [dim, vocabulary]: x @ output is BLAS's fast layout for a few rows
            self.output = _transposed(projection)
            # the token embeddings, [vocabulary, dim]: a view of the output when they are tied
            self.embeddings = self.output.T if projection is embeddings else _transposed(embeddings).T
            bias = variables.get("decoder/projection/bias")
            self.output_bias = None if bias is None else bias.astype(np.float32)
        except (KeyError, ValueError, IndexError) as e:
            raise UnsupportedModel(f"unexpected decoder layout ({e})") from e
        if self.dim % self.heads:
            raise UnsupportedModel("heads do not divide the width")
        self.head_size = self.dim // self.heads
        self.scale = np.float32(self.head_size ** -0.5)
        # the projection's two halves on two cores (a thread of ours, each half on
        # one BLAS thread): reading its 80 MB is most of a step's time
        self.split_projection = (os.cpu_count() or 1) > 1

    @classmethod
    def load(cls, model_dir) -> WhisperDecoder:
        """The decoder of a model folder, shared by every recognizer of the same
        model.bin (by path, size and mtime: 110 MB of float32 weights for tiny.en)."""
        path = Path(model_dir) / "model.bin"
        stat = path.stat()
        key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
        with _LOADED_LOCK:
            decoder = _LOADED.get(key)
            if decoder is None:
                decoder = cls(read_model_bin(path))
                _LOADED.clear()          # one model at a time is what the console uses
                _LOADED[key] = decoder
            return decoder

    # --- per utterance -------------------------------------------------------------

    def audio(self, encoded: np.ndarray) -> Audio:
        """encoded: the encoder output [frames, dim] (or [1, frames, dim])."""
        x = np.asarray(encoded, np.float32).reshape(-1, self.dim)
        keys, values = [], []
        for layer in self.layers:
            kv = x @ layer.kv + layer.kv_bias
            k, v = kv[:, :self.dim], kv[:, self.dim:]
            keys.append(np.ascontiguousarray(k.reshape(-1, self.heads, self.head_size).transpose(1, 2, 0)))
            values.append(np.ascontiguousarray(v.reshape(-1, self.heads, self.head_size).transpose(1, 0, 2)))
        return Audio(keys, values)

    def empty(self) -> Prefix:
        """The prefix of no tokens, to start a prompt from."""
        empty = [np.zeros((self.heads, 0, self.head_size), np.float32) for _ in self.layers]
        return Prefix((), empty, list(empty))

    def step(self, audio: Audio, items: list[tuple[Prefix, list[int]]],
             wanted: list[int]) -> tuple[list[Prefix], np.ndarray]:
        """One pass (whisper_onnx.OnnxDecoder.step's contract): the longer prefixes,
        and the next-token log-probabilities after the new rows `wanted` (indices
        counted across the items' new tokens in order) [len(wanted), vocabulary]."""
        done = self.extend(audio, items)
        hidden = np.concatenate([h for _, h in done])
        return [prefix for prefix, _ in done], self.log_probs(hidden[np.asarray(wanted, np.int64)])

    def extend(self, audio: Audio, items: list[tuple[Prefix, list[int]]]) -> list[tuple[Prefix, np.ndarray]]:
        """Append tokens to prefixes, all items in one pass (the dense layers read
        their weights once for all rows): per item the longer Prefix and the hidden
        states of its new positions [len(tokens), dim]; log_probs of them give the
        next-token distribution after each."""
        spans, start = [], 0
        for prefix, tokens in items:
            if not tokens:
                raise ValueError("nothing to extend by")
            if len(prefix.tokens) + len(tokens) > len(self.positions):
                raise ValueError("longer than the decoder's positions")
            spans.append((start, start + len(tokens)))
            start += len(tokens)
        x = np.concatenate([self.embeddings[tokens] + self.positions[len(p.tokens):len(p.tokens) + len(tokens)]
                            for p, tokens in items])
        rows = len(x)
        keys: list[list[np.ndarray]] = [[] for _ in items]
        values: list[list[np.ndarray]] = [[] for _ in items]
        for i, layer in enumerate(self.layers):
            h = _norm(x, *layer.self_norm)
            qkv = (h @ layer.qkv + layer.qkv_bias).reshape(rows, 3, self.heads, self.head_size).transpose(1, 2, 0, 3)
            mixed = np.empty((rows, self.dim), np.float32)
            for j, ((prefix, _), (a, b)) in enumerate(zip(items, spans)):
                k = np.concatenate((prefix.keys[i], qkv[1, :, a:b]), axis=1)
                v = np.concatenate((prefix.values[i], qkv[2, :, a:b]), axis=1)
                keys[j].append(k)
                values[j].append(v)
                n, past = b - a, len(prefix.tokens)
                mask = np.triu(np.full((n, past + n), -np.inf, np.float32), past + 1) if n > 1 else None
                mixed[a:b] = self._attend(qkv[0, :, a:b], k.transpose(0, 2, 1), v, mask)
            x = x + mixed @ layer.self_out + layer.self_out_bias
            h = _norm(x, *layer.cross_norm)
            q = (h @ layer.query + layer.query_bias).reshape(rows, self.heads, self.head_size).transpose(1, 0, 2)
            x = x + self._attend(q, audio.keys[i], audio.values[i], None) @ layer.cross_out + layer.cross_out_bias
            h = _norm(x, *layer.ffn_norm)
            x = x + _gelu(h @ layer.up + layer.up_bias) @ layer.down + layer.down_bias
        x = _norm(x, *self.final_norm)
        return [(Prefix(prefix.tokens + tuple(tokens), keys[j], values[j]), x[a:b])
                for j, ((prefix, tokens), (a, b)) in enumerate(zip(items, spans))]

    def _attend(self, q: np.ndarray, k_t: np.ndarray, v: np.ndarray, mask) -> np.ndarray:
        """q [heads, n, hs], k_t [heads, hs, m], v [heads, m, hs] -> [n, dim]."""
        scores = (q * self.scale) @ k_t
        if mask is not None:
            scores = scores + mask
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        scores /= scores.sum(-1, keepdims=True)
        return (scores @ v).transpose(1, 0, 2).reshape(q.shape[1], self.dim)

    def log_probs(self, hidden: np.ndarray) -> np.ndarray:
        """Next-token log-probabilities for hidden states [rows, dim]. The
        full-vocabulary projection is the main cost of a step; its two halves, each
        with its part of the normalizer, run at once on two cores (a thread of ours,
        not two BLAS threads: OpenBLAS's threads spin, and on two busy cores made the
        small products up to 50 times slower, see one_blas_thread). Products of
        tiny.en's projection, 1 / 8 / 16 rows: 3.5 / 9.1 / 11.8 ms on one core,
        1.7 / 6.6 / 6.3 on two; with the other core busy, as on one."""
        hidden = np.asarray(hidden, np.float32)
        out = np.empty((len(hidden), self.vocabulary), np.float32)
        if self.split_projection:
            half = self.vocabulary // 2
            other = _second_core().submit(self._project, hidden, half, self.vocabulary, out)
            parts = [self._project(hidden, 0, half, out), other.result()]
        else:
            parts = [self._project(hidden, 0, self.vocabulary, out)]
        top = np.max([t for t, _ in parts], axis=0)
        total = sum(s * np.exp(t - top) for t, s in parts)
        out -= top + np.log(total)
        return out

    def _project(self, hidden: np.ndarray, start: int, stop: int, out: np.ndarray):
        """out[:, start:stop] = the logits of these tokens; returns their maximum and
        sum(exp(logit - maximum)) per row. One or two rows go one at a time:
        OpenBLAS's vector product streams the matrix (4 ms), its matrix product for
        two rows took 10."""
        part, logits = self.output[:, start:stop], out[:, start:stop]
        if len(hidden) <= 2:
            for row, into in zip(hidden, logits):
                np.matmul(row, part, out=into)
        else:
            np.matmul(hidden, part, out=logits)
        if self.output_bias is not None:
            logits += self.output_bias[start:stop]
        top = logits.max(-1, keepdims=True)
        return top, np.exp(logits - top).sum(-1, keepdims=True)


