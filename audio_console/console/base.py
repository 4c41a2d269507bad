"""Moved to audio_console.contract.base; these names stay importable from here for
modules of the session not yet pointed there (import from the contract instead)."""
from audio_console.contract.base import CENTRE, LEFT, RIGHT, InputError, Message, Reply

__all__ = ["CENTRE", "LEFT", "RIGHT", "InputError", "Message", "Reply"]
