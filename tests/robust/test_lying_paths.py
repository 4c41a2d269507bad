"""Issue 31, items 1-6, the paths the first round left open: a save path that is a
device, a named pipe or a socket (refused before anything starts with --save, said in
one line with the default save, never renamed, even with --resume), a symlinked save
that is damaged or parked for another game (kept beside its target, the link stays), a
save whose log offset is too large for a seek, a planted name beside the model check's
cache or a damaged save's copy, and the read helper itself (a size that stat gets
wrong, a path swapped for a FIFO after its check, for a read and for a write). Real files, FIFOs, sockets, symlinks
and device nodes; every console run has a timeout, so a hang fails."""
import json
import os
import socket
import stat
import subprocess
import sys
import wave

import pytest

from audio_console.base import files
from audio_console.console.storage import aside_names, copy_aside, read_save
from audio_console.app.games import GAMES
from audio_console.base.settings import Settings
from tests.conftest import ROOT

from .test_files import GALAXIS, run

HUGE = "1" + "0" * 400


def actions(path):
    return read_save(path, GAMES).actions


def lines_with(text, out):
    return [line for line in out.splitlines() if text in line]


def special(path, kind):
    """A device node (a /dev/null of the test's own), a FIFO, a socket or a link to /dev/zero at path."""
    if kind == "device":
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except PermissionError:
            pytest.skip("making a device node needs root")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        server.close()          # the socket file stays
    else:
        path.symlink_to("/dev/zero")
    return {"fifo": "a named pipe", "socket": "a socket"}.get(kind, "a device")


def unchanged(path, kind):
    mode = os.lstat(path).st_mode
    return {"device": stat.S_ISCHR(mode) and os.lstat(path).st_rdev == os.makedev(1, 3),
            "fifo": stat.S_ISFIFO(mode), "socket": stat.S_ISSOCK(mode),
            "link": stat.S_ISLNK(mode) and os.readlink(path) == "/dev/zero"}[kind]


# --- 5 (and 2, 3): --save naming something that is not a file ----------------------------------

@pytest.mark.parametrize("resume", [[], ["--resume"]])
@pytest.mark.parametrize("kind", ["device", "fifo", "socket", "link"])
def test_save_naming_a_device_a_pipe_or_a_socket_is_refused_before_anything_starts(tmp_path, kind, resume):
    target = tmp_path / "save"
    what = special(target, kind)
    done = run([*resume, *GALAXIS, "--save", str(target)], ["D5", "quit"], tmp_path / "home", timeout=20)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"audio-console: argument --save: {str(target)!r} is {what}, not a file; "
                                        "give a file name, like game.json. audio-console --help lists the options."]
    # the old --resume renamed it to save.damaged-... (as root: the system's /dev/null)
    assert unchanged(target, kind) and sorted(p.name for p in tmp_path.iterdir()) == ["save"]


# --- 2 and 3: the default save is a FIFO or a link to /dev/zero ---------------------------------

@pytest.mark.parametrize("resume", [[], ["--resume"]])
@pytest.mark.parametrize("kind", ["fifo", "link"])
def test_a_default_save_that_is_not_a_file_is_one_line_and_play_goes_on_unsaved(tmp_path, kind, resume):
    home = tmp_path / "home"
    home.mkdir()
    what = special(home / "game.json", kind)
    shown = home / "game.json" if kind == "fifo" else "/dev/zero"      # the link's target is named
    done = run([*resume, *GALAXIS], ["D5", "D6", "quit"], home, timeout=20)
    assert lines_with("cannot be", done.stdout) == [
        f"Your game cannot be saved: that path is {what}, not a file ({shown}); "
        "play goes on unsaved, or start again with --save FILE."]
    assert "D6 answered" in done.stdout and "Goodbye. The game could not be saved." in done.stdout
    assert unchanged(home / "game.json", kind)
    assert sorted(p.name for p in home.iterdir()) == ["game.json", "settings.json"]   # nothing set aside


def test_a_parked_save_that_is_a_fifo_does_not_hang_the_menu(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    os.mkfifo(home / "game.battleship.json")         # where an unfinished Battleship game would wait
    done = run(["--text"], ["galaxis", "quit"], home, timeout=20)
    assert "Choose a game" in done.stdout and "cannot" not in done.stdout
    assert stat.S_ISFIFO(os.lstat(home / "game.battleship.json").st_mode)


# --- 6: a symlinked save, damaged or parked --------------------------------------------------------

def linked_save(tmp_path, text=None):
    real, link = tmp_path / "saves" / "real.json", tmp_path / "link.json"
    real.parent.mkdir()
    if text is not None:
        real.write_text(text)
    link.symlink_to(os.path.relpath(real, tmp_path))
    return real, link


def test_a_damaged_symlinked_save_is_kept_aside_beside_its_target_and_the_link_stays(tmp_path):
    real, link = linked_save(tmp_path, "not a save")
    done = run(["--resume", *GALAXIS, "--save", str(link)], ["D5", "quit"], tmp_path / "home")
    aside = next(real.parent.glob("real.json.damaged-*"))
    assert lines_with("cannot be resumed", done.stdout) == [
        f"The saved game cannot be resumed: it is damaged: not valid JSON. It was kept as {aside}; starting a new one."]
    assert aside.read_text() == "not a save" and "Game saved. Goodbye." in done.stdout
    # the old code moved the link aside and wrote a regular file in its place
    assert link.is_symlink() and actions(real) == ["query D5"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "link.json", "saves"]


def test_another_game_parks_a_symlinked_save_beside_its_target_and_the_link_stays(tmp_path):
    real, link = linked_save(tmp_path)
    run([*GALAXIS, "--save", str(link)], ["D5", "quit"], tmp_path / "home")
    done = run(["--game", "battleship", "--seed", "1", "--text", "--save", str(link)], ["quit"], tmp_path / "home")
    assert "Your Galaxis game in progress is kept: say menu to resume it." in done.stdout
    assert link.is_symlink() and read_save(real, GAMES).game == "battleship"
    assert actions(real.parent / "real.galaxis.json") == ["query D5"]
    again = run(["--text", "--save", str(link)], ["resume", "D6", "quit"], tmp_path / "home")
    assert "D6 answered" in again.stdout
    assert link.is_symlink() and actions(real) == ["query D5", "query D6"]


def test_a_symlinked_settings_file_is_written_through_and_the_link_stays(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "dotfiles").mkdir()
    (tmp_path / "dotfiles" / "settings.json").write_text('{"speech_rate": 150}')
    (home / "settings.json").symlink_to(tmp_path / "dotfiles" / "settings.json")
    done = run(GALAXIS, ["faster", "quit"], home)
    assert "Faster: speech 175 words a minute." in done.stdout
    assert (home / "settings.json").is_symlink()
    assert Settings.load(tmp_path / "dotfiles" / "settings.json").speech_rate == 175


# --- 1: a number from a file too large for a float or a seek --------------------------------------

@pytest.mark.parametrize("offset", [HUGE, "-1", "true", "1.5"])
def test_a_save_whose_log_offset_is_out_of_range_resumes_its_game(tmp_path, offset):
    home, log = tmp_path / "home", tmp_path / "log.jsonl"
    run([*GALAXIS, "--log", str(log)], ["D5", "quit"], home)
    text = (home / "game.json").read_text()
    saved = json.loads(text)
    (home / "game.json").write_text(text.replace(f'"offset": {saved["log"]["offset"]}', f'"offset": {offset}'))
    done = run(["--resume", "--text", "--log", str(log)], ["D6", "quit"], home)
    assert "Resumed Galaxis, after 1 action." in done.stdout and "D6 answered" in done.stdout
    assert "cannot" not in done.stdout and actions(home / "game.json") == ["query D5", "query D6"]
    assert [json.loads(line)["point"] for line in log.read_text().splitlines()] == ["D5", "D6"]


def test_recognize_starts_with_huge_numbers_in_the_settings(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(f'{{"volume": {HUGE}, "speech_rate": {HUGE}, "clarity": -{HUGE}}}')
    with wave.open(str(tmp_path / "quiet.wav"), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(16000)
        w.writeframes(b"\0\0" * 8000)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "audio_console", "recognize", "--game", "galaxis",
                           str(tmp_path / "quiet.wav")], capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert "Traceback" not in done.stderr and "OverflowError" not in done.stderr
    heard = json.loads(done.stdout.splitlines()[-1])        # one line for the one file
    assert heard["file"] == str(tmp_path / "quiet.wav") and "error" not in heard


# --- 4: names planted beside a file the console writes ---------------------------------------------

def test_a_planted_temporary_name_beside_the_model_check_cache_is_never_written(tmp_path):
    from audio_console.voice.whisper_model import check_sha256
    home = tmp_path / "home"
    home.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("another user's file")
    (home / "model-checks.tmp").symlink_to(victim)      # the fixed name the cache used to be written to
    model = tmp_path / "model.bin"
    model.write_bytes(b"weights")
    check_sha256(model, files.sha256_of(model))
    assert victim.read_text() == "another user's file"
    assert list(json.loads((home / "model-checks.json").read_text()).values()) == [files.sha256_of(model)]


def test_a_damaged_saves_copy_skips_a_name_planted_where_it_would_go(tmp_path):
    save = tmp_path / "game.json"
    save.write_text("damaged")
    victim = tmp_path / "victim"
    victim.write_text("another user's file")
    first = next(aside_names(save))
    first.symlink_to(victim)                               # the name is predictable: a timestamp
    copy = copy_aside(save)
    assert copy is not None and copy != first and copy.read_text() == "damaged"
    assert victim.read_text() == "another user's file" and stat.S_IMODE(copy.stat().st_mode) == 0o600


# --- the read helper: a hard limit, checked on the open descriptor -----------------------------------

def test_read_limited_trusts_the_bytes_not_the_size_stat_reports():
    status = "/proc/self/status"              # a regular file whose size stat reports as 0
    assert os.stat(status).st_size == 0
    assert b"Name:" in files.read_limited(status, 100_000)
    with pytest.raises(files.FileTooLarge):
        files.read_limited(status, 10)


def test_a_path_swapped_for_a_fifo_after_its_check_is_refused_on_the_open_file(tmp_path, monkeypatch):
    """The check of the path and the open are two steps: the open descriptor decides."""
    os.mkfifo(tmp_path / "game.json")
    (tmp_path / "regular").write_text("{}")
    real_stat = os.stat
    monkeypatch.setattr(files.os, "stat", lambda p, *a, **k: real_stat(tmp_path / "regular"))   # the check passes
    with pytest.raises(files.NotAFile, match="that path is a named pipe, not a file"):
        files.read_limited(tmp_path / "game.json", 1000)            # returns at once: no writer needed


def test_a_write_path_swapped_for_a_fifo_after_its_check_is_judged_on_the_open_file(tmp_path, monkeypatch):
    """The same swap for the opener that writes: a log (a file only) refuses the pipe on
    its descriptor; the recording (a stream allowed) takes it, unpatched."""
    os.mkfifo(tmp_path / "out")
    reader = os.open(tmp_path / "out", os.O_RDONLY | os.O_NONBLOCK)    # else the open itself fails
    (tmp_path / "regular").write_text("")
    real_stat = os.stat
    monkeypatch.setattr(files.os, "stat", lambda p, *a, **k: real_stat(tmp_path / "regular"))   # the check passes
    try:
        with pytest.raises(files.NotAFile, match="that path is a named pipe, not a file"):
            files.open_for_append(tmp_path / "out")
        fd = files.open_to_write(tmp_path / "out", kinds=files.FILE_OR_STREAM)
        assert stat.S_ISFIFO(os.fstat(fd).st_mode) and os.get_blocking(fd)     # written to as a stream
        os.close(fd)
    finally:
        os.close(reader)

def test_a_recording_into_a_fifo_is_one_line_and_never_blocks(tmp_path):
    pytest.importorskip("sounddevice")
    os.mkfifo(tmp_path / "game.wav")           # opened for writing, it would wait for a reader for good
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home"),
           "AUDIO_CONSOLE_DEVICE": "no-such-device"}
    done = subprocess.run([sys.executable, "-m", "audio_console", *GALAXIS[:4], "--no-speech", "--record",
                           str(tmp_path / "game.wav")], input="D5\nquit\n", text=True, capture_output=True,
                          timeout=30, env=env, cwd=ROOT)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert lines_with("recording", done.stdout) == [
        f"The recording cannot be written: nothing reads that named pipe ({tmp_path / 'game.wav'}); "
        "the game goes on, nothing is recorded.",
        f"Nothing was recorded: nothing reads that named pipe ({tmp_path / 'game.wav'})."]   # the last line
    assert "D5 answered" in done.stdout and stat.S_ISFIFO(os.lstat(tmp_path / "game.wav").st_mode)
    assert actions(tmp_path / "home" / "game.json") == ["query D5"]
