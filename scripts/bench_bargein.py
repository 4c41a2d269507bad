#!/usr/bin/env python3
"""Barge-in: the player cuts the console off, with the speakers reaching the microphone.

The console runs as a player starts it (`--game galaxis --option 2 --input voice`,
speech into the default sink console_out); PulseAudio's module-loopback plays
console_out's monitor into the microphone sink console_mic at --db (-6 dB): a room
where the speakers reach the microphone. "hint" is typed (its spoken line lasts
15-18 s), and while the console speaks it, one of:
  stop   a real person's "stop" is played into the microphone (Speech Commands clips
         in tests/voice/real/bargein/, or with --stops CORPUS every real "stop" of a
         corpus made by make_real_corpus.py --kind words, one person each): the time
         from the end of that word to the console's output falling silent (the
         session's stop) is measured;
  other  (--others N) a real person's word that is no command ("up", "go", "off")
         from the same corpus: a false stop if the console takes it as one;
  point  the hinted point is said by a natural voice (hibari): it must be acted on
         (the query's line) while the hint was still being spoken;
  quiet  nobody talks: the line plays out; every utterance the console hears then is
         a false trigger (its own words heard as a command, or a "Say again").

On Linux this copy's console loads PulseAudio's module-echo-cancel itself between
console_out and console_mic's monitor (voice/server_echo_cancel.py; not with
AUDIO_CONSOLE_SERVER_ECHO=0); older copies use the in-process canceller.

--before DIR runs the same rounds, in blocks taking turns, with the console of an
older copy of the code (e.g. `git archive BASE | tar -x -C DIR`): before and after
measured in the same run. -v prints, per round, what the console's voice trace says:
the canceller's levels (reference, microphone, cleaned), Whisper's best phrase and
free transcript and what the trust layer did; --save FILE keeps them as JSON lines.

    python scripts/bench_bargein.py [--rounds 6] [--db -6] [--voice hibari:heart]
    python scripts/bench_bargein.py --stops CORPUS --others 10 --quiet-seconds 120 --before DIR -v
"""
from __future__ import annotations

import argparse
import json
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
from bench_barge_in_parts import (STOP_CLIPS, Recorder, SpeakersIntoMicrophone, corpus_clips,  # noqa: E402
                                  heard_within, pactl, play_into, silent_since, wait_for_sound)
from bench_voice_game import (HINT, MOVE, Console, ConsoleSound, TraceTail,  # noqa: E402
                              spoken_point, wait_for_silence)
from room import RATE, Voices, at_level, room_tone, stop_loop  # noqa: E402

from audio_console.voice.audio import write_wav  # noqa: E402

PLAYER_DB = -20.0
TRACED = ("how", "seconds", "action", "command", "best", "score", "margin", "no_speech", "transcript",
          "agrees", "second_look", "speed", "reference_db", "raw_db", "cleaned_db", "sounding", "removed_db",
          "room_db", "frames", "loudest_db_under_needed", "speech_db", "onset_db", "frames_db")


class Run:
    """One console (of the code in `code`, None: this copy), its output watched, its
    voice trace read."""

    def __init__(self, args, tmp: Path, code: Path | None, label: str):
        self.args, self.tmp, self.label = args, tmp, label
        home = Path(tempfile.mkdtemp(prefix=f"home-{label}-", dir=tmp))   # a new game each time: none to resume
        # long hints: a 15-second line to talk over (the short one is "Hint: D5.")
        (home / "settings.json").write_text('{"long_hints": true}')
        self.sound = ConsoleSound(args.out)
        self.trace = TraceTail(home / "voice.jsonl")
        self.home, self.started = home, time.monotonic()
        self.console = Console(args.seed, home, ["--voice-trace", str(home / "voice.jsonl")], code)
        self.records: list[dict] = []
        # --audio: what the microphone heard (the echo and the word), what was played,
        # and (once the console has loaded it) the sound server's canceller's output
        self.heard = {"mic": Recorder(f"{args.mic}.monitor"), "out": Recorder(f"{args.out}.monitor")} \
            if args.audio else {}

    def record_cleaned(self) -> None:
        """--audio: also the microphone as the console reads it, cleaned by the sound
        server's canceller it loaded (server_echo_cancel.py names it by its pid)."""
        source = f"audio_console_echo_{self.console.proc.pid}_source"
        if self.heard and "cleaned" not in self.heard and source in pactl("list", "short", "sources"):
            self.heard["cleaned"] = Recorder(source)

    def keep_audio(self, name: str, start: float, end: float) -> None:
        """The microphone, the cleaned microphone and the console's output from `start`
        to `end` (a file each)."""
        for part, recorder in self.heard.items():
            x = recorder.between(start, end).astype(np.float32) / 32768
            write_wav(Path(self.args.audio) / f"{self.label}-{name}-{part}.wav", x, RATE)

    def hint(self) -> str | None:
        """Types "hint"; returns its point once the console speaks it."""
        self.console.take()
        self.record_cleaned()
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

    def keep(self, kind: str, name: str, events: list, **fields) -> None:
        """One round's outcome and the trace's events in it (--save, -v)."""
        record = {"code": self.label, "kind": kind, "clip": name, **fields,
                  "at": round(time.monotonic() - self.started, 1),   # about the trace's "t" at the round's end
                  "events": [{k: e[k] for k in ("event", *TRACED) if k in e} for e in events]}
        self.records.append(record)
        if self.args.save:
            with open(self.args.save, "a") as f:
                f.write(json.dumps(record) + "\n")
        if self.args.verbose:
            print(f"  [{self.label}] {kind} {name}: {fields}", flush=True)
            for e in record["events"]:
                print(f"      {e}", flush=True)

    def close(self):
        self.console.close()
        if self.args.save and (self.home / "voice.jsonl").exists():   # the whole trace, timed, beside the rounds
            with open(f"{self.args.save}.{self.label}.voice.jsonl", "a") as f:
                f.write((self.home / "voice.jsonl").read_text())
        self.sound.close()
        for recorder in self.heard.values():
            recorder.close()


def events_after(run: Run, seconds: float = 10.0) -> list:
    """The trace's events until the first utterance decoded (at most `seconds`) and a
    moment more."""
    events: list = []
    heard_within(run.trace, seconds, seen=events)
    time.sleep(0.3)
    return events + run.trace.new()


def stop_round(run: Run, clip: Path, stats: dict) -> None:
    started = time.monotonic()
    ended = play_into(run.args.mic, clip)
    silent = silent_since(run.sound, ended)
    events = events_after(run)
    stopped = any(e.get("command") == "stop" for e in events)
    # not understood, but answered "Say again." (which also cuts the line off)
    said_again = not stopped and any(line.startswith("Say again") for _, line in run.console.take())
    run.keep_audio(clip.stem, started - 4.0, ended + 1.5)
    if silent is not None and stopped:
        stats["stop"].append(silent - ended)   # below 0: silent before the word ended (held at its onset)
    else:
        stats["stop missed"] += 1
        stats["stop missed, Say again"] += said_again
    run.keep("stop", clip.name, events, stopped=stopped, said_again=said_again,
             silent_ms=None if silent is None else round(1000 * (silent - ended)))


def other_round(run: Run, clip: Path, stats: dict) -> None:
    """A word that is no command, said over the hint: taken as stop (or anything) is false."""
    play_into(run.args.mic, clip)
    events = events_after(run)
    acted = [e.get("command") for e in events if e.get("event") == "heard" and e.get("command")]
    stats["others"] += 1
    stats["others as stop"] += "stop" in acted
    stats["others acted on"] += bool(acted)
    run.keep("other", clip.name, events, acted=acted)


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
    run.keep("point", point, run.trace.new(), acted=acted, while_it_spoke=sounding)


def quiet_round(run: Run, stats: dict) -> None:
    started = time.monotonic()
    wait_for_silence(run.console, run.sound, quiet=1.0)
    stats["quiet seconds"] += time.monotonic() - started
    events = run.trace.new()
    heard = [e for e in events if e.get("event") == "heard" and (e.get("command") or e.get("text"))]
    stats["false triggers"] += len(heard)
    stats["echo dropped"] += sum(e.get("event", "").startswith("the console's own echo") for e in events)
    stats["onsets"] += sum(e.get("event") == "speech began" for e in events)
    # the line held for its own voice: at an onset not traced as "not held", or when a
    # frame of the utterance grew loud (older copies trace neither: not counted)
    not_held = sum(e.get("event", "").startswith("onset over the console not held") for e in events)
    grew = sum(e.get("event") == "held when the word grew loud" for e in events)
    stats["holds traced"] |= bool(not_held or grew)
    stats["holds"] += sum(e.get("event") == "speech began" for e in events) - not_held + grew
    run.keep("quiet", "", events, false_triggers=len(heard))


def new_stats() -> dict:
    return {"stop": [], "stop missed": 0, "stop missed, Say again": 0,
            "points": 0, "points acted on": 0, "points said while it spoke": 0,
            "others": 0, "others as stop": 0, "others acted on": 0,
            "false triggers": 0, "echo dropped": 0, "onsets": 0, "holds": 0, "holds traced": False,
            "quiet seconds": 0.0}


def plan(args) -> list[tuple[str, Path | None]]:
    """The rounds, kinds taking turns: (kind, clip)."""
    if args.stops:
        stops = corpus_clips(Path(args.stops), "stop", args.count)
        others = corpus_clips(Path(args.stops), None, args.others)
    else:
        stops, others = [STOP_CLIPS[i % len(STOP_CLIPS)] for i in range(args.rounds)], []
    quiet = args.rounds if args.quiet_seconds is None else 0
    queues: list[list[tuple[str, Path | None]]] = [
        [("stop", c) for c in stops], [("point", None)] * args.rounds, [("quiet", None)] * quiet,
        [("other", c) for c in others]]
    tasks = []
    while any(queues):
        tasks += [q.pop(0) for q in queues if q]
    return tasks


def run_block(run: Run, tasks, voices: Voices, rng: random.Random, stats: dict, quiet_until: float) -> None:
    """The block's rounds on one console, then quiet lines until `quiet_until` seconds
    of nobody talking were heard (--quiet-seconds)."""
    tasks, failed = list(tasks), 0
    while (tasks or stats["quiet seconds"] < quiet_until) and failed < 3:
        kind, clip = tasks.pop(0) if tasks else ("quiet", None)
        point = run.hint()
        if point is None:
            failed += 1
            print(f"  [{run.label}] {kind}: the console did not speak a hint", flush=True)
            continue
        failed = 0
        time.sleep(rng.uniform(1.0, 4.0))
        if kind == "quiet":
            quiet_round(run, stats)
            continue
        if kind == "stop":
            stop_round(run, clip, stats)
        elif kind == "other":
            other_round(run, clip, stats)
        else:
            wav = run.tmp / f"{point}.wav"
            x = at_level(voices.say(spoken_point(point), run.args.voice), PLAYER_DB)
            write_wav(wav, np.concatenate([x, np.zeros(int(0.3 * RATE), np.float32)]), RATE)
            point_round(run, point, wav, stats)
        wait_for_silence(run.console, run.sound, quiet=1.0)
        run.trace.new()


def bench(args, voices: Voices, tmp: Path) -> tuple[dict, list]:
    """Every code's stats, its rounds in blocks taking turns with the other code's."""
    codes = {"new": None, **{Path(d).name: Path(d) for d in (args.before or "").split(",") if d}}
    stats = {label: new_stats() for label in codes}
    tasks, records = plan(args), []
    blocks = max(1, args.blocks if args.before else 1)
    size = -(-len(tasks) // blocks)
    loop = room_tone(tmp, args.mic)
    try:
        for b in range(blocks):
            for label, code in codes.items():
                rng = random.Random(args.seed * 100 + b)   # the same pauses for both codes
                run = Run(args, tmp, code, f"{label}")
                try:
                    time.sleep(args.startup)
                    wait_for_silence(run.console, run.sound)
                    run.trace.new()
                    quiet_until = (args.quiet_seconds or 0) * (b + 1) / blocks
                    run_block(run, tasks[b * size:(b + 1) * size], voices, rng, stats[label], quiet_until)
                finally:
                    run.close()
                    records += run.records
    finally:
        stop_loop(loop)
    return stats, records


def report(label: str, stats: dict, db: float) -> None:
    lat = stats["stop"]
    tried = len(lat) + stats["stop missed"]
    print(f"[{label}] speakers into the microphone at {db:g} dB")
    if lat:
        print(f"[{label}] stop: silenced and acted on {len(lat)}/{tried}, end of 'stop' -> output silent median "
              f"{1000 * statistics.median(lat):.0f} ms, worst {1000 * max(lat):.0f} ms "
              "(below 0: silent before the word ended)")
    else:
        print(f"[{label}] stop: silenced 0/{tried}")
    print(f"[{label}] stops not acted on but answered \"Say again.\" (the line cut off too): "
          f"{stats['stop missed, Say again']}/{stats['stop missed']}")
    print(f"[{label}] points said during a hint: acted on {stats['points acted on']}/{stats['points']} "
          f"(said while it still spoke: {stats['points said while it spoke']})")
    if stats["others"]:
        print(f"[{label}] other words said during a hint: taken as stop {stats['others as stop']}/{stats['others']}, "
              f"acted on at all {stats['others acted on']}")
    print(f"[{label}] false triggers with nobody talking: {stats['false triggers']} in {stats['quiet seconds']:.0f} s "
          f"of the console speaking; utterances begun: {stats['onsets']}, the line held for them: "
          f"{stats['holds'] if stats['holds traced'] or not stats['onsets'] else 'not traced'}, "
          f"dropped as its own echo: {stats['echo dropped']}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6, help="rounds of stop (without --stops), point and a quiet line")
    ap.add_argument("--db", type=float, default=-6.0, help="the speakers' level into the microphone")
    ap.add_argument("--voice", default="hibari:heart", help="the voice saying the points")
    ap.add_argument("--stops", help="a one-word corpus (make_real_corpus.py --kind words): its real stops")
    ap.add_argument("--count", type=int, default=40, help="at most this many of the corpus's stops")
    ap.add_argument("--others", type=int, default=0, help="this many of the corpus's non-command words too")
    ap.add_argument("--quiet-seconds", type=float, help="quiet lines until this many seconds (instead of --rounds)")
    ap.add_argument("--before", help="folders of older copies of the code (a,b), measured in the same run")
    ap.add_argument("--blocks", type=int, default=4, help="with --before: the codes take turns this many times")
    ap.add_argument("--save", help="every round's outcome and trace events, appended as JSON lines")
    ap.add_argument("--audio", help="a folder: what the microphone heard in each stop round, and the output")
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
        stats, records = bench(args, Voices(), Path(tmp))
    for label, one in stats.items():
        report(label, one, args.db)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
