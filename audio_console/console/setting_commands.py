"""The commands that change a setting (volume of speech and signals, together or
apart, speech rate, signal timing, listening, headphones, confirm): each changes
Settings and returns the line that says so, with the level reached and whether it
is at an end of its range."""
from __future__ import annotations

from audio_console.commands import Command
from audio_console.base.settings import RANGES, Settings

SETTING_COMMANDS = ("louder", "softer", "speech louder", "speech softer", "signals louder", "signals softer",
                    "faster", "slower", "listening", "headphones", "confirm", "timing", "long hints")
VOLUMES = {"speech": "speech_volume", "signals": "signal_volume"}   # what a volume command names
CONFIRM_LINES = {"always": "I will repeat every command heard before acting on it.",
                 "unsure": "I will ask you to confirm only when I am unsure.",
                 "never": "When I am unsure, I will ask you to say it again."}


def change_setting(settings: Settings, command: Command) -> str:
    """Apply a setting command to `settings` (not saved here); the line to say."""
    name = command.name
    if name.endswith(("louder", "softer")):
        step = 0.1 if name.endswith("louder") else -0.1
        which = name.split()[0] if " " in name else None
        return _volume(settings, step, which) if which else _both_volumes(settings, step, name.capitalize())
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


def _stepped(settings: Settings, field: str, step: float) -> bool:
    """Move one volume a step, kept from 1 to 10 tenths; False when it was at the end."""
    before = getattr(settings, field)
    after = min(1.0, max(0.1, round(before + step, 2)))
    setattr(settings, field, after)
    return after != before


def _level(value: float) -> str:
    return f"{round(value * 10)} of 10"


def _volume(settings: Settings, step: float, which: str) -> str:
    """"speech louder", "signals softer": one volume, the other left as it is."""
    field = VOLUMES[which]
    moved = _stepped(settings, field, step)
    level = f"{which} volume {_level(getattr(settings, field))}"
    word = "louder" if step > 0 else "softer"
    edge = "maximum" if step > 0 else "minimum"
    return f"{which.capitalize()} {word}: {level}." if moved else f"{which.capitalize()} at {edge}: {level}."


def _both_volumes(settings: Settings, step: float, word: str) -> str:
    """"louder", "softer": speech and signals together; one level said when they are alike."""
    moved = [_stepped(settings, field, step) for field in VOLUMES.values()]
    speech, signals = settings.speech_volume, settings.signal_volume
    level = (f"volume {_level(speech)}" if speech == signals
             else f"speech volume {_level(speech)}, signals volume {_level(signals)}")
    edge = "maximum" if step > 0 else "minimum"
    return f"{word}: {level}." if any(moved) else f"Volume at {edge}: {level}."


def _rate(settings: Settings, step: int, word: str) -> str:
    before = settings.speech_rate
    slowest, fastest = RANGES["speech_rate"]
    settings.speech_rate = after = int(min(fastest, max(slowest, before + step)))
    edge = "fastest" if step > 0 else "slowest"
    return (f"{word}: speech {after} words a minute." if after != before
            else f"Speech at its {edge}: {after} words a minute.")
