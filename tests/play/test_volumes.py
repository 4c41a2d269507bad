"""Issue 32 item 4: speech and signals each at a volume of its own, said with the
level reached and remembered in the settings like the one volume before."""
import json

from audio_console.base.settings import Settings
from tests.play.test_console_lines import session_with_galaxis


def said(out, word):
    return [line for line in out.getvalue().splitlines() if word in line]


def test_speech_and_signals_volumes_apart_and_together(tmp_path):
    session, out, sink = session_with_galaxis(tmp_path)
    session.type("speech louder")
    session.type("signals softer")
    session.type("signal softer")
    assert said(out, "olume") == ["Speech louder: speech volume 9 of 10.",
                                  "Signals softer: signals volume 7 of 10.",
                                  "Signals softer: signals volume 6 of 10."]
    assert (session.settings.speech_volume, session.settings.signal_volume) == (0.9, 0.6)
    session.type("louder")
    session.type("louder")
    assert said(out, "olume")[-2:] == ["Louder: speech volume 10 of 10, signals volume 7 of 10.",
                                       "Louder: speech volume 10 of 10, signals volume 8 of 10."]
    session.type("speech louder")
    assert said(out, "olume")[-1] == "Speech at maximum: speech volume 10 of 10."
    for _ in range(10):
        session.type("speech softer")
    assert said(out, "olume")[-1] == "Speech at minimum: speech volume 1 of 10."


def test_the_two_volumes_are_remembered(tmp_path, monkeypatch):
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path / "home"))
    session, out, sink = session_with_galaxis(tmp_path)
    session.type("speech softer")
    session.type("signals louder")
    kept = Settings.load()
    assert (kept.speech_volume, kept.signal_volume) == (0.7, 0.9)


def test_a_settings_file_with_one_volume_gives_it_to_both(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"volume": 0.4, "speech_rate": 200}))
    settings = Settings.load(path)
    assert (settings.speech_volume, settings.signal_volume, settings.speech_rate) == (0.4, 0.4, 200)
    assert settings.notes == ()
    path.write_text(json.dumps({"volume": 0.4, "speech_volume": 0.6}))
    assert (Settings.load(path).speech_volume, Settings.load(path).signal_volume) == (0.6, 0.4)
