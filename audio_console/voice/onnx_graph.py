"""ONNX graphs built node by node from numpy weights, and ONNX Runtime sessions to run
them (Whisper's decoder passes, whisper_decoder.py, and its encoder, whisper_encoder.py;
the voice detector's model, silero.py, runs with the same options)."""
from __future__ import annotations

import numpy as np

from audio_console.voice import onnx_proto as proto

OPSET = 20          # LayerNormalization (17) and Gelu (20)
EXTERNAL_SIZE = 1024  # weights of this many values or more are shared with numpy, not copied


def session(graph: "Graph", threads: int, spin: bool = True):
    """An ONNX Runtime session of `graph` on `threads` threads. spin=False: its
    threads sleep after a run instead of spinning (a session run once between
    another session's passes would otherwise take a core from them). ONNX Runtime
    copies the weights it is handed (and prepacks them for its matrix products:
    fed as inputs instead, unpacked, a decoder pass took twice the CPU), so the
    graph lets go of its own arrays once the session is built."""
    import onnxruntime as ort  # type: ignore[import-untyped]
    options = session_options(threads, spin)
    names = list(graph.external)
    options.add_external_initializers(names, [ort.OrtValue.ortvalue_from_numpy(graph.external[n]) for n in names])
    built = ort.InferenceSession(graph.serialized, options, providers=["CPUExecutionProvider"])
    graph.external.clear()
    return built


def session_options(threads: int, spin: bool = True):
    """The options every session of the console's shares (ours and silero's)."""
    import onnxruntime as ort
    options = ort.SessionOptions()
    if not spin:
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # without its arena ONNX Runtime frees a pass's intermediate tensors (a pass
    # with many rows projects them onto 51864 tokens): 43 MB less resident after
    # the first decodes (docs/measurements/memory.md)
    options.enable_cpu_mem_arena = False
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return options


def return_freed_memory() -> None:
    """Give the memory of freed weights back to the system: the C allocator keeps
    freed blocks below its (growing) mmap threshold in its heap, where they count as
    resident (tiny.en's decoder layers: about 40 MB). glibc only; elsewhere nothing."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


class Graph:
    """Builds nodes with fresh names; its bytes are written by onnx_proto.py (the
    `onnx` package is not loaded: 17 MB)."""

    def __init__(self):
        self.nodes: list[bytes] = []
        self.weights: list[bytes] = []
        self.external: dict[str, np.ndarray] = {}   # name -> array handed to ONNX Runtime apart
        self.count = 0
        self.serialized = b""

    def op(self, kind: str, *inputs: str, **attributes) -> str:
        self.count += 1
        out = f"{kind.lower()}_{self.count}"
        self.nodes.append(proto.node(kind, list(inputs), [out], **attributes))
        return out

    def weight(self, name: str, value: np.ndarray) -> str:
        """A constant of the graph. A large one is not copied into the graph: it is
        marked as external data and handed to ONNX Runtime as the numpy array itself
        (session; serialising tiny.en's weights into the graph and parsing them back
        cost 1.2 s and 280 MB)."""
        value = np.ascontiguousarray(value)
        if value.size < EXTERNAL_SIZE:
            self.weights.append(proto.tensor(name, value))
            return name
        self.weights.append(proto.external_tensor(name, value))
        self.external[name] = value
        return name

    def constant(self, value) -> str:
        """A small constant of the graph (a shape, an axis, a scale) under a fresh name."""
        return self.weight(f"constant_{len(self.weights)}", np.asarray(value))

    def part(self, x: str, j: int, width: int, axis: int = 1) -> str:
        """Indices j * width .. (j + 1) * width of x along `axis` (columns of [rows, columns])."""
        return self.op("Slice", x, self.constant(np.array([j * width], np.int64)),
                       self.constant(np.array([(j + 1) * width], np.int64)), self.constant(np.array([axis], np.int64)))

    def linear(self, x: str, name: str, weight: np.ndarray, bias: np.ndarray) -> str:
        return self.op("Add", self.op("MatMul", x, self.weight(name + "/w", weight)), self.weight(name + "/b", bias))

    def norm(self, x: str, name: str, gamma_beta: tuple[np.ndarray, np.ndarray]) -> str:
        gamma, beta = gamma_beta
        return self.op("LayerNormalization", x, self.weight(name + "/gamma", gamma), self.weight(name + "/beta", beta),
                       axis=-1, epsilon=1e-5)

    def finish(self, inputs: list[tuple[str, list]], outputs: list[tuple[str, str, list]]) -> Graph:
        """The graph with these inputs (name, shape) and outputs (name, node, shape), serialised."""
        declared = [proto.value_info(n, proto.data_type(np.int64 if n == "wanted" else np.float32), s)
                    for n, s in inputs]
        for target, source, _ in outputs:
            self.nodes.append(proto.node("Identity", [source], [target]))
        results = [proto.value_info(n, proto.data_type(np.float32), s) for n, _, s in outputs]
        # ir_version 9: ONNX Runtime 1.17 reads up to 9
        self.serialized = proto.model(self.nodes, "whisper_decoder", declared, results, self.weights,
                                      opset=OPSET, ir_version=9)
        return self
