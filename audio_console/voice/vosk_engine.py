"""vosk (Kaldi) with a small model and a runtime grammar built from the game's grammar.

Each grammar word is first looked up in the model (vosk_model_find_word, -1 when
missing): phrases with a missing word are dropped and the words reported, rather
than letting vosk drop the word silently and hear a shorter phrase. "[unk]" is
added so that talk outside the grammar can come back as unknown instead of being
forced onto the nearest command. Features of newer vosk releases are looked for
with hasattr, never assumed (PyPI's 0.3.45 has no endpointer settings).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from audio_console.voice.recognizer import Decoded, RecognizerError

CHUNK = 8000   # bytes (0.25 s) fed per AcceptWaveform call


def is_vosk_model(path) -> bool:
    """A directory that looks like a vosk model (acoustic model and config)."""
    p = Path(path)
    return (p / "am" / "final.mdl").is_file() and (p / "conf").is_dir()


class VoskStream:
    """One utterance fed in pieces: partial results while it is spoken."""

    def __init__(self, recognizer):
        self._rec = recognizer
        self.partial = ""

    def feed(self, pcm: bytes) -> str:
        for i in range(0, len(pcm), CHUNK):
            if self._rec.AcceptWaveform(pcm[i:i + CHUNK]):
                self.partial = json.loads(self._rec.Result()).get("text", "")   # a segment ended
            else:
                self.partial = json.loads(self._rec.PartialResult()).get("partial", "")
        return self.partial

    def finish(self) -> Decoded:
        started = time.perf_counter()
        decoded = parse_result(self._rec.FinalResult())
        decoded.seconds = time.perf_counter() - started
        return decoded

    def cancel(self) -> None:
        """Nothing to undo: a new stream gets a new KaldiRecognizer."""


def parse_result(raw: str) -> Decoded:
    """vosk's JSON result -> Decoded. "[unk]" anywhere means: not a command."""
    result = json.loads(raw)
    words = [(w.get("word", ""), float(w.get("conf", 0.0))) for w in result.get("result", [])]
    text = result.get("text", "").strip()
    if not words and text:
        words = [(w, 1.0) for w in text.split()]
    if "[unk]" in text.split():
        return Decoded("", words=[(w, 0.0) for w, _ in words], detail={"raw": text})
    return Decoded(text, words=words, detail={"raw": text})


class VoskRecognizer:
    name = "vosk"

    def __init__(self, model_path):
        try:
            import vosk
        except ImportError as e:
            raise RecognizerError(f"vosk is not installed ({e}); python scripts/install.py --vosk installs it") from e
        path = Path(model_path)
        if not is_vosk_model(path):
            raise RecognizerError(f"{path} is not a vosk model directory")
        vosk.SetLogLevel(-1)
        try:
            self.model = vosk.Model(str(path))   # a path, always: Model(lang=...) downloads
        except Exception as e:  # noqa: BLE001 - vosk raises a bare Exception
            raise RecognizerError(f"vosk could not load {path}: {e}") from e
        self._vosk = vosk
        self.model_path = path
        self.has_runtime_grammar = (path / "graph" / "HCLr.fst").is_file() and (path / "graph" / "Gr.fst").is_file()
        # "[unk]" lets talk outside the grammar come back as unknown; some models lack it
        self.has_unknown = self.model.vosk_model_find_word("[unk]") != -1
        self.dropped_words: list[str] = []
        self.phrases: list[str] = []
        self.grammar = None

    def set_grammar(self, grammar) -> None:
        words = sorted(grammar.words())
        self.dropped_words = [w for w in words if self.model.vosk_model_find_word(w) == -1]
        missing = set(self.dropped_words)
        self.phrases = [p for p in grammar.phrases() if not missing.intersection(p.split())]
        self.grammar = grammar

    def new_recognizer(self):
        extra = ["[unk]"] if self.has_unknown else []
        # ensure_ascii=False: vosk reads the JSON as UTF-8 and does not undo \u escapes
        rec = self._vosk.KaldiRecognizer(self.model, 16000.0,
                                         json.dumps(self.phrases + extra, ensure_ascii=False))
        rec.SetWords(True)
        if hasattr(rec, "SetPartialWords"):
            rec.SetPartialWords(False)
        if hasattr(rec, "SetEndpointerMode"):   # vosk >= 0.3.50 only
            try:
                rec.SetEndpointerMode(1)
            except Exception:  # noqa: BLE001
                pass
        return rec

    def stream(self) -> VoskStream:
        if self.grammar is None:
            raise RecognizerError("no grammar set")
        return VoskStream(self.new_recognizer())

    def decode(self, pcm: bytes, voiced: bool = False) -> Decoded:
        """One whole utterance (`voiced` changes nothing: vosk asks no voice detector)."""
        if self.grammar is None:
            raise RecognizerError("no grammar set")
        started = time.perf_counter()
        stream = VoskStream(self.new_recognizer())
        stream.feed(pcm)
        decoded = stream.finish()
        decoded.seconds = time.perf_counter() - started
        return decoded


def find_model(model_path=None, root=None) -> tuple[Path | None, str]:
    """Where a vosk model is, and how it was found: --model, VOSK_MODEL_PATH, the checkout's
    models/ (never a models/ folder in the current directory: only what the README names)."""
    if model_path:
        return (Path(model_path), "given with --model") if is_vosk_model(model_path) else (None, f"{model_path} is not a vosk model")
    env = os.environ.get("VOSK_MODEL_PATH")
    if env:
        return (Path(env), "from VOSK_MODEL_PATH") if is_vosk_model(env) else (None, f"VOSK_MODEL_PATH={env} is not a vosk model")
    for models in model_roots(root):
        if models.is_dir():
            for child in sorted(models.iterdir()):
                if not child.name.startswith(".") and is_vosk_model(child):   # not a half-done download
                    return child, f"found in {models}"
    return None, "no vosk model in models/ and VOSK_MODEL_PATH is not set"


def model_roots(root=None) -> list[Path]:
    """The models/ folders where downloaded models are looked for: the checkout's own
    (never one in the current directory: only where the README says)."""
    return [Path(root or Path(__file__).resolve().parents[2]) / "models"]
