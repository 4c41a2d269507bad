"""Issue 31, item 10, and the recording's timeline (issue 30, item 8): WAV files whose
headers ask for far more memory than their length needs, and a recording that lasts
as the session did. (Item 9, the downloader: test_hostile_downloads.py.)"""
import os
import struct
import subprocess
import sys
import time

import numpy as np
import pytest

from tests.conftest import ROOT

# --- 10: recognize's memory follows the audio's length ---------------------------------------------

def wav_header(channels, rate, width, frames, fmt=1):
    data = frames * channels * width
    return (b"RIFF" + struct.pack("<I", 36 + data) + b"WAVEfmt "
            + struct.pack("<IHHIIHH", 16, fmt, channels, rate, (rate * channels * width) & 0xFFFFFFFF,
                          (channels * width) & 0xFFFF, 8 * width) + b"data" + struct.pack("<I", data))


def sparse_wav(path, channels, rate, width, frames, fmt=1):
    """A WAV of silence that takes no disk: its data is a hole in the file."""
    with open(path, "wb") as f:
        f.write(wav_header(channels, rate, width, frames, fmt))
        f.truncate(44 + frames * channels * width)
    return path


# The peak is read as VmHWM, this process's own high-water mark (ru_maxrss keeps the
# forked parent's size across exec: a pytest process holding the speech models, 1 GB),
# once the modules are imported and again after the file is loaded.
LOAD = """
import sys
from audio_console.app.recognize import load_utterance

def peak():
    return int([line for line in open("/proc/self/status") if line.startswith("VmHWM:")][0].split()[1]) // 1024

before = peak()
try:
    print(len(load_utterance(sys.argv[1])))
except ValueError as error:
    print("refused:", error)
print(peak() - before)
"""


def load_in_child(path):
    """What load_utterance said of the file, and the memory it took (MB above the imports')."""
    done = subprocess.run([sys.executable, "-c", LOAD, str(path)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    assert "Traceback" not in done.stderr, done.stderr
    said, grew_mb = done.stdout.splitlines()
    return said, int(grew_mb)


def test_a_wav_of_65535_channels_is_refused_from_its_header(tmp_path):
    said, grew_mb = load_in_child(sparse_wav(tmp_path / "wide.wav", 65535, 16000, 2, 2000))   # 262 MB, 0.125 s
    assert said == "refused: 65535 channels; a speech recording has 1 to 8"
    assert grew_mb < 5                         # the header only: the 262 MB are never read


@pytest.mark.parametrize("header,why", [
    ((1, 16000, 3, 16000, 1), "24-bit samples; use 8, 16 or 32-bit PCM"),
    ((1, 16000, 4, 16000, 3), "32-bit float samples; use 8, 16 or 32-bit PCM"),
    ((2, 48000, 2, 48000, 0xFFFE), "an extensible WAV header (WAVE_FORMAT_EXTENSIBLE); use 8, 16 or 32-bit PCM"),
    ((1, 384000, 2, 38400, 1), "sample rate 384000 Hz is not a speech recording's (4000-192000 Hz)"),
    ((1, 2000, 2, 2000, 1), "sample rate 2000 Hz is not a speech recording's (4000-192000 Hz)"),
    ((1, 16000, 2, 31 * 16000, 1), "31 s long; one command is at most 30 s"),
], ids=["24-bit", "float", "extensible", "384 kHz", "2 kHz", "31 s"])
def test_a_wav_it_cannot_use_is_refused_saying_what(tmp_path, header, why):
    said, _ = load_in_child(sparse_wav(tmp_path / "x.wav", *header))
    assert said == f"refused: {why}"


def test_memory_follows_the_length_not_the_rate_or_the_channels(tmp_path):
    """29 s each: 16 kHz mono, 44.1 kHz stereo (a common recording), 192 kHz in 8
    channels (89 MB of samples; read whole and resampled at once it took 195 MB more)."""
    grew = {}
    for channels, rate in ((1, 16000), (2, 44100), (8, 192000)):
        said, grew[rate] = load_in_child(sparse_wav(tmp_path / f"{rate}.wav", channels, rate, 2, 29 * rate))
        assert said == str(29 * 16000 * 2)        # 29 s of 16 kHz 16-bit mono for the recognizer
    assert grew[192000] < grew[44100] + 15 and grew[192000] < 80


def test_a_192_khz_file_is_heard_as_a_16_khz_one_and_nothing_folds_into_it(tmp_path):
    """Divided down a chunk at a time: a 1 kHz tone as loud as in a 16 kHz file, and a
    44 kHz one (which would fold onto 4 kHz at 48 kHz) nowhere."""
    import wave

    from audio_console.app.recognize import load_utterance

    def tone_file(name, hz, rate):
        t = np.arange(rate * 2) / rate
        samples = np.repeat((0.5 * np.sin(2 * np.pi * hz * t) * 32767).astype("<i2")[:, None], 2, axis=1)
        with wave.open(str(tmp_path / name), "wb") as w:
            w.setnchannels(2), w.setsampwidth(2), w.setframerate(rate), w.writeframes(samples.tobytes())
        return np.frombuffer(load_utterance(tmp_path / name), "<i2") / 32768

    def level(x, hz):
        spectrum = np.abs(np.fft.rfft(x * np.hanning(len(x))))
        at = int(round(hz * len(x) / 16000))
        return 20 * np.log10(spectrum[at - 3:at + 4].max() + 1e-9)

    native, high, folding = tone_file("16.wav", 1000, 16000), tone_file("192.wav", 1000, 192000), \
        tone_file("44k.wav", 44000, 192000)
    assert len(high) == len(native) == 32000
    assert abs(level(high, 1000) - level(native, 1000)) < 0.5
    assert level(folding, 4000) < level(native, 1000) - 80


# --- the recording keeps the session's timeline (issue 30, item 8) ----------------------------------

def test_a_recording_keeps_the_silence_between_sounds(tmp_path):
    from audio_console.audio.engine import AudioEngine
    from audio_console.audio.recorder import read_wav, to_int16
    from audio_console.audio.signals import synthesise
    from audio_console.base.settings import Settings
    engine = AudioEngine(Settings(speech_volume=0.5, signal_volume=0.5, timing="quick"), speech=False, record_path=tmp_path / "r.wav",
                         notify=lambda line: None, use_device=False)
    engine.play_signal("answer_2")
    engine.wait_until_idle(10)
    time.sleep(1.5)                              # the player thinks
    engine.play_signal("answer_0")
    engine.wait_until_idle(10)
    engine.close()
    recorded, rate = read_wav(tmp_path / "r.wav")
    first, second = (to_int16(synthesise(name, 0, "quick") * 0.5) for name in ("answer_2", "answer_0"))
    assert np.array_equal(recorded[:len(first)], first)          # it starts with the first sound
    sounding = np.flatnonzero(np.abs(recorded[:, 0]) > 0)
    longest = np.argmax(np.diff(sounding))
    assert 1.4 < (sounding[longest + 1] - sounding[longest]) / rate < 1.8   # the pause, as long as it was
    start = sounding[longest + 1] - np.flatnonzero(np.abs(second[:, 0]) > 0)[0]
    assert np.array_equal(recorded[start:start + len(second)], second)     # then the second sound
    assert not recorded[start + len(second):].any()                       # and nothing after the last


def test_a_session_with_a_pause_records_the_pause(tmp_path):
    """Through the console: D5, a few seconds of thinking, D6; the WAV holds the pause
    (it used to hold the sounds back to back, under 2 s in all)."""
    pytest.importorskip("sounddevice")
    from audio_console.audio.recorder import read_wav
    wav = tmp_path / "game.wav"
    (tmp_path / "home").mkdir()
    # quick signals: D5's sounds (about 2 s; faithful ones take 5.5 s) end well before D6
    (tmp_path / "home" / "settings.json").write_text('{"timing": "quick"}')
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home"),
           "AUDIO_CONSOLE_DEVICE": "no-such-device"}
    process = subprocess.Popen([sys.executable, "-m", "audio_console", "--game", "galaxis", "--seed", "1",
                                "--no-speech", "--record", str(wav)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    process.stdin.write("D5\n")
    process.stdin.flush()
    time.sleep(6)                                   # D5's signals and a pause
    out, err = process.communicate("D6\nquit\n", timeout=60)
    assert process.returncode == 0 and "Traceback" not in err and "D6 answered" in out
    recorded, rate = read_wav(wav)
    loud = np.flatnonzero(np.abs(recorded[:, 0]) > 0)
    assert len(recorded) / rate > 4.0
    assert np.diff(loud).max() / rate > 1.5          # D5's sounds end well before D6's begin
