"""Speech through the player's running screen reader (NVDA, JAWS, VoiceOver, Orca,
Speech Dispatcher, ...), by prismatoid, instead of the console's own voice.

The screen reader speaks with the player's own voice, rate and review keys. Each
message is handed to it once the signal queued before it has played (a Galaxis
answer's beeps, then its line), on one worker thread, in order. Lines that are
ready together (a reply's lines and the prompt after them) go as one utterance:
prismatoid's stop (speech-dispatcher's spd_stop) silences only the utterance being
spoken, not those queued behind it, so few are ever queued, and `stop()` stops
twice, the second time for one that started in between. `stop()` also drops what
is still waiting here (the player's `stop`, or barge-in). Signals stay with the
console's audio engine.

Finding the screen reader can take seconds (prismatoid's speech-dispatcher backend
lists every voice of every module first): the worker does it, and the lines said
meanwhile wait for it. prismatoid is imported only when a screen reader is asked
for: without it `open_screen_reader` says why at once; with no screen reader
running the worker sets `failed`, and the presenter speaks with its own voice.
"""
from __future__ import annotations

import atexit
import queue
import threading
import time
import weakref
from typing import Any

SIGNAL_WAIT = 10.0    # seconds a line waits at most for the signal before it to end
GATHER = 0.03         # seconds the worker waits for more lines ready at once (the prompt)
RESTOP = 0.06         # seconds after a stop: stop again what may have started meanwhile
CLOSE_WAIT = 3.0      # seconds close() waits for the worker (the goodbye handed over, the reader let go)
FIND_WAIT = 30.0      # ... and while the screen reader is still being found (seconds, more on a busy machine)


class ScreenReader:
    """One screen reader. `find()` gives its backend (a prism.Backend or alike: speak,
    stop), its name and what must be kept alive with it, or raises ScreenReaderMissing."""

    def __init__(self, find):
        self._find = find
        self._backend: Any = None
        self._keep = None             # the prism Context the backend belongs to: kept alive
        self.name = "the screen reader"
        self.failed: str | None = None   # why it cannot speak (the presenter falls back)
        self.opened = threading.Event()  # set once found, or once finding it failed
        self._lines: queue.Queue = queue.Queue()
        self._generation = 0          # bumped by stop(): lines handed in before it are stale
        self._lock = threading.Lock()
        self._spoken_since_stop = False
        self._closing = threading.Event()   # close(): signals are no longer waited for
        self._worker = threading.Thread(target=self._run, name="screen-reader", daemon=True)
        self._worker.start()
        _readers.add(self)

    @property
    def found(self) -> bool:
        return self._backend is not None

    def say(self, text: str, after=None) -> None:
        """Speak `text` once `after` (a Sound of the engine's queue, or None) has played."""
        self._lines.put((self._generation, text, after))

    def stop(self) -> None:
        with self._lock:
            self._generation += 1
            generation = self._generation
            self._stop_now()
        if self._backend is not None:
            threading.Timer(RESTOP, self._stop_again, args=(generation,)).start()

    def _stop_again(self, generation: int) -> None:
        with self._lock:
            if generation == self._generation and not self._spoken_since_stop:
                self._stop_now()

    def _stop_now(self) -> None:
        self._spoken_since_stop = False
        if self._backend is None:     # not found yet: the lines waiting are dropped, that is all
            return
        try:
            self._backend.stop()
        except Exception:             # nothing was speaking, or the reader went away
            pass

    def close(self, wait: bool = True) -> None:
        """Hand the lines still waiting to the screen reader (the goodbye) without
        waiting for their signals any more, then let the screen reader go; `wait`:
        until it has (and while it is still being found, for the search)."""
        if not self._closing.is_set():
            self._closing.set()
            self._lines.put((None, None, None))
        if wait:
            self._worker.join(CLOSE_WAIT if self.opened.is_set() else FIND_WAIT)

    def unspoken(self) -> list[str]:
        """The lines still waiting (for the own voice, when the screen reader failed)."""
        lines = []
        while not self._lines.empty():
            generation, text, after = self._lines.get()
            if text is not None and generation == self._generation:
                lines.append(text)
        return lines

    def _open(self) -> bool:
        try:
            self._backend, self.name, self._keep = self._find()
        except ScreenReaderMissing as missing:
            self.failed = str(missing)
        finally:
            self.opened.set()
        return self.failed is None

    def _release(self) -> None:
        """Free the backend, then its context, while the interpreter still runs
        (prismatoid never frees them once it is finalizing): the connection to
        speech-dispatcher is closed by us, not cut off by the exit."""
        with self._lock:
            self._backend = None
            self._keep = None

    def _run(self) -> None:
        if not self._open():
            return
        waiting = None
        while True:
            generation, text, after = waiting or self._lines.get()
            if text is None:
                self._release()
                return
            _wait_for(after, self._closing)
            texts, waiting = [text], None
            time.sleep(GATHER)
            while waiting is None and not self._lines.empty():
                line = self._lines.get()
                if line[1] is None or not _played(line[2]) or line[0] != generation:
                    waiting = line    # the end, or a line that waits for its own signal
                else:
                    texts.append(line[1])
            with self._lock:
                if generation != self._generation or getattr(after, "cancelled", False):
                    continue          # stopped while it waited for its signal
                self._speak(" ".join(texts))

    def _speak(self, text: str) -> None:
        try:
            self._backend.speak(text, interrupt=False)
            self._spoken_since_stop = True
        except Exception as error:
            self.failed = str(error) or type(error).__name__


def _wait_for(sound, closing: threading.Event) -> None:
    ended = getattr(sound, "ended", None)
    deadline = time.monotonic() + SIGNAL_WAIT
    while ended is not None and not ended.is_set() and not closing.is_set() and time.monotonic() < deadline:
        ended.wait(0.05)


def _played(sound) -> bool:
    """True when nothing is to wait for: no sound, or one that has ended."""
    ended = getattr(sound, "ended", None)
    return ended is None or ended.is_set()


# Every ScreenReader whose worker may still run (its thread keeps it alive).
_readers: weakref.WeakSet[ScreenReader] = weakref.WeakSet()


@atexit.register
def _let_go_at_exit() -> None:
    """The process must not end with prismatoid's native code still at work on a
    worker (the search for the screen reader, or a backend never freed): that was a
    segmentation fault at exit, after the goodbye, when a player quit in the first
    seconds, while the screen reader was still being found."""
    for reader in list(_readers):
        reader.close()


class ScreenReaderMissing(Exception):
    """No screen reader to speak through; the message says why, in a few words."""


def open_screen_reader() -> tuple[ScreenReader | None, str]:
    """A ScreenReader that looks for the best one prismatoid finds running (its
    `opened` is set once it knows), or None and why not."""
    try:
        import prism
    except (ImportError, OSError):      # not installed, or its native library will not load
        return None, "the prismatoid package is not installed"

    def find():
        try:
            context = prism.Context()
            backend = context.acquire_best()
            return backend, backend.name, context
        except Exception:               # prism.PrismError, or no backend at all
            raise ScreenReaderMissing("none is running") from None
    return ScreenReader(find), ""
