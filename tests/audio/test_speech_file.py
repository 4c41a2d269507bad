"""The files speech drivers write are read the same: espeak-ng's and SAPI5's WAV and
macOS's AIFF (NSSpeechSynthesizer writes AIFF whatever the file is called). Real
espeak-ng speech, converted by sox and by Python's own aifc writer (not by our reader's
own logic), must come back sample for sample; a half-written file is waited for."""
import shutil
import subprocess
import threading
import time
import warnings

import numpy as np
import pytest

from audio_console.audio.recorder import read_wav
from audio_console.audio.speech_file import read_complete

pytestmark = pytest.mark.skipif(not (shutil.which("espeak-ng") and shutil.which("sox")),
                                reason="needs espeak-ng and sox")


@pytest.fixture(scope="module")
def spoken(tmp_path_factory):
    """espeak-ng saying an answer: the WAV and its samples in -1..1."""
    path = tmp_path_factory.mktemp("speech") / "answer.wav"
    subprocess.run(["espeak-ng", "-w", str(path), "D5, answer two"], check=True)
    samples, rate = read_wav(path)
    return path, rate, samples[:, 0] / 32768.0


def convert(source, target, *options):
    subprocess.run(["sox", str(source), *options, str(target)], check=True)
    return target


def test_wav_aiff_and_aiff_c_give_the_same_speech(spoken, tmp_path):
    wav, rate, expected = spoken
    for path in (wav, convert(wav, tmp_path / "a.aiff"), convert(wav, tmp_path / "a.aifc", "-t", "aifc")):
        got_rate, mono = read_complete(str(path), timeout=1.0)
        assert got_rate == rate == 22050, path
        assert np.array_equal(mono, expected), path


def test_little_endian_aiff_c_as_apple_writes_it(spoken, tmp_path):
    aifc = pytest.importorskip("aifc")        # gone from Python 3.13
    wav, rate, expected = spoken
    pcm = np.round(expected * 32768).astype(">i2").tobytes()
    path = tmp_path / "sowt.aifc"         # aifc writes AIFF-C only by this name
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with aifc.open(str(path), "wb") as out:
            out.setnchannels(1), out.setsampwidth(2), out.setframerate(rate)
            out.setcomptype(b"sowt", b"little endian")
            out.writeframes(pcm)                # aifc swaps to little-endian itself
    assert path.read_bytes().find(b"sowt") > 0
    got_rate, mono = read_complete(str(path), timeout=1.0)
    assert got_rate == rate and np.array_equal(mono, expected)


def test_a_file_still_being_written_is_waited_for_and_a_file_never_finished_times_out(spoken, tmp_path):
    whole = convert(spoken[0], tmp_path / "whole.aiff").read_bytes()
    growing = tmp_path / "growing.aiff"
    growing.write_bytes(whole[: len(whole) // 2])          # the header promises more data

    def finish():
        time.sleep(0.2)
        growing.write_bytes(whole)
    threading.Thread(target=finish).start()
    _, mono = read_complete(str(growing), timeout=3.0)
    assert np.array_equal(mono, spoken[2])

    stuck = tmp_path / "stuck.aiff"
    stuck.write_bytes(whole[:1000])
    with pytest.raises(TimeoutError, match="wrote no speech"):
        read_complete(str(stuck), timeout=0.3)


def test_an_unreadable_sample_format_is_said_at_once(spoken, tmp_path):
    path = convert(spoken[0], tmp_path / "wide.aiff", "-b", "24")
    with pytest.raises(RuntimeError, match="24-bit"):
        read_complete(str(path), timeout=1.0)
