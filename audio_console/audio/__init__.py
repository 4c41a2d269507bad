"""Sound for the console: the signal table, one audio engine, speech, sonification.

Use `open_sound(settings, ...)` to get a SoundSink (audio_console/output/sink.py):
the AudioEngine when sound is wanted and works, otherwise a NullSink after one
plain `notify` message. See docs/audio.md.
"""
from __future__ import annotations

import sys
from typing import Callable

from audio_console.output.sink import NullSink


def quiet_native_audio() -> None:
    """Keep the sound library's C diagnostics off the screen, where a screen reader would
    read them aloud: on Linux alsa-lib's underrun and overrun lines. Other platforms
    have no such helper (and no ALSA), so nothing Linux-only is imported there."""
    if sys.platform.startswith("linux"):
        from audio_console.audio.alsa import silence_alsa_messages
        silence_alsa_messages()


def open_sound(settings=None, *, speech: bool = True, signals: bool = True,
               record_path: str | None = None, notify: Callable[[str], None] = print,
               device=None):
    """The console's SoundSink.

    speech/signals: the modes (--no-speech, --no-signals; both False is --text).
    record_path: --record FILE.wav (works with or without a device).
    notify: receives one plain line when there is no sound (the game goes on in text).
    device: a sounddevice device name or index (default: $AUDIO_CONSOLE_DEVICE, else
    the system default).
    """
    if not speech and not signals and not record_path:
        return NullSink()
    quiet_native_audio()
    try:
        from audio_console.audio.engine import AudioEngine
        engine = AudioEngine(settings, speech=speech, signals=signals, record_path=record_path,
                             notify=notify, device=device)
    except Exception as error:   # numpy/sounddevice broken in some unforeseen way: text only
        notify(f"Sound is off: {error}. The game goes on in text.")
        return NullSink()
    if engine.output == "none":
        engine.close()
        return NullSink()
    return engine


__all__ = ["open_sound", "quiet_native_audio"]
