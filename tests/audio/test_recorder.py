"""The recorder on its own, with real files and pipes: what it says, and what the file
holds, when the target is not a plain file that keeps up."""
import os
import socket
import stat

import numpy as np
import pytest

from audio_console.audio import recorder
from audio_console.audio.recorder import WavRecorder, read_wav

RATE = 48000
BLOCK = np.full((256, 2), 0.25, np.float32)


def test_a_pipe_nobody_empties_stops_the_recording_in_one_line_not_memory_without_end(tmp_path, monkeypatch):
    """The writer waits on the full pipe; the blocks would pile up in memory for as long
    as the session lasts (a minute's worth is 48 MB)."""
    monkeypatch.setattr(recorder, "MAX_BACKLOG", 200)
    os.mkfifo(tmp_path / "pipe.wav")
    reader = os.open(tmp_path / "pipe.wav", os.O_RDONLY | os.O_NONBLOCK)     # there, but never reads
    said: list[str] = []
    wav = WavRecorder(tmp_path / "pipe.wav", RATE, notify=said.append)
    for _ in range(1000):                   # 5 s of sound, at once: far more than the pipe holds
        wav.add(BLOCK)
    assert said == [f"The recording cannot be written: the file takes the sound too slowly ({tmp_path / 'pipe.wav'}); "
                    "the game goes on, the rest is not recorded."]
    assert wav.end_line() == (f"The recording holds only its first {wav.frames_written / RATE:.0f} s: "
                              f"the file takes the sound too slowly ({tmp_path / 'pipe.wav'}).")
    os.close(reader)                        # the writer's wait ends (a broken pipe: said no more)
    wav.close()
    assert len(said) == 1


@pytest.mark.parametrize("kind, words", [("disk", "a device"), ("socket", "a socket")])
def test_a_disk_or_a_socket_is_never_recorded_into_and_said_plainly(tmp_path, kind, words):
    path = tmp_path / kind
    if kind == "socket":
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(str(path))              # the name stays a socket once it is closed
    else:
        try:
            os.mknod(path, stat.S_IFBLK | 0o600, os.makedev(7, 200))     # a loop device's number
        except PermissionError:
            pytest.skip("cannot make a device node here")
    with pytest.raises(OSError) as error:
        WavRecorder(path, RATE, notify=lambda line: None)
    assert recorder.failure(path, error.value) == f"The recording cannot be written: that path is {words}, not a file ({path})"


def test_a_recording_that_fails_keeps_a_header_that_says_what_it_holds(tmp_path):
    path = tmp_path / "r.wav"
    said: list[str] = []
    wav = WavRecorder(path, RATE, notify=said.append)
    for _ in range(100):
        wav.add(BLOCK)
    wav.add_silence(RATE)                   # a second of thinking: kept only if a sound follows
    wav.add(BLOCK)
    wav.close()
    recorded, rate = read_wav(path)
    assert said == [] and wav.end_line() is None
    assert len(recorded) == 101 * 256 + RATE and not recorded[100 * 256:100 * 256 + RATE].any()
