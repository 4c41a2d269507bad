"""The commands that change a setting (volume, speech rate, signal timing, listening,
headphones, confirm): each changes Settings and returns the line that says so, with
the level reached and whether it is at an end of its range."""
from __future__ import annotations

from audio_console.commands import Command
from audio_console.settings import RANGES, Settings

SETTING_COMMANDS = ("louder", "softer", "faster", "slower", "listening", "headphones", "confirm", "timing",
                    "long hints")

CONFIRM_LINES = {"always": "I will repeat every command heard before acting on it.",
                 "unsure": "I will ask you to confirm only when I am unsure.",
                 "never": "When I am unsure, I will ask you to say it again."}


def change_setting(settings: Settings, command: Command) -> str:
    """Apply a setting command to `settings` (not saved here); the line to say."""
    name = command.name
    if name in ("louder", "softer"):
        return _volume(settings, 0.1 if name == "louder" else -0.1, name.capitalize())
    if name in ("faster", "slower"):
        return _rate(settings, 25 if name == "faster" else -25, name.capitalize())
    if name == "listening":
        settings.listening = command.text.split()[-1]
        return ("Push to talk: press Enter, say a command, press Enter again." if settings.listening == "push"
                else "Always listening.")
    if name == "headphones":
        settings.headphones = command.get("switch") == "on"
        return ("Headphones on: I keep listening while I speak." if settings.headphones
                else "Headphones off: I stop listening while I speak.")
    if name == "confirm":
        settings.confirm = command.get("confirm")
        return CONFIRM_LINES[settings.confirm]
    if name == "timing":
        settings.timing = command.get("timing")
        return _timing_line(settings.timing)
    if name == "long hints":
        settings.long_hints = command.get("switch") == "on"
        return ("Long hints on: a hint says its reason too." if settings.long_hints
                else "Long hints off: a hint names where to try; say why for its reason.")
    raise ValueError(f"{name} is not a setting command")


def _timing_line(timing: str) -> str:
    """What changed: the same tones, shorter (about a third: Galaxis's search signal
    0.9 s instead of 3.3, signals.py), or as long as on the 1980 console."""
    if timing == "quick":
        return "Quick signals: the same sounds, about a third as long, with shorter gaps."
    return "Faithful signals: the sounds as long as on the 1980 console."


def _volume(settings: Settings, step: float, word: str) -> str:
    before = settings.volume
    settings.volume = after = min(1.0, max(0.1, round(before + step, 2)))
    level = f"volume {round(after * 10)} of 10"
    edge = "maximum" if step > 0 else "minimum"
    return f"{word}: {level}." if after != before else f"Volume at {edge}: {level}."


def _rate(settings: Settings, step: int, word: str) -> str:
    before = settings.speech_rate
    slowest, fastest = RANGES["speech_rate"]
    settings.speech_rate = after = int(min(fastest, max(slowest, before + step)))
    edge = "fastest" if step > 0 else "slowest"
    return (f"{word}: speech {after} words a minute." if after != before
            else f"Speech at its {edge}: {after} words a minute.")
