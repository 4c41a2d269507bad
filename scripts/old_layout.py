"""A benchmark runs its own code against a baseline revision's package too. Before
f8d1bb7 the base helpers and the application sat at the package's top
(audio_console.settings, audio_console.cli, ...); this names them under base/ and app/
as today, so that the same code imports either tree."""
from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path

MOVED = {"base": ("settings", "wording", "board_words", "files"), "app": ("cli", "recognize", "games")}


def alias_moved_modules() -> None:
    """In a tree with audio_console/base/, nothing; in an older one, audio_console.base.X
    and audio_console.app.X become its audio_console.X (imported when first named)."""
    import audio_console
    # asked of the tree itself: an editable install's finder would find today's base/
    if (Path(audio_console.__file__).parent / "base").is_dir():
        return
    for folder, names in MOVED.items():
        package = types.ModuleType(f"audio_console.{folder}")
        package.__path__ = []
        sys.modules[package.__name__] = package
        for name in names:
            try:
                module = importlib.import_module(f"audio_console.{name}")
            except ModuleNotFoundError:          # a tree older than that module
                continue
            sys.modules[f"audio_console.{folder}.{name}"] = module
            setattr(package, name, module)
