"""Player settings kept between sessions (speech rate, volume, signal timing, ...).

Stored as JSON in $AUDIO_CONSOLE_HOME (default ~/.local/share/audio_console), next
to the default save files. Unknown or damaged values fall back to defaults.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path


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
    best_option2: int = 0           # Galaxis option 2: fewest queries so far (0 = none yet)

    @classmethod
    def load(cls, path: Path | None = None) -> "Settings":
        path = path or data_dir() / "settings.json"
        try:
            raw = json.loads(path.read_text())
        except (OSError, ValueError):
            return cls()
        settings = cls()
        if isinstance(raw, dict):
            for f in fields(cls):
                value = raw.get(f.name)
                if value is None or not isinstance(value, type(getattr(settings, f.name))):
                    continue
                if f.name in CHOICES and value not in CHOICES[f.name]:
                    continue
                setattr(settings, f.name, value)
        return settings

    def save(self, path: Path | None = None) -> None:
        path = path or data_dir() / "settings.json"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(asdict(self), indent=1))
            os.replace(tmp, path)
        except OSError:
            pass  # settings are a convenience; never stop a game over them
