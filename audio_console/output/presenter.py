"""Every message goes out as a plain text line and, unless turned off, as its
signal and its speech through the sound sink."""
from __future__ import annotations

import sys

from audio_console.output.message import Message
from audio_console.output.screen import clear_screen
from audio_console.output.sink import NullSink, SoundSink


class Presenter:
    def __init__(self, out=None, sink: SoundSink | None = None,
                 speech: bool = True, signals: bool = True, keep_screen: bool = False):
        self.out = out or sys.stdout
        self.keep_screen = keep_screen   # never clear at a pass of the console
        self.sink = sink or NullSink()
        self.speech = speech
        self.signals = signals

    def show(self, messages: list[Message]) -> None:
        for message in messages:
            if message.clear_for:
                shown = clear_screen(message, self.out, self.keep_screen)
                if shown is None:
                    continue
                message = shown
            if message.text:
                print(message.text, file=self.out, flush=True)
            if self.signals and message.signal:
                self.sink.play_signal(message.signal, message.side)
            if self.signals and message.cells:
                self.sink.play_board_line(message.cells, message.rows)
            if self.speech and message.spoken:
                self.sink.speak(message.spoken, message.side)

    def stop(self) -> None:
        self.sink.stop()
