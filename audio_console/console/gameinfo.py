"""Moved to audio_console.contract.gameinfo; these names stay importable from here for
modules of the session not yet pointed there (import from the contract instead)."""
from audio_console.contract.gameinfo import GameInfo, Question

__all__ = ["GameInfo", "Question"]
