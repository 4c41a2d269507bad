"""The command language: one grammar per game and phase, giving both the typed
parser and the recognizers' vocabulary (see docs/commands.md)."""
from audio_console.commands.grammar import Command, Grammar, Rule, Slot

__all__ = ["Command", "Grammar", "Rule", "Slot"]
