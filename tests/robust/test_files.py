"""Items 6-10 of issue 12: saves, the event log and settings with real files, real
permissions (chattr +i, since tests run as root), a path under a regular file, a
folder, /dev/full and a full tmpfs. Play always goes on; one line says what failed."""
import contextlib
import errno
import json
import os
import subprocess
import sys
import uuid

import pytest

from audio_console.base import files
from audio_console.console.storage import read_save, set_aside
from audio_console.app.games import GAMES
from audio_console.base.settings import Settings
from tests.conftest import ROOT

from .helpers import make_session, start

GALAXIS = ["--game", "galaxis", "--seed", "1", "--text"]


def run(args, lines, home, timeout=60):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "audio_console", *args], input="".join(l + "\n" for l in lines),
                          text=True, capture_output=True, timeout=timeout, env=env, cwd=ROOT)
    assert "Traceback" not in done.stderr, done.stderr
    return done


@contextlib.contextmanager
def immutable(path):
    """A folder even root cannot write into."""
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not supported here")
    try:
        yield path
    finally:
        subprocess.run(["chattr", "-i", str(path)], capture_output=True)


@contextlib.contextmanager
def full_disk(path):
    """A real, small tmpfs at path, filled up."""
    path.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(path)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], capture_output=True)


def fill(folder):
    with contextlib.suppress(OSError), open(folder / "filler", "wb") as f:
        while True:
            f.write(b"\0" * 4096)
            f.flush()


# --- item 6: save and log write failures ---------------------------------------------

def test_a_full_disk_keeps_the_old_save_answers_the_move_and_says_so_once(tmp_path):
    with full_disk(tmp_path / "disk") as home:
        first = run(GALAXIS, ["D5", "quit"], home)
        assert "Game saved" in first.stdout
        before = (home / "game.json").read_bytes()
        fill(home)
        again = run(["--resume", "--text"], ["D6", "D7", "quit"], home)
        assert "D6 answered" in again.stdout and "D7 answered" in again.stdout
        assert again.stdout.count("Your game cannot be saved: the disk is full") == 1
        assert "Goodbye. The game could not be saved." in again.stdout
        assert (home / "game.json").read_bytes() == before          # nothing saved before is damaged
        assert not list(home.glob("*.tmp"))
        assert read_save(home / "game.json", GAMES).actions == ["query D5"]


def test_a_write_failing_with_enospc_removes_its_temporary_file(tmp_path, monkeypatch):
    session, out, sink = make_session(tmp_path)
    start(session, "galaxis", option=2)
    before = (tmp_path / "game.json").read_bytes()

    def disk_full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(files.os, "fsync", disk_full)
    session.type("D5")
    session.type("D6")
    text = out.getvalue()
    assert "D5 answered" in text and "D6 answered" in text
    line = f"Your game cannot be saved: the disk is full ({tmp_path / 'game.json'})"
    assert text.count(line) == 1 and line in sink.spoken
    assert not list(tmp_path.glob("*.tmp"))
    assert (tmp_path / "game.json").read_bytes() == before
    monkeypatch.undo()
    session.type("D7")                        # the disk has room again: saved again
    assert read_save(tmp_path / "game.json", GAMES).actions == ["query D5", "query D6", "query D7"]


def bad_places(tmp_path):
    (tmp_path / "file").write_text("a regular file")
    (tmp_path / "folder").mkdir()
    return tmp_path / "file", tmp_path / "folder"


@pytest.mark.parametrize("where,reason", [("folder", "that path is a folder"),
                                          ("under a file", "a part of that path is a file, not a folder")])
def test_save_at_a_bad_path_is_one_line(tmp_path, where, reason):
    file, folder = bad_places(tmp_path)
    target = folder if where == "folder" else file / "game.json"
    done = run([*GALAXIS, "--save", str(target)], ["D5", "D6", "quit"], tmp_path / "home")
    assert done.returncode == 0 and "D5 answered" in done.stdout and "D6 answered" in done.stdout
    assert done.stdout.count(f"Your game cannot be saved: {reason} ({target})") == 1
    assert file.read_text() == "a regular file" and not list(folder.iterdir())


def test_save_in_a_folder_root_cannot_write_is_one_line(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    with immutable(folder):
        done = run([*GALAXIS, "--save", str(folder / "game.json")], ["D5", "quit"], tmp_path / "home")
    assert done.stdout.count("Your game cannot be saved: permission denied") == 1
    assert "D5 answered" in done.stdout and not list(folder.iterdir())


def test_an_unwritable_data_folder_is_one_line_and_play_goes_on(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    with immutable(home):
        done = run(GALAXIS, ["D5", "faster", "quit"], home)
    assert done.returncode == 0 and "D5 answered" in done.stdout and "Faster: speech 200 words a minute." in done.stdout
    assert done.stdout.count("Your game cannot be saved: permission denied") == 1
    assert not list(home.iterdir())


@pytest.mark.parametrize("where", ["folder", "under a file", "/dev/full", "locked"])
def test_a_log_that_cannot_be_written_is_one_line(tmp_path, where):
    file, folder = bad_places(tmp_path)
    locked = tmp_path / "locked"
    locked.mkdir()
    target = {"folder": folder, "under a file": file / "log.jsonl", "/dev/full": "/dev/full",
              "locked": locked / "log.jsonl"}[where]
    with immutable(locked) if where == "locked" else contextlib.nullcontext():
        done = run([*GALAXIS, "--log", str(target)], ["D5", "D6", "quit"], tmp_path / "home")
    assert done.returncode == 0 and "D5 answered" in done.stdout and "D6 answered" in done.stdout
    assert done.stdout.count("The game log cannot be written:") == 1
    assert read_save(tmp_path / "home" / "game.json", GAMES).actions == ["query D5", "query D6"]


# --- item 7: damaged saves are refused or cut back, never crash or hang ----------------------

def arkade_save(home):
    run(["--game", "arkade", "--seed", "1", "--text"], ["roll", "quit"], home)
    return json.loads((home / "game.json").read_text())


DAMAGE = {
    "game is a list": lambda s: {**s, "game": ["galaxis"]},
    "level 9": lambda s: {**s, "options": {**s["options"], "level": 9}},
    "side robot": lambda s: {**s, "options": {**s["options"], "alien": "robot"}},
    "level true": lambda s: {**s, "options": {**s["options"], "level": True}},
    "pace inf": lambda s: {**s, "options": {**s["options"], "pace": 1e999}},
    "seed a string": lambda s: {**s, "seed": "1"},
    "unknown option": lambda s: {**s, "options": {**s["options"], "cheat": 1}},
    "action a number": lambda s: {**s, "actions": [7]},
    "action too long": lambda s: {**s, "actions": ["x" * 10000]},
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_save_is_set_aside_with_one_line(tmp_path, damage):
    home = tmp_path / "home"
    saved = DAMAGE[damage](arkade_save(home))
    (home / "game.json").write_text(json.dumps(saved))
    done = run(["--resume", "--text"], ["quit"], home, timeout=30)
    assert done.returncode == 0
    said = [line for line in done.stdout.splitlines() if line.startswith("The saved game cannot be")]
    assert len(said) == 1 and "kept as" in said[0]
    kept = list(home.glob("game.json.damaged-*"))
    assert len(kept) == 1 and json.loads(kept[0].read_text()) == saved


def test_a_huge_or_deeply_nested_save_is_refused_quickly(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    for text in ['{"format": "audio_console save", "actions": ["' + "x" * 5_000_000 + '"]}',
                 "[" * 100_000 + "]" * 100_000]:
        (home / "game.json").write_text(text)
        done = run(["--resume", "--text"], ["quit"], home, timeout=20)
        assert done.stdout.count("The saved game cannot be resumed") == 1


def test_a_save_whose_last_action_is_bad_resumes_up_to_the_last_good_one(tmp_path):
    home = tmp_path / "home"
    run(GALAXIS, ["D5", "D6", "quit"], home)
    saved = json.loads((home / "game.json").read_text())
    saved["actions"].append("query Z99")
    (home / "game.json").write_text(json.dumps(saved))
    done = run(["--resume", "--text"], ["status", "D7", "quit"], home)
    assert "Saved action 3 could not be replayed" in done.stdout
    assert "Resumed Galaxis, after 2 actions." in done.stdout and "D7 answered" in done.stdout
    assert read_save(home / "game.json", GAMES).actions == ["query D5", "query D6", "query D7"]
    kept = list(home.glob("game.json.damaged-*"))
    assert len(kept) == 1 and json.loads(kept[0].read_text())["actions"][-1] == "query Z99"


# --- item 8: unique names for saves set aside ------------------------------------------

def test_two_saves_set_aside_in_the_same_second_are_both_kept(tmp_path):
    path = tmp_path / "game.json"
    kept = []
    for n in range(3):
        path.write_text(f"damaged {n}")
        kept.append(set_aside(path))
    assert len(set(kept)) == 3
    assert sorted(p.read_text() for p in kept) == ["damaged 0", "damaged 1", "damaged 2"]


# --- item 9: settings ---------------------------------------------------------------------

def test_settings_out_of_range_are_clamped_or_reset_with_one_line(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(
        '{"speech_rate": -100000, "volume": true, "clarity": Infinity, "best_option2": -7,'
        ' "voice": "../../../../etc/passwd", "timing": "quick"}')
    done = run(GALAXIS, ["quit"], home)
    line = done.stdout.splitlines()[0]
    assert line.startswith("Settings out of range were reset:")
    for part in ["speech rate -100000 is now 80", "volume true is now 0.8", "clarity Infinity is now 0.5",
                 "best option2 -7 is now 0", 'voice "../../../../etc/passwd" is now ""']:
        assert part in line
    settings = Settings.load(home / "settings.json")           # the corrected values were kept
    assert (settings.speech_rate, settings.voice, settings.timing) == (80, "", "quick")
    assert settings.notes == ()


def test_a_settings_file_that_is_a_folder_leaves_no_temporary_file(tmp_path):
    home = tmp_path / "home"
    (home / "settings.json").mkdir(parents=True)
    done = run(GALAXIS, ["faster", "quit"], home)
    assert done.stdout.splitlines()[0].startswith("Settings cannot be read (that path is a folder")
    assert "Faster: speech" in done.stdout
    assert sorted(p.name for p in home.iterdir()) == ["game.json", "settings.json"]


# --- item 10: a kill between the save and the log ----------------------------------------------

def events(log):
    return [json.loads(line) for line in log.read_text().splitlines()]


@pytest.mark.parametrize("cut", ["before the log", "inside the line", "after the log"])
def test_a_resume_after_a_kill_logs_every_event_once(tmp_path, cut):
    home, log = tmp_path / "home", tmp_path / "log.jsonl"
    run([*GALAXIS, "--log", str(log)], ["D5", "D6", "quit"], home)
    complete = log.read_bytes()
    offset = json.loads((home / "game.json").read_text())["log"]["offset"]
    # What a kill at that moment leaves: the save holds D6, the log holds less of it.
    log.write_bytes({"before the log": complete[:offset], "inside the line": complete[:offset + 20],
                     "after the log": complete}[cut])
    run(["--resume", "--text", "--log", str(log)], ["D7", "quit"], home)
    assert [e["point"] for e in events(log) if e["event"] == "answer"] == ["D5", "D6", "D7"]


def test_a_resume_with_another_log_does_not_copy_old_events_into_it(tmp_path):
    home = tmp_path / "home"
    run([*GALAXIS, "--log", str(tmp_path / "first.jsonl")], ["D5", "quit"], home)
    run(["--resume", "--text", "--log", str(tmp_path / "second.jsonl")], ["D7", "quit"], home)
    assert [e["point"] for e in events(tmp_path / "second.jsonl")] == ["D7"]
