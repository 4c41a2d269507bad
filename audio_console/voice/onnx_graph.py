"""ONNX graphs built node by node from numpy weights, and ONNX Runtime sessions to run
them (Whisper's decoder passes, whisper_decoder.py, and its encoder, whisper_encoder.py)."""
from __future__ import annotations

import numpy as np

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
    options = ort.SessionOptions()
    if not spin:
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    names = list(graph.external)
    options.add_external_initializers(names, [ort.OrtValue.ortvalue_from_numpy(graph.external[n]) for n in names])
    # without its arena ONNX Runtime frees a pass's intermediate tensors (a pass
    # with many rows projects them onto 51864 tokens): 43 MB less resident after
    # the first decodes (docs/measurements/memory.md)
    options.enable_cpu_mem_arena = False
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    built = ort.InferenceSession(graph.serialized, options, providers=["CPUExecutionProvider"])
    graph.external.clear()
    return built


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
    """Builds nodes with fresh names (onnx.helper underneath)."""

    def __init__(self):
        from onnx import helper, numpy_helper
        self.helper, self.numpy_helper = helper, numpy_helper
        self.nodes: list = []
        self.weights: list = []
        self.external: dict[str, np.ndarray] = {}   # name -> float32 array kept by the caller
        self.count = 0
        self.serialized = b""

    def op(self, kind: str, *inputs: str, **attributes) -> str:
        self.count += 1
        out = f"{kind.lower()}_{self.count}"
        self.nodes.append(self.helper.make_node(kind, list(inputs), [out], **attributes))
        return out

    def weight(self, name: str, value: np.ndarray) -> str:
        """A constant of the graph. A large one is not copied into the graph: it is
        marked as external data and handed to ONNX Runtime as the numpy array itself
        (session; serialising tiny.en's weights into the graph and parsing them back
        cost 1.2 s and 280 MB)."""
        value = np.ascontiguousarray(value)
        if value.size < EXTERNAL_SIZE:
            self.weights.append(self.numpy_helper.from_array(value, name))
            return name
        from onnx import TensorProto
        tensor = TensorProto(name=name, data_type=TensorProto.FLOAT, dims=value.shape,
                             data_location=TensorProto.EXTERNAL)
        for key, text in (("location", "in-memory"), ("offset", "0"), ("length", str(value.nbytes))):
            entry = tensor.external_data.add()
            entry.key, entry.value = key, text
        self.weights.append(tensor)
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
        from onnx import TensorProto
        h = self.helper
        declared = [h.make_tensor_value_info(n, TensorProto.INT64 if n == "wanted" else TensorProto.FLOAT, s)
                    for n, s in inputs]
        for target, source, _ in outputs:
            self.nodes.append(h.make_node("Identity", [source], [target]))
        graph = h.make_graph(self.nodes, "whisper_decoder", declared,
                             [h.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, _, s in outputs],
                             self.weights)
        model = h.make_model(graph, opset_imports=[h.make_opsetid("", OPSET)])
        model.ir_version = 9     # onnx writes its newest by default; ONNX Runtime 1.17 reads up to 9
        self.serialized = model.SerializeToString()
        return self
