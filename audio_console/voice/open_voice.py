"""Voice input for the session: a Listener on the default microphone with the best
recognizer available, or one line saying why there is none (the keyboard goes on)."""
from __future__ import annotations

from audio_console.voice.listener import Listener
from audio_console.voice.recognizer import RecognizerError, one_line


def open_listener(settings, sink, notify, model_path=None, **options):
    """A Listener on the default microphone with the best recognizer available, or
    None (after one notify message saying why) when there is no recognizer or no
    microphone. On success notify says which recognizer is used and why."""
    from audio_console.audio import quiet_native_audio
    from audio_console.audio.portaudio import sounddevice_module
    from audio_console.voice.engines import select_recognizer
    quiet_native_audio()   # a screen reader would read ALSA's overrun lines aloud
    try:
        sd = sounddevice_module()
        sd.query_devices(kind="input")
    except Exception as e:  # noqa: BLE001 - OSError (no PortAudio), PortAudioError, ValueError
        notify(f"No microphone ({one_line(e)}): voice input is off; the keyboard works as always.")
        return None
    try:
        recognizer, why = select_recognizer(model_path)
    except RecognizerError as e:
        notify(f"No speech recognizer ({one_line(e)}): voice input is off; the keyboard works as always.")
        return None
    notify(why)
    return Listener(recognizer, settings, sink, notify, **options)
