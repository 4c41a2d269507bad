"""Speech: pyttsx3, rendered to samples that the engine mixes.

pyttsx3 speaks with the platform's synthesiser: espeak-ng on Linux, SAPI5 on
Windows, NSSpeechSynthesizer (the "nsss" driver) on macOS, each of them falling
back to espeak-ng when it is installed. pyttsx3's Linux driver plays through
`aplay`, which nothing can interrupt; so we never let any driver play. Each phrase
is rendered with `save_to_file` into a temporary file (a WAV; an AIFF from macOS,
read by speech_file.py), read back, trimmed of its leading silence, resampled to the engine's rate
and handed to the mixer, so speech shares the device, the volume and `stop` with
the signals.

One pyttsx3 engine in the process, used only from one worker thread: pyttsx3
caches one engine per driver and raises "run loop already started" when used from
two places, espeak-ng's rate and voice are global to the process, and SAPI5's COM
objects belong to the thread that made them. Every
`Speech` (one per audio engine) hands its requests to that thread. Requests to
speak jump ahead of `prewarm` requests. Rendered phrases are cached by (text,
rate, voice, sample rate); volume is applied by the mixer, so it never
invalidates the cache.

pyttsx3 prints "Audio saved to ..." on standard output after every file. That
line must never reach a screen reader. It is printed by espeak-ng's own
synthesis thread (pyttsx3 runs espeak in AUDIO_OUTPUT_RETRIEVAL mode, which is
asynchronous), so neither redirecting around the call on our thread nor
contextlib.redirect_stdout (which swaps sys.stdout for the whole process and
would swallow the game's own lines printed meanwhile) is right. Instead the
driver module's `print` is shadowed by a filter that drops exactly those lines
and passes anything else on.
"""
from __future__ import annotations

import atexit
import itertools
import os
import queue
import shutil
import sys
import tempfile
import threading
from collections import OrderedDict
from typing import Callable

import numpy as np

from audio_console.audio.speech_file import read_complete

SILENCE = 0.004        # below this (peak -48 dB) a sample counts as silence when trimming
SPEECH_PEAK = 0.9      # every phrase is brought to this peak: even loudness from phrase to phrase
KEEP_TAIL = 0.08       # seconds of espeak's closing pause kept after the last sound
CACHE_SIZE = 300       # phrases

PRIORITY_SPEAK, PRIORITY_PREWARM = 0, 1

# pyttsx3's drivers that can render to a file, best first, by sys.platform; espeak-ng
# everywhere else. macOS's newer "avspeech" driver has no save_to_file, so it is not used.
FILE_DRIVERS = {"win32": ("sapi5", "espeak"), "darwin": ("nsss", "espeak")}


class SpeechUnavailable(RuntimeError):
    """pyttsx3 or its synthesiser cannot be used here."""


def open_driver():
    """The first pyttsx3 engine of this platform's FILE_DRIVERS that starts, on the
    calling thread; raises the errors of all of them in one line."""
    import pyttsx3
    if sys.platform == "win32":
        try:     # COM (SAPI5) must be started on each thread that uses it
            import pythoncom
            pythoncom.CoInitialize()
        except Exception:
            pass
    errors = []
    for name in FILE_DRIVERS.get(sys.platform, ("espeak",)):
        try:
            return pyttsx3.init(name)
        except Exception as error:
            errors.append(f"{name}: {error}")
    raise SpeechUnavailable("; ".join(errors))


def _quiet_print(*args, **kwargs) -> None:
    """pyttsx3's espeak driver's print, without its "Audio saved to" noise; anything
    else it prints (an error) goes to standard error, never among the game's lines."""
    if args and isinstance(args[0], str) and args[0].startswith("Audio saved to"):
        return
    kwargs["file"] = sys.stderr
    print(*args, **kwargs)


def _silence_drivers() -> None:
    """Shadow `print` in pyttsx3's loaded driver modules (that module only: a module
    global comes before the builtin)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("pyttsx3.drivers.") and module is not None:
            setattr(module, "print", _quiet_print)


class Speech:
    """One engine's view of speech: its rate, voice and sample rate. Rendering is done
    by the process-wide renderer (one pyttsx3 engine, one thread), shared by every
    Speech, because espeak-ng's settings are global to the process."""

    def __init__(self, sample_rate: int, rate: int = 175, voice: str = "",
                 notify: Callable[[str], None] = print):
        self.sample_rate = sample_rate
        self.rate = int(rate)
        self.voice = voice or ""
        self._notify = notify
        self._renderer = _Renderer.get()      # raises SpeechUnavailable

    def key(self, text: str) -> tuple:
        return (text.strip(), self.rate, self.voice, self.sample_rate)

    def cached(self, text: str) -> np.ndarray | None:
        return self._renderer.cached(self.key(text))

    def render_async(self, text: str, done: Callable[[np.ndarray], None],
                     priority: int = PRIORITY_SPEAK) -> None:
        """Render (or take from the cache) and call done(samples) on the renderer's thread."""
        self._renderer.submit(priority, self.key(text), done, self._notify)

    def render(self, text: str, timeout: float = 10.0) -> np.ndarray:
        """Render now and wait for it (tests, benchmarks)."""
        box: list[np.ndarray] = []
        got = threading.Event()

        def done(samples: np.ndarray) -> None:
            box.append(samples)
            got.set()
        self.render_async(text, done)

        if not got.wait(timeout):
            raise TimeoutError(f"speech not rendered within {timeout} s: {text!r}")
        return box[0]

    def prewarm(self, phrases) -> None:
        """Render fixed phrases ahead, behind anything that is to be spoken now."""
        for text in phrases:
            if text and text.strip():
                self.render_async(text, lambda samples: None, PRIORITY_PREWARM)

    def set_voice(self, rate: int, voice: str) -> None:
        self.rate, self.voice = int(rate), voice or ""

    def close(self) -> None:
        """Nothing to release: the renderer lives as long as the process (a daemon thread)."""


class _Renderer:
    """The process's one pyttsx3 engine, used only from its one thread."""

    _instance: "_Renderer | None" = None
    _instance_lock = threading.Lock()

    @classmethod
    def get(cls) -> "_Renderer":
        with cls._instance_lock:
            if cls._instance is None:
                cls._instance = cls()
            if cls._instance.error:
                raise SpeechUnavailable(cls._instance.error)
            return cls._instance

    def __init__(self):
        self.error: str | None = None
        self._cache: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._jobs: queue.PriorityQueue = queue.PriorityQueue()
        self._seq = itertools.count()
        self._ready = threading.Event()
        self._tmpdir = tempfile.mkdtemp(prefix="audio-console-tts-")
        atexit.register(shutil.rmtree, self._tmpdir, True)
        threading.Thread(target=self._work, name="tts", daemon=True).start()
        if not self._ready.wait(timeout=15):
            self.error = "speech is not available (pyttsx3 did not start within 15 s)"

    def cached(self, key: tuple) -> np.ndarray | None:
        with self._cache_lock:
            samples = self._cache.get(key)
            if samples is not None:
                self._cache.move_to_end(key)
            return samples

    def submit(self, priority: int, key: tuple, done, notify) -> None:
        self._jobs.put((priority, next(self._seq), key, done, notify))

    def _work(self) -> None:
        try:
            engine = open_driver()
            default_voice = engine.getProperty("voice")
            voices = engine.getProperty("voices")
            _silence_drivers()
        except Exception as error:   # no synthesiser, no driver: speech off, text goes on
            self.error = f"speech is not available ({error})"
            self._ready.set()
            return
        # A voice is named by its id, its name or its id's last part; SAPI5 takes ids only.
        voice_ids = {key: v.id for v in voices for key in (v.id.split("/")[-1], v.name, v.id)}
        bad_voices: set[str] = set()
        self._ready.set()
        current: tuple | None = None
        while True:
            _, _, key, done, notify = self._jobs.get()
            samples = self.cached(key)
            if samples is None:
                text, rate, voice, sample_rate = key
                try:
                    if current != (rate, voice):
                        # The voice first: espeak-ng resets the rate when the voice changes.
                        # pyttsx3 queues setProperty and swallows its errors, so the voice
                        # is checked against the list first.
                        if voice and voice not in voice_ids:
                            if voice not in bad_voices:   # say so once, speak with the default
                                bad_voices.add(voice)
                                notify(f"No voice called {voice!r}; using the default voice.")
                            use_voice = default_voice
                        else:
                            use_voice = voice_ids[voice] if voice else default_voice
                        _set_voice_now(engine, use_voice, max(80, min(450, rate)))
                        current = (rate, voice)
                    samples = self._synthesise(engine, text, sample_rate)
                except Exception as error:
                    notify(f"Speech failed for {text!r}: {error}")
                    samples = np.zeros(0, np.float32)
                else:
                    with self._cache_lock:
                        self._cache[key] = samples
                        while len(self._cache) > CACHE_SIZE:
                            self._cache.popitem(last=False)
            try:
                done(samples)
            except Exception:
                pass

    def _synthesise(self, engine, text: str, sample_rate: int) -> np.ndarray:
        # A new file for every phrase: under load pyttsx3's run loop can return before
        # espeak's thread has written the file, and a reused name would then hand us the
        # previous phrase. So wait for this file, complete, and try once more if it never comes.
        for attempt in range(2):
            suffix = ".aiff" if getattr(engine, "driver_name", "") == "nsss" else ".wav"   # Apple writes AIFF
            path = os.path.join(self._tmpdir, f"phrase-{next(self._seq)}{suffix}")
            engine.save_to_file(text, path)
            engine.runAndWait()
            try:
                rate, mono = read_complete(path, timeout=2.0)
            except TimeoutError:
                if attempt:
                    raise
                continue
            finally:
                try:
                    os.unlink(path)
                except OSError:
                    pass
            voice = resample(trim(mono, rate), rate, sample_rate)
            peak = np.abs(voice).max() if len(voice) else 0.0
            if peak > 0:
                voice *= SPEECH_PEAK / peak
            return voice.astype(np.float32)
        raise AssertionError("unreachable")


def _set_voice_now(engine, voice: str, rate: int) -> None:
    """Set voice, rate and volume so that they hold for the next phrase.

    pyttsx3 queues setProperty until its run loop pumps, and its run loop begins by
    calling espeak_Cancel, which throws away espeak-ng's own queue of parameter
    changes not yet applied: so the rate could silently stay as it was. Set them on
    the driver directly (the voice first: a new voice resets the rate) and wait for
    espeak-ng to apply them."""
    driver = getattr(getattr(engine, "proxy", None), "_driver", None)
    target = driver if driver is not None and hasattr(driver, "setProperty") else engine
    target.setProperty("voice", voice)
    target.setProperty("rate", rate)
    target.setProperty("volume", 1.0)
    if getattr(engine, "driver_name", "espeak") != "espeak":
        return      # SAPI5 and NSSpeechSynthesizer apply them at once
    try:
        from pyttsx3.drivers import _espeak
        _espeak.Synchronize()
    except Exception:
        pass


def trim(mono: np.ndarray, rate: int) -> np.ndarray:
    """Drop leading silence (it would only delay the answer) and most trailing silence."""
    loud = np.flatnonzero(np.abs(mono) > SILENCE)
    if len(loud) == 0:
        return mono[:0]
    start = max(0, loud[0] - int(0.002 * rate))
    end = min(len(mono), loud[-1] + int(KEEP_TAIL * rate))
    out = mono[start:end].copy()
    fade = min(len(out), int(0.003 * rate))   # no click at the cut
    out[:fade] *= np.linspace(0, 1, fade)
    return out


def resample(mono: np.ndarray, rate_in: int, rate_out: int) -> np.ndarray:
    """Band-limited resampling through the spectrum (fine for phrases of seconds)."""
    if rate_in == rate_out or len(mono) == 0:
        return mono
    n_out = int(round(len(mono) * rate_out / rate_in))
    spectrum = np.fft.rfft(mono)
    return np.fft.irfft(spectrum, n=n_out) * (n_out / len(mono))
