"""Every message goes out as a plain text line and, unless turned off, as its
signal and its speech through the sound sink."""
from __future__ import annotations

import os
import sys

from audio_console.output.message import Message
from audio_console.output.screen import clear_screen
from audio_console.output.sink import NullSink, SoundSink


class OutputClosed(Exception):
    """The text output takes no more lines (a pipe's reader gone, a full disk); the
    OSError behind it (None: the stream was closed) says why. The console ends cleanly
    on it: every move is already saved."""

    def __init__(self, error: OSError | None):
        super().__init__(str(error or "the output is closed"))
        self.error = error


def print_line(text: str, out=None) -> None:
    """One line to out (standard output by default); OutputClosed when it cannot go."""
    out = out or sys.stdout
    try:
        print(text, file=out, flush=True)
    except (OSError, ValueError) as error:     # ValueError: the stream was closed
        _silence(out)
        raise OutputClosed(error if isinstance(error, OSError) else None) from error


def _silence(out) -> None:
    """Point standard output at /dev/null: the interpreter's last flush of what is still
    buffered must not fail (a traceback, exit code 120) after the console ended cleanly."""
    try:
        if out is not None and out in (sys.stdout, sys.__stdout__):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, out.fileno())
            os.close(null)
    except (OSError, ValueError):
        pass


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
                print_line(message.text, self.out)
            if self.signals and message.signal:
                self.sink.play_signal(message.signal, message.side)
            if self.signals and message.cells:
                self.sink.play_board_line(message.cells, message.rows)
            if self.speech and message.spoken:
                self.sink.speak(message.spoken, message.side)

    def stop(self) -> None:
        self.sink.stop()
