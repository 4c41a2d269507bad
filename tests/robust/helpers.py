"""A real Session with its output captured: the lines printed, and the sounds asked of the sink."""
import io
from pathlib import Path

from audio_console.audio.sonify import line_sonification
from audio_console.console.session import Session
from audio_console.console.storage import EventLog
from audio_console.app.games import GAMES
from audio_console.output.presenter import Presenter
from audio_console.base.settings import Settings


class CapturingSink:
    """Records what would be played (a fake only for the logic of what is asked for)."""

    def __init__(self):
        self.samples, self.spoken, self.signals = [], [], []

    def play_signal(self, name, side=0): self.signals.append(name)
    def speak(self, text, side=0): self.spoken.append(text)
    def play_samples(self, stereo, sample_rate): self.samples.append((stereo, sample_rate))

    def play_board_line(self, cells, rows):   # the real sonification, as the engine does
        self.play_samples(*line_sonification(cells, rows=rows))

    def stop(self): pass
    def busy(self): return False
    def wait_until_idle(self, timeout=None): pass
    def apply_settings(self, settings): pass
    def close(self): pass


def make_session(tmp_path: Path, log_path: Path | None = None, save_path: Path | None = None):
    out, sink = io.StringIO(), CapturingSink()
    presenter = Presenter(out=out, sink=sink, speech=True, signals=True)
    session = Session(presenter, Settings(), GAMES, save_path or tmp_path / "game.json",
                      EventLog(log_path))
    return session, out, sink


def start(session, game: str, seed: int = 1, **options):
    info = GAMES[game]
    session.open_game(info, options, seed)
    return session.console
