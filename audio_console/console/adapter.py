"""Moved to audio_console.contract.adapter; these names stay importable from here for
modules of the session not yet pointed there (import from the contract instead)."""
from audio_console.contract.adapter import (ALREADY_OVER, GAME_OVER, GameAdapter, plain_lines,
                                            refusal_sentence)

__all__ = ["ALREADY_OVER", "GAME_OVER", "GameAdapter", "plain_lines", "refusal_sentence"]
