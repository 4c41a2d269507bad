"""Items 11, 12 and 14 of issue 12: a bad --record path is one line, quitting does not
wait for a backlog of sound, and PortAudio's C-level diagnostics stay off stderr."""
import os
import subprocess
import sys
import time

import pytest

from audio_console.audio.recorder import read_wav
from tests.conftest import ROOT

pytest.importorskip("sounddevice")


def env(tmp_path):
    return {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home"),
            "AUDIO_CONSOLE_DEVICE": "no-such-device"}


@pytest.mark.parametrize("where,why", [("folder", "that path is a folder"),
                                       ("under a file", "a part of that path is a file, not a folder"),
                                       ("no such folder", "a folder on that path does not exist")])
def test_a_record_path_that_cannot_be_written_is_one_line(tmp_path, where, why):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x")
    target = {"folder": tmp_path / "folder", "under a file": tmp_path / "file" / "game.wav",
              "no such folder": tmp_path / "nonexistent" / "a.wav"}[where]
    done = subprocess.run([sys.executable, "-m", "audio_console", "--game", "galaxis", "--seed", "1",
                           "--no-speech", "--record", str(target)], input="D5\nquit\n", text=True,
                          capture_output=True, timeout=60, env=env(tmp_path), cwd=ROOT)
    assert done.returncode == 0 and "Traceback" not in done.stderr and "Error" not in done.stderr
    line = f"The recording cannot be written: {why} ({target}); the game goes on, nothing is recorded."
    assert done.stdout.splitlines().count(line) == 1
    assert done.stdout.splitlines()[-1] == f"Nothing was recorded: {why} ({target})."     # and again at the end
    assert "D5 answered" in done.stdout and "Goodbye" in done.stdout
    assert not (tmp_path / "nonexistent").exists()      # no folder made where the player did not mean


def record_into(target, tmp_path):
    return subprocess.run([sys.executable, "-m", "audio_console", "--game", "galaxis", "--seed", "1",
                           "--no-speech", "--record", str(target)], input="D5\nquit\n", text=True,
                          capture_output=True, timeout=60, env=env(tmp_path), cwd=ROOT)


def test_recording_into_dev_full_is_one_line_at_the_start_and_one_at_the_end(tmp_path):
    done = record_into("/dev/full", tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    lines = done.stdout.splitlines()                               # (the first: no device here)
    assert lines[1] == ("The recording cannot be written: the disk is full (/dev/full); the game goes on, "
                        "nothing is recorded.")
    assert lines[2].startswith("Galaxis, option 2")                # before the game's first line
    assert "D5 answered" in done.stdout and lines[-2] == "Game saved. Goodbye."
    assert lines[-1] == "Nothing was recorded: the disk is full (/dev/full)."


def test_a_named_pipe_nobody_reads_is_said_at_once_never_waited_for(tmp_path):
    os.mkfifo(tmp_path / "pipe.wav")          # it used to hang the console before its first line
    done = record_into(tmp_path / "pipe.wav", tmp_path)
    assert done.returncode == 0 and "D5 answered" in done.stdout
    assert done.stdout.splitlines()[1] == (f"The recording cannot be written: nothing reads that named pipe "
                                           f"({tmp_path / 'pipe.wav'}); the game goes on, nothing is recorded.")


def test_a_named_pipe_with_a_reader_gets_the_whole_recording_as_a_stream(tmp_path):
    pipe, got = tmp_path / "pipe.wav", tmp_path / "got.wav"
    os.mkfifo(pipe)
    with open(got, "wb") as out:
        reader = subprocess.Popen(["cat", str(pipe)], stdout=out)    # like --record >(sox - ...)
        done = record_into(pipe, tmp_path)
        reader.wait(timeout=30)
    assert done.returncode == 0 and "recording" not in done.stdout and "Traceback" not in done.stderr
    recorded, rate = read_wav(got)          # its header claims the most a WAV holds: read to the end
    assert len(recorded) == (got.stat().st_size - 44) // 4 and len(recorded) / rate > 3.0   # D5's sounds came through
    assert not recorded[-100:].any()        # whole: it ends in the silence after the last sound


def test_quit_with_a_recording_does_not_wait_for_the_backlog_in_real_time(tmp_path):
    wav = tmp_path / "game.wav"
    lines = "".join(f"D{i}\n" for i in range(1, 9)) + "help\nread row D\nquit\n"
    process = subprocess.Popen([sys.executable, "-m", "audio_console", "--game", "galaxis", "--seed", "1",
                                "--no-speech", "--record", str(wav)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env=env(tmp_path), cwd=ROOT)
    process.stdin.write(lines)
    process.stdin.close()
    for line in process.stdout:
        if "Goodbye" in line:
            said_goodbye = time.monotonic()
            break
    process.wait(timeout=60)
    assert time.monotonic() - said_goodbye < 4.0       # was: every queued second, in real time
    recorded, rate = read_wav(wav)
    assert len(recorded) / rate > 3.0                  # the signals were recorded


FILTER = """
import os, sys
from audio_console.audio.stderr_filter import filter_stderr
assert filter_stderr()
os.write(2, b"Expression 'alsa_snd_pcm_poll_descriptors_revents( self->pcm, pfd, self->nfds, &revents )' "
            b"failed in 'src/hostapi/alsa/pa_linux_alsa.c', line: 3667\\n")
os.write(2, b"ALSA lib pcm.c:8570:(snd_pcm_recover) underrun occurred\\n")
os.write(2, b"a C library line that matters\\n")
print("python's own line", file=sys.stderr)
raise SystemExit("the last words")
"""


def test_portaudio_diagnostics_are_kept_off_stderr_and_everything_else_is_not():
    done = subprocess.run([sys.executable, "-c", FILTER], capture_output=True, text=True, timeout=30, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Expression" not in done.stderr and "ALSA lib" not in done.stderr
    assert "python's own line" in done.stderr and "the last words" in done.stderr
    assert "a C library line that matters" in done.stderr
