"""Choosing the recognizer: vosk when a model is found, else embedded pocketsphinx."""
from __future__ import annotations

from audio_console.voice.recognizer import RecognizerError
from audio_console.voice.vosk_engine import find_model


def select_recognizer(model_path=None):
    """(recognizer, one line saying which and why). Raises RecognizerError when
    neither engine can be used."""
    path, how = find_model(model_path)
    problems = []
    if path is not None:
        try:
            from audio_console.voice.vosk_engine import VoskRecognizer
            return VoskRecognizer(path), f"Voice recognizer: vosk, model {path.name} ({how})."
        except RecognizerError as e:
            problems.append(str(e))
    elif model_path:
        problems.append(how)
    try:
        from audio_console.voice.sphinx import SphinxRecognizer
        recognizer = SphinxRecognizer()
    except RecognizerError as e:
        problems.append(str(e))
        raise RecognizerError("; ".join(problems)) from e
    why = problems[0] if problems else how
    line = (f"Voice recognizer: pocketsphinx, its built-in English model ({why}; "
            "scripts/download_model.py fetches the vosk model).")
    if recognizer.adaptation is not None:      # the player's voice training
        line += " " + recognizer.adaptation.describe()
    elif recognizer.adaptation_note:           # a damaged voice training file
        line += " " + recognizer.adaptation_note
    return recognizer, line
