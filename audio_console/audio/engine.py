"""The audio engine: one output stream, one mixer, signals and speech together.

`AudioEngine` implements the SoundSink protocol (audio_console/output/sink.py).
It opens one persistent sounddevice OutputStream (stereo float32, 48000 Hz, or
44100 Hz when the device will not take 48000) whose callback asks the mixer for
each block, so a signal starts on the next block without opening anything.

By default everything plays in order in one queue: a message's signal, its speech,
the next message. `overlap=True` plays a sound at once, on top of whatever plays.
`stop()` cuts everything off at once (the player's "stop", or barge-in).

No PortAudio, no device, or a device lost mid-game: `notify(text)` once with a plain
message, then nothing plays (like NullSink); the game goes on in text. With --record
it renders on a virtual clock at real-time pace: the same recording without a device.
"""
from __future__ import annotations

import os
import threading
import time
from typing import Callable

import numpy as np

from audio_console.audio import signals as signal_table
from audio_console.audio.echo_reference import EchoReference
from audio_console.audio.mixer import Mixer, Sound
from audio_console.audio.portaudio import sounddevice_module
from audio_console.audio.recorder import WavRecorder, not_recorded, failure as recording_failure
from audio_console.audio.sonify import line_sonification
from audio_console.audio.tts import PRIORITY_SPEAK, Speech, SpeechUnavailable, resample

SAMPLE_RATES = (48000, 44100)
BLOCK = 256                 # frames per callback block: 5.3 ms at 48 kHz
DEVICE_ENV = "AUDIO_CONSOLE_DEVICE"   # a sounddevice device name or index (tests force a bad one)

def _latency_setting():
    """Seconds of output buffer. 40 ms by default because "low" (about 10 ms), though
    sooner, broke up while another Python thread was busy (docs/audio.md, "Measured
    figures")."""
    value = os.environ.get("AUDIO_CONSOLE_LATENCY", "0.04")
    try:
        return float(value)
    except ValueError:
        return value if value in ("low", "high") else 0.04


SILENT_TIMEOUT = 3.0        # seconds without a callback on a running stream: the device is gone
STARTED_BLOCKS = 50         # ... counted only once the stream runs: PulseAudio's start-up pause is ~2 s

NO_DEVICE_MESSAGE = "Sound is off: {why}. The game goes on in text."
LOST_DEVICE_MESSAGE = "Sound stopped: the audio device went away. The game goes on in text."


class AudioEngine:
    """Signals and speech through one device. Every method returns at once."""

    def __init__(self, settings=None, *, speech: bool = True, signals: bool = True,
                 record_path: str | None = None, notify: Callable[[str], None] = print,
                 device=None, sample_rate: int | None = None, blocksize: int = BLOCK,
                 use_device: bool = True):
        self._notify = notify
        self.signals_on = signals
        self.speech_on = speech
        self.timing = getattr(settings, "timing", "faithful")
        if self.timing not in signal_table.TIMINGS:
            self.timing = "faithful"
        self.blocksize = blocksize
        self._stream = None
        self._dead_stream = None
        self.underruns = 0          # output blocks the device missed (a busy machine): a gap, not a crash
        self._clock: threading.Thread | None = None
        self._closing = False
        self._lost = False
        self._last_callback = time.monotonic()
        self._callbacks = 0
        self._state_lock = threading.Lock()
        self._unknown_reported: set[str] = set()
        self.output = "none"      # "device", "virtual clock" (recording only), or "none"
        self.sample_rate = sample_rate or SAMPLE_RATES[0]

        device = os.environ.get(DEVICE_ENV, device) if device is None else device
        if use_device:
            why = self._open_stream(device, sample_rate)
            if why:
                self._notify(NO_DEVICE_MESSAGE.format(why=why))
        self.mixer = Mixer(self.sample_rate, volumes=_volumes(settings))
        # what the device is given, for the microphone's echo canceller (barge-in)
        self.echo_reference = EchoReference(self.sample_rate) if self._stream is not None else None
        self.recorder, self._not_recorded = None, None    # why --record records nothing, for the last line
        if record_path:
            try:
                self.recorder = WavRecorder(record_path, self.sample_rate, notify=notify)
            except OSError as error:   # one line; the sound stays on
                self._not_recorded = not_recorded(record_path, error)
                self._notify(recording_failure(record_path, error) + "; the game goes on, nothing is recorded.")
        self._fast = False          # finish(): the virtual clock renders the rest at once
        if self._stream is not None:
            try:
                self._stream.start()
                self.output = "device"
            except Exception as error:   # opened, but the device will not run
                self._notify(NO_DEVICE_MESSAGE.format(why=f"the audio device did not start ({_first_line(error)})"))
                _close_in_background(self._stream, wait=1.0)
                self._stream = None
        if self._stream is None and self.recorder is not None:
            self._start_clock()

        self.speech: Speech | None = None
        if speech and self.output != "none":
            try:
                self.speech = Speech(self.sample_rate, rate=getattr(settings, "speech_rate", 175),
                                     voice=getattr(settings, "voice", ""), notify=notify)
            except SpeechUnavailable as error:
                self._notify(f"{str(error).capitalize()}. Lines are printed; nothing is spoken.")

    # --- the SoundSink protocol ---
    def play_signal(self, name: str, side: int = 0, *, overlap: bool = False) -> Sound | None:
        if not self.signals_on or not self._playing():
            return None
        try:
            samples = signal_table.synthesise(name, side, self.timing, self.sample_rate)
        except (KeyError, ValueError) as error:
            if name not in self._unknown_reported:   # a bad name in a cue table: say so once, go on
                self._unknown_reported.add(name)
                self._notify(f"Sound: {error}")
            return None
        sound = Sound(name, samples)
        self.mixer.add(sound, overlap)
        return sound

    def speak(self, text: str, side: int = 0, *, overlap: bool = False) -> Sound | None:
        if not self.speech_on or self.speech is None or not text or not text.strip():
            return None
        if not self._playing():
            return None
        first, rest = (text, "") if overlap or self.speech.cached(text) is not None else first_part(text)
        sound = self._speak_part(first, side, overlap)
        if rest:   # rendered while the first part plays: a long line starts as soon as a short one
            self._speak_part(rest, side, overlap)
        return sound

    def _speak_part(self, text: str, side: int, overlap: bool) -> Sound:
        assert self.speech is not None
        sound = Sound("speech: " + text, kind="speech")
        cached = self.speech.cached(text)
        if cached is not None:
            sound.samples = _pan(cached, side)
            self.mixer.add(sound, overlap)
            return sound
        self.mixer.add(sound, overlap)   # holds its place in the queue while it renders

        def rendered(mono: np.ndarray) -> None:
            if not sound.cancelled:
                self.mixer.fill(sound, _pan(mono, side))
        self.speech.render_async(text, rendered, PRIORITY_SPEAK)
        return sound

    def play_samples(self, stereo, sample_rate: int, *, overlap: bool = False) -> Sound | None:
        if not self._playing():
            return None
        try:
            data = np.asarray(stereo, dtype=np.float32)
            if data.ndim == 1:
                data = np.repeat(data[:, None], 2, axis=1)
            if data.ndim != 2 or data.shape[1] != 2 or int(sample_rate) <= 0:
                raise ValueError(f"expected (n, 2) samples at a positive rate, got {data.shape} at {sample_rate}")
        except (TypeError, ValueError) as error:
            self._notify(f"Sound: cannot play these samples: {error}")
            return None
        if sample_rate != self.sample_rate:
            data = np.stack([resample(data[:, c], sample_rate, self.sample_rate) for c in (0, 1)], axis=1)
        sound = Sound("samples", np.ascontiguousarray(data, dtype=np.float32))
        self.mixer.add(sound, overlap)
        return sound

    def play_board_line(self, cells, rows: int, *, overlap: bool = False) -> Sound | None:
        """One row or column of a board as sound ("listen to row D"; sonify.py)."""
        stereo, rate = line_sonification(cells, rows=rows)
        return self.play_samples(stereo, rate, overlap=overlap)

    def prewarm(self, phrases) -> None:
        """Render fixed phrases ahead ("answer two", ...) so they are never late."""
        if self.speech is not None and self.speech_on:
            self.speech.prewarm(phrases)

    def stop(self) -> None:
        self.mixer.clear()

    def hold(self, on: bool) -> None:
        """Barge-in: silent at once while the player speaks over the console (on), or
        on again from where it was (off); stop() ends it too."""
        self.mixer.hold(on)

    def busy(self) -> bool:
        return self._playing() and not self.mixer.idle()

    def spoken_within(self, seconds: float) -> list[str]:
        """The lines the console was saying at some time in the last `seconds`."""
        return [label.removeprefix("speech: ") for label in self.mixer.sounded_within(seconds, "speech")]

    def wait_until_idle(self, timeout: float | None = None) -> None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self._playing() and not self.mixer.idle():
            left = 0.2 if deadline is None else min(0.2, deadline - time.monotonic())
            if left <= 0:
                return
            self.mixer.wait_until_idle(left)

    def finish(self, timeout: float) -> None:
        """At the end: the last line (the goodbye) plays for at most `timeout` seconds,
        a backlog before it is cut. Recording without a device, everything queued is
        rendered into the file at once, not in real time."""
        self._fast = True
        if self.output == "device":
            self.mixer.keep_last()
        self.wait_until_idle(timeout)
        if self.output == "virtual clock" and self.busy():
            self._notify("The recording ends here: the sound still queued was not recorded in time.")

    def apply_settings(self, settings) -> None:
        self.mixer.volumes = _volumes(settings)
        timing = getattr(settings, "timing", self.timing)
        if timing in signal_table.TIMINGS:
            self.timing = timing
        if self.speech is not None:
            self.speech.set_voice(getattr(settings, "speech_rate", self.speech.rate),
                                  getattr(settings, "voice", self.speech.voice))

    def recording_end(self) -> str | None:
        """The last line of a session whose --record did not record it all (None: it did)."""
        return self.recorder.end_line() if self.recorder is not None else self._not_recorded

    def close(self) -> None:
        deadline = time.monotonic() + 0.1
        while self.output != "none" and self.mixer.fading() and time.monotonic() < deadline:
            time.sleep(0.002)   # let a stop() fade finish, so a recording does not end in a click
        self._closing = True
        for stream in (self._stream, self._dead_stream):
            if stream is not None:
                _close_in_background(stream, wait=2.0)   # a broken host API must not hang the exit
        self._stream = self._dead_stream = None
        if self._clock is not None:
            self.mixer.clear()
            self._clock.join(timeout=2)
        if self.speech is not None:
            self.speech.close()
        if self.recorder is not None:
            self.recorder.close()

    # --- output: the device, or a virtual clock when recording without one ---
    def _open_stream(self, device, sample_rate) -> str | None:
        """Open the stream; on failure return why, in plain words."""
        try:
            sd = sounddevice_module()
        except (OSError, ImportError):
            return "the PortAudio library or sounddevice is not installed (Debian package libportaudio2)"
        except Exception as error:
            return f"sounddevice cannot start ({error})"
        if isinstance(device, str) and device.isdigit():
            device = int(device)
        last_error = "no audio output device"
        for rate in ([sample_rate] if sample_rate else SAMPLE_RATES):
            try:
                stream = sd.OutputStream(
                    samplerate=rate, channels=2, dtype="float32", blocksize=self.blocksize,
                    latency=_latency_setting(), device=device, callback=self._callback,
                    finished_callback=self._stream_finished)
            except Exception as error:
                last_error = f"no audio output device ({_first_line(error)})"
                continue
            self._stream = stream
            self.sample_rate = rate
            return None
        return last_error

    def _callback(self, outdata, frames, time_info, status) -> None:
        self._last_callback = time.monotonic()
        self._callbacks += 1
        if status.output_underflow:
            self.underruns += 1
        block, active = self.mixer.render(frames)
        outdata[:] = block
        if self.echo_reference is not None:
            self.echo_reference.write(block)
        if self.recorder is not None:         # sounds and the silences between, on the device's clock
            self.recorder.played(block if active else None, frames, time.monotonic(), status.output_underflow)

    def _stream_finished(self) -> None:
        # Called by PortAudio when the stream ends; it must not be closed from in here.
        if not self._closing:
            self._device_lost(from_stream=True)

    def _playing(self) -> bool:
        """True while sound goes somewhere; notices a device that went away."""
        stream = self._stream
        if stream is not None and not self._lost:
            silent_for = time.monotonic() - self._last_callback
            stalled = self._callbacks > STARTED_BLOCKS and silent_for > SILENT_TIMEOUT
            if not stream.active or stalled:
                self._device_lost()
        return self.output != "none"

    def _device_lost(self, from_stream: bool = False) -> None:
        with self._state_lock:
            if self._lost or self._closing:
                return
            self._lost = True
        self._notify(LOST_DEVICE_MESSAGE)
        stream, self._stream = self._stream, None
        self.output = "none"
        if from_stream:
            self._dead_stream = stream          # closed by close(), from the caller's thread
        elif stream is not None:
            _close_in_background(stream, wait=0)   # silent stream: it may be hung
        self.mixer.clear()
        if self.recorder is not None:
            self._start_clock()

    def _start_clock(self) -> None:
        self.output = "virtual clock"
        self._clock = threading.Thread(target=self._run_clock, name="audio-clock", daemon=True)
        self._clock.start()

    def _run_clock(self) -> None:
        """Render at real-time pace into the recorder; sleep while nothing is to be played."""
        recorder = self.recorder
        if recorder is None:        # started only for a recording
            return
        period = self.blocksize / self.sample_rate
        next_at = None         # when the last block rendered ends, on the real-time clock
        while not self._closing:
            if not self.mixer.wait_for_work(0.2):
                continue
            now = time.perf_counter()
            if next_at is not None and now > next_at:   # the silence since: the session's timeline
                recorder.add_silence(round((now - next_at) * self.sample_rate))
            next_at = now
            while not self._closing:
                block, active = self.mixer.render(self.blocksize)
                if not active:
                    break
                recorder.add(block)
                next_at += period

                delay = next_at - time.perf_counter()
                if delay > 0 and not self._fast:
                    time.sleep(delay)


FIRST_PART_MIN = 10     # characters before the first clause may end
REST_MIN = 24           # ... and after it: a short line is spoken whole


def first_part(text: str) -> tuple[str, str]:
    """A long line's first clause and the rest ("E7 answered 2," + "two ships
    sighted, earlier. Still your turn."): espeak takes about 60 ms per second of speech
    to render, so the first sound of a 17-second hint came a second late."""
    for at in range(FIRST_PART_MIN, len(text) - REST_MIN):
        if text[at] in ",.:;" and text[at + 1] == " ":
            return text[:at + 1], text[at + 2:]
    return text, ""


def _volumes(settings) -> dict[str, float]:
    """The volume of each kind of sound, from the settings (0.8 where unusable)."""
    return {kind: _volume(getattr(settings, name, 0.8))
            for kind, name in (("speech", "speech_volume"), ("signal", "signal_volume"))}


def _volume(value) -> float:
    try:
        return min(1.0, max(0.0, float(value)))
    except (TypeError, ValueError):
        return 0.8


def _pan(mono: np.ndarray, side: int) -> np.ndarray:
    left, right = signal_table._pan_gains(signal_table.SIDE_PAN.get(side, 0.0))
    if side == signal_table.CENTRE:
        left = right = 1.0   # speech in the centre at full level on both ears
    return np.stack([mono * left, mono * right], axis=1).astype(np.float32)


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def _close_in_background(stream, wait: float) -> None:
    """Abort and close a stream on a daemon thread, waiting at most `wait` seconds."""
    def close():
        try:
            stream.abort()
            stream.close()
        except Exception:
            pass
    thread = threading.Thread(target=close, name="audio-close", daemon=True)
    thread.start()
    if wait:
        thread.join(wait)
