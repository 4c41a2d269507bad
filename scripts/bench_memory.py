#!/usr/bin/env python3
"""Resident memory of the console with voice input on, once the speech model has
loaded, beside the same console with the keyboard only, and beside a baseline
revision's console in the same run.

    python scripts/bench_memory.py [--baseline REV] [--runs N] [--settle SECONDS] [--top N]
    python scripts/bench_memory.py --steps [--baseline REV] [--clips DIR]

Each console is a real `python -m audio_console --game galaxis --option 2 --text`
process (`--input voice`, then `--input keys`), with its own settings folder, its
stdin kept open. Once it has printed its first prompt, its resident set is read from
/proc every half second until it has grown by less than 1 MB over `--settle` seconds
(the decoder loads in the background after the first grammar is set); then it is
told `quit`. Printed per console: resident memory (RSS), its peak (VmHWM), the
proportional set (PSS: shared libraries divided among the processes using them) and
the largest mappings, which say what the memory is. The resident set of one console
varies from start to start by up to 20 MB (which thread's allocator heap holds what,
as the background load and the first grammar interleave): with --runs N each console
is started N times, alternately, and the medians are printed with the RSS range.
Voice input needs a microphone:
run it with PulseAudio up (scripts/setup.sh's start_pulseaudio). The baseline is the
package at REV (`git archive`), run from a temporary folder.

--steps says where the memory goes: in one process per tree, the voice input's parts
are loaded one after the other as play loads them (the console's modules,
PortAudio's device scan, Whisper's tokens, the keyword classifier, ONNX Runtime,
silero, the decoder, the encoder, then --clips DIR's first four clips decoded), and
after each step the resident set, its growth and the anonymous (not file) part of
the growth are printed, with the C allocator's free memory given back (malloc_trim)
before each reading, as the console does after its builds.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from scripts.bench_whisper_speed import baseline_tree  # noqa: E402

PROMPT = "Query 1:"        # the console's first prompt: the voice input was opened before it


def status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def pss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def largest_mappings(pid: int, top: int) -> list[tuple[str, int]]:
    """The `top` mapped files (or [anon], [heap]) by resident kB."""
    sizes: Counter[str] = Counter()
    name = ""
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        fields = line.split()
        if fields and not fields[0].endswith(":"):        # a mapping's header line
            name = Path(fields[5]).name if len(fields) > 5 else "[anon]"
        elif fields and fields[0] == "Rss:":
            sizes[name] += int(fields[1])
    return sizes.most_common(top)


def settled_rss(pid: int, settle: float, limit: float) -> int:
    """The resident set once it grows by under 1 MB over `settle` seconds."""
    history: list[tuple[float, int]] = []
    start = time.monotonic()
    while time.monotonic() - start < limit:
        now, rss = time.monotonic(), status_kb(pid, "VmRSS")
        history.append((now, rss))
        old = [r for t, r in history if now - t >= settle]
        if old and rss - old[-1] < 1024:
            return rss
        time.sleep(0.5)
    return history[-1][1]


def measure(tree: Path, voice: bool, settle: float, top: int) -> dict:
    """One console's memory, with voice input or the keyboard only."""
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as home:
        env = dict(os.environ, AUDIO_CONSOLE_HOME=home, PYTHONPATH=str(tree))
        process = subprocess.Popen(
            [sys.executable, "-m", "audio_console", "--game", "galaxis", "--option", "2", "--text",
             "--input", "voice" if voice else "keys", "--save", str(Path(home) / "game.json")],
            cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert process.stdin is not None and process.stdout is not None
        lines: list[str] = []
        prompted = threading.Event()

        def read(stream=process.stdout):
            for line in stream:
                lines.append(line.rstrip())
                if line.startswith(PROMPT):
                    prompted.set()

        threading.Thread(target=read, daemon=True).start()
        if not prompted.wait(120):
            process.kill()
            raise SystemExit(f"no prompt from the console in 120 s: {lines}")
        rss = settled_rss(process.pid, settle, limit=120)
        figures = {"rss": rss, "peak": status_kb(process.pid, "VmHWM"), "pss": pss_kb(process.pid),
                   "top": largest_mappings(process.pid, top),
                   "voice": next((line for line in lines if line.startswith("Voice")), "")}
        process.stdin.write("quit\n")
        process.stdin.close()
        process.wait(timeout=60)
        return figures


def step_worker(tree: str, clips: str | None) -> None:
    """In a process of its own: the package of `tree` (first on sys.path), each part
    loaded, then measured."""
    import ctypes
    sys.path.insert(0, tree)
    sys.path.insert(1, str(Path(__file__).resolve().parent))      # scripts/: old_layout
    from old_layout import alias_moved_modules
    alias_moved_modules()
    trim = ctypes.CDLL("libc.so.6").malloc_trim
    last = {"Rss": 0, "Anonymous": 0}

    def step(name: str) -> None:
        trim(0)
        now = {k: int(v.split()[0]) for k, v in (line.split(":", 1) for line in
               Path("/proc/self/smaps_rollup").read_text().splitlines()[1:])}
        print(f"{name}\t{now['Rss']}\t{now['Rss'] - last['Rss']}\t{now['Anonymous'] - last['Anonymous']}", flush=True)
        last.update(now)

    import numpy  # noqa: F401
    step("python and numpy")
    import audio_console.app.cli  # noqa: F401
    from audio_console.voice import whisper_engine  # noqa: F401
    step("the console's modules")
    try:
        from audio_console.audio.portaudio import sounddevice_module
    except ImportError:          # a tree before audio/portaudio.py
        import sounddevice
    else:
        sounddevice = sounddevice_module()
    sounddevice.query_devices(kind="input")
    step("PortAudio's device scan")
    from audio_console.voice.whisper_model import open_model
    model = open_model(None)
    step("Whisper's tokens (tokenizer)")
    from audio_console.voice.keywords import KeywordOpinion
    KeywordOpinion.load()
    step("keyword classifier")
    import onnxruntime  # noqa: F401
    step("ONNX Runtime's library")
    from audio_console.voice.vad import NeuralVad
    NeuralVad()
    step("silero's session")
    from audio_console.voice.whisper_decoder import WhisperDecoder
    from audio_console.voice.whisper_encoder import WhisperEncoder
    WhisperDecoder.load(model.path)
    step("Whisper's decoder")
    WhisperEncoder.load(model.path)
    step("Whisper's encoder")
    if clips:
        from audio_console.app.games import grammar_for_game
        from audio_console.voice.audio import wav_pcm16
        recognizer = whisper_engine.WhisperRecognizer()
        recognizer.set_grammar(grammar_for_game("galaxis"))
        for clip in sorted(Path(clips).glob("*.wav"))[:4]:
            recognizer.decode(wav_pcm16(clip))
        step("4 clips decoded")


def steps(trees: list[tuple[str, Path]], clips: str | None) -> None:
    """Each tree's steps side by side."""
    figures = {}
    for name, tree in trees:
        done = subprocess.run([sys.executable, __file__, "--step-worker", str(tree)]
                              + (["--clips", clips] if clips else []), cwd=tree, capture_output=True, text=True,
                              check=True)
        figures[name] = [line.split("\t") for line in done.stdout.splitlines() if line.count("\t") == 3]
    print(f"{'step':<30}" + "".join(f" {name[:24]:>24} (MB: RSS, +, +anon)" for name, _ in trees))
    for i, (step, *_) in enumerate(next(iter(figures.values()))):
        row = "".join(f" {int(f[i][1]) / 1024:19.0f} {int(f[i][2]) / 1024:+6.1f} {int(f[i][3]) / 1024:+6.1f}"
                      for f in figures.values())
        print(f"{step:<30}{row}")


def median_of(runs: list[dict]) -> dict:
    """The run of median RSS (its mappings), with every figure's median and the RSS range."""
    ordered = sorted(runs, key=lambda m: m["rss"])
    middle = dict(ordered[len(ordered) // 2])
    for key in ("rss", "peak", "pss"):
        middle[key] = statistics.median(m[key] for m in runs)
    middle["range"] = (ordered[0]["rss"], ordered[-1]["rss"])
    return middle


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", help="git revision to measure beside this checkout")
    ap.add_argument("--runs", type=int, default=1, help="starts of each console (medians printed)")
    ap.add_argument("--settle", type=float, default=5.0)
    ap.add_argument("--top", type=int, default=6, help="largest mappings to show")
    ap.add_argument("--steps", action="store_true", help="the voice input's parts, step by step, in one process")
    ap.add_argument("--clips", help="with --steps: a folder of clips, the first four decoded at the end")
    ap.add_argument("--step-worker", metavar="TREE", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.step_worker:
        step_worker(args.step_worker, args.clips)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as folder:
        trees = [("this checkout", ROOT)]
        if args.baseline:
            trees.insert(0, (f"baseline {args.baseline}", baseline_tree(args.baseline, Path(folder))))
        if args.steps:
            steps(trees, args.clips)
            return 0
        consoles = [(name, tree, voice) for voice in (True, False) for name, tree in trees]
        runs: dict[tuple, list[dict]] = {(name, voice): [] for name, _, voice in consoles}
        for _ in range(args.runs):          # alternately, so that the machine's load falls on both
            for name, tree, voice in consoles:
                runs[name, voice].append(measure(tree, voice, args.settle, args.top))
        print(f"{'console':<24} {'input':<6} {'RSS MB':>7} {'range':>9} {'peak MB':>8} {'PSS MB':>7}   "
              f"largest mappings (MB)")
        for name, _, voice in sorted(consoles, key=lambda c: (c[0] != trees[0][0], not c[2])):
            m = median_of(runs[name, voice])
            low, high = m["range"]
            top = ", ".join(f"{what} {kb / 1024:.0f}" for what, kb in m["top"])
            print(f"{name:<24} {'voice' if voice else 'keys':<6} {m['rss'] / 1024:7.0f} "
                  f"{f'{low / 1024:.0f}-{high / 1024:.0f}':>9} {m['peak'] / 1024:8.0f} {m['pss'] / 1024:7.0f}   {top}")
            if voice and m["voice"]:
                print(f"{'':<24} {m['voice']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
