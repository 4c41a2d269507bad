"""The seam between the console and the audio engine (issue: sound).

A SoundSink plays named signals from the signal table and speaks text. Calls
return at once; sounds are queued and play in order on one device. A signal's
call may return the queued sound (its `ended` event is set once it has played:
a screen reader's line waits for it), or None. `stop()` cuts everything off. NullSink is used with --text, or when no device is there.
"""
from __future__ import annotations

from typing import Protocol


class SoundSink(Protocol):
    def play_signal(self, name: str, side: int = 0) -> object | None: ...
    def speak(self, text: str, side: int = 0) -> None: ...
    def play_samples(self, stereo, sample_rate: int) -> None: ...   # float32 (n, 2) in -1..1
    # one row or column of a board as sound; cells are (position, of how many, row, kind)
    def play_board_line(self, cells: list[tuple[int, int, int, str]], rows: int) -> object | None: ...
    def stop(self) -> None: ...
    def busy(self) -> bool: ...
    def spoken_within(self, seconds: float) -> list[str]: ...   # the lines said lately (voice/own_words.py)
    def wait_until_idle(self, timeout: float | None = None) -> None: ...
    def apply_settings(self, settings) -> None: ...
    def close(self) -> None: ...


class NullSink:
    """Plays nothing: text only. recording_end: why --record recorded nothing, for the
    session's last line (AudioEngine.recording_end)."""

    def __init__(self, recording_end: str | None = None):
        self._recording_end = recording_end

    def recording_end(self) -> str | None: return self._recording_end

    def play_signal(self, name: str, side: int = 0) -> None: pass
    def speak(self, text: str, side: int = 0) -> None: pass
    def play_samples(self, stereo, sample_rate: int) -> None: pass
    def play_board_line(self, cells: list[tuple[int, int, int, str]], rows: int) -> None: pass
    def stop(self) -> None: pass
    def busy(self) -> bool: return False
    def spoken_within(self, seconds: float) -> list[str]: return []
    def wait_until_idle(self, timeout: float | None = None) -> None: pass
    def apply_settings(self, settings) -> None: pass
    def close(self) -> None: pass
