#!/usr/bin/env python3
"""How fast does the console answer with sound? Prints medians, with baselines from the same run.

Needs a PulseAudio server (scripts/test starts one). The bench loads a null sink of
its own for the run (PULSE_SINK points this process and its children at it), so
nothing else playing on the machine is measured by mistake. Measures:

1. event -> first sample in the output callback (the engine's own clock):
   a signal (answer_1), a short spoken answer uncached and cached;
   baseline: a new output stream per sound (what sd.play() does) -> its first callback.
2. event -> sound arriving in the sink's monitor (end to end, read with parec in
   small chunks; includes the output buffer and about 10 ms of capture):
   engine signal and speech; baselines sd.play() and pyttsx3 say() + runAndWait()
   (which plays through aplay).

Run: .venv/bin/python scripts/bench_audio.py [--trials N]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from audio_console.audio.engine import AudioEngine  # noqa: E402
from audio_console.audio.signals import synthesise  # noqa: E402
from audio_console.base.settings import Settings  # noqa: E402

RATE = 48000
WORDS = ["zero", "one", "two", "three", "four"]


def median_ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    ms = [v * 1000 for v in values]
    return f"{statistics.median(ms):7.1f} ms (min {min(ms):.1f}, max {max(ms):.1f}, n={len(ms)})"


def wait_first_sample(sound, timeout=5.0) -> float | None:
    end = time.perf_counter() + timeout
    while sound.first_sample_at is None:
        if time.perf_counter() > end:
            return None
        time.sleep(0.0002)
    return sound.first_sample_at


class MonitorWatcher:
    """Reads the sink's monitor in 2.5 ms chunks; notes when sound first arrives after arm()."""

    def __init__(self, sink: str, threshold: float = 0.02):
        self.threshold = threshold
        self.proc = subprocess.Popen(
            ["parec", "-d", f"{sink}.monitor", "--format=float32le", f"--rate={RATE}", "--channels=2",
             "--raw", "--latency-msec=5"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        self._armed = False
        self._quiet_armed = False
        self._quiet_run = 0
        self._quiet_needed = 20   # chunks of 2.5 ms: 50 ms of silence, a gap speech has not inside a word
        self.heard_at: float | None = None
        self.quiet_at: float | None = None
        self._heard = threading.Event()
        self._quiet = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        time.sleep(0.5)

    def _read(self):
        chunk = 120 * 8
        while True:
            data = self.proc.stdout.read(chunk)
            if not data:
                return
            x = np.frombuffer(data[:len(data) // 4 * 4], "<f4")
            if self._quiet_armed and len(x):
                # silent for QUIET_RUN chunks in a row: note when the run began
                if np.abs(x).max() < self.threshold / 4:
                    self._quiet_run += 1
                    if self._quiet_run == 1:
                        self.quiet_at = time.perf_counter()
                    if self._quiet_run >= self._quiet_needed:
                        self._quiet_armed = False
                        self._quiet.set()
                else:
                    self._quiet_run = 0
            if self._armed:
                if len(x) and np.abs(x).max() > self.threshold:
                    self.heard_at = time.perf_counter()
                    self._armed = False
                    self._heard.set()

    def measure(self, trigger, timeout=5.0) -> float | None:
        self._heard.clear()
        self.heard_at = None
        self._armed = True
        t0 = time.perf_counter()
        trigger()
        if not self._heard.wait(timeout):
            self._armed = False
            return None
        return self.heard_at - t0

    def measure_silence(self, trigger, timeout=5.0, run=0.05) -> float | None:
        """Time from trigger() to the start of the first `run` seconds of silence."""
        self._quiet.clear()
        self._quiet_run = 0
        self._quiet_needed = max(1, int(run / 0.0025))
        t0 = time.perf_counter()
        self._quiet_armed = True
        trigger()
        if not self._quiet.wait(timeout):
            self._quiet_armed = False
            return None
        return self.quiet_at - t0

    def wait_silent(self, seconds=0.3, timeout=10.0) -> None:
        """Wait until the sink has been silent for `seconds` (the last sound really ended)."""
        self.measure_silence(lambda: None, timeout, run=seconds)

    def close(self):
        self.proc.terminate()
        self.proc.wait(5)


def new_stream_first_callback(samples: np.ndarray) -> float | None:
    """Baseline: open a stream for one sound (as sd.play does); time to its first callback."""
    import sounddevice as sd
    first: list[float] = []
    pos = [0]

    def callback(outdata, frames, time_info, status):
        if not first:
            first.append(time.perf_counter())
        chunk = samples[pos[0]:pos[0] + frames]
        outdata[:len(chunk)] = chunk
        outdata[len(chunk):] = 0
        pos[0] += frames
        if pos[0] >= len(samples):
            raise sd.CallbackStop

    t0 = time.perf_counter()
    stream = sd.OutputStream(samplerate=RATE, channels=2, dtype="float32", callback=callback)
    stream.start()
    while not first and time.perf_counter() - t0 < 5:
        time.sleep(0.0002)
    result = first[0] - t0 if first else None
    time.sleep(len(samples) / RATE + 0.05)
    stream.close()
    return result


def quiet_pause(engine, seconds=0.15, watcher=None):
    engine.wait_until_idle(10)
    if watcher is not None:
        watcher.wait_silent(seconds)
    time.sleep((0 if watcher else seconds) + np.random.uniform(0, 0.01))   # vary the phase against the callback


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--latency", help="engine output buffer: seconds, or low/high "
                        "(default: AUDIO_CONSOLE_LATENCY, else 0.04)")
    args = parser.parse_args()
    n = args.trials
    if args.latency:
        os.environ["AUDIO_CONSOLE_LATENCY"] = args.latency   # read when the engine opens its stream

    return with_null_sink("audio_bench", lambda sink: run(sink, n))


def with_null_sink(prefix: str, run_in) -> int:
    """run_in(sink) with a null sink of this run's own as the default (PULSE_SINK)."""
    if subprocess.run(["pactl", "info"], capture_output=True).returncode != 0:
        print("no PulseAudio server: start one as scripts/setup.sh start_pulseaudio does")
        return 1
    sink = f"{prefix}_{os.getpid()}"
    loaded = subprocess.run(["pactl", "load-module", "module-null-sink", f"sink_name={sink}"],
                            capture_output=True, text=True)
    if loaded.returncode != 0:
        print("could not load a null sink:", loaded.stderr.strip())
        return 1
    os.environ["PULSE_SINK"] = sink
    try:
        return run_in(sink)
    finally:
        subprocess.run(["pactl", "unload-module", loaded.stdout.strip()], capture_output=True)


def time_first_samples(engine: AudioEngine, n: int) -> None:
    """1. event -> first sample in the output callback: a signal, short speech
    uncached and cached, and the baseline of a new stream per sound."""
    signal = []
    for _ in range(n):
        t0 = time.perf_counter()
        sound = engine.play_signal("answer_1")
        at = wait_first_sample(sound)
        if at is not None:
            signal.append(at - t0)
        quiet_pause(engine)
    uncached, cached = [], []
    for i in range(n):
        phrase = f"{'ABCDEFG'[i % 7]}{i % 9 + 1}, answer {WORDS[i % 5]}"
        if engine.speech.cached(phrase) is not None:
            phrase += " again"
        t0 = time.perf_counter()
        at = wait_first_sample(engine.speak(phrase))
        if at is not None:
            uncached.append(at - t0)
        quiet_pause(engine)
        t0 = time.perf_counter()
        at = wait_first_sample(engine.speak(phrase))
        if at is not None:
            cached.append(at - t0)
        quiet_pause(engine)
    baseline_stream = [v for v in (new_stream_first_callback(synthesise("answer_1", 0, "quick") * 0.8)
                                   for _ in range(max(3, n // 2))) if v is not None]

    print("\n1. event -> first sample in the output callback")
    print(f"  engine signal (answer_1)            {median_ms(signal)}   target < 30 ms")
    print(f"  engine speech, short answer, uncached {median_ms(uncached)}   target < 150 ms")
    print(f"  engine speech, short answer, cached   {median_ms(cached)}")
    print(f"  baseline: new stream per sound (sd.play) {median_ms(baseline_stream)}")


def time_engine_monitor(engine: AudioEngine, watcher: MonitorWatcher, n: int):
    """Event -> sound in the monitor for a signal, new speech and the same speech
    again; then stop() mid-sentence -> silence."""
    e2e_signal, e2e_speech, e2e_cached = [], [], []
    for i in range(n):
        v = watcher.measure(lambda: engine.play_signal("answer_1"))
        if v is not None:
            e2e_signal.append(v)
        quiet_pause(engine, 0.3, watcher)
        phrase = f"{'GFEDCBA'[i % 7]}{9 - i % 9}, answer {WORDS[(i + 2) % 5]} now"
        v = watcher.measure(lambda: engine.speak(phrase))
        if v is not None:
            e2e_speech.append(v)
        quiet_pause(engine, 0.3, watcher)
        v = watcher.measure(lambda: engine.speak(phrase))
        if v is not None:
            e2e_cached.append(v)
        quiet_pause(engine, 0.3, watcher)
    e2e_stop = []
    long_phrase = "Team one searches. D 5 answers two. E 6 answers three. Team two, your turn."
    engine.speech.render(long_phrase)
    for _ in range(max(3, n // 2)):
        engine.speak(long_phrase)
        time.sleep(0.6)                    # in the middle of the sentence
        v = watcher.measure_silence(engine.stop)
        if v is not None:
            e2e_stop.append(v)
        quiet_pause(engine, 0.3, watcher)
    return e2e_signal, e2e_speech, e2e_cached, e2e_stop


def time_sd_play(watcher: MonitorWatcher, n: int) -> list[float]:
    """The baseline of sd.play() per sound: event -> sound in the monitor."""
    import sounddevice as sd
    beep = synthesise("answer_1", 0, "quick") * 0.8
    e2e_sdplay = []
    for _ in range(max(3, n // 2)):
        v = watcher.measure(lambda: sd.play(beep, RATE))
        if v is not None:
            e2e_sdplay.append(v)
        sd.wait()
        watcher.wait_silent()
    return e2e_sdplay


def time_pyttsx3(watcher: MonitorWatcher, n: int) -> tuple[list[float], list[float]]:
    """pyttsx3's own playback (say + runAndWait through aplay), in a process of its
    own: event -> sound in the monitor, and how long each call holds the caller."""
    watcher.wait_silent()
    say = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, pyttsx3\n"
         "e = pyttsx3.init()\n"
         "for line in sys.stdin:\n"
         "    e.say(line.strip()); e.runAndWait(); print('done', flush=True)\n"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    e2e_say, say_blocks = [], []
    for i in range(max(3, n // 2)):
        phrase = f"{'ABCDEFG'[i % 7]}{i % 9 + 1}, answer {WORDS[i % 5]}"
        t0 = time.perf_counter()
        v = watcher.measure(lambda: (say.stdin.write(phrase + "\n"), say.stdin.flush()))
        say.stdout.readline()
        say_blocks.append(time.perf_counter() - t0)
        if v is not None:
            e2e_say.append(v)
        watcher.wait_silent()
    say.stdin.close()
    say.wait(10)
    return e2e_say, say_blocks


def run(sink: str, n: int) -> int:
    print(f"audio bench: PulseAudio null sink {sink!r}; load average {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} cores")

    messages: list[str] = []
    engine = AudioEngine(Settings(), notify=messages.append)
    if engine.output != "device":
        print("no audio device:", messages)
        return 1
    print(f"engine: {engine.sample_rate} Hz, block {engine.blocksize} frames "
          f"({engine.blocksize / engine.sample_rate * 1000:.1f} ms), "
          f"stream output latency {engine._stream.latency * 1000:.1f} ms")
    engine.play_signal("prompt")     # the stream's start-up (about 1 s through PulseAudio) is not an event
    quiet_pause(engine, 0.5)

    time_first_samples(engine, n)
    # 2. event -> sound in the sink's monitor (end to end)
    watcher = MonitorWatcher(sink)
    e2e_signal, e2e_speech, e2e_cached, e2e_stop = time_engine_monitor(engine, watcher, n)
    engine.close()
    e2e_sdplay = time_sd_play(watcher, n)
    e2e_say, say_blocks = time_pyttsx3(watcher, n)
    watcher.close()

    print("\n2. event -> sound in the sink's monitor (end to end, includes output buffering)")
    print(f"  engine signal (answer_1)              {median_ms(e2e_signal)}")
    print(f"  engine speech, short answer, uncached {median_ms(e2e_speech)}")
    print(f"  engine speech, short answer, cached   {median_ms(e2e_cached)}")
    print(f"  baseline: sd.play() per sound         {median_ms(e2e_sdplay)}")
    print(f"  baseline: pyttsx3 say()+runAndWait()  {median_ms(e2e_say)}")
    print("\n3. stop")
    print(f"  engine: stop() mid-sentence -> silence in the monitor {median_ms(e2e_stop)}")
    print(f"  baseline: say()+runAndWait() cannot be stopped; it holds the caller for "
          f"{median_ms(say_blocks)} per short phrase (engine.speak returns at once)")
    print(f"\nload average after the run: {os.getloadavg()[0]:.2f}")
    if messages:
        print("engine messages:", messages)
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
