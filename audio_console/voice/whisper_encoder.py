"""Whisper's audio encoder as an ONNX Runtime graph built from model.bin's own weights.

CTranslate2 encodes on one thread here (on two its threads spun beside our decoder's
passes and slowed them) and one utterance at a time: about 17 ms for a 3-second
window. This graph runs on ONNX Runtime's two threads, several utterances of one
window length in one run: about 7 ms for one, 13 for two, with CTranslate2's float32
output to about 1e-4. Layout: two convolutions (the second halving the frames) with
GELU, learned positions, pre-norm self-attention layers, a final layer norm
(CTranslate2's whisper_spec.py).
"""
from __future__ import annotations

import re
import threading

import numpy as np

from audio_console.voice.onnx_graph import Graph, return_freed_memory, session
from audio_console.voice.whisper_weights import UnsupportedModel, once_per_model, read_model_bin

THREADS = 2

_BUILT: dict[tuple, "WhisperEncoder"] = {}
_BUILT_LOCK = threading.Lock()


class WhisperEncoder:
    """Log-mel features [utterances, mels, frames] -> the encoder's output
    [utterances, frames / 2, width], as CTranslate2's Whisper encode() gives it."""

    @classmethod
    def load(cls, model_dir) -> WhisperEncoder:
        """The encoder of a model folder, built once (by path, size and mtime) and shared."""
        def build(path) -> WhisperEncoder:
            encoder = cls(read_model_bin(path, "encoder/"))
            return_freed_memory()       # the float32 weights the graph was built from
            return encoder
        return once_per_model(_BUILT, _BUILT_LOCK, model_dir, build)

    def __init__(self, variables: dict[str, np.ndarray], threads: int = THREADS):
        try:
            self.heads = int(variables["encoder/num_heads"].reshape(-1)[0])
            self.dim = variables["encoder/conv2/weight"].shape[0]
            self.mels = variables["encoder/conv1/weight"].shape[1]
            self.layers = len({k.split("/")[1] for k in variables if re.match(r"encoder/layer_\d+/", k)})
            if any(v.dtype not in (np.float16, np.float32) for v in variables.values() if v.ndim > 1):
                raise UnsupportedModel("quantized encoder weights")
            graph = self._graph({k: v.astype(np.float32) for k, v in variables.items()})
        except (KeyError, ValueError, IndexError) as e:
            raise UnsupportedModel(f"unexpected encoder layout ({e})") from e
        if self.dim % self.heads:
            raise UnsupportedModel("heads do not divide the width")
        self._session = session(graph, threads, spin=False)

    def __call__(self, features: np.ndarray) -> np.ndarray:
        return self._session.run(None, {"mel": np.ascontiguousarray(features, np.float32)})[0]

    def _graph(self, v: dict[str, np.ndarray]) -> Graph:
        g = Graph()
        head_size = self.dim // self.heads

        def conv(x: str, name: str, stride: int) -> str:
            return g.op("Conv", x, g.weight(name + "/w", v[name + "/weight"]), g.weight(name + "/b", v[name + "/bias"]),
                        kernel_shape=[3], pads=[1, 1], strides=[stride])

        def linear(x: str, name: str) -> str:
            return g.linear(x, name, v[name + "/weight"].T.copy(), v[name + "/bias"])

        def norm(x: str, name: str) -> str:
            return g.norm(x, name, (v[name + "/gamma"], v[name + "/beta"]))

        def heads(x: str) -> str:
            """[utterances, frames, width] -> [utterances, heads, frames, head size]"""
            shape = g.constant(np.array([0, 0, self.heads, head_size], np.int64))
            return g.op("Transpose", g.op("Reshape", x, shape), perm=[0, 2, 1, 3])

        x = g.op("Gelu", conv("mel", "encoder/conv1", 1))
        x = g.op("Transpose", g.op("Gelu", conv(x, "encoder/conv2", 2)), perm=[0, 2, 1])
        # the learned positions of as many frames as the window has
        frames = g.op("Gather", g.op("Shape", x), g.constant(np.array([1], np.int64)), axis=0)
        positions = g.op("Slice", g.weight("positions", v["encoder/position_encodings/encodings"]),
                         g.constant(np.array([0], np.int64)), frames, g.constant(np.array([0], np.int64)))
        x = g.op("Add", x, positions)
        scale = g.constant(np.array(head_size ** -0.5, np.float32))
        for i in range(self.layers):
            name = f"encoder/layer_{i}"
            qkv = linear(norm(x, f"{name}/self_attention/layer_norm"), f"{name}/self_attention/linear_0")
            q, k, values = (heads(g.part(qkv, j, self.dim, axis=2)) for j in range(3))
            scores = g.op("MatMul", g.op("Mul", q, scale), g.op("Transpose", k, perm=[0, 1, 3, 2]))
            mixed = g.op("MatMul", g.op("Softmax", scores, axis=-1), values)
            mixed = g.op("Reshape", g.op("Transpose", mixed, perm=[0, 2, 1, 3]),
                         g.constant(np.array([0, 0, self.dim], np.int64)))
            x = g.op("Add", x, linear(mixed, f"{name}/self_attention/linear_1"))
            up = g.op("Gelu", linear(norm(x, f"{name}/ffn/layer_norm"), f"{name}/ffn/linear_0"))
            x = g.op("Add", x, linear(up, f"{name}/ffn/linear_1"))
        x = norm(x, "encoder/layer_norm")
        return g.finish([("mel", ["utterances", self.mels, "frames"])], [("encoded", x, ["utterances", "half", self.dim])])
