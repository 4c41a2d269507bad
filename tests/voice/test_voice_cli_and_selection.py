"""`recognize` (VOICE.md's contract) and the choice of recognizer."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from audio_console.voice import recognize_cli
from audio_console.voice.engines import select_recognizer

ROOT = Path(__file__).resolve().parents[2]


def run_recognize(args, capsys):
    code = recognize_cli.main(args)
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def test_recognize_prints_one_json_line_per_file(speech, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path))   # default settings
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    spoken = speech.say("delta five", "flite:slt")
    talk = speech.say("could you pass me the salt please", "flite:slt")
    noise = speech.noise(1.2, 0.1, seed=3)
    code, lines, err = run_recognize(["--game", "galaxis", str(spoken), str(talk), str(noise)], capsys)
    assert code == 0
    assert "pocketsphinx" in err                              # says which recognizer, on stderr
    assert [set(line) for line in lines] == [{"file", "heard", "command", "confidence", "seconds"}] * 3
    assert lines[0]["file"] == str(spoken)
    assert lines[0]["command"] == "query D5" and lines[0]["heard"] == "delta five"
    assert lines[1]["command"] is None and lines[2]["command"] is None
    assert all(0.0 <= line["confidence"] <= 1.0 and line["seconds"] >= 0 for line in lines)


def test_a_missing_or_broken_file_is_one_clear_line_not_a_crash(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path))
    broken = tmp_path / "broken.wav"
    broken.write_bytes(b"not a wav file")
    code, lines, err = run_recognize(["--game", "galaxis", str(tmp_path / "none.wav"), str(broken)], capsys)
    assert code == 1
    assert [line["command"] for line in lines] == [None, None]
    assert "none.wav" in err and "broken.wav" in err
    assert "Traceback" not in err


def test_an_unknown_game_is_refused_plainly(capsys):
    code = recognize_cli.main(["--game", "chess", "x.wav"])
    assert code == 2 and "chess" in capsys.readouterr().err


def test_recognize_runs_as_a_module(speech, tmp_path):
    spoken = speech.say("read row echo", "flite:slt")
    env = {"PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-m", "audio_console.voice.recognize_cli", "--game", "galaxis",
                             str(spoken)], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["command"] == "read row E"


def test_vosk_is_chosen_when_a_model_is_found_else_pocketsphinx(korean_model_path, monkeypatch, tmp_path):
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    monkeypatch.chdir(tmp_path)   # no models/ here
    recognizer, why = select_recognizer(korean_model_path)
    assert recognizer.name == "vosk" and "--model" in why
    recognizer, why = select_recognizer(tmp_path / "nowhere")
    assert recognizer.name == "pocketsphinx" and "not a vosk model" in why


def test_without_any_model_the_embedded_recognizer_says_why(monkeypatch, tmp_path):
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    monkeypatch.chdir(tmp_path)
    from audio_console.voice import vosk_engine
    monkeypatch.setattr(vosk_engine, "find_model",
                        lambda model_path=None, root=None: (None, "no vosk model in models/"))
    from audio_console.voice import engines
    monkeypatch.setattr(engines, "find_model", vosk_engine.find_model)
    recognizer, why = select_recognizer()
    assert recognizer.name == "pocketsphinx"
    assert "no vosk model" in why and "download_model.py" in why


def test_no_microphone_means_one_message_and_no_listener(monkeypatch):
    import sounddevice

    def no_device(*args, **kwargs):
        raise sounddevice.PortAudioError("Error querying device -1")

    monkeypatch.setattr(sounddevice, "query_devices", no_device)
    from audio_console.output.sink import NullSink
    from audio_console.settings import Settings
    from audio_console.voice import open_listener
    messages = []
    assert open_listener(Settings(), NullSink(), messages.append) is None
    assert len(messages) == 1 and "No microphone" in messages[0] and "keyboard" in messages[0]
