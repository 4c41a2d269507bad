"""Voice training: adapt pocketsphinx's acoustic model to one player's voice and microphone.

The voice check (or the longer voice training) records utterances whose words are
known (the prompts). From them:

1. features exactly as the decoder computes them: pocketsphinx itself writes them
   (`mfclogdir`), so no second front end can disagree with feat.params
   (-remove_noise, -transform dct, 25 filters, 130-6800 Hz, ...);
2. SphinxTrain's `bw` collects statistics against the wheel's model (converted to the
   text mdef and float mixture weights bw reads: sphinx_model.py);
3. `mllr_solve` estimates one global MLLR transform of the means (the `mllr` decoder
   parameter), and `map_adapt` MAP-adapted means (the `mean` parameter), as the CMU
   Sphinx tutorial "Adapting the default acoustic model" does.

The result is saved in the settings home ($AUDIO_CONSOLE_HOME): voice-training.json
(what is in use) beside voice-training.mllr and voice-training.means. The pocketsphinx
engine loads them from then on; reset() returns to the plain model. A damaged file is
reported in one line and ignored.

The tools come from Debian's `sphinxtrain` package (/usr/lib/sphinxtrain/). Without
it, adapt() raises AdaptationError(MISSING_TOOLS): one plain line for the player.
"""
from __future__ import annotations

import json
import math
import os
import re
import shutil
import struct
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from audio_console.voice import sphinx_model

MISSING_TOOLS = ("Voice training needs the Debian package sphinxtrain (apt-get install sphinxtrain); "
                 "the plain voice model stays in use.")
TOOL_DIRS = ("/usr/lib/sphinxtrain", "/usr/libexec/sphinxtrain", "/usr/local/libexec/sphinxtrain",
             "/usr/local/lib/sphinxtrain")
TOOLS = ("bw", "mllr_solve", "map_adapt")

METHODS = ("mllr", "map", "mllr+map")
DEFAULT_METHOD = "map"        # measured best on scripts/bench_adaptation.py (docs/adapt.md)
MAP_TAU = 10.0                # prior weight of the speaker-independent means in MAP
MIN_UTTERANCES = 5            # fewer: not worth a transform
MIN_SECONDS, MAX_SECONDS = 0.3, 10.0

INFO_FILE = "voice-training.json"
MLLR_FILE = "voice-training.mllr"
MEANS_FILE = "voice-training.means"


class AdaptationError(Exception):
    """Voice training could not be done; the message is one line for the player."""


@dataclass
class Utterance:
    pcm: bytes          # 16 kHz mono int16
    transcript: str     # the words said, lower case ("delta five"); "" = one of:
    alternatives: list[str] = field(default_factory=list)   # the wordings the player may have used


@dataclass
class Adaptation:
    """A voice training in use: the files the decoder loads."""
    mllr: Path | None = None
    means: Path | None = None
    utterances: int = 0
    method: str = ""
    created: str = ""
    seconds: float = 0.0
    skipped: list[str] = field(default_factory=list)

    def decoder_config(self) -> dict:
        config = {}
        if self.mllr is not None:
            config["mllr"] = str(self.mllr)
        if self.means is not None:
            config["mean"] = str(self.means)
        return config

    def describe(self) -> str:
        return f"Voice training in use: {self.utterances} phrases, {self.method}, {self.created}."


# --- the tools ------------------------------------------------------------------------

def find_tools() -> dict[str, Path] | None:
    """SphinxTrain's programs, or None when they are not installed.
    $AUDIO_CONSOLE_SPHINXTRAIN names another folder (tests use it to hide the tools)."""
    override = os.environ.get("AUDIO_CONSOLE_SPHINXTRAIN")
    dirs = [override] if override is not None else list(TOOL_DIRS)
    for folder in dirs:
        found = {tool: Path(folder) / tool for tool in TOOLS}
        if all(os.access(p, os.X_OK) and p.is_file() for p in found.values()):
            return found
    if override is None:
        found = {tool: shutil.which(tool) for tool in TOOLS}
        if all(found.values()):
            return {tool: Path(p) for tool, p in found.items()}
    return None


def _run(cmd: list, log: Path) -> None:
    try:
        result = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise AdaptationError(f"Voice training failed: {Path(str(cmd[0])).name} did not run ({e}).") from e
    log.write_text(result.stdout + result.stderr)
    if result.returncode != 0:
        last = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
        raise AdaptationError(f"Voice training failed: {Path(str(cmd[0])).name} exited with "
                              f"{result.returncode} ({last[0][:160]}).")


# --- the recipe -----------------------------------------------------------------------

def _pronunciations(words: set[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    with open(sphinx_model.dictionary_path(), encoding="utf-8") as f:
        for line in f:
            word, _, phones = line.partition(" ")
            if word in words and word not in found:
                found[word] = phones.strip()
    for word in words - found.keys():
        if word in sphinx_model.EXTRA_PRONUNCIATIONS:
            found[word] = sphinx_model.EXTRA_PRONUNCIATIONS[word][0]
    return found


def _write_dictionary(path: Path, pron: dict[str, str]) -> None:
    """A pocketsphinx dictionary of just these words."""
    path.write_text("".join(f"{word} {pron[word]}\n" for word in sorted(pron)))


def _write_features(utterances: list[Utterance], folder: Path, dictionary: Path) -> list[str]:
    """Features as the decoder computes them: pocketsphinx writes one .mfc file per
    utterance into its mfclogdir (numbered by utterance id, renamed here)."""
    import pocketsphinx
    folder.mkdir()
    decoder = pocketsphinx.Decoder(**sphinx_model.decoder_config(dict=str(dictionary), mfclogdir=str(folder)))
    first = dictionary.read_text().split(None, 1)[0]
    decoder.add_jsgf_string("any", f"#JSGF V1.0;\ngrammar any;\npublic <any> = {first} ;\n")
    decoder.activate_search("any")
    ids = []
    for i, utt in enumerate(utterances):
        before = set(os.listdir(folder))
        sphinx_model.decode_whole(decoder, utt.pcm)
        new = sorted(set(os.listdir(folder)) - before)
        if len(new) != 1:
            raise AdaptationError("Voice training failed: pocketsphinx wrote no features.")
        ident = f"u{i:03d}"
        (folder / new[0]).rename(folder / f"{ident}.mfc")
        ids.append(ident)
    return ids


def choose_wordings(utterances: list[Utterance]) -> list[Utterance]:
    """Fill in the transcript of utterances that only know their possible wordings
    (the voice check prompts "D5": "d five" or "delta five"): the wording that fits the
    audio best, decided by the plain model among these alone."""
    need = [u for u in utterances if not u.transcript.strip() and u.alternatives]
    if not need:
        return utterances
    import pocketsphinx
    words = {w for u in need for a in u.alternatives for w in a.split()}
    pron = _pronunciations(words)
    with tempfile.TemporaryDirectory(prefix="audio_console_wording_") as tmp:
        dictionary = Path(tmp) / "dict"
        _write_dictionary(dictionary, pron)
        decoder = pocketsphinx.Decoder(**sphinx_model.decoder_config(dict=str(dictionary), bestpath=False))
    searches: dict[tuple, str] = {}
    chosen = {}
    for u in need:
        options = tuple(sorted(a for a in u.alternatives if set(a.split()) <= pron.keys()))
        if not options:
            continue
        if options not in searches:
            searches[options] = f"w{len(searches)}"
            decoder.add_jsgf_string(searches[options], "#JSGF V1.0;\ngrammar w;\npublic <w> = "
                                    + " | ".join(options) + " ;\n")
        decoder.activate_search(searches[options])
        sphinx_model.decode_whole(decoder, u.pcm)
        hyp = decoder.hyp()
        if hyp is not None and hyp.hypstr in options:
            chosen[id(u)] = hyp.hypstr
    need_ids = {id(u) for u in need}
    return [Utterance(u.pcm, chosen.get(id(u), "")) if id(u) in need_ids else u for u in utterances]


def usable(utterances: list[Utterance]) -> tuple[list[Utterance], list[str]]:
    """The utterances worth training on, and a reason for each one left out."""
    keep, skipped = [], []
    for utt in utterances:
        seconds = len(utt.pcm) / 32000
        if not utt.transcript.strip():
            skipped.append("no transcript")
        elif not MIN_SECONDS <= seconds <= MAX_SECONDS:
            skipped.append(f"'{utt.transcript}': {seconds:.1f} s long")
        else:
            keep.append(utt)
    return keep, skipped


def adapt(utterances: list[Utterance], home: Path | None = None, method: str = DEFAULT_METHOD,
          tau: float = MAP_TAU, out: Path | None = None) -> Adaptation:
    """Compute the adaptation from prompted utterances and put it in use in `home` (the
    settings folder; default $AUDIO_CONSOLE_HOME). `out`: another folder (benchmarks).
    Raises AdaptationError with a one-line message."""
    if method not in METHODS:
        raise AdaptationError(f"Unknown voice training method {method!r}; known: {', '.join(METHODS)}.")
    tools = find_tools()
    if tools is None:
        raise AdaptationError(MISSING_TOOLS)
    started = time.perf_counter()
    utterances, skipped = usable(choose_wordings(utterances))
    words = {w for u in utterances for w in u.transcript.lower().split()}
    pron = _pronunciations(words)
    unknown = words - pron.keys()
    if unknown:
        skipped += [f"'{u.transcript}': no pronunciation" for u in utterances
                    if unknown.intersection(u.transcript.lower().split())]
        utterances = [u for u in utterances if not unknown.intersection(u.transcript.lower().split())]
    plausible = [u for u in utterances if plausible_length(u, pron)]
    skipped += [f"'{u.transcript}': too long or short for its words" for u in utterances if u not in plausible]
    utterances = plausible
    if len(utterances) < MIN_UTTERANCES:
        raise AdaptationError(f"Voice training needs at least {MIN_UTTERANCES} clear phrases; "
                              f"got {len(utterances)}.")
    with tempfile.TemporaryDirectory(prefix="audio_console_adapt_") as tmp:
        work = Path(tmp)
        model = sphinx_model.prepare_trainable_model(work / "model")
        dictionary = work / "dict"
        _write_dictionary(dictionary, pron)
        ids = _write_features(utterances, work / "mfc", dictionary)
        (work / "ids").write_text("".join(i + "\n" for i in ids))
        (work / "trans").write_text("".join(f"<s> {u.transcript.lower()} </s> ({i})\n"
                                            for i, u in zip(ids, utterances)))
        (work / "acc").mkdir()
        _run([tools["bw"], "-hmmdir", model, "-moddeffn", model / "mdef.txt", "-ts2cbfn", ".ptm.",
              "-feat", "1s_c_d_dd", "-svspec", "0-12/13-25/26-38", "-cmn", "batch", "-agc", "none",
              "-dictfn", dictionary, "-fdictfn", model / "noisedict", "-ctlfn", work / "ids",
              "-lsnfn", work / "trans", "-cepdir", work / "mfc", "-accumdir", work / "acc",
              "-timing", "no"], work / "bw.log")
        aligned = _aligned_count(work / "bw.log", len(ids))
        if aligned < MIN_UTTERANCES:
            raise AdaptationError(f"Voice training failed: only {aligned} phrases matched their prompts.")
        result = Adaptation(utterances=aligned, method=method, skipped=skipped,
                            created=time.strftime("%Y-%m-%d %H:%M"))
        files: dict[str, Path] = {}
        if "mllr" in method:
            _run([tools["mllr_solve"], "-meanfn", model / "means", "-varfn", model / "variances",
                  "-outmllrfn", work / "mllr", "-accumdir", work / "acc"], work / "mllr.log")
            validate_mllr(work / "mllr")
            files[MLLR_FILE] = work / "mllr"
        if "map" in method:
            _run([tools["map_adapt"], "-moddeffn", model / "mdef.txt", "-ts2cbfn", ".ptm.",
                  "-meanfn", model / "means", "-varfn", model / "variances",
                  "-mixwfn", model / "mixture_weights", "-tmatfn", model / "transition_matrices",
                  "-accumdir", work / "acc", "-fixedtau", "yes", "-tau", f"{tau:g}", "-bayesmean", "no",
                  "-mapmeanfn", work / "means", "-mapvarfn", work / "map_var",
                  "-mapmixwfn", work / "map_mixw", "-maptmatfn", work / "map_tmat"], work / "map.log")
            validate_means(work / "means")
            files[MEANS_FILE] = work / "means"
        result.seconds = time.perf_counter() - started
        _store(result, files, out or (home if home is not None else _home()))
    return result


def _aligned_count(log: Path, total: int) -> int:
    """bw skips an utterance it cannot align with its transcript ("u007 ignored":
    noise, wrong words): count what it used."""
    failed = len(re.findall(r"\bu\d+ ignored", log.read_text(errors="replace")))
    return max(0, total - failed)


def speech_seconds(pcm: bytes) -> float:
    """How long the loud part of an utterance lasts: 10 ms frames within 30 dB of the
    loudest (the recording's lead-in and tail are not speech)."""
    x = np.frombuffer(pcm, dtype="<i2").astype(np.float64)
    frames = len(x) // 160
    if frames == 0:
        return 0.0
    energy = 10 * np.log10((x[:frames * 160].reshape(frames, 160) ** 2).mean(axis=1) + 1.0)
    return float(np.count_nonzero(energy > energy.max() - 30.0)) / 100.0


def plausible_length(utt: Utterance, pron: dict[str, str]) -> bool:
    """Whether the speech could be the prompted words: bw aligns almost anything to a
    transcript (a whole sentence to "a one"), and training on what was not said would
    teach the model wrong sounds. Generous bounds per phone, for slow and fast speakers."""
    phones = sum(len(pron[w].split()) for w in utt.transcript.lower().split())
    seconds = speech_seconds(utt.pcm)
    return 0.03 * phones <= seconds <= 0.8 + 0.25 * phones


# --- saving, loading, checking --------------------------------------------------------

def _home() -> Path:
    from audio_console.settings import data_dir
    return data_dir()


def _store(result: Adaptation, files: dict[str, Path], home: Path) -> None:
    """Copy the files in, then write the info file last: it is what makes them count."""
    home.mkdir(parents=True, exist_ok=True)
    try:   # while the files change, no training is in use (a crash leaves the plain model)
        (home / INFO_FILE).unlink()
    except FileNotFoundError:
        pass
    for name in (MLLR_FILE, MEANS_FILE):
        path = home / name
        if name in files:
            tmp = path.with_suffix(".tmp")
            shutil.copyfile(files[name], tmp)
            os.replace(tmp, path)
        elif path.exists():
            path.unlink()
    result.mllr = home / MLLR_FILE if MLLR_FILE in files else None
    result.means = home / MEANS_FILE if MEANS_FILE in files else None
    info = {"method": result.method, "utterances": result.utterances, "created": result.created,
            "files": sorted(files)}
    tmp = home / (INFO_FILE + ".tmp")
    tmp.write_text(json.dumps(info, indent=1))
    os.replace(tmp, home / INFO_FILE)


def saved(home: Path | None = None) -> tuple[Adaptation | None, str | None]:
    """The voice training in use in `home`, and a one-line message when a file is
    damaged (then None: the plain model is used)."""
    home = home if home is not None else _home()
    info_path = home / INFO_FILE
    if not info_path.is_file():
        return None, None
    try:
        info = json.loads(info_path.read_text())
        names = info["files"]
        result = Adaptation(utterances=int(info.get("utterances", 0)), method=str(info.get("method", "")),
                            created=str(info.get("created", "")))
        if not names or not set(names) <= {MLLR_FILE, MEANS_FILE}:
            raise AdaptationError("no files listed")
        if MLLR_FILE in names:
            validate_mllr(home / MLLR_FILE)
            result.mllr = home / MLLR_FILE
        if MEANS_FILE in names:
            validate_means(home / MEANS_FILE)
            result.means = home / MEANS_FILE
    except (OSError, ValueError, KeyError, TypeError, AdaptationError) as e:
        return None, (f"The voice training file in {home} is damaged ({_short(e)}); "
                      "using the plain voice model. Say voice training to redo it.")
    return result, None


def reset(home: Path | None = None) -> bool:
    """Back to the plain model. True if a voice training was removed."""
    home = home if home is not None else _home()
    removed = False
    for name in (INFO_FILE, MLLR_FILE, MEANS_FILE):
        try:
            (home / name).unlink()
            removed = True
        except FileNotFoundError:
            pass
    return removed


def validate_mllr(path: Path) -> None:
    """An MLLR file as mllr_solve writes it: classes, streams, then per class and
    stream: length n, n x n matrix A, shift b (n), variance scale (n). All finite.
    (pocketsphinx does not check this itself: a short file would be read past its end.)"""
    try:
        values = path.read_text().split()
        n_class, n_feat = int(values[0]), int(values[1])
        pos = 2
        lengths = []
        for _ in range(n_class * n_feat):
            n = int(values[pos])
            lengths.append(n)
            numbers = [float(v) for v in values[pos + 1: pos + 1 + n * n + 2 * n]]
            if len(numbers) != n * n + 2 * n or not all(math.isfinite(x) for x in numbers):
                raise AdaptationError("incomplete or not finite")
            pos += 1 + n * n + 2 * n
    except (IndexError, ValueError, UnicodeDecodeError) as e:
        raise AdaptationError(f"{path.name} is not an MLLR transform") from e
    if pos != len(values):
        raise AdaptationError(f"{path.name} has trailing data")
    if n_class != 1 or lengths != [13] * n_feat or n_feat != 3:
        raise AdaptationError(f"{path.name} does not fit this model (streams {lengths})")


def validate_means(path: Path) -> None:
    """Adapted means must have exactly the model's header and shape, and finite values."""
    reference = (sphinx_model.model_dir() / "means").read_bytes()
    data = path.read_bytes()
    ref_start = reference.index(b"endhdr\n") + 7
    try:
        start = data.index(b"endhdr\n") + 7
    except ValueError as e:
        raise AdaptationError(f"{path.name} has no header") from e
    if not data.startswith(b"s3\n") or len(data) - start != len(reference) - ref_start:
        raise AdaptationError(f"{path.name} does not fit this model")
    if data[start:start + 4] != struct.pack("<i", 0x11223344):
        raise AdaptationError(f"{path.name}: wrong byte order")
    body = data[start + 4:]
    ref_body = reference[ref_start + 4:]
    # the dimension header (counts) must match the model's; then float32 values (+ checksum)
    header_len = len(ref_body) - 4 * _float_count(ref_body) - (4 if b"chksum0" in reference[:ref_start] else 0)
    if body[:header_len] != ref_body[:header_len]:
        raise AdaptationError(f"{path.name} does not fit this model (shape)")
    floats = np.frombuffer(body[header_len:header_len + 4 * _float_count(ref_body)], dtype="<f4")
    if not np.all(np.isfinite(floats)):
        raise AdaptationError(f"{path.name} has values that are not numbers")


def _float_count(body: bytes) -> int:
    """Gaussian parameter files: n_mgau, n_feat, n_density, n_feat vector lengths, then
    the total float count."""
    n_mgau, n_feat, n_density = struct.unpack_from("<3I", body, 0)
    return struct.unpack_from("<I", body, 12 + 4 * n_feat)[0]


def _short(error: Exception) -> str:
    text = str(error) or type(error).__name__
    return text.splitlines()[0][:120]
