"""The listener's paths that bench_listen.py measures play's against, in the same run.

Play has one path ("vad"): the VAD cutter, the early guess decoded at once and acted
on when it is a sure, complete command. The older ones differ from it in a stage:

- "vad-wait": the early guess only confirmed by the full window, never acted on;
- "early": that, with pocketsphinx's Endpointer as the cutter (play's before the VAD cutter);
- "stream": the Endpointer, no early guess; an engine that streams is fed while the
  player speaks and finishes at the close;
- "whole": the Endpointer, each utterance decoded whole once it ended.
"""
from __future__ import annotations

from audio_console.voice.cutting import EARLY_WINDOW, vad_cutter
from audio_console.voice.decoding import Decoding
from audio_console.voice.listener import Listener
from scripts.bench_support.endpointer_cutter import UtteranceCutter


class WaitingDecoding(Decoding):
    """The early guess is decoded at once, but only the full window confirms it."""

    def early_grammar(self, grammar, extendable: set):
        return grammar

    def act_on_guess(self, decoded, grammar, cutter, during: float, on_heard) -> bool:
        return False


class WindowDecoding(WaitingDecoding):
    """No early guess: a streaming engine follows the whole utterance, and its stream
    is finished at the close."""

    def follow(self, cutter, on_heard, may_guess=lambda: True) -> bool:
        if self.streams:
            self.feed(cutter.held, cutter.held_since)
        return False

    def decode_and_report(self, pcm: bytes, on_heard, voiced: bool, use_stream: bool = True) -> None:
        super().decode_and_report(pcm, on_heard, voiced, use_stream=True)


class WholeDecoding(WindowDecoding):
    """No early guess and no stream: each utterance decoded once it ended."""

    def follow(self, cutter, on_heard, may_guess=lambda: True) -> bool:
        return False


PATHS = {   # name: (the cutter for a window, the decoding stage)
    "whole": (lambda window: UtteranceCutter(window), WholeDecoding),
    "stream": (lambda window: UtteranceCutter(window), WindowDecoding),
    "early": (lambda window: UtteranceCutter(window, early_window=EARLY_WINDOW), WaitingDecoding),
    "vad-wait": (vad_cutter, WaitingDecoding),
    "vad": (vad_cutter, Decoding),   # play's
}


def on_path(path: str, listener: Listener) -> Listener:
    """A listener like `listener` (its recognizer, settings, sink, options, microphone
    and trace) on `path`."""
    if path == "vad":
        return listener
    make_cutter, stage = PATHS[path]

    class PathListener(Listener):
        decoding_stage = stage

        def make_cutter(self):
            return make_cutter(self.options.window)

    made = PathListener(listener.recognizer, listener.settings, listener.sink, listener.notify,
                        listener.options, trace=listener.trace)
    made.microphone = listener.microphone   # its device, or the stream a test feeds
    return made
