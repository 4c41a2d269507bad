#!/usr/bin/env python3
"""Speech through the screen reader against the console's own voice: prints medians.

Needs a PulseAudio server (scripts/test starts one) and a screen reader prismatoid
finds (here speech-dispatcher, autospawned). A null sink of the bench's own takes
the sound (PULSE_SINK), and speech-dispatcher gets a runtime folder of the bench's
own, so a daemon of its own plays into that sink. Measures:

1. finding the screen reader (prismatoid's best backend, until `opened`): the first
   time (the daemon autospawned), then in new processes with it running;
2. a short line said -> sound arriving in the sink's monitor, through the screen
   reader; baseline in the same run: the console's own voice (AudioEngine.speak,
   rendered anew each time, and cached);
3. stop -> silence in the monitor, through the screen reader and the own voice.

Run: .venv/bin/python scripts/bench_screen_reader.py [--trials N]
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audio_console.audio.engine import AudioEngine  # noqa: E402
from audio_console.output.screen_reader import open_screen_reader  # noqa: E402
from audio_console.base.settings import Settings  # noqa: E402
from scripts.bench_audio import MonitorWatcher, median_ms, with_null_sink  # noqa: E402

LONG = "This is a long line about the board, row by row, that goes on and on for a while yet."


def pulse_server() -> str | None:
    info = subprocess.run(["pactl", "info"], capture_output=True, text=True).stdout
    return next((line.split(":", 1)[1].strip() for line in info.splitlines()
                 if line.startswith("Server String:")), None)


CHILD = ("import time; from audio_console.output.screen_reader import open_screen_reader; "
         "t = time.perf_counter(); reader, why = open_screen_reader(); reader.opened.wait(60); "
         "print(time.perf_counter() - t)")


def open_in_child() -> float:
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1], timeout=60)
    return float(done.stdout.strip().splitlines()[-1])


def run(sink: str, n: int) -> int:
    print(f"screen-reader bench: null sink {sink!r}; load average {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} cores")
    opened = []
    first = time.perf_counter()
    reader, why = open_screen_reader()
    if reader is not None:
        reader.opened.wait(60)
        why = reader.failed or why
    opened.append(time.perf_counter() - first)
    if reader is None or not reader.found:
        print("no screen reader:", why)
        return 1
    for _ in range(max(1, n // 2)):       # a new process, as a player's next start
        opened.append(open_in_child())
    print(f"screen reader: {reader.name}")
    print(f"open, daemon autospawned: {opened[0] * 1000:7.1f} ms")
    print(f"open, daemon running (a new process): {median_ms(opened[1:])}")

    engine = AudioEngine(Settings(), notify=print)
    watcher = MonitorWatcher(sink)
    said = {"screen reader": [], "own voice, rendered": [], "own voice, cached": []}
    stopped = {"screen reader": [], "own voice": []}
    for trial in range(n):
        line = f"D{trial % 9 + 1} answered {trial % 5}."      # new text each time: not cached
        for name, speak in [("screen reader", lambda: reader.say(line)),
                            ("own voice, rendered", lambda: engine.speak(line + " ")),
                            ("own voice, cached", lambda: engine.speak(line + " "))]:
            watcher.wait_silent(0.3)
            heard = watcher.measure(speak)
            if heard is not None:
                said[name].append(heard)
            time.sleep(1.5)
        for name, speak, stop in [("screen reader", lambda: reader.say(LONG), reader.stop),
                                  ("own voice", lambda: engine.speak(LONG), engine.stop)]:
            watcher.wait_silent(0.3)
            if watcher.measure(speak) is None:
                continue
            time.sleep(0.5)
            quiet = watcher.measure_silence(stop)
            if quiet is not None:
                stopped[name].append(quiet)
    print("a line said -> heard in the sink:")
    for name, values in said.items():
        print(f"  {name:20s} {median_ms(values)}")
    print("stop -> silent in the sink:")
    for name, values in stopped.items():
        print(f"  {name:20s} {median_ms(values)}")
    watcher.close()
    reader.close()
    engine.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=6)
    args = parser.parse_args()
    server = pulse_server()
    if server is None:
        print("no PulseAudio server: start one as scripts/setup.sh start_pulseaudio does")
        return 1
    runtime = tempfile.mkdtemp(prefix="sd-")   # speech-dispatcher's: a daemon of the bench's own
    os.environ.update(XDG_RUNTIME_DIR=runtime,
                      PULSE_SERVER=server if server.startswith("unix:") else f"unix:{server}")
    try:
        return with_null_sink("reader_bench", lambda sink: run(sink, args.trials))
    finally:
        shutil.rmtree(runtime, ignore_errors=True)

if __name__ == "__main__":
    raise SystemExit(main())
