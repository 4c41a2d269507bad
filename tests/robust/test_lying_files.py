"""Issue 31, items 1-8: files and streams that are not what they claim to be. Real
files, FIFOs, symlinks, device nodes, a small full tmpfs and closed pipes, through
the real console: one line says what is wrong, the game and the files stay as they
were, nothing hangs and no traceback is printed."""
import json
import os
import stat
import subprocess
import sys
import wave

import pytest

from audio_console.console.storage import read_save
from audio_console.app.games import GAMES
from audio_console.base.settings import Settings
from tests.conftest import ROOT

from .test_files import GALAXIS, full_disk, run

HUGE = "1" + "0" * 400


def actions(path):
    return read_save(path, GAMES).actions


def lines_with(text, out):
    return [line for line in out.splitlines() if text in line]


# --- 1: numbers too large for a float ------------------------------------------------------

def test_huge_integers_in_the_settings_are_clamped_with_one_line(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(f'{{"volume": {HUGE}, "speech_rate": -{HUGE}, "clarity": {HUGE}}}')
    done = run(GALAXIS, ["D5", "quit"], home)
    assert done.returncode == 0 and "D5 answered" in done.stdout
    note = done.stdout.splitlines()[0]
    assert note.startswith("Settings out of range were reset: speech rate -1000000000")
    assert "... is now 80" in note and "clarity 1000000000" in note
    # an old file's one volume is both volumes now: each clamped and said
    assert "speech volume 1000000000" in note and "signal volume 1000000000" in note
    settings = Settings.load(home / "settings.json")      # the clamped values were kept
    assert (settings.speech_volume, settings.signal_volume, settings.speech_rate, settings.clarity,
            settings.notes) == (1.0, 1.0, 80, 1.0, ())


# --- 2 and 3: a FIFO or a device where a file should be ---------------------------------------
# (a save path that is one: test_lying_paths.py)

def not_a_file(home, name, kind):
    """home/name made a FIFO or a symlink to /dev/zero; the words the console has for it."""
    home.mkdir()
    os.mkfifo(home / name) if kind == "fifo" else (home / name).symlink_to("/dev/zero")
    return home / name, "a named pipe" if kind == "fifo" else "a device"


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_settings_that_are_a_fifo_or_dev_zero_are_one_line_and_left_alone(tmp_path, kind):
    home = tmp_path / "home"
    path, what = not_a_file(home, "settings.json", kind)
    done = run(GALAXIS, ["faster", "D5", "quit"], home, timeout=20)
    assert done.stdout.splitlines()[0] == f"Settings cannot be read (that path is {what}, not a file: {path}); using the defaults."
    assert "Faster: speech 200 words a minute." in done.stdout and "D5 answered" in done.stdout
    assert (stat.S_ISFIFO(os.lstat(path).st_mode) if kind == "fifo" else os.readlink(path) == "/dev/zero")
    assert actions(home / "game.json") == ["query D5"]


def test_a_log_that_is_a_fifo_is_one_line_and_never_blocks(tmp_path):
    os.mkfifo(tmp_path / "log.jsonl")
    done = run([*GALAXIS, "--log", str(tmp_path / "log.jsonl")], ["D5", "quit"], tmp_path / "home", timeout=20)
    assert lines_with("game log", done.stdout) == [
        f"The game log cannot be written: that path is a named pipe, not a file ({tmp_path / 'log.jsonl'})"]
    assert actions(tmp_path / "home" / "game.json") == ["query D5"]


def test_a_voice_trace_that_is_a_fifo_is_one_line_and_never_blocks(tmp_path):
    from audio_console.voice.trace import VoiceTrace
    os.mkfifo(tmp_path / "trace.jsonl")
    trace = VoiceTrace(tmp_path / "trace.jsonl")          # returns at once: no reader needed
    assert trace.problem == f"The voice trace cannot be written: that path is a named pipe, not a file ({tmp_path / 'trace.jsonl'})"
    trace("heard", text="D5")                             # turned off, not an error
    assert stat.S_ISFIFO(os.lstat(tmp_path / "trace.jsonl").st_mode)


# --- 4, 5 and 6: the atomic write ------------------------------------------------------------

def test_a_planted_temporary_symlink_is_never_written_through(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("another user's file")
    for name in ("game.json.tmp", "settings.json.tmp"):      # the names the console used to use
        (home / name).symlink_to(victim)
    done = run(GALAXIS, ["D5", "faster", "quit"], home)
    assert "Game saved. Goodbye." in done.stdout and "cannot" not in done.stdout
    assert victim.read_text() == "another user's file"
    assert actions(home / "game.json") == ["query D5"] and Settings.load(home / "settings.json").speech_rate == 200
    assert sorted(p.name for p in home.iterdir()) == ["game.json", "game.json.tmp", "settings.json",
                                                      "settings.json.tmp"]      # no temporary file left


def test_a_symlinked_save_is_written_through_to_its_target_and_resumed(tmp_path):
    real, link = tmp_path / "saves" / "real.json", tmp_path / "link.json"
    real.parent.mkdir()
    link.symlink_to(os.path.relpath(real, tmp_path))         # its target does not exist yet
    done = run([*GALAXIS, "--save", str(link)], ["D5", "quit"], tmp_path / "home")
    assert "Game saved. Goodbye." in done.stdout
    assert link.is_symlink() and actions(real) == ["query D5"]
    real.chmod(0o640)
    again = run(["--resume", "--text", "--save", str(link)], ["D6", "quit"], tmp_path / "home")
    assert "Resumed Galaxis, after 1 action." in again.stdout
    assert link.is_symlink() and actions(real) == ["query D5", "query D6"]
    assert stat.S_IMODE(real.stat().st_mode) == 0o640          # the target's permissions kept
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.json"]


# --- 7: a recording on a full disk -------------------------------------------------------------

def test_a_recording_on_a_full_disk_is_one_line_a_valid_wav_and_a_clean_exit(tmp_path):
    pytest.importorskip("sounddevice")
    with full_disk(tmp_path / "disk") as disk:
        free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
        (disk / "filler").write_bytes(b"\0" * (free - 100_000))    # about half a second of sound left
        wav = disk / "game.wav"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home"),
               "AUDIO_CONSOLE_DEVICE": "no-such-device"}
        done = subprocess.run([sys.executable, "-m", "audio_console", *GALAXIS[:4], "--no-speech",
                               "--record", str(wav)], input="D5\nD6\nD7\nquit\n", text=True,
                              capture_output=True, timeout=60, env=env, cwd=ROOT)
        assert done.returncode == 0 and "Traceback" not in done.stderr and "Error" not in done.stderr
        said, at_the_end = lines_with("recording", done.stdout)
        assert said == f"The recording cannot be written: the disk is full ({wav}); the game goes on, the rest is not recorded."
        assert "D7 answered" in done.stdout and "Game saved. Goodbye." in done.stdout
        assert done.stdout.splitlines()[-1] == at_the_end     # said again as the last line, with what it holds
        with wave.open(str(wav)) as w:      # a valid WAV of what was written: the header says its length
            frames = w.getnframes()
            assert at_the_end == f"The recording holds only its first {frames / w.getframerate():.0f} s: the disk is full ({wav})."
            assert w.getnchannels() == 2 and w.getsampwidth() == 2
            assert len(w.readframes(frames)) == frames * 4 == os.path.getsize(wav) - 44 > 0
    assert actions(tmp_path / "home" / "game.json") == ["query D5", "query D6", "query D7"]


# --- 8: a closed or full standard output -------------------------------------------------------

def console(args, home, stdout, lines="D6\nquit\n"):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(home)}
    process = subprocess.Popen([sys.executable, "-m", "audio_console", *args], stdin=subprocess.PIPE,
                               stdout=stdout, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    if stdout == subprocess.PIPE:
        process.stdout.close()          # the reader is gone before the first line (| head -c 0)
    _, err = process.communicate(lines, timeout=60)
    return process.returncode, err


@pytest.mark.parametrize("output", ["closed pipe", "/dev/full"])
def test_a_closed_or_full_output_ends_cleanly_with_the_game_saved(tmp_path, output):
    home = tmp_path / "home"
    run(GALAXIS, ["D5", "quit"], home)
    if output == "/dev/full":
        with open("/dev/full", "w") as full:
            code, err = console(["--resume", "--text"], home, full)
    else:
        code, err = console(["--resume", "--text"], home, subprocess.PIPE)
    why = "broken pipe" if output == "closed pipe" else "the disk is full"
    assert code == 3
    assert err == f"audio-console: the output takes no more lines ({why}); the game is saved; ending.\n"
    assert actions(home / "game.json") == ["query D5"]


def test_an_output_closed_mid_game_keeps_every_move_made(tmp_path):
    home = tmp_path / "home"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(home)}
    process = subprocess.Popen([sys.executable, "-m", "audio_console", *GALAXIS], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    process.stdin.write("D5\n")
    process.stdin.flush()
    for line in process.stdout:          # read up to the answer, then hang up (| head -n 3)
        if line.startswith("D5 answered"):
            break
    process.stdout.close()
    _, err = process.communicate("D6\nD7\nquit\n", timeout=60)
    assert process.returncode == 3 and "Traceback" not in err and len(err.splitlines()) == 1
    assert actions(home / "game.json") in (["query D5"], ["query D5", "query D6"])   # D6: saved, then its line failed
    assert json.loads((home / "game.json").read_text())["format"] == "audio_console save"
