"""Player settings kept between sessions (speech rate, volume, signal timing, ...).

Stored as JSON in the data folder (data_dir: $AUDIO_CONSOLE_HOME, else the
platform's own place for an application's data), next to the default save files. Unknown or damaged values fall back to defaults.
"""
from __future__ import annotations

import json
import math
import os
import re
import sys
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from audio_console.base.files import WriteError, read_limited, reason, write_atomically

MAX_SETTINGS_BYTES = 100_000     # the file is a few hundred bytes


def data_dir() -> Path:
    """Where settings and saved games live: $AUDIO_CONSOLE_HOME when set, else by the
    platform's convention: %APPDATA% on Windows (roaming: they follow the player to
    another PC), ~/Library/Application Support on macOS, $XDG_DATA_HOME (an absolute
    path, as the XDG spec asks) or its default ~/.local/share elsewhere; a folder kept
    at the default before $XDG_DATA_HOME was heeded is still used, so no save is lost."""
    home = os.environ.get("AUDIO_CONSOLE_HOME")
    if home:
        return Path(home)
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        return (Path(appdata) if appdata else Path.home() / "AppData" / "Roaming") / "audio_console"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "audio_console"
    default = Path.home() / ".local" / "share" / "audio_console"
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(xdg) or (default.is_dir() and not (Path(xdg) / "audio_console").exists()):
        return default
    return Path(xdg) / "audio_console"


# The words a text setting may hold; anything else in the file falls back to the default.
CHOICES = {
    "timing": ("faithful", "quick"),
    "confirm": ("unsure", "always", "never"),
    "input": ("keys", "voice", "both"),
    "listening": ("always", "push"),
}


@dataclass
class Settings:
    speech_rate: int = 175          # words per minute (espeak-ng)
    speech_volume: float = 0.8      # 0..1, the console's own voice
    signal_volume: float = 0.8      # 0..1, the signals and board sounds
    voice: str = ""                 # espeak-ng voice id; "" = default English
    timing: str = "faithful"        # signal timing: "faithful" or "quick"
    confirm: str = "unsure"         # voice: "unsure" (confirm when unsure), "always", "never" (say again)
    clarity: float = 0.5            # voice: 0 lenient .. 1 strict
    input: str = "keys"             # "keys", "voice" or "both"; set by --input, remembered
    listening: str = "always"       # voice: "always" or "push" (push-to-talk)
    headphones: bool = False        # voice: keep listening while the console speaks
    barge_in: bool = True           # the player's next input cuts speech off
    keep_screen: bool = False       # hot-seat: keep the screen at a pass (set by --keep-screen)
    screen_reader: bool = False     # speak through the running screen reader (--screen-reader)
    long_hints: bool = False        # a hint says its reason too (else on "why")
    best_option2: int = 0           # Galaxis option 2: fewest queries so far (0 = none yet)

    def __post_init__(self) -> None:
        # Lines saying which stored values were unusable and what they are now (set by
        # load). An attribute, not a field: never saved, compared or passed in.
        self.notes: tuple[str, ...] = ()

    @classmethod
    def load(cls, path: Path | None = None) -> "Settings":
        path = path or data_dir() / "settings.json"
        settings = cls()
        try:
            raw = json.loads(read_limited(path, MAX_SETTINGS_BYTES).decode("utf-8"))
        except FileNotFoundError:
            return settings
        except (OSError, ValueError, RecursionError) as error:   # ValueError: also not UTF-8
            what = reason(error) if isinstance(error, OSError) else "the file is damaged"
            settings.notes = (f"Settings cannot be read ({what}: {path}); using the defaults.",)
            return settings
        changed = []
        if isinstance(raw, dict):
            raw = with_split_volume(raw)
            for f in fields(cls):
                if f.name not in raw:
                    continue
                value, default = raw[f.name], getattr(settings, f.name)
                good = checked(f.name, value, default)
                setattr(settings, f.name, good)
                if good != value or isinstance(value, bool) != isinstance(good, bool):
                    changed.append(f"{f.name.replace('_', ' ')} {_shown(value)} is now {json.dumps(good)}")
        else:
            changed.append("the file holds no settings")
        if changed:
            settings.notes = ("Settings out of range were reset: " + "; ".join(changed) + ".",)
        return settings

    def save(self, path: Path | None = None) -> None:
        path = path or data_dir() / "settings.json"
        try:
            write_atomically(path, json.dumps(asdict(self), indent=1))
        except WriteError:
            pass  # settings are a convenience; never stop a game over them


# Numbers: (lowest, highest); a number outside is clamped, anything else is the default.
RANGES = {"speech_rate": (80, 400), "speech_volume": (0.0, 1.0), "signal_volume": (0.0, 1.0), "clarity": (0.0, 1.0), "best_option2": (0, 1000)}
# An espeak-ng voice id ("en-us", "mb/mb-en1", "en+f3"), never a path.
VOICE_ID = re.compile(r"([A-Za-z0-9][A-Za-z0-9_+-]{0,30}(/[A-Za-z0-9][A-Za-z0-9_+-]{0,30})?)?")


def with_split_volume(raw: dict) -> dict:
    """A settings file from before speech and signals had volumes of their own: its
    one volume becomes both."""
    if "volume" not in raw:
        return raw
    return {"speech_volume": raw["volume"], "signal_volume": raw["volume"], **raw}


def checked(name: str, value, default):
    """The stored value if usable, clamped into range, else the default."""
    if name in CHOICES:
        return value if value in CHOICES[name] else default
    if isinstance(default, bool):
        return value if isinstance(value, bool) else default
    if isinstance(default, str):
        return value if isinstance(value, str) and VOICE_ID.fullmatch(value) else default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    # Compared with the range before any conversion: a JSON integer of 400 digits is
    # a valid int that float() cannot hold (it is clamped like any other).
    if isinstance(value, float) and (not math.isfinite(value) or (isinstance(default, int) and not value.is_integer())):
        return default
    low, high = RANGES[name]
    return type(default)(min(high, max(low, value)))


def _shown(value) -> str:
    """A stored value as the note quotes it: short, a long one cut off visibly."""
    text = json.dumps(value)
    return text if len(text) <= 30 else text[:27] + "..."
