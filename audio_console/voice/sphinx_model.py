"""The pocketsphinx model from the wheel, in the form SphinxTrain's tools read.

The wheel ships a binary model definition (`mdef`, "BMDF") and its mixture weights
only as `sendump` (8-bit quantised -log weights, transposed), because that is what
the decoder memory-maps. SphinxTrain's `bw` reads only a text mdef and float
`mixture_weights`. Both are converted here, in Python, so adaptation needs no other
Debian package than sphinxtrain (pocketsphinx_mdef_convert from Debian's
`pocketsphinx` package writes the same text mdef; checked line by line).
"""
from __future__ import annotations

import os
import struct
from pathlib import Path

import numpy as np

WORD_POSITIONS = "ibes"   # internal, begin, end, single (pocketsphinx's word_posn_t order)


# Words of our grammars missing from cmudict, with their pronunciations.
EXTRA_PRONUNCIATIONS = {
    "unmark": ["AH N M AA R K"],
    "juliett": ["JH UW L IY EH T"],
    "alfa": ["AE L F AH"],
    "spaceship": ["S P EY S SH IH P"],
    "galaxis": ["G AH L AE K S IH S", "G AE L AH K S IH S", "G AE L AE K S IH S"],
    "arkade": ["AA R K EY D"],
}


def model_dir() -> Path:
    import pocketsphinx
    return Path(pocketsphinx.get_model_path()) / "en-us" / "en-us"


def dictionary_path() -> Path:
    import pocketsphinx
    return Path(pocketsphinx.get_model_path()) / "en-us" / "cmudict-en-us.dict"


def decoder_config(**overrides) -> dict:
    """The wheel's English model as every pocketsphinx decoder here loads it (the
    recognizer, feature writing and wording choice for the training); `overrides`
    replace or add settings (another dictionary, mfclogdir, ...)."""
    config = dict(hmm=str(model_dir()), dict=str(dictionary_path()), lm=None,
                  samprate=16000, loglevel="FATAL")
    config.update(overrides)
    return config


def decode_whole(decoder, pcm: bytes) -> None:
    """One whole utterance (16 kHz mono int16) through the decoder's active search."""
    decoder.start_utt()
    decoder.process_raw(pcm, full_utt=True)
    decoder.end_utt()


def _ints(data: bytes, offset: int, count: int, fmt: str = "<i") -> tuple[list[int], int]:
    size = struct.calcsize(fmt)
    return [struct.unpack_from(fmt, data, offset + i * size)[0] for i in range(count)], offset + count * size


def binary_mdef_to_text(binary: bytes) -> str:
    """A binary mdef (pocketsphinx bin_mdef.c, format version 1) as text mdef 0.3."""
    if binary[:4] != b"BMDF":
        raise ValueError("not a binary mdef (no BMDF mark)")
    (version, desc_len), pos = _ints(binary, 4, 2)
    if version != 1:
        raise ValueError(f"binary mdef version {version}, expected 1")
    pos += (desc_len + 3) & ~3
    header, pos = _ints(binary, pos, 10)
    n_ci, n_phone, n_emit, n_ci_sen, n_sen, n_tmat, n_sseq, _n_ctx, n_cd_tree, _sil = header
    if n_emit <= 0:
        raise ValueError("mdefs with phones of different lengths are not supported")
    names = []
    for _ in range(n_ci):
        end = binary.index(b"\0", pos)
        names.append(binary[pos:end].decode("ascii"))
        pos = end + 1
    pos = (pos + 3) & ~3
    pos += n_cd_tree * 8                                  # the CD lookup tree: not needed here
    phones = np.frombuffer(binary, dtype=np.dtype([("ssid", "<i4"), ("tmat", "<i4"), ("attr", "u1", 4)]),
                           count=n_phone, offset=pos)
    pos += n_phone * 12
    (n_values,), pos = _ints(binary, pos, 1)           # the senone sequences' length, in int16s
    if n_values != n_sseq * n_emit:
        raise ValueError(f"binary mdef: {n_values} senone ids, expected {n_sseq * n_emit}")
    sseq = np.frombuffer(binary, dtype="<i2", count=n_sseq * n_emit, offset=pos).reshape(n_sseq, n_emit)
    lines = ["0.3", f"{n_ci} n_base", f"{n_phone - n_ci} n_tri", f"{n_phone * (n_emit + 1)} n_state_map",
             f"{n_sen} n_tied_state", f"{n_ci_sen} n_tied_ci_state", f"{n_tmat} n_tied_tmat",
             "#", "# Columns definitions", "#base lft  rt p attrib tmat      ... state id's ..."]
    for i, (ssid, tmat, attr) in enumerate(phones):
        states = " ".join(f"{s:6d}" for s in sseq[ssid])
        if i < n_ci:
            attrib = "filler" if attr[0] else "n/a"
            lines.append(f"{names[i]:>5} {'-':>3} {'-':>3} - {attrib:>6} {tmat:4d} {states} N")
        else:
            base, left, right = (names[c] for c in attr[1:4])
            lines.append(f"{base:>5} {left:>3} {right:>3} {WORD_POSITIONS[attr[0]]} {'n/a':>6} "
                         f"{tmat:4d} {states} N")
    return "\n".join(lines) + "\n"


def sendump_to_mixture_weights(data: bytes) -> np.ndarray:
    """sendump -> mixture weights, shape (senones, features, densities), rows summing to 1.
    Each byte is -log(weight) in log base 1.0001, shifted right by mixw_shift (10)."""
    pos, strings = 0, []
    while True:
        (n,) = struct.unpack_from("<i", data, pos)
        pos += 4
        if n == 0:
            break
        strings.append(data[pos:pos + n].rstrip(b"\0").decode("ascii", "replace"))
        pos += n
    settings = dict(s.split(None, 1) for s in strings if s.split(None, 1)[0] in
                    ("feature_count", "mixture_count", "model_count", "mixw_shift", "cluster_count"))
    if int(settings.get("cluster_count", 0)) != 0:
        raise ValueError("clustered sendump files are not supported")
    shift = int(settings.get("mixw_shift", 10))
    n_feat = int(settings.get("feature_count", 1))
    rows, cols = struct.unpack_from("<ii", data, pos)   # densities, senones
    pos += 8
    raw = np.frombuffer(data, dtype=np.uint8, count=n_feat * rows * cols, offset=pos)
    logw = -(raw.reshape(n_feat, rows, cols).astype(np.float64) * (1 << shift)) * np.log(1.0001)
    weights = np.exp(logw).transpose(2, 0, 1)           # senone, feature, density
    weights /= weights.sum(axis=2, keepdims=True)
    return weights.astype(np.float32)


def write_s3_array(path: Path, array: np.ndarray) -> None:
    """A SphinxTrain binary parameter file ("s3" header, byte-order mark, dims, floats)."""
    header = b"s3\nversion 1.0\n"
    pad = (4 - (len(header) + len(b"endhdr\n")) % 4) % 4
    with open(path, "wb") as f:
        f.write(header + b" " * pad + b"endhdr\n")
        f.write(struct.pack("<i", 0x11223344))
        f.write(struct.pack(f"<{array.ndim + 1}I", *array.shape, array.size))
        f.write(np.ascontiguousarray(array, dtype="<f4").tobytes())


def prepare_trainable_model(out: Path, source: Path | None = None) -> Path:
    """A model folder bw can read: links to the wheel's means, variances, transition
    matrices, noisedict and feat.params, plus a text mdef and float mixture weights.
    Reused when already there (it depends only on the model)."""
    source = source or model_dir()
    out.mkdir(parents=True, exist_ok=True)
    done = out / "ready"
    stamp = f"{source} {os.stat(source / 'mdef').st_mtime_ns} {os.stat(source / 'sendump').st_mtime_ns}"
    if done.is_file() and done.read_text() == stamp:
        return out
    for name in ("means", "variances", "transition_matrices", "noisedict", "feat.params"):
        target = out / name
        if target.is_symlink() or target.exists():
            target.unlink()
        target.symlink_to(source / name)
    (out / "mdef.txt").write_text(binary_mdef_to_text((source / "mdef").read_bytes()))
    write_s3_array(out / "mixture_weights", sendump_to_mixture_weights((source / "sendump").read_bytes()))
    done.write_text(stamp)
    return out
