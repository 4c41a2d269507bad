#!/usr/bin/env python3
"""Listening latency: how long after the end of speech the session gets its Heard.

Live (default): plays flite speech into the PulseAudio null sink console_mic (its
monitor must be the default source: scripts/setup.sh start_pulseaudio) and times,
per utterance, the end of speech (end of playback minus the file's trailing
silence) -> on_heard, split into endpointing (until the Endpointer closed the
utterance) and decoding after that. Each configuration runs in the same session:
"whole" is the old path (decode once the utterance ended), "stream" feeds the
recognizer while the player speaks, "early" decodes at once when a quicker
Endpointer guesses that speech ended (used if the main one confirms it). --windows also tries other Endpointer windows
with commands said with a pause inside ("rule ... out b five", "delta ... five"):
a pause longer than the window cuts the command in two.

What a player hears (--console): the console runs as a player starts it (a
subprocess, `--input voice`, speech into the default sink); each command is played
into the microphone sink, said by a natural voice (--voice, hibari) and, with --real
CORPUS, by real people (the corpus's clean command clips: manifest.jsonl, as
scripts/make_speech_corpus.py or a real-speech corpus writes it), and the time from
the end of its speech to the first sound in the output sink (its monitor watched)
is measured, beside the time to the console's printed line.

Offline (--offline CORPUS): the listener's worker is fed the corpus's command clips
(a second of silence around each, clips of one speaker in a row, as a player would)
without any audio device, and counts commands understood by each path.
With --decisions OUT.json every clip's Heards per path are written instead, the
clips queued at once so that the machine's load decides nothing: two revisions'
files compare clip for clip.

    python scripts/bench_listen.py [--count 8] [--paths whole,stream] [--windows 0.3]
    python scripts/bench_listen.py --windows 0.2,0.3,0.45,0.6 --paths stream --pauses 0.3,0.5
    python scripts/bench_listen.py --offline corpus --degradations clean,white20
    python scripts/bench_listen.py --offline corpus --paths whole,early,vad --decisions after.json
    python scripts/bench_listen.py --console [--real CORPUS] [--count 12]
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from audio_console.output.sink import NullSink  # noqa: E402
from audio_console.base.settings import Settings  # noqa: E402
from audio_console.voice import open_listener  # noqa: E402
from audio_console.voice.audio import read_wav, wav_pcm16, write_wav  # noqa: E402
from audio_console.app.games import grammar_for_game  # noqa: E402
from audio_console.voice.listener import Listener, ListenOptions  # noqa: E402
from scripts.bench_support.listen_paths import on_path  # noqa: E402

PHRASES = ["delta five", "bravo three", "golf nine", "charlie two", "echo seven", "foxtrot one",
           "alpha four", "delta eight", "read row echo", "mark charlie six", "status", "repeat"]
# Commands with a pause inside (the "..."): one command, never two halves.
PAUSED = ["rule ... out bravo five", "delta ... five", "mark ... charlie two", "golf ... nine",
          "read row ... echo", "what is at ... alpha four"]
WARM_UP = "echo four"
# The listener's paths (bench_support/listen_paths.py): "early" was the default before
# the VAD cutter (the Endpointer, the early guess confirmed by the full window); "vad"
# is play's (the VAD cutter, acting at once on a sure complete command at the guess).


def ms(seconds: float) -> str:
    return f"{1000 * seconds:4.0f} ms"


def say(text: str, path: Path, pause: float) -> float:
    """flite slt says `text` ("..." = a pause of `pause` s) into path; returns the
    seconds of trailing silence after the last speech."""
    parts, pieces = [], text.split("...")
    rate = 16000
    for i, piece in enumerate(pieces):
        part = path.with_suffix(f".{i}.wav")
        subprocess.run(["flite", "-voice", "slt", "-t", piece.strip(), "-o", str(part)], check=True)
        x, rate = read_wav(part)
        loud = np.flatnonzero(np.abs(x) > 0.02 * (np.max(np.abs(x)) or 1))
        if len(loud):   # around a pause: flite's own silences cut, the pause inserted
            x = x[loud[0] if i > 0 else 0: loud[-1] + 1 if i < len(pieces) - 1 else len(x)]
        if i:
            parts.append(np.zeros(int(rate * pause), np.float32))
        parts.append(x)
    x = np.concatenate(parts) if parts else np.zeros(1, np.float32)
    x = np.concatenate([x, np.zeros(int(rate * 0.2), np.float32)])
    write_wav(path, x, rate)
    loud = np.flatnonzero(np.abs(x) > 0.02 * (np.max(np.abs(x)) or 1))
    return (len(x) - (loud[-1] + 1 if len(loud) else len(x))) / rate


def live(args) -> int:
    if subprocess.run(["pactl", "info"], capture_output=True).returncode != 0:
        print("no PulseAudio server: run scripts/setup.sh's start_pulseaudio first", file=sys.stderr)
        return 2
    _use_sink(args.sink)
    grammar = grammar_for_game("galaxis")
    pauses = [float(p) for p in args.pauses.split(",")] if args.pauses else []
    configs = [(path, float(w)) for w in args.windows.split(",") for path in args.paths.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        items, warm = _utterances(args.count, pauses, Path(tmp))
        listeners = _open_listeners(configs, grammar)
        if listeners is None:
            return 2
        stats = {c: {"lat": [], "endp": [], "dec": [], "right": 0, "n": 0, "paused": defaultdict(lambda: [0, 0])}
                 for c in configs}
        missed: list[str] = []   # what each command not understood was heard as
        # Rounds of a few phrases per configuration, so that the load of the machine
        # (shared) falls on every configuration alike.
        rounds = [items[i:i + args.round] for i in range(0, len(items), args.round)]
        warmed: set = set()
        for chunk in rounds:
            for config in configs:
                _listen_round(args, config, listeners[config], stats[config], chunk,
                              warm if config not in warmed else None, grammar, missed)
                warmed.add(config)
    _print_live(stats, pauses, missed)
    return 0


def _use_sink(sink: str) -> None:
    """Plays into `sink` and listens to its monitor."""
    global SINK
    if sink != SINK:
        # A sink of our own (pactl load-module module-null-sink sink_name=NAME): other
        # programs playing into console_mic (tests running meanwhile) are not heard.
        # libpulse clients take their default source from PULSE_SOURCE.
        os.environ["PULSE_SOURCE"] = f"{sink}.monitor"
        SINK = sink


def _utterances(count: int, pauses: list[float], tmp: Path) -> tuple[list, Path]:
    """The phrases said into files: (kind, phrase, wav, trailing silence) per phrase,
    kind "plain" or the pause inside in seconds, and the warm-up phrase's file."""
    plain = [(p, tmp / f"p{i}.wav") for i, p in enumerate(PHRASES[:count])]
    paused = [(p, pause, tmp / f"q{i}_{pause}.wav") for pause in pauses for i, p in enumerate(PAUSED)]
    items: list = [("plain", p, f, say(p, f, 0)) for p, f in plain]
    items += [(pause, p, f, say(p, f, pause)) for p, pause, f in paused]
    warm = tmp / "warm.wav"
    say(WARM_UP, warm, 0)
    return items, warm


def _open_listeners(configs: list, grammar) -> dict | None:
    """A listener per (path, window), or None (its messages printed) without one."""
    listeners = {}
    for path, window in configs:
        messages: list[str] = []
        listener = open_listener(Settings(), NullSink(), messages.append, options=ListenOptions(window=window))
        if listener is None:
            print("\n".join(messages))
            return None
        listener = on_path(path, listener)
        listener.set_grammar(grammar)
        listeners[path, window] = listener
    return listeners


def _listen_round(args, config, listener, st: dict, chunk: list, warm: Path | None, grammar,
                  missed: list[str]) -> None:
    """One configuration hears a round's phrases (after the warm-up phrase, if given)."""
    heard: queue.Queue = queue.Queue()
    listener.start(lambda h, q=heard: q.put((time.monotonic(), h)))
    try:
        time.sleep(0.3)
        if warm is not None:
            _play(warm)
            _collect(heard, 2.5)
        for kind, phrase, wav, trailing in chunk:
            n = len(listener.timings)
            _play(wav)
            spoken_end = time.monotonic() - trailing
            got = _collect(heard, args.wait)
            expected = grammar.parse(" ".join(phrase.replace("...", " ").split())).text
            ok = len(got) == 1 and got[0][1].command is not None and got[0][1].command.text == expected
            if kind != "plain":   # a pause of `kind` seconds inside
                st["paused"][kind][0] += ok
                st["paused"][kind][1] += 1
            else:
                st["right"] += ok
                st["n"] += 1
                if got and listener.timings[n:]:
                    t = listener.timings[n]
                    st["lat"].append(got[0][0] - spoken_end)
                    st["endp"].append(t.ended - spoken_end)
                    st["dec"].append(t.decoded - t.ended)
            what = [(h.text, h.command.text if h.command else None) for _, h in got]
            if not ok:
                missed.append(f"  {config[0]} {phrase!r}: heard {what or 'nothing'}")
            if args.verbose:
                print(f"  {config} {phrase!r}: {what}")
    finally:
        listener.stop()


def _print_live(stats: dict, pauses: list[float], missed: list[str]) -> None:
    print(f"{'path':<7} {'window':>6} | {'median latency':>14} {'endpointing':>11} {'decoding':>9} | "
          f"{'understood':>10} | " + " ".join(f"{'paused ' + str(p) + ' s':>13}" for p in pauses))
    for (path, window), st in stats.items():
        med = (lambda v: ms(statistics.median(v)) if v else "     -")
        paused_ok = st["paused"]
        print(f"{path:<7} {window:>6.2f} | {med(st['lat']):>14} {med(st['endp']):>11} {med(st['dec']):>9} | "
              f"{st['right']:>5}/{st['n']:<4} | "
              + " ".join(f"{paused_ok[p][0]:>9}/{paused_ok[p][1]:<3}" for p in pauses))
    print("latency: end of speech (end of playback minus trailing silence) -> on_heard; endpointing: -> the "
          "Endpointer closed the utterance (includes the PulseAudio/PortAudio path, and for early the guess's "
          "decoding that ran on); decoding: after that. understood: exactly one Heard, the right command; "
          "paused: commands with a pause inside understood as one.")
    if missed:
        print("not understood (path, what was said: what was heard, as (words, command)):")
        print("\n".join(missed))


SINK = "console_mic"


def _play(path: Path) -> None:
    subprocess.run(["paplay", f"--device={SINK}", str(path)], check=True, timeout=30)


def _collect(heard: queue.Queue, seconds: float) -> list:
    """Everything heard within `seconds` (waits the whole time: a cut command comes as two)."""
    got, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            got.append(heard.get(timeout=0.05))
        except queue.Empty:
            pass
    return got


def _clips(args) -> list:
    """The corpus's clips, a second of silence around each, one speaker's in a row."""
    rows = [json.loads(line) for line in (Path(args.offline) / "manifest.jsonl").read_text().splitlines()]
    keep = set(args.degradations.split(","))
    rows = [r for r in rows if r["degradation"] in keep and (r["expected"] or args.rejects)]
    rows.sort(key=lambda r: (r["degradation"], r["speaker"].split("@")[0]))   # one speaker in a row
    return [(r, bytes(32000) + wav_pcm16(r["file"]) + bytes(32000)) for r in rows]


def decisions(args) -> int:
    """Every clip's Heards per path, independent of the machine's load: all clips are
    queued into the microphone at once and the worker runs to the end; a Heard belongs
    to the clip whose frames the worker was reading. Two revisions' files compare clip
    for clip (a refactoring must leave them equal)."""
    from audio_console.voice.engines import select_recognizer
    clips, results = _clips(args), {}
    for path in args.paths.split(","):
        listener = on_path(path, Listener(select_recognizer()[0], Settings(headphones=True), NullSink(), print,
                                          ListenOptions(window=float(args.windows.split(",")[0]))))
        listener.set_grammar(grammar_for_game("galaxis"))
        frames, taken, heard = listener.microphone.frames, [0], []
        take = frames.get

        def counted(*a, **k):
            block = take(*a, **k)
            taken[0] += bool(block)
            return block
        frames.get = counted
        listener._running.set()
        worker = threading.Thread(target=listener.run, args=(lambda h: heard.append(
            (taken[0], h.command.text if h.command else None, h.confirm, h.text)),))
        worker.start()
        ends: list[int] = []
        for _, pcm in clips:
            for i in range(0, len(pcm), 960):
                frames.put(pcm[i:i + 960])
            ends.append((ends[-1] if ends else 0) + -(-len(pcm) // 960))
        frames.put(None)
        worker.join()
        per: list[list] = [[] for _ in clips]
        for at, *what in heard:
            per[next((k for k, end in enumerate(ends) if at <= end), len(ends) - 1)].append(what)
        results[path] = [{"file": Path(r["file"]).name, "expected": r["expected"], "heard": p}
                         for (r, _), p in zip(clips, per)]
        right = sum([h[0] for h in p if h[0]] == [r["expected"]] for (r, _), p in zip(clips, per))
        print(f"{path}: {right}/{len(clips)} clips heard as exactly the command said ({len(heard)} Heards)")
    Path(args.decisions).write_text(json.dumps(results, indent=1))
    return 0


def offline(args) -> int:
    """The listener's worker fed corpus clips directly (no audio device)."""
    from audio_console.voice.engines import select_recognizer
    grammar = grammar_for_game("galaxis")
    clips = _clips(args)
    results = {}
    for path in args.paths.split(","):
        recognizer, _ = select_recognizer()   # the console's recognizer
        listener = on_path(path, Listener(recognizer, Settings(headphones=True), NullSink(), print,
                                          ListenOptions(window=float(args.windows.split(",")[0]))))
        listener.set_grammar(grammar)
        heard: list = []
        listener._running.set()
        worker = threading.Thread(target=listener.run, args=(heard.append,))
        worker.start()
        per = []
        for row, pcm in clips:
            n_heard, n_done = len(heard), len(listener.timings)
            for i in range(0, len(pcm), 960):
                listener.microphone.frames.put(pcm[i:i + 960])
            deadline = time.monotonic() + (4 if row["expected"] else 2)
            while (not listener.microphone.frames.empty() or len(listener.timings) == n_done) and time.monotonic() < deadline:
                time.sleep(0.005)
            time.sleep(0.02)
            got = heard[n_heard:]
            cmds = [h.command.text for h in got if h.command is not None]
            per.append({"expected": row["expected"], "got": cmds, "row": row,
                        "again": sum(h.command is None for h in got), "confirm": [h.confirm for h in got if h.command],
                        "after_end": [t.decoded - t.ended for t in listener.timings[n_done:]],
                        "during": [t.while_speaking for t in listener.timings[n_done:]]})
        listener.microphone.frames.put(None)
        worker.join()
        results[path] = per
    print(f"{len(clips)} clips ({args.degradations}), fed through the listener's worker")
    for path, per in results.items():
        right = sum(p["got"] == [p["expected"]] for p in per if p["expected"])
        wrong = sum(any(c != p["expected"] and not f for c, f in zip(p["got"], p["confirm"]))
                    for p in per if p["expected"])
        fa = sum(any(not f for f in p["confirm"]) for p in per if not p["expected"])
        fac = sum(bool(p["got"]) for p in per if not p["expected"])
        n_cmd = sum(1 for p in per if p["expected"])
        after = [a for p in per for a in p["after_end"]]
        during = [a for p in per for a in p["during"]]
        print(f"{path:<7}: right {right}/{n_cmd}, wrong acted on {wrong}, false accepts {fa} (+asked {fac - fa}) "
              f"of {len(per) - n_cmd}; decoding after the end of the "
              f"utterance median {ms(statistics.median(after))} (mean {ms(statistics.mean(after))}); "
              f"decoding while speaking median {ms(statistics.median(during))}")
    _print_say_again(results)
    names = list(results)
    for other in names[1:]:
        same = sum(x["got"] == y["got"] for x, y in zip(results[names[0]], results[other]))
        print(f"same commands from {names[0]} and {other}: {same}/{len(clips)}")
    return 0


def _print_say_again(results: dict) -> None:
    """Per kind of clip and condition: of those not acted on or asked about, how many
    got "Say again" (a person talking to the console) rather than silence."""
    for path, per in results.items():
        groups: dict = defaultdict(lambda: [0, 0])
        for p in per:
            if p["got"]:
                continue
            row = p["row"]
            kind = row.get("kind") or ("cmd" if row["expected"] else "other")
            groups[kind, row["degradation"]][0] += p["again"] > 0
            groups[kind, row["degradation"]][1] += 1
        print(f"{path}: clips neither acted on nor asked about that got 'Say again' (else silence):")
        print("  " + ", ".join(f"{kind} {cond} {n}/{of}" for (kind, cond), (n, of) in sorted(groups.items())))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=len(PHRASES), help="plain phrases per configuration")
    ap.add_argument("--paths", default="early,vad",
                    help="whole (decode after the end), stream (feed while speaking), early (decode the "
                         "quick Endpointer's guess at once: the old default), vad-wait (the VAD cutter, "
                         "the full window), vad (the VAD cutter, acting on a sure complete command at "
                         "the early guess: the default)")
    ap.add_argument("--windows", default="0.45", help="Endpointer windows (seconds), comma-separated")
    ap.add_argument("--pauses", default="", help="pauses (s) inside commands, e.g. 0.3,0.5")
    ap.add_argument("--sink", default=SINK, help="null sink to play into (its monitor is the microphone)")
    ap.add_argument("--round", type=int, default=4, help="phrases per configuration in turn")
    ap.add_argument("--wait", type=float, default=2.5, help="seconds to wait for Heards after each phrase")
    ap.add_argument("--offline", metavar="CORPUS", help="feed a corpus's clips to the worker, no audio")
    ap.add_argument("--degradations", default="clean,white20,quiet")
    ap.add_argument("--rejects", action="store_true", help="offline: also the noise and out-of-grammar clips")
    ap.add_argument("--decisions", metavar="OUT.json",
                    help="offline: every clip's Heards per path into OUT.json, whatever the load (to compare revisions)")
    ap.add_argument("--console", action="store_true",
                    help="the whole console: end of speech -> its first sound in the output sink")
    ap.add_argument("--real", metavar="CORPUS", help="--console: also real people's clean point clips")
    ap.add_argument("--voice", default="hibari:heart", help="--console: the natural voice")
    ap.add_argument("--out", default="console_out", help="--console: the sink the console plays into")
    ap.add_argument("--startup", type=float, default=8.0)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if args.console:
        from listen_through_console import through_console
        return through_console(args)
    if args.offline:
        return decisions(args) if args.decisions else offline(args)
    return live(args)


if __name__ == "__main__":
    raise SystemExit(main())
