#!/usr/bin/env python3
"""A whole Galaxis game by voice alone, through the PulseAudio microphone sink.

The console runs as a player would start it (`--game galaxis --option 2 --input
voice`, speech on, into the default sink, e.g. console_out); a natural voice
(hibari-tts, or flite) plays the player into the null sink `--mic` (console_mic,
whose monitor is the console's microphone): it says "hint", waits for the console's
answer, says the hinted point ("delta five"), answers "Did you say ...?" by voice
(yes if it is the point meant, no otherwise), and waits for the console to fall
silent each time (its sound is watched on the default sink's monitor). With
`--chatter DB` three synthetic voices talk without pause DB dB below the player,
played into the same microphone sink, for the whole game. Every room also has a faint
room tone (white noise at room.ROOM_TONE_DB dBFS), as a real microphone always hears a
little: a null sink's monitor is exact zeros when nothing plays, which the console
rightly takes for a muted microphone after 8 s. With `--speakers DB` the console's
output also reaches the microphone (PulseAudio module-loopback from the output sink's
monitor into the microphone sink at DB dB, -6 in issue 28): a room without headphones,
where the console must cancel its own echo to hear the player.

Prints: utterances said, acted on as said, wrong acted on (wrong moves counted
apart), confirmations asked, "Say again"s, silences (nothing heard), whether the game
finished, and the end of speech -> the console's line median.

    python scripts/bench_voice_game.py [--chatter 10] [--voice hibari:heart] [--seed 1]
    python scripts/bench_voice_game.py --rooms quiet,10      # both games, one after the other
    python scripts/bench_voice_game.py --rooms hiss10        # steady hiss 10 dB below the player
    python scripts/bench_voice_game.py --rooms quiet,10 --speakers -6   # the speakers in the microphone
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from room import RATE, Voices, at_level, chatter, in_a_loop, room_tone, stop_loop  # noqa: E402
from bench_barge_in_parts import SpeakersIntoMicrophone  # noqa: E402

from audio_console.voice.audio import write_wav  # noqa: E402
from audio_console.app.games import grammar_for_game  # noqa: E402

GRAMMAR = grammar_for_game("galaxis")

PLAYER_DB = -20.0
PHONETIC = dict(zip("ABCDEFG", ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"]))
NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
MOVE = re.compile(r"^([A-G]\d+)(?: answered|: )")
HINT = re.compile(r"^Hint(?: \d+)?: (?:query )?([A-G]\d+)")   # "Hint: D5." (long hints: "Hint 1: query D5.")
ASKED = re.compile(r"^Did you say (.+)\? Yes or no")
WON = re.compile(r"^All four ships found")


def spoken_point(point: str) -> str:
    return f"{PHONETIC[point[0]]} {NUMBERS[int(point[1:])]}"


class ConsoleSound:
    """Watches the default sink's monitor: when did the console last make a sound?
    (The player's ear: if parec ends, it is started again, so that the player never
    talks over the console unheard for want of a watcher; `restarts` counts it.)"""

    def __init__(self, sink: str):
        self.sink = sink
        self.last_sound = time.monotonic()
        self.onsets: list[float] = []   # when each sound began after a quiet spell (>= 0.2 s)
        self.restarts = 0
        self._closed = False
        self._proc = self._start()
        threading.Thread(target=self._watch, daemon=True).start()

    def _start(self) -> subprocess.Popen:
        return subprocess.Popen(["parec", f"--device={self.sink}.monitor", "--format=s16le", "--rate=16000",
                                 "--channels=1", "--raw", "--latency-msec=30"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def _watch(self):
        while not self._closed:
            block = self._proc.stdout.read(960)
            if not block:
                if self._closed:
                    return
                self.restarts += 1
                self.last_sound = time.monotonic()   # unknown: as if the console had just sounded
                time.sleep(0.2)
                self._proc = self._start()
                continue
            x = np.frombuffer(block, "<i2").astype(np.float32)
            if np.sqrt(np.mean(x * x)) > 100:
                now = time.monotonic()
                if now - self.last_sound > 0.2:
                    self.onsets.append(now - 0.03)   # the block's start: parec hands over 30 ms blocks
                self.last_sound = now

    def first_sound_after(self, t: float) -> float | None:
        return next((onset for onset in self.onsets if onset > t), None)

    def close(self):
        self._closed = True
        self._proc.kill()


class Console:
    """The console as a subprocess; its lines, each with the time it arrived. `code`:
    the folder of the audio_console to run (default: this one; another copy to compare
    an older version in the same run)."""

    def __init__(self, seed: int, home: Path, extra: list[str], code: Path | None = None):
        code = code or Path(__file__).resolve().parent.parent
        env = dict(os.environ, AUDIO_CONSOLE_HOME=str(home), PYTHONPATH=str(code))
        self.proc = subprocess.Popen([sys.executable, "-m", "audio_console", "--game", "galaxis", "--option", "2",
                                      "--seed", str(seed), "--input", "voice", *extra],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, cwd=home, env=env)
        self.lines: queue.Queue = queue.Queue()
        self.last_line = time.monotonic()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.last_line = time.monotonic()
            self.lines.put((self.last_line, line.strip()))

    def take(self) -> list:
        got = []
        while True:
            try:
                got.append(self.lines.get_nowait())
            except queue.Empty:
                return got

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=10)
        except Exception:  # noqa: BLE001
            self.proc.kill()


def wait_for_silence(console: Console, sound: ConsoleSound, quiet: float = 0.8, limit: float = 45.0) -> None:
    """Until neither a new line nor a sound came from the console for `quiet` seconds
    (a hint is spoken for up to about 19 s: the limit is well beyond it)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        now = time.monotonic()
        if now - max(console.last_line, sound.last_sound) >= quiet:
            return
        time.sleep(0.05)


def play_game(args, voices: Voices, below: float | None, tmp: Path, hiss: bool = False) -> dict:
    stats = {"said": 0, "as said": 0, "wrong": 0, "wrong moves": 0, "asked": 0, "say again": 0,
             "nothing": 0, "too much talk": 0, "speech cut": 0, "finished": False, "latency": [],
             "sound latency": [], "seconds": 0.0}
    home = tmp / f"home-{below}-{hiss}"
    home.mkdir()
    # first: if the loopback cannot be loaded, no room sound is left playing
    speakers = (SpeakersIntoMicrophone(args.out, args.mic, args.speakers) if args.speakers is not None
                else contextlib.nullcontext())
    speakers.__enter__()
    loops = room_sounds(args, voices, below, tmp, hiss)
    sound = ConsoleSound(args.out)
    console = Console(args.seed, home, ["--log", str(home / "log.jsonl"), "--voice-trace", str(home / "voice.jsonl")])
    player = Player(args, voices, tmp, stats, console, sound, TraceTail(home / "voice.jsonl"))
    try:
        time.sleep(args.startup)
        wait_for_silence(console, sound)
        console.take()
        target = None     # the hinted point, once known
        began = time.monotonic()     # the game's length, as the player lives it
        while stats["said"] < args.max_utterances and not stats["finished"]:
            target = play_turn(player, target, stats, sound)
        stats["seconds"] = time.monotonic() - began
    finally:
        console.close()
        sound.close()
        speakers.__exit__(None, None, None)
        stats["sound watcher restarts"] = sound.restarts
        for loop in loops:
            stop_loop(loop)
    return stats


def room_sounds(args, voices: Voices, below: float | None, tmp: Path, hiss: bool) -> list[subprocess.Popen]:
    """The room's sounds played into the microphone sink in loops: the faint room tone,
    and the hiss or the chatter `below` dB under the player."""
    loops = [room_tone(tmp, args.mic)]
    if below is not None and hiss:
        # a steady broadband noise (a fan, an air conditioner) at an RMS `below` dB under the player
        x = np.random.default_rng(args.seed).standard_normal(10 * RATE) * 10 ** ((PLAYER_DB - below) / 20)
        write_wav(tmp / "hiss.wav", x.astype(np.float32), RATE)
        loops.append(in_a_loop(tmp / "hiss.wav", args.mic))
    elif below is not None:
        x = at_level(chatter(voices, 60, talkers=3, seed=args.seed), PLAYER_DB - below)
        write_wav(tmp / "chatter.wav", x, RATE)
        loops.append(in_a_loop(tmp / "chatter.wav", args.mic))
    return loops


def play_turn(player: Player, target: str | None, stats: dict, sound: ConsoleSound) -> str | None:
    """The player says the hinted point (or "hint"), answers the console's questions,
    and returns the point to say next (None: ask for a hint)."""
    ended = player.say(spoken_point(target) if target else "hint")
    lines = player.answer(ended)
    while True:
        outcome = classify(lines, target, stats, ended)
        if outcome != "asked":
            break
        meant = ASKED_POINT[0]
        ended = player.say("yes" if meant == (target or "hint") else "no")
        lines = player.answer(ended)
    first = sound.first_sound_after(ended)
    if outcome in ("hint", "move", "wrong move") and first is not None:
        stats["sound latency"].append(first - ended)
    if outcome == "hint":
        return HINTED[0]
    if outcome in ("move", "wrong move"):
        return None
    return target


class Player:
    """The player's voice into the microphone sink, and the console's answers heard."""

    def __init__(self, args, voices: Voices, tmp: Path, stats: dict, console: Console, sound: ConsoleSound,
                 trace: TraceTail):
        self.args, self.voices, self.tmp, self.stats = args, voices, tmp, stats
        self.console, self.sound, self.trace = console, sound, trace
        self.count = 0

    def say(self, text: str) -> float:
        """Plays the player saying `text`; returns the time speech ended."""
        if self.args.verbose:
            print(f"  say {text!r}")
        self.count += 1
        path = self.tmp / f"u{self.count}.wav"
        x = at_level(self.voices.say(text, self.args.voice), PLAYER_DB)
        write_wav(path, np.concatenate([x, np.zeros(int(0.3 * RATE), np.float32)]), RATE)
        subprocess.run(["paplay", f"--device={self.args.mic}", str(path)], check=True, timeout=30)
        self.stats["said"] += 1
        return time.monotonic() - 0.3

    def answer(self, ended: float) -> list:
        """The console's lines after an utterance, once it fell silent again."""
        deadline = ended + self.args.wait
        got: list = []
        while time.monotonic() < deadline and not got:
            time.sleep(0.05)
            got = self.console.take()
        wait_for_silence(self.console, self.sound)
        got += self.console.take()
        if self.args.verbose:
            for t, line in got:
                print(f"    {t - ended:+.2f} {line}")
            for event in self.trace.new():
                print(f"      [voice] {brief(event)}")
        return got


class TraceTail:
    """The console's --voice-trace lines not read yet."""

    def __init__(self, path: Path):
        self.path, self.offset = path, 0

    def new(self) -> list[dict]:
        # bytes, not text: a text file's seek() takes only offsets its own tell() gave
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            return []
        whole = data[: data.rfind(b"\n") + 1]      # a line still being written waits
        self.offset += len(whole)
        return [json.loads(line) for line in whole.decode("utf-8").splitlines() if line.strip()]


def brief(event: dict) -> str:
    """One trace event in a line: what was heard and Whisper's evidence."""
    # speed: the second look's (1.0: the first); as_answer: what it is while a question waits
    keys = ("how", "seconds", "action", "command", "as_answer", "best", "score", "margin", "no_speech", "speed",
            "transcript", "room_db", "frames", "loudest_db_under_needed")
    return f"{event['t']:.2f} {event['event']} " + " ".join(f"{k}={event[k]}" for k in keys if event.get(k) is not None)


HINTED: list[str | None] = [None]
ASKED_POINT: list[str | None] = [None]


def classify(lines: list, target: str | None, stats: dict, ended: float) -> str:
    """What the console did with one utterance: hint, move, wrong move, asked, again, nothing."""
    for t, line in lines:
        if WON.match(line):
            stats["finished"] = True
        if line.startswith("Too much talk"):
            stats["too much talk"] += 1
        if line.startswith("I was speaking"):
            stats["speech cut"] += 1
    for t, line in lines:
        m = HINT.match(line)
        if m:
            HINTED[0] = m.group(1)
            if target is None:
                stats["as said"] += 1
                stats["latency"].append(t - ended)
            else:
                stats["wrong"] += 1
            return "hint"
        m = MOVE.match(line)
        if m:
            stats["latency"].append(t - ended)
            if m.group(1) == target:
                stats["as said"] += 1
                return "move"
            stats["wrong"] += 1
            stats["wrong moves"] += 1
            return "wrong move"
        m = ASKED.match(line)
        if m:
            stats["asked"] += 1
            command = GRAMMAR.parse(m.group(1))   # "foxtrot seven", "F7", "hint"
            point = dict(command.values).get("point") if command else None
            ASKED_POINT[0] = point or (command.name if command else m.group(1))
            return "asked"
        if line.startswith("Say again") or line.startswith("Cancelled"):
            stats["say again"] += 1
            return "again"
    if not any(line for _, line in lines):
        stats["nothing"] += 1
    return "nothing"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rooms", default="quiet,10",
                    help="quiet, chatter dB below the player (10) or steady hiss dB below (hiss10), comma-separated")
    ap.add_argument("--voice", default="hibari:heart", help="the player's voice: hibari:heart, flite:slt, ...")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mic", default="console_mic", help="null sink whose monitor is the console's microphone")
    ap.add_argument("--out", default="console_out", help="the sink the console plays into (the default sink)")
    ap.add_argument("--speakers", type=float, metavar="DB",
                    help="the console's output looped into the microphone sink at DB dB (-6: issue 28's room)")
    ap.add_argument("--max-utterances", type=int, default=70)
    ap.add_argument("--wait", type=float, default=4.0, help="seconds to wait for the console's first line")
    ap.add_argument("--startup", type=float, default=8.0, help="seconds for the console to start")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if subprocess.run(["pactl", "info"], capture_output=True).returncode != 0:
        print("no PulseAudio server: run scripts/setup.sh's start_pulseaudio first", file=sys.stderr)
        return 2
    voices = Voices()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for room in args.rooms.split(","):
            hiss = room.startswith("hiss")
            below = None if room == "quiet" else float(room.removeprefix("hiss"))
            name = "quiet" if below is None else f"{'hiss' if hiss else 'chatter'} -{below:g} dB"
            if args.speakers is not None:
                name += f" + speakers {args.speakers:g} dB"
            print(f"{name}: playing...", flush=True)
            stats = play_game(args, voices, below, Path(tmp), hiss)
            rows.append((name, stats))
            print_row(name, stats)
    print("\nroom                            | said | as said | wrong (moves) | asked | say again | nothing | finished | game | median latency (line, first sound)")
    for name, st in rows:
        print_row(name, st)
    print("as said: the hint or the point said, acted on (after a question or not); wrong: another command acted on; "
          "latency: end of speech -> the console's line (hint or move), and -> its first sound in the output sink, median")
    return 0


def print_row(name, st):
    lat = f"{1000 * statistics.median(st['latency']):.0f} ms" if st["latency"] else "-"
    if st["sound latency"]:
        lat += f" (first sound {1000 * statistics.median(st['sound latency']):.0f} ms)"
    print(f"{name:<31} | {st['said']:>4} | {st['as said']:>7} | {st['wrong']:>5} ({st['wrong moves']}) "
          f"| {st['asked']:>5} | {st['say again']:>9} | {st['nothing']:>7} | {str(st['finished']):>8} "
          f"| {st['seconds'] / 60:4.1f} min | {lat}"
          + (f" | too much talk said {st['too much talk']}x, speech cut {st['speech cut']}x"
             if st["too much talk"] or st["speech cut"] else "")
          + (f" | the console's sound went unwatched {st['sound watcher restarts']}x (parec restarted)"
             if st.get("sound watcher restarts") else ""), flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
