"""Player settings kept between sessions (speech rate, volume, signal timing, ...).

Stored as JSON in $AUDIO_CONSOLE_HOME (default ~/.local/share/audio_console), next
to the default save files. Unknown or damaged values fall back to defaults.
"""
from __future__ import annotations

import json
import math
import os
import re
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from audio_console.console.storage import WriteError, reason, write_atomically


def data_dir() -> Path:
    home = os.environ.get("AUDIO_CONSOLE_HOME")
    path = Path(home) if home else Path.home() / ".local" / "share" / "audio_console"
    return path


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
    volume: float = 0.8             # 0..1, for speech and signals alike
    voice: str = ""                 # espeak-ng voice id; "" = default English
    timing: str = "faithful"        # signal timing: "faithful" or "quick"
    confirm: str = "unsure"         # voice: "unsure" (confirm when unsure), "always", "never" (say again)
    clarity: float = 0.5            # voice: 0 lenient .. 1 strict
    input: str = "keys"             # "keys", "voice" or "both"; set by --input, remembered
    listening: str = "always"       # voice: "always" or "push" (push-to-talk)
    headphones: bool = False        # voice: keep listening while the console speaks
    barge_in: bool = True           # the player's next input cuts speech off
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
            raw = json.loads(path.read_text())
        except FileNotFoundError:
            return settings
        except (OSError, ValueError, RecursionError) as error:
            what = reason(error) if isinstance(error, OSError) else "the file is damaged"
            settings.notes = (f"Settings cannot be read ({what}: {path}); using the defaults.",)
            return settings
        changed = []
        if isinstance(raw, dict):
            for f in fields(cls):
                if f.name not in raw:
                    continue
                value, default = raw[f.name], getattr(settings, f.name)
                good = checked(f.name, value, default)
                setattr(settings, f.name, good)
                if good != value or isinstance(value, bool) != isinstance(good, bool):
                    changed.append(f"{f.name.replace('_', ' ')} {str(json.dumps(value))[:30]} is now {json.dumps(good)}")
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
RANGES = {"speech_rate": (80, 400), "volume": (0.0, 1.0), "clarity": (0.0, 1.0), "best_option2": (0, 1000)}
# An espeak-ng voice id ("en-us", "mb/mb-en1", "en+f3"), never a path.
VOICE_ID = re.compile(r"([A-Za-z0-9][A-Za-z0-9_+-]{0,30}(/[A-Za-z0-9][A-Za-z0-9_+-]{0,30})?)?")


def checked(name: str, value, default):
    """The stored value if usable, clamped into range, else the default."""
    if name in CHOICES:
        return value if value in CHOICES[name] else default
    if isinstance(default, bool):
        return value if isinstance(value, bool) else default
    if isinstance(default, str):
        return value if isinstance(value, str) and VOICE_ID.fullmatch(value) else default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return default
    if isinstance(default, int) and value != int(value):
        return default
    low, high = RANGES[name]
    return type(default)(min(high, max(low, value)))
