"""Every message goes out as a plain text line and, unless turned off, as its
signal and its speech: speech through the console's own voice (the sound sink),
or through the player's screen reader when that is on and one is running."""
from __future__ import annotations

import os
import sys

from audio_console.output.message import Message
from audio_console.output.screen import clear_screen
from audio_console.output.screen_reader import ScreenReader, open_screen_reader
from audio_console.output.sink import NullSink, SoundSink

OPEN_WAIT = 1.5    # seconds the console waits for the screen reader to be found; then it goes on


class OutputClosed(Exception):
    """The text output takes no more lines (a pipe's reader gone, a full disk); the
    OSError behind it (None: the stream was closed) says why. The console ends cleanly
    on it: every move is already saved."""

    def __init__(self, error: OSError | None):
        super().__init__(str(error or "the output is closed"))
        self.error = error


def print_line(text: str, out=None) -> None:
    """One line to out (standard output by default); OutputClosed when it cannot go
    (also when standard output was closed before the start, >&-: no sys.stdout)."""
    out = out or sys.stdout
    if out is None:
        raise OutputClosed(None)
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


def keep_standard_streams() -> None:
    """A standard stream closed before the start (>&-) gets /dev/null in its place, so
    that no file the console opens later (a recording, a log) takes its number and
    receives the lines, or an error message, instead."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                pass


class Presenter:
    def __init__(self, out=None, sink: SoundSink | None = None,
                 speech: bool = True, signals: bool = True, keep_screen: bool = False,
                 find_reader=open_screen_reader):
        self.out = out or sys.stdout
        self.keep_screen = keep_screen   # never clear at a pass of the console
        self.sink = sink or NullSink()
        self.speech = speech
        self.signals = signals
        self.reader: ScreenReader | None = None
        self._find_reader = find_reader

    @property
    def own_voice(self) -> bool:
        """True when the console speaks with its own voice (not a screen reader's)."""
        return self.speech and self.reader is None

    def show(self, messages: list[Message]) -> None:
        self.check_reader()
        for message in messages:
            if message.clear_for:
                shown = clear_screen(message, self.out, self.keep_screen)
                if shown is None:
                    continue
                message = shown
            if message.text:
                print_line(message.text, self.out)
            before = None     # the sound the speech follows
            if self.signals and message.signal:
                before = self.sink.play_signal(message.signal, message.side)
            if self.signals and message.cells:
                before = self.sink.play_board_line(message.cells, message.rows)
            if self.speech and message.spoken:
                if self.reader is not None:
                    self.reader.say(message.spoken, after=before)
                else:
                    self.sink.speak(message.spoken, message.side)

    def use_screen_reader(self, on: bool) -> str:
        """Speak through the screen reader (on) or the console's own voice; the line to say."""
        if not on:
            self.close_reader(wait=False)     # the session goes on; at exit it is waited for
            return "Screen reader off: I speak with my own voice."
        if not self.speech:
            return "Screen reader on. Speech is off in this session, so nothing is spoken."
        if self.reader is None:
            self.reader, why = self._find_reader()
            if self.reader is None:
                return f"No screen reader found ({why}): I speak with my own voice."
            self.reader.opened.wait(OPEN_WAIT)   # still looking after that: its lines wait for it
        if self.reader.failed is not None:
            why, self.reader = self.reader.failed, None
            return f"No screen reader found ({why}): I speak with my own voice."
        return f"Screen reader on: I speak through {self.reader.name}."

    def stop(self) -> None:
        if self.reader is not None:     # first: a line waiting for a signal is dropped, not spoken
            self.reader.stop()
        self.sink.stop()

    def close_reader(self, wait: bool = True) -> None:
        if self.reader is not None:
            self.reader.close(wait)
            self.reader = None

    def check_reader(self) -> None:
        """A screen reader not found after all, or that stopped taking speech: said
        once, then the own voice speaks, the lines that waited for it first."""
        reader = self.reader
        if reader is None or reader.failed is None:
            return
        self.reader = None
        waited = reader.unspoken()
        line = (f"{reader.name} stopped speaking ({reader.failed[:60]})" if reader.found
                else f"No screen reader found ({reader.failed[:60]})")
        self.show([Message(f"{line}: I speak with my own voice.", signal="error")])
        for text in waited:
            self.sink.speak(text)
