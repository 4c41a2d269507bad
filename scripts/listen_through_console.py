"""bench_listen.py --console: what a player hears. The console runs as a player
starts it (a subprocess, `--input voice`, speech into the default sink); each command
is played into the microphone sink, said by natural voices and, with --real CORPUS,
by real people, and the time from the end of its speech to the first sound in the
output sink (its monitor watched) is measured, beside the time to its printed line."""
from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from audio_console.app.games import grammar_for_game
from audio_console.voice.audio import write_wav
from bench_barge_in_parts import trailing_silence
from bench_listen import PHRASES, SINK, _play, ms
from bench_voice_game import Console, ConsoleSound, TraceTail, brief, wait_for_silence
from room import RATE, Voices, at_level, room_tone, stop_loop


def through_console(args) -> int:
    """End of speech in the microphone sink -> the console's first sound in the output sink."""
    grammar = grammar_for_game("galaxis")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        clips = _console_clips(args, grammar, Voices(), tmp, at_level, RATE)
        loop = room_tone(tmp, SINK)
        sound = ConsoleSound(args.out)
        home = tmp / "home"
        home.mkdir()
        console = Console(1, home, ["--voice-trace", str(home / "voice.jsonl")])
        trace = TraceTail(home / "voice.jsonl")
        results: dict = defaultdict(lambda: {"sound": [], "line": [], "any": [], "right": 0, "n": 0})
        try:
            time.sleep(args.startup)
            wait_for_silence(console, sound)
            for source, wav, expected in clips:
                console.take()
                _play(wav)
                ended = time.monotonic() - trailing_silence(wav)
                lines = _answer(console, sound, wait_for_silence)
                first = sound.first_sound_after(ended)
                row = results[source]
                row["n"] += 1
                point = dict(grammar.parse(expected).values).get("point", "") if grammar.parse(expected) else ""
                right = [t for t, line in lines if point and line.startswith(point)]
                if lines and first is not None:
                    row["any"].append(first - ended)
                if right and first is not None:
                    row["right"] += 1
                    row["sound"].append(first - ended)
                    row["line"].append(right[0] - ended)
                if args.verbose:
                    at = [f"{1000 * (t - ended):.0f} ms" for t, _ in lines[:1]]
                    sounded = f"{1000 * (first - ended):.0f} ms" if first is not None else "-"
                    print(f"  {source} {expected}: first sound {sounded}, line {at}: {[line for _, line in lines]}")
                    for event in trace.new():
                        print(f"      [voice] {brief(event)}")
        finally:
            console.close()
            sound.close()
            stop_loop(loop)
    print(f"{'speaker':<13} | {'acted on':>8} | {'first sound median':>18} {'worst':>7} | {'line printed':>12} | "
          f"{'any answer: first sound':>23}")
    for source, row in results.items():
        med = (lambda v: ms(statistics.median(v)) if v else "     -")
        worst = ms(max(row["sound"])) if row["sound"] else "     -"
        print(f"{source:<13} | {row['right']:>3}/{row['n']:<4} | {med(row['sound']):>18} {worst:>7} | "
              f"{med(row['line']):>12} | {med(row['any']):>15} ({len(row['any'])})")
    print("end of speech in the microphone sink -> the console's first sound in the output sink (its monitor, "
          "30 ms blocks) and -> its line on stdout, for the points acted on as said; any answer: also a question "
          "or a say-again")
    return 0


def _answer(console, sound, wait_for_silence) -> list:
    """The console's lines after an utterance (up to 4 s for the first, then until it
    fell silent); a question ("Did you say ...?") is answered "no" on the keyboard."""
    deadline = time.monotonic() + 4.0
    lines: list = []
    while time.monotonic() < deadline and not lines:
        time.sleep(0.02)
        lines = console.take()
    wait_for_silence(console, sound, quiet=0.8, limit=20)
    lines += console.take()
    if any(line.startswith("Did you say") for _, line in lines):
        console.proc.stdin.write("no\n")
        console.proc.stdin.flush()
        time.sleep(0.5)
        wait_for_silence(console, sound, quiet=0.8, limit=20)
        console.take()
    return lines


def _console_clips(args, grammar, voices, tmp: Path, at_level, rate: int) -> list:
    """(source, wav, expected command) to play, --count of each source in turn: each
    --voice saying PHRASES' points and, with --real, the corpus's clean point clips
    (one per speaker first, so that many people are heard)."""
    sources = []
    points = [p for p in PHRASES if p.split()[0] in POINT_WORDS]
    for voice in args.voice.split(","):
        clips = []
        for i, phrase in enumerate(points[: args.count]):
            wav = tmp / f"{voice.replace(':', '_')}{i}.wav"
            x = at_level(voices.say(phrase, voice), -20.0)
            write_wav(wav, np.concatenate([x, np.zeros(int(0.3 * rate), np.float32)]), rate)
            clips.append((voice, wav, grammar.parse(phrase).text))
        sources.append(clips)
    if args.real:
        rows = [json.loads(line) for line in (Path(args.real) / "manifest.jsonl").read_text().splitlines()]
        rows = [r for r in rows if r.get("degradation") == "clean" and str(r.get("expected") or "").startswith("query")]
        by_speaker: dict = {}
        for r in rows:
            by_speaker.setdefault(r["speaker"], r)
        sources.append([("real", Path(r["file"]), r["expected"]) for r in list(by_speaker.values())[: args.count]])
    return [clip for turn in zip(*sources) for clip in turn]


POINT_WORDS = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"}
