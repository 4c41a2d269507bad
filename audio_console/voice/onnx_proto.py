"""The few ONNX protobuf messages our graphs need, written byte by byte, and a reader
of a message's fields (silero.py takes one branch out of the voice detector's model).

The `onnx` package (its C++ extension, protobuf and ml_dtypes) held about 17 MB
resident in the console only to build the graphs' bytes; these functions write the
same bytes (field numbers from onnx.proto; fields in number order, as protobuf
writes them; proto2, so repeated numbers unpacked), checked byte for byte against
onnx's helper by tests/voice/test_onnx_proto.py.
"""
from __future__ import annotations

import struct

import numpy as np

# TensorProto.DataType by numpy type
DATA_TYPES = {np.dtype(np.float32): 1, np.dtype(np.uint8): 2, np.dtype(np.int8): 3, np.dtype(np.int32): 6,
              np.dtype(np.int64): 7, np.dtype(np.bool_): 9, np.dtype(np.float16): 10, np.dtype(np.float64): 11}
FLOAT, INT, INTS = 1, 2, 7          # AttributeProto.AttributeType
EXTERNAL = 1                        # TensorProto.DataLocation


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1          # a negative int64 as its two's complement (ten bytes)
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _int(field: int, value: int) -> bytes:
    return _varint(field << 3) + _varint(value)


def _bytes(field: int, value: bytes) -> bytes:
    return _varint(field << 3 | 2) + _varint(len(value)) + value


def _text(field: int, value: str) -> bytes:
    return _bytes(field, value.encode("utf-8"))


def _attribute(name: str, value) -> bytes:
    """An int, a float or a list of ints, as onnx.helper.make_attribute writes it."""
    if isinstance(value, (list, tuple)):
        return _text(1, name) + b"".join(_int(8, int(v)) for v in value) + _int(20, INTS)
    if isinstance(value, float):
        return _text(1, name) + _varint(2 << 3 | 5) + struct.pack("<f", value) + _int(20, FLOAT)
    return _text(1, name) + _int(3, int(value)) + _int(20, INT)


def node(op_type: str, inputs: list[str], outputs: list[str], **attributes) -> bytes:
    """A NodeProto; its attributes in name order (as onnx.helper.make_node)."""
    return (b"".join(_text(1, name) for name in inputs) + b"".join(_text(2, name) for name in outputs)
            + _text(4, op_type) + b"".join(_bytes(5, _attribute(k, v)) for k, v in sorted(attributes.items())))


def data_type(dtype) -> int:
    try:
        return DATA_TYPES[np.dtype(dtype)]
    except KeyError:
        raise ValueError(f"no ONNX data type for {dtype}") from None


def tensor(name: str, value: np.ndarray) -> bytes:
    """A TensorProto holding the array's bytes (as onnx.numpy_helper.from_array)."""
    value = np.asarray(value)
    return (b"".join(_int(1, d) for d in value.shape) + _int(2, data_type(value.dtype)) + _text(8, name)
            + _bytes(9, value.astype(value.dtype.newbyteorder("<"), copy=False).tobytes()))


def external_tensor(name: str, value: np.ndarray) -> bytes:
    """A TensorProto whose data ONNX Runtime is handed apart ("in-memory" external data)."""
    entries = (("location", "in-memory"), ("offset", "0"), ("length", str(value.nbytes)))
    return (b"".join(_int(1, d) for d in value.shape) + _int(2, data_type(value.dtype)) + _text(8, name)
            + b"".join(_bytes(13, _text(1, key) + _text(2, text)) for key, text in entries) + _int(14, EXTERNAL))


def value_info(name: str, elem_type: int, shape: list) -> bytes:
    """A ValueInfoProto of a tensor: a dimension is a size or a name."""
    dims = b"".join(_bytes(1, _text(2, d) if isinstance(d, str) else _int(1, d)) for d in shape)
    return _text(1, name) + _bytes(2, _bytes(1, _int(1, elem_type) + _bytes(2, dims)))


def model(nodes: list[bytes], name: str, inputs: list[bytes], outputs: list[bytes], initializers: list[bytes],
          opset: int, ir_version: int) -> bytes:
    """A ModelProto of one graph in the default domain."""
    graph = (b"".join(_bytes(1, n) for n in nodes) + _text(2, name) + b"".join(_bytes(5, t) for t in initializers)
             + b"".join(_bytes(11, v) for v in inputs) + b"".join(_bytes(12, v) for v in outputs))
    return _int(1, ir_version) + _bytes(7, graph) + _bytes(8, _text(1, "") + _int(2, opset))



def fields(message: bytes) -> list[tuple[int, int, bytes | int]]:
    """A message's fields in order: (number, wire type, value): a varint as an int, a
    length-delimited or fixed-width field as its bytes."""
    out: list[tuple[int, int, bytes | int]] = []
    at, end = 0, len(message)
    while at < end:
        key, at = _read_varint(message, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = _read_varint(message, at)
            out.append((number, wire, value))
            continue
        if wire == 2:
            size, at = _read_varint(message, at)
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
        else:
            raise ValueError(f"protobuf wire type {wire} is not read here")
        if at + size > end:
            raise ValueError("a truncated protobuf message")
        out.append((number, wire, bytes(message[at:at + size])))
        at += size
    return out


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data):
            raise ValueError("a truncated protobuf varint")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def text_field(message: bytes, number: int) -> str:
    """The first string field `number` of a message ("" when absent)."""
    return next((v.decode("utf-8") for n, w, v in fields(message) if n == number and w == 2
                 and isinstance(v, bytes)), "")


def int64_values(tensor: bytes) -> list[int] | None:
    """An int64 TensorProto's values (packed int64_data or raw_data); None for another type."""
    parts = fields(tensor)
    if (2, 0, DATA_TYPES[np.dtype(np.int64)]) not in parts:
        return None
    values: list[int] = []
    for number, wire, value in parts:
        if number == 7 and wire == 2 and isinstance(value, bytes):       # packed varints
            at = 0
            while at < len(value):
                item, at = _read_varint(value, at)
                values.append(item - (1 << 64) if item >> 63 else item)
        elif number == 9 and isinstance(value, bytes):
            values += np.frombuffer(value, "<i8").tolist()
    return values


def message(entries: list[tuple[int, int, bytes | int]]) -> bytes:
    """Fields, as fields() gives them, written back."""
    out = bytearray()
    for number, wire, value in entries:
        if isinstance(value, int):
            out += _int(number, value)
        elif wire == 2:
            out += _bytes(number, value)
        else:
            out += _varint(number << 3 | wire) + value
    return bytes(out)
