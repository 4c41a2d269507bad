#!/usr/bin/env python3
"""Barge-in: the player cuts the console off, with the speakers reaching the microphone.

The console runs as a player starts it (`--game galaxis --option 2 --input voice`,
speech into the default sink console_out); PulseAudio's module-loopback plays
console_out's monitor into the microphone sink console_mic at --db (-6 dB): a room
where the speakers reach the microphone. "hint" is typed (its spoken line lasts
15-18 s), and while the console speaks it, in turn:
  stop   a real person's "stop" (Speech Commands clips in tests/voice/real/bargein/)
         is played into the microphone: the time from the end of that word to the
         console's output falling silent (the session's stop) is measured;
  point  the hinted point is said by a natural voice (hibari): it must be acted on
         (the query's line) while the hint was still being spoken;
  quiet  nobody talks: the line plays out; every utterance the console hears then is
         a false trigger (its own words heard as a command, or a "Say again").

Prints the stop latency median and worst, points acted on, false triggers in the
quiet lines (and the echo utterances dropped as the console's own), and the same
for --no-echo-cancel (the console deaf while it speaks, as before) if asked.

    python scripts/bench_bargein.py [--rounds 6] [--db -6] [--voice hibari:heart]
"""
from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_barge_in_parts import (STOP_CLIPS, SpeakersIntoMicrophone, heard_within, play_into,  # noqa: E402
                                  silent_since, wait_for_sound)
from bench_voice_game import (HINT, MOVE, Console, ConsoleSound, TraceTail,  # noqa: E402
                              spoken_point, wait_for_silence)
from room import RATE, Voices, at_level, room_tone, stop_loop  # noqa: E402

from audio_console.voice.audio import write_wav  # noqa: E402

PLAYER_DB = -20.0


class Run:
    """One console, its output watched, its voice trace read."""

    def __init__(self, args, tmp: Path):
        self.args, self.tmp = args, tmp
        home = tmp / "home"
        home.mkdir(exist_ok=True)
        # long hints: a 15-second line to talk over (the short one is "Hint: D5.")
        (home / "settings.json").write_text('{"long_hints": true}')
        self.sound = ConsoleSound(args.out)
        self.trace = TraceTail(home / "voice.jsonl")
        self.console = Console(args.seed, home, ["--voice-trace", str(home / "voice.jsonl")])

    def hint(self) -> str | None:
        """Types "hint"; returns its point once the console speaks it."""
        self.console.take()
        typed = time.monotonic()
        self.console.proc.stdin.write("hint\n")
        self.console.proc.stdin.flush()
        if not wait_for_sound(self.sound, typed):
            return None
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            for _, line in self.console.take():
                m = HINT.match(line)
                if m:
                    return m.group(1)
            time.sleep(0.02)
        return None

    def close(self):
        self.console.close()
        self.sound.close()


def stop_round(run: Run, clip: Path, stats: dict) -> None:
    ended = play_into(run.args.mic, clip)
    silent = silent_since(run.sound, ended)
    heard = heard_within(run.trace, 5.0)
    stopped = any(e.get("command") == "stop" for e in heard)
    if silent is not None and stopped:
        stats["stop"].append(silent - ended)   # below 0: silent before the word ended (held at its onset)
    else:
        stats["stop missed"] += 1
    if run.args.verbose:
        print(f"  stop {clip.name}: silent after {'-' if silent is None else f'{1000 * (silent - ended):.0f} ms'}, "
              f"heard {[(e.get('command'), e.get('transcript')) for e in heard]}")


def point_round(run: Run, point: str, wav: Path, stats: dict) -> None:
    sounding = time.monotonic() - run.sound.last_sound < 0.2   # the hint is still being spoken
    play_into(run.args.mic, wav)
    deadline, acted = time.monotonic() + 4, False
    while time.monotonic() < deadline and not acted:
        acted = any(MOVE.match(line) and line.startswith(point) for _, line in run.console.take())
        time.sleep(0.02)
    stats["points"] += 1
    stats["points acted on"] += acted
    stats["points said while it spoke"] += sounding
    if run.args.verbose:
        heard = [(e.get("command"), e.get("transcript")) for e in run.trace.new() if e.get("event") == "heard"]
        print(f"  point {point}: acted on {acted}, said while it spoke {sounding}, heard {heard}")


def quiet_round(run: Run, stats: dict) -> None:
    started = time.monotonic()
    wait_for_silence(run.console, run.sound, quiet=1.0)
    stats["quiet seconds"] += time.monotonic() - started
    events = run.trace.new()
    heard = [e for e in events if e.get("event") == "heard" and (e.get("command") or e.get("text"))]
    stats["false triggers"] += len(heard)
    stats["echo dropped"] += sum(e.get("event", "").startswith("the console's own echo") for e in events)
    stats["onsets"] += sum(e.get("event") == "speech began" for e in events)   # each one held the line
    if run.args.verbose:
        print(f"  quiet line: heard {[(e.get('command'), e.get('transcript')) for e in heard]}")


def bench(args, voices: Voices, tmp: Path) -> dict:
    stats = {"stop": [], "stop missed": 0, "points": 0, "points acted on": 0, "points said while it spoke": 0,
             "false triggers": 0, "echo dropped": 0, "onsets": 0, "quiet seconds": 0.0}
    rng = random.Random(args.seed)
    loop = room_tone(tmp, args.mic)
    run = Run(args, tmp)
    try:
        time.sleep(args.startup)
        wait_for_silence(run.console, run.sound)
        run.trace.new()
        for i in range(args.rounds):
            for kind in ("stop", "point", "quiet"):
                point = run.hint()
                if point is None:
                    print(f"  round {i} {kind}: the console did not speak a hint", flush=True)
                    continue
                time.sleep(rng.uniform(1.0, 4.0))
                if kind == "stop":
                    stop_round(run, STOP_CLIPS[i % len(STOP_CLIPS)], stats)
                elif kind == "point":
                    wav = tmp / f"{point}.wav"
                    x = at_level(voices.say(spoken_point(point), args.voice), PLAYER_DB)
                    write_wav(wav, np.concatenate([x, np.zeros(int(0.3 * RATE), np.float32)]), RATE)
                    point_round(run, point, wav, stats)
                else:
                    quiet_round(run, stats)
                    continue
                wait_for_silence(run.console, run.sound, quiet=1.0)
                run.trace.new()
    finally:
        run.close()
        stop_loop(loop)
    return stats


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6, help="rounds of stop, point and a quiet line")
    ap.add_argument("--db", type=float, default=-6.0, help="the speakers' level into the microphone")
    ap.add_argument("--voice", default="hibari:heart", help="the voice saying the points")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mic", default="console_mic")
    ap.add_argument("--out", default="console_out")
    ap.add_argument("--startup", type=float, default=8.0)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if subprocess.run(["pactl", "info"], capture_output=True).returncode != 0:
        print("no PulseAudio server: run scripts/setup.sh's start_pulseaudio first", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp, SpeakersIntoMicrophone(args.out, args.mic, args.db):
        stats = bench(args, Voices(), Path(tmp))
    lat = stats["stop"]
    tried = len(lat) + stats["stop missed"]
    print(f"speakers into the microphone at {args.db:g} dB, {args.rounds} rounds")
    if lat:
        print(f"stop: silenced and acted on {len(lat)}/{tried}, end of 'stop' -> output silent median "
              f"{1000 * statistics.median(lat):.0f} ms, worst {1000 * max(lat):.0f} ms "
              "(below 0: silent before the word ended)")
    else:
        print(f"stop: silenced 0/{tried}")
    print(f"points said during a hint: acted on {stats['points acted on']}/{stats['points']} "
          f"(said while it still spoke: {stats['points said while it spoke']})")
    print(f"false triggers with nobody talking: {stats['false triggers']} in {stats['quiet seconds']:.0f} s "
          f"of the console speaking; utterances begun (each held the line until dropped): {stats['onsets']}, "
          f"dropped as its own echo: {stats['echo dropped']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
