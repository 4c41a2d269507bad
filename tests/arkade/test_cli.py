"""Whole Arkade games typed through the real command line, on each side."""
import json

import pytest

from tests.arkade.typist import type_a_game
from tests.conftest import run_console

QUESTIONS = ["where are my saucers", "nearest saucers", "what can I do", "read row C", "column three",
             "dice", "where is the spaceship", "chips", "board", "help", "flap the saucer", "status"]


def read_log(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("human", ["alien", "defence"])
def test_a_full_typed_game_against_the_computer(tmp_path, human):
    computer = "defence" if human == "alien" else "alien"
    options = {"mode": "strategy", human: "human", computer: "computer"}
    seed = 11
    lines, console = type_a_game(options, seed)
    assert console.finished()
    # the board questions change nothing: ask them all along the game
    typed = list(QUESTIONS)
    for i, line in enumerate(lines):
        typed.append(line)
        if i % 7 == 0:
            typed.append(QUESTIONS[(i // 7) % len(QUESTIONS)])
    log = tmp_path / "game.jsonl"
    result = run_console(["--game", "arkade", "--mode", "strategy", f"--{human}", "human",
                          f"--{computer}", "computer", "--seed", str(seed), "--text",
                          "--log", str(log), "--save", str(tmp_path / "save.json")], typed, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    events = read_log(log)
    over = [e for e in events if e["event"] == "game_over"]
    assert over == [{"event": "game_over", "winner": console.core.winner, "turns": console.core.turns,
                     "game": "arkade"}]
    kinds = {e["event"] for e in events}
    assert {"roll", "flight", "shot", "spaceship_flight"} <= kinds
    rolls = [e for e in events if e["event"] == "roll"]
    assert {e["side"] for e in rolls} == {"alien", "defence"}
    assert "Game over." in result.stdout
    assert "Not understood: flap the saucer" in result.stdout
    assert "Nearest saucer in each column" in result.stdout


def test_a_game_saved_halfway_resumes_to_the_same_end(tmp_path):
    options = {"mode": "strategy", "alien": "computer", "defence": "human"}
    lines, console = type_a_game(options, 5)
    half = len(lines) // 2
    save = tmp_path / "save.json"
    args = ["--game", "arkade", "--alien", "computer", "--defence", "human", "--seed", "5", "--text"]
    first = run_console(args + ["--save", str(save)], lines[:half], tmp_path)
    assert first.returncode == 0, first.stderr
    log = tmp_path / "second.jsonl"
    second = run_console(["--resume", "--text", "--save", str(save), "--log", str(log)], lines[half:], tmp_path)
    assert second.returncode == 0, second.stderr
    assert "Resumed Arkade" in second.stdout
    over = [e for e in read_log(log) if e["event"] == "game_over"]
    assert over and over[0]["winner"] == console.core.winner and over[0]["turns"] == console.core.turns


def test_watching_the_computer_play_both_sides(tmp_path):
    log = tmp_path / "watch.jsonl"
    result = run_console(["--game", "arkade", "--alien", "computer", "--defence", "computer", "--seed", "3",
                          "--text", "--log", str(log), "--save", str(tmp_path / "s.json")], ["status"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert [e for e in read_log(log) if e["event"] == "game_over"]


def test_arcade_mode_runs_in_real_time_at_the_pace_set(tmp_path):
    import os
    import subprocess
    import sys
    import time
    from tests.conftest import ROOT
    log = tmp_path / "arcade.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUDIO_CONSOLE_HOME": str(tmp_path / "home")}
    process = subprocess.Popen(
        [sys.executable, "-m", "audio_console", "--game", "arkade", "--mode", "arcade", "--alien", "human",
         "--defence", "computer", "--pace", "0.5", "--seed", "4", "--text", "--log", str(log),
         "--save", str(tmp_path / "s.json")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    process.stdin.write("go\n")          # the countdown: three seconds, then the start signal
    process.stdin.flush()
    while (line := process.stdout.readline()) and line.strip() != "Start!":
        pass
    process.stdin.write("roll\n")
    process.stdin.flush()
    time.sleep(3.0)
    out, err = process.communicate("nearest saucers\n", timeout=30)
    assert process.returncode == 0, err
    events = read_log(log)
    defence_rolls = [e for e in events if e["event"] == "roll" and e["side"] == "defence"]
    assert 2 <= len(defence_rolls) <= 8          # about one every 0.5 s for 3 s
    assert any(e["event"] == "roll" and e["side"] == "alien" for e in events)
    assert "Nearest saucer in each column" in out


def test_status_and_summary_are_understood(tmp_path):
    result = run_console(["--game", "arkade", "--alien", "human", "--defence", "computer", "--seed", "3",
                          "--text"], ["status", "summary"], tmp_path)
    assert "not something Arkade can do" not in result.stdout
    assert result.stdout.count("12 saucers left; spaceship in column 1") == 2
    assert "Bonus spaces:" in result.stdout
