"""Whisper's text decoder weights, read straight from CTranslate2's model.bin
(format: CTranslate2's python/ctranslate2/specs/model_spec.py `_serialize`; layout:
whisper_spec.py and transformer_spec.py: pre-norm layers, GELU, learned positions,
output tied to the embeddings). The decoder's passes are whisper_decoder.py's; the
encoder (whisper_encoder.py) reads its own weights with read_model_bin.
"""
from __future__ import annotations

import mmap
import re
import struct
import threading
from pathlib import Path
from typing import Callable, TypeVar

import numpy as np

SPEC = "WhisperSpec"
# CTranslate2's DataType order (include/ctranslate2/types.h); bfloat16 is not read here
DTYPES = {0: np.float32, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.float16}

T = TypeVar("T")


class UnsupportedModel(Exception):
    """model.bin is not a Whisper layout our graphs read."""


class Variables(dict):
    """model.bin's variables by name, viewing the file through `mapping`."""
    mapping: mmap.mmap | None = None

    def drop_pages(self) -> None:
        """Let the pages read so far leave this process's resident set (the file
        stays mapped; a page read again comes back from the page cache)."""
        if self.mapping is not None and hasattr(mmap, "MADV_DONTNEED"):
            self.mapping.madvise(mmap.MADV_DONTNEED)


def read_model_bin(path: Path, prefix: str = "decoder/") -> Variables:
    """The variables of a CTranslate2 model.bin whose names start with `prefix`
    (aliases resolved), as numpy arrays viewing the file mapped read-only (only the
    pages read are resident, and they are the page cache's, not a copy)."""
    with open(path, "rb") as file:
        try:
            mapping = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError as e:          # an empty file cannot be mapped
            raise UnsupportedModel(f"{path} is empty") from e
    data = memoryview(mapping)
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
    variables = Variables()
    variables.mapping = mapping
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


class DecoderWeights:
    """The text decoder's weights as float32, checked to be a layout WhisperDecoder
    (whisper_decoder.py) computes."""

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
            self._projection = projection
            # the token embeddings [vocabulary, dim] as stored (a view of model.bin)
            self.embeddings = embeddings
            bias = variables.get("decoder/projection/bias")
            self.output_bias = None if bias is None else bias.astype(np.float32)
        except (KeyError, ValueError, IndexError) as e:
            raise UnsupportedModel(f"unexpected decoder layout ({e})") from e
        if self.dim % self.heads:
            raise UnsupportedModel("heads do not divide the width")
        self.head_size = self.dim // self.heads

    def output(self) -> np.ndarray:
        """The output projection [dim, vocabulary] as float32, for x @ output: made
        when the graph is built, not kept (80 MB for tiny.en)."""
        return _transposed(self._projection)


def once_per_model(cache: dict, lock: threading.Lock, model_dir, build: Callable[[Path], T]) -> T:
    """build(model.bin's path), once per model.bin (by path, size and mtime) and shared;
    the cache holds one model at a time, as the console uses one."""
    path = Path(model_dir) / "model.bin"
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    with lock:
        built = cache.get(key)
        if built is None:
            built = build(path)
            cache.clear()
            cache[key] = built
        return built
