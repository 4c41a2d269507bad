"""Watching one download: its progress lines, and a watchdog that keeps its deadline.

Progress says a line as a file starts, at each 10 % of a large one, and after QUIET
seconds without a line, even while the server sends nothing (a screen reader reads
lines: no carriage returns, no redraws). The Watchdog shuts the download's
connections at its deadline from a thread of its own, so a server that trickles a
byte at a time, its status line and headers included, or a read that waits, cannot
keep the download running past it (model_fetch.download_file).
"""
from __future__ import annotations

import http.client
import os
import socket
import threading
import time
import urllib.request

QUIET = 10.0              # seconds of download without a progress line at most


def human_size(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1e6:.1f} MB"
    if n < 1000:
        return f"{n} bytes"
    return f"{round(n / 1000)} KB"



class Progress:
    """A line as the file starts; at each 10 % step of a file of 1 MB or more; without
    a known total, a line every 10 MB; for any file, a line after QUIET seconds
    without one (tick(), from the watchdog too: a server that sends nothing is said)."""

    def __init__(self, label: str, total: int | None, out, done: int = 0):
        self.label, self.out, self.done = label, out, done
        self.said_at = self.started = time.monotonic()
        self._lock = threading.RLock()
        self.set_total(total)

    def set_total(self, total: int | None) -> None:
        self.total = total
        self.steps = total is not None and total >= 1_000_000
        self.step = (self.done * 10 // total + 1) if total else self.done // 10_000_000 + 1

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def update(self, done: int) -> None:
        self.done = done
        if self.total and self.steps:
            while self.step <= 10 and done * 10 >= self.step * self.total:
                self._say(f"{self.step * 10} % ({human_size(done)} of {human_size(self.total)})")
                self.step += 1
        elif not self.total and done >= self.step * 10_000_000:
            self._say(f"{human_size(done)} so far")
            self.step = done // 10_000_000 + 1
        self.tick()

    def tick(self) -> None:
        with self._lock:
            if time.monotonic() - self.said_at >= QUIET:
                of = f" of {human_size(self.total)}" if self.total else ""
                self._say(f"{human_size(self.done)}{of} so far, slowly")

    def _say(self, text: str) -> None:
        with self._lock:
            print(f"{self.label}: {text}", file=self.out, flush=True)
            self.said_at = time.monotonic()


class _Watched:
    """A connection whose socket its download's watchdog can shut."""

    def __init__(self, *args, watchdog: "Watchdog", **kwargs):
        super().__init__(*args, **kwargs)
        self.watchdog = watchdog

    def connect(self) -> None:
        super().connect()                      # type: ignore[misc]
        self.watchdog.watch(self.sock)         # type: ignore[attr-defined]


class _WatchedHTTP(_Watched, http.client.HTTPConnection):
    pass


class _WatchedHTTPS(_Watched, http.client.HTTPSConnection):
    pass


class _Handing:
    """A handler that opens its connections watched by the download's watchdog."""

    def __init__(self, watchdog: "Watchdog"):
        super().__init__()
        self.watchdog = watchdog


class _HTTPHandler(_Handing, urllib.request.HTTPHandler):
    def http_open(self, req):
        return self.do_open(_WatchedHTTP, req, watchdog=self.watchdog)    # type: ignore[arg-type]


class _HTTPSHandler(_Handing, urllib.request.HTTPSHandler):
    def https_open(self, req):
        return self.do_open(_WatchedHTTPS, req, watchdog=self.watchdog)   # type: ignore[arg-type]


class Watchdog:
    """Keeps a download's deadline whatever the server does: at the deadline it shuts
    the download's connections, so the blocked read ends at once (expired is then
    True); until then it has progress say a quiet download (Progress.tick)."""

    def __init__(self, until: float, progress: Progress):
        self.until, self.progress, self.expired = until, progress, False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="download-deadline", daemon=True)
        self._thread.start()

    def opener(self) -> urllib.request.OpenerDirector:
        """An opener whose every connection (a redirect's too) the watchdog can shut."""
        return urllib.request.build_opener(_HTTPHandler(self), _HTTPSHandler(self))

    def watch(self, sock: socket.socket) -> None:
        with self._lock:    # a copy of the descriptor: shutting it ends the connection for both
            self._sockets.append(socket.socket(fileno=os.dup(sock.fileno())))
        if self.expired:
            self._shut()

    def _run(self) -> None:
        while not self._done.wait(max(0.0, min(1.0, self.until - time.monotonic()))):
            if time.monotonic() >= self.until:
                self.expired = True
                self._shut()
                return
            self.progress.tick()

    def _shut(self) -> None:
        with self._lock:
            for sock in self._sockets:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self._done.set()
        self._thread.join()
        with self._lock:
            for sock in self._sockets:
                sock.close()
