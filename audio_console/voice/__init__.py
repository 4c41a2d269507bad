"""Speech input: recognizers behind one interface, trust, listening, voice check.

The session uses:
    listener = open_listener(settings, sink, notify, model_path=None)  # or None
    listener.set_grammar(grammar)      # whenever the game's phase changes
    listener.start(on_heard)           # on_heard(Heard) from the listener thread
    listener.talk(True/False)          # push-to-talk key, when settings.listening == "push"
    listener.stop()
"""
from audio_console.voice.listener import Listener
from audio_console.voice.open_voice import open_listener
from audio_console.voice.trust import Heard

__all__ = ["Heard", "Listener", "open_listener"]
