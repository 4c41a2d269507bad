"""Whisper's text decoder, with its state kept between calls.

CTranslate2's Python API cannot continue a decode: every `generate` call recomputes
the cross-attention keys and values of the audio and re-reads the prompt, for every
item of a batch (about 20 ms a call for tiny.en). The phrase search extends the same
few prefixes token by token, so here the audio's keys and values are computed once
per utterance, the prompt once, and every extension is one step from a cached
prefix (whisper_utterance.py keeps them).

A pass is one ONNX Runtime graph built from model.bin's own float32 weights
(whisper_weights.py): every prefix of a pass is attended to at once (each row sees
its own prefix's keys through a mask), and only the rows whose next-token
distribution is wanted go through the 80 MB output projection, on ONNX Runtime's two
threads. The same passes in numpy (about 25 small operations a layer, the
self-attention once per prefix) took 1.6 times as long, with the same numbers to 1e-4.
"""
from __future__ import annotations

import contextlib
import threading

import numpy as np

from audio_console.voice.onnx_graph import Graph, return_freed_memory, session
from audio_console.voice.whisper_weights import DecoderWeights, once_per_model, read_model_bin


_blas: list = []


def one_blas_thread():
    """A context in which numpy's BLAS uses one thread: a decode's numpy products are
    small (the log-mel filters), and on two busy cores a second BLAS thread made such
    products up to 50 times slower. Without threadpoolctl: no change."""
    if not _blas:
        try:
            from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]
            _blas.append(ThreadpoolController())
        except Exception:  # noqa: BLE001 - not installed or no BLAS found: leave it as it is
            _blas.append(None)
    return contextlib.nullcontext() if _blas[0] is None else _blas[0].limit(limits=1, user_api="blas")


def log_softmax(x) -> np.ndarray:
    """Log-probabilities over the last axis (of logits, one row or several), float32."""
    x = np.asarray(x, np.float32)
    top = x.max(-1, keepdims=True)
    return x - (top + np.log(np.exp(x - top).sum(-1, keepdims=True)))


class Prefix:
    """A decoded token sequence: per layer its self-attention keys and values
    [heads, length, head size]."""
    __slots__ = ("tokens", "keys", "values")

    def __init__(self, tokens: tuple[int, ...], keys: list[np.ndarray], values: list[np.ndarray]):
        self.tokens, self.keys, self.values = tokens, keys, values


class Audio:
    """The audio's cross-attention keys and values, per layer [heads, head size, frames]
    (keys, transposed for q @ k) and [heads, frames, head size] (values): one
    utterance's, or several utterances' side by side (joined), each a span of frames."""
    __slots__ = ("keys", "values", "spans")

    def __init__(self, keys: list[np.ndarray], values: list[np.ndarray], spans: list[tuple[int, int]] | None = None):
        self.keys, self.values = keys, values
        self.spans = spans if spans is not None else [(0, keys[0].shape[-1] if keys else 0)]

    @staticmethod
    def joined(audios: list[Audio]) -> Audio:
        """Several utterances' audio in one, for passes that decode them together
        (each row attends to its own utterance's frames only: step's `sources`)."""
        if len(audios) == 1:
            return audios[0]
        spans, start = [], 0
        for audio in audios:
            frames = audio.keys[0].shape[-1]
            spans.append((start, start + frames))
            start += frames
        keys = [np.concatenate([a.keys[i] for a in audios], axis=2) for i in range(len(audios[0].keys))]
        values = [np.concatenate([a.values[i] for a in audios], axis=1) for i in range(len(audios[0].values))]
        return Audio(keys, values, spans)


class DecoderUnavailable(Exception):
    """onnxruntime is missing, or the graph could not be built."""


_BUILT: dict[tuple, "WhisperDecoder"] = {}
_BUILT_LOCK = threading.Lock()


class WhisperDecoder:
    """Whisper's text decoder over the encoder's output (whisper_encoder.py): two
    ONNX Runtime graphs built from DecoderWeights (float32)."""

    @classmethod
    def load(cls, model_dir) -> WhisperDecoder:
        """The decoder of a model folder, built once (by path, size and mtime: 0.3 s
        for tiny.en) and shared."""
        def build(path) -> WhisperDecoder:
            variables = read_model_bin(path)
            decoder = cls(DecoderWeights(variables))
            variables.drop_pages()      # all were read once; a pass reads a few embeddings
            return_freed_memory()       # the float32 weights the graphs were built from
            return decoder
        return once_per_model(_BUILT, _BUILT_LOCK, model_dir, build)

    def __init__(self, weights: DecoderWeights, threads: int = 2):
        try:
            import onnxruntime  # type: ignore[import-untyped]  # noqa: F401
        except ImportError as e:
            raise DecoderUnavailable(str(e)) from e
        self.vocabulary, self.dim, self.heads = weights.vocabulary, weights.dim, weights.heads
        self.head_size, self.positions, self.layers = weights.head_size, weights.positions, len(weights.layers)
        # the token embeddings as model.bin stores them (float16 for tiny.en), a view
        # of the mapped file: a pass reads a few rows, so only those pages are resident
        self.embeddings = weights.embeddings
        try:
            self._pass = session(self._pass_graph(weights), threads)
            # one thread: a second session's own pool, spinning after its run, slowed
            # the next pass on the other pool (docs/measurements/voice-constants.md)
            self._audio = session(self._audio_graph(weights), 1)
        except Exception as e:  # noqa: BLE001 - onnxruntime raises its own types
            raise DecoderUnavailable(f"the decoder graph could not be built ({e})") from e


    # --- graphs -------------------------------------------------------------------

    def _split_heads(self, g: Graph, x: str) -> str:
        """[rows, dim] -> [heads, rows, head size]"""
        shape = g.constant(np.array([0, self.heads, self.head_size], np.int64))
        return g.op("Transpose", g.op("Reshape", x, shape), perm=[1, 0, 2])

    def _merge_heads(self, g: Graph, x: str) -> str:
        shape = g.constant(np.array([0, self.dim], np.int64))
        return g.op("Reshape", g.op("Transpose", x, perm=[1, 0, 2]), shape)

    def _attend(self, g: Graph, q: str, k_t: str, v: str, mask: str | None) -> str:
        scale = g.constant(np.array(self.head_size ** -0.5, np.float32))
        scores = g.op("MatMul", g.op("Mul", q, scale), k_t)
        if mask is not None:
            scores = g.op("Add", scores, mask)
        return self._merge_heads(g, g.op("MatMul", g.op("Softmax", scores, axis=-1), v))

    def _pass_graph(self, weights: DecoderWeights) -> Graph:
        """Inputs: x [rows, dim] (embeddings plus positions), mask [rows, past + rows],
        cross_mask [rows, frames] (0 for the frames of a row's own utterance, -inf for
        others'), wanted [n] (rows to project), per layer past_k/past_v [heads, past,
        head size] and audio_k [heads, head size, frames], audio_v [heads, frames, head size].
        Outputs: log_probs [n, vocabulary], per layer k/v [heads, rows, head size]."""
        g = Graph()
        inputs: list[tuple[str, list]] = [("x", ["rows", self.dim]), ("mask", ["rows", "keys"]),
                                          ("cross_mask", ["rows", "frames"]), ("wanted", ["n"])]
        outputs: list[tuple[str, str, list]] = []
        x = "x"
        for i, layer in enumerate(weights.layers):
            names = {part: f"{part}_{i}" for part in ("past_k", "past_v", "audio_k", "audio_v")}
            inputs += [(names["past_k"], [self.heads, "past", self.head_size]),
                       (names["past_v"], [self.heads, "past", self.head_size]),
                       (names["audio_k"], [self.heads, self.head_size, "frames"]),
                       (names["audio_v"], [self.heads, "frames", self.head_size])]
            h = g.norm(x, f"l{i}/self_norm", layer.self_norm)
            qkv = g.linear(h, f"l{i}/qkv", layer.qkv, layer.qkv_bias)
            q, k, v = (self._split_heads(g, g.part(qkv, j, self.dim)) for j in range(3))
            outputs += [(f"k_{i}", k, [self.heads, "rows", self.head_size]),
                        (f"v_{i}", v, [self.heads, "rows", self.head_size])]
            keys = g.op("Concat", names["past_k"], k, axis=1)
            values = g.op("Concat", names["past_v"], v, axis=1)
            mixed = self._attend(g, q, g.op("Transpose", keys, perm=[0, 2, 1]), values, "mask")
            x = g.op("Add", x, g.linear(mixed, f"l{i}/self_out", layer.self_out, layer.self_out_bias))
            h = g.norm(x, f"l{i}/cross_norm", layer.cross_norm)
            q = self._split_heads(g, g.linear(h, f"l{i}/query", layer.query, layer.query_bias))
            heard = self._attend(g, q, names["audio_k"], names["audio_v"], "cross_mask")
            x = g.op("Add", x, g.linear(heard, f"l{i}/cross_out", layer.cross_out, layer.cross_out_bias))
            h = g.norm(x, f"l{i}/ffn_norm", layer.ffn_norm)
            up = g.op("Gelu", g.linear(h, f"l{i}/up", layer.up, layer.up_bias))
            x = g.op("Add", x, g.linear(up, f"l{i}/down", layer.down, layer.down_bias))
        x = g.norm(g.op("Gather", x, "wanted", axis=0), "final_norm", weights.final_norm)
        logits = g.op("MatMul", x, g.weight("output", weights.output()))
        if weights.output_bias is not None:
            logits = g.op("Add", logits, g.weight("output_bias", weights.output_bias))
        outputs.append(("log_probs", g.op("LogSoftmax", logits, axis=-1), ["n", self.vocabulary]))
        return g.finish(inputs, outputs)

    def _audio_graph(self, weights: DecoderWeights) -> Graph:
        """encoded [frames, dim] -> per layer audio_k [heads, head size, frames], audio_v [heads, frames, head size]"""
        g = Graph()
        outputs: list[tuple[str, str, list]] = []
        for i, layer in enumerate(weights.layers):
            kv = g.linear("encoded", f"l{i}/kv", layer.kv, layer.kv_bias)
            k, v = (self._split_heads(g, g.part(kv, j, self.dim)) for j in range(2))
            outputs += [(f"audio_k_{i}", g.op("Transpose", k, perm=[0, 2, 1]), [self.heads, self.head_size, "frames"]),
                        (f"audio_v_{i}", v, [self.heads, "frames", self.head_size])]
        return g.finish([("encoded", ["frames", self.dim])], outputs)

    # --- per utterance ------------------------------------------------------------

    def empty(self) -> Prefix:
        """The prefix of no tokens, to start a prompt from."""
        empty = [np.zeros((self.heads, 0, self.head_size), np.float32) for _ in range(self.layers)]
        return Prefix((), empty, list(empty))

    def audio(self, encoded: np.ndarray) -> Audio:
        x = np.ascontiguousarray(np.asarray(encoded, np.float32).reshape(-1, self.dim))
        out = self._audio.run(None, {"encoded": x})
        return Audio(out[0::2], out[1::2])

    def step(self, audio: Audio, items: list[tuple[Prefix, list[int]]],
             wanted: list[int], sources: list[int] | None = None) -> tuple[list[Prefix], np.ndarray]:
        """Append tokens to prefixes, all items in one pass: per item the longer
        Prefix, and the next-token log-probabilities after the rows `wanted` (indices
        into the items' new tokens, counted across items in order) [len(wanted), vocabulary].
        With joined audio, `sources` names each item's utterance (its span of frames)."""
        spans, start, past = [], 0, 0
        for prefix, tokens in items:
            if not tokens:
                raise ValueError("nothing to extend by")
            if len(prefix.tokens) + len(tokens) > len(self.positions):
                raise ValueError("longer than the decoder's positions")
            spans.append((start, start + len(tokens), past))
            start += len(tokens)
            past += len(prefix.tokens)
        rows = start
        embeddings = self.embeddings
        x = np.concatenate([embeddings[tokens].astype(np.float32) + self.positions[len(p.tokens):len(p.tokens) + len(tokens)]
                            for p, tokens in items])
        # each row sees its own prefix's keys and its item's rows up to itself
        mask = np.full((rows, past + rows), -np.inf, np.float32)
        for (prefix, _), (a, b, p) in zip(items, spans):
            mask[a:b, p:p + len(prefix.tokens)] = 0.0
            mask[a:b, past + a:past + b] = np.triu(np.full((b - a, b - a), -np.inf, np.float32), 1)
        # ... and its own utterance's frames (adding zeros changes no number)
        frames = audio.spans[-1][1]
        if len(audio.spans) == 1:
            cross_mask = np.zeros((rows, frames), np.float32)
        else:
            cross_mask = np.full((rows, frames), -np.inf, np.float32)
            for (a, b, _), source in zip(spans, sources or [0] * len(items)):
                first, last = audio.spans[source]
                cross_mask[a:b, first:last] = 0.0
        feed = {"x": x, "mask": mask, "cross_mask": cross_mask, "wanted": np.asarray(wanted, np.int64)}
        for i in range(self.layers):
            feed[f"past_k_{i}"] = _joined([prefix.keys[i] for prefix, _ in items], self.heads, self.head_size)
            feed[f"past_v_{i}"] = _joined([prefix.values[i] for prefix, _ in items], self.heads, self.head_size)
            feed[f"audio_k_{i}"], feed[f"audio_v_{i}"] = audio.keys[i], audio.values[i]
        out = self._pass.run(None, feed)
        log_probs, new = out[-1], out[:-1]
        prefixes = []
        for j, ((prefix, tokens), (a, b, _)) in enumerate(zip(items, spans)):
            keys = [np.concatenate((prefix.keys[i], new[2 * i][:, a:b]), axis=1) for i in range(self.layers)]
            values = [np.concatenate((prefix.values[i], new[2 * i + 1][:, a:b]), axis=1)
                      for i in range(self.layers)]
            prefixes.append(Prefix(prefix.tokens + tuple(tokens), keys, values))
        return prefixes, log_probs


def _joined(parts: list[np.ndarray], heads: int, head_size: int) -> np.ndarray:
    if len(parts) == 1:
        return np.ascontiguousarray(parts[0])
    return np.concatenate(parts, axis=1) if parts else np.zeros((heads, 0, head_size), np.float32)
