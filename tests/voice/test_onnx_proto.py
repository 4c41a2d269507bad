"""onnx_proto.py writes our graphs' bytes without the `onnx` package: the decoder's
and the encoder's graphs of the built-in model are byte for byte what onnx's helper
made of them (so ONNX Runtime builds the very same sessions and every score stays
as it was)."""
from __future__ import annotations

import numpy as np
import pytest

from audio_console.voice import onnx_graph, onnx_proto, whisper_decoder, whisper_encoder
from audio_console.voice.whisper_model import embedded_model_path
from audio_console.voice.whisper_weights import DecoderWeights, read_model_bin

onnx = pytest.importorskip("onnx")


class OnnxHelperProto:
    """The same messages made by onnx.helper and numpy_helper, as onnx_graph.py made
    them before onnx_proto.py."""

    data_type = staticmethod(onnx_proto.data_type)

    @staticmethod
    def node(op_type, inputs, outputs, **attributes) -> bytes:
        return onnx.helper.make_node(op_type, inputs, outputs, **attributes).SerializeToString()

    @staticmethod
    def tensor(name, value) -> bytes:
        return onnx.numpy_helper.from_array(value, name).SerializeToString()

    @staticmethod
    def external_tensor(name, value) -> bytes:
        tensor = onnx.TensorProto(name=name, data_type=onnx.TensorProto.FLOAT, dims=value.shape,
                                  data_location=onnx.TensorProto.EXTERNAL)
        for key, text in (("location", "in-memory"), ("offset", "0"), ("length", str(value.nbytes))):
            entry = tensor.external_data.add()
            entry.key, entry.value = key, text
        return tensor.SerializeToString()

    @staticmethod
    def value_info(name, elem_type, shape) -> bytes:
        return onnx.helper.make_tensor_value_info(name, elem_type, shape).SerializeToString()

    @staticmethod
    def model(nodes, name, inputs, outputs, initializers, opset, ir_version) -> bytes:
        graph = onnx.helper.make_graph([onnx.NodeProto.FromString(n) for n in nodes], name,
                                       [onnx.ValueInfoProto.FromString(v) for v in inputs],
                                       [onnx.ValueInfoProto.FromString(v) for v in outputs],
                                       [onnx.TensorProto.FromString(t) for t in initializers])
        model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", opset)])
        model.ir_version = ir_version
        return model.SerializeToString()


def built_graphs(monkeypatch, writer) -> list[bytes]:
    """The serialised graphs of the built-in model's decoder and encoder, written by
    `writer` (no session is built)."""
    graphs: list[bytes] = []
    monkeypatch.setattr(onnx_graph, "proto", writer)
    for module in (whisper_decoder, whisper_encoder):
        monkeypatch.setattr(module, "session", lambda graph, threads, spin=True: graphs.append(graph.serialized))
    model_bin = embedded_model_path() / "model.bin"
    whisper_decoder.WhisperDecoder(DecoderWeights(read_model_bin(model_bin)))
    whisper_encoder.WhisperEncoder({k: v for k, v in read_model_bin(model_bin, "encoder/").items()})
    return graphs


def test_our_graphs_are_byte_for_byte_what_onnx_wrote(monkeypatch):
    theirs = built_graphs(monkeypatch, OnnxHelperProto)
    ours = built_graphs(monkeypatch, onnx_proto)
    assert len(ours) == len(theirs) == 3           # the decoder's pass and audio graphs, the encoder
    for mine, reference in zip(ours, theirs):
        assert mine == reference


def test_every_field_kind_is_written_as_onnx_writes_it():
    """Negative and list attributes, a float attribute, a 0-d and an int64 tensor,
    named and sized dimensions."""
    cases = [
        (onnx_proto.node("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1, epsilon=1e-5),
         OnnxHelperProto.node("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1, epsilon=1e-5)),
        (onnx_proto.node("Conv", ["x", "w"], ["y"], kernel_shape=[3], pads=[1, 1], strides=[2]),
         OnnxHelperProto.node("Conv", ["x", "w"], ["y"], kernel_shape=[3], pads=[1, 1], strides=[2])),
        (onnx_proto.tensor("s", np.array(0.125, np.float32)), OnnxHelperProto.tensor("s", np.array(0.125, np.float32))),
        (onnx_proto.tensor("i", np.array([-1, 2 ** 40], np.int64)),
         OnnxHelperProto.tensor("i", np.array([-1, 2 ** 40], np.int64))),
        (onnx_proto.value_info("x", 1, ["rows", 384]), OnnxHelperProto.value_info("x", 1, ["rows", 384])),
    ]
    for mine, reference in cases:
        assert mine == reference

