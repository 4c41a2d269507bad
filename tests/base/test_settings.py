"""Settings kept between sessions: damaged values fall back, the input mode is remembered."""
import json

from audio_console.base.settings import Settings
from tests.conftest import run_console


def test_a_damaged_or_unknown_setting_falls_back_to_its_default(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"confirm": "sometimes", "input": "telepathy", "timing": "quick",
                                "volume": "loud", "headphones": True}))
    settings = Settings.load(path)
    assert settings.confirm == "unsure" and settings.input == "keys" and settings.speech_volume == settings.signal_volume == 0.8
    assert settings.timing == "quick" and settings.headphones is True     # good values kept


def voice_lines(result):
    return [line for line in result.stdout.splitlines()
            if line.startswith("Voice") or "recognizer" in line.lower() or "microphone" in line.lower()]


def test_input_voice_is_remembered_so_a_hands_free_player_just_starts_the_console(tmp_path):
    game = ["--game", "galaxis", "--option", "2", "--text", "--seed", "1"]
    first = run_console([*game, "--input", "voice"], ["quit"], tmp_path)
    assert first.returncode == 0 and voice_lines(first)                  # voice was started
    assert json.loads((tmp_path / "home" / "settings.json").read_text())["input"] == "voice"
    again = run_console(game, ["quit"], tmp_path)                        # no --input this time
    assert again.returncode == 0 and voice_lines(again)
    keys = run_console([*game, "--input", "keys"], ["quit"], tmp_path)
    assert keys.returncode == 0 and not voice_lines(keys)
    later = run_console(game, ["quit"], tmp_path)
    assert not voice_lines(later)


def test_the_data_folder_follows_each_platforms_convention_unless_audio_console_home_is_set(monkeypatch, tmp_path):
    import sys
    from pathlib import Path

    from audio_console.base.settings import data_dir
    monkeypatch.delenv("AUDIO_CONSOLE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("APPDATA", str(tmp_path / "Roaming"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    expected = {"win32": tmp_path / "Roaming" / "audio_console",
                "darwin": tmp_path / "Library" / "Application Support" / "audio_console",
                "linux": tmp_path / ".local" / "share" / "audio_console"}
    for platform, folder in expected.items():
        monkeypatch.setattr(sys, "platform", platform)
        assert data_dir() == folder, platform
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.delenv("APPDATA")                 # a stripped environment: the usual place
    assert data_dir() == Path.home() / "AppData" / "Roaming" / "audio_console"
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path / "mine"))
    assert data_dir() == tmp_path / "mine"        # the override wins everywhere


def test_on_linux_xdg_data_home_is_heeded_but_an_existing_folder_keeps_its_saves(monkeypatch, tmp_path):
    import sys

    from audio_console.base.settings import data_dir
    monkeypatch.delenv("AUDIO_CONSOLE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert data_dir() == tmp_path / "data" / "audio_console"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")       # not absolute: ignored, as the spec says
    assert data_dir() == tmp_path / ".local" / "share" / "audio_console"
    old = tmp_path / ".local" / "share" / "audio_console"
    old.mkdir(parents=True)                                     # saves kept before XDG_DATA_HOME was heeded
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert data_dir() == old
    (tmp_path / "data" / "audio_console").mkdir(parents=True)   # once the player has the new one, it wins
    assert data_dir() == tmp_path / "data" / "audio_console"
