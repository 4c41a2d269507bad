#!/usr/bin/env python3
"""Cutting commands out of a room, offline: which cutter finds each command whole?

A stream is built: a player (hibari-tts, flite slt, espeak) saying Galaxis commands
every 1.5-3.5 s, over background chatter (three synthetic voices talking without
pause, `--below` dB under the player) or a quiet room. Each cutter gets the same
30 ms frames, as the listener would. Per cutter: commands cut as one utterance that
holds all of the command (and not more than 1.5 s besides), utterances that hold no
command, utterances dropped at the length cap, median length; with --decode each
utterance goes through the recognizer and the trust layer (right = the command said,
acted on or asked about; wrong = another command acted on without asking; talk
acted on = an utterance without a command that was acted on).

    python scripts/bench_endpointing.py [--commands 30] [--below 10,12] [--decode]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from room import RATE, Voices, at_level, chatter  # noqa: E402

from audio_console.base.settings import Settings  # noqa: E402
from audio_console.app.games import grammar_for_game  # noqa: E402
from audio_console.voice.frames import FRAME_BYTES  # noqa: E402
from audio_console.voice.trust import decide  # noqa: E402
from audio_console.voice.vad import SpeechFrames, VadCutter  # noqa: E402
from scripts.bench_support.endpointer_cutter import UtteranceCutter  # noqa: E402

PLAYER_DB = -20.0
PHRASES = ["delta five", "bravo three", "golf nine", "charlie two", "echo seven", "foxtrot one",
           "alpha four", "hint", "status", "repeat", "read row echo", "mark charlie six", "yes", "no",
           "what is at bravo eight", "rule out golf two", "foxtrot six", "echo three", "summary", "help"]
PLAYERS = ["hibari:heart", "flite:slt", "espeak:en-us"]


def cutters(names):
    made = {
        "endpointer": lambda: UtteranceCutter(0.45),
        "energy": lambda: VadCutter(frames=SpeechFrames(neural=False)),
        "silero": lambda: VadCutter(frames=SpeechFrames(relative=False)),
        "silero+energy": lambda: VadCutter(),
    }
    return {n: made[n] for n in names}


def room_stream(voices, n, below, seed):
    rng = random.Random(seed)
    pieces, spans, at = [], [], int(1.5 * RATE)
    pieces.append(np.zeros(at, np.float32))
    for i in range(n):
        phrase = rng.choice(PHRASES)
        x = at_level(voices.say(phrase, PLAYERS[i % len(PLAYERS)], rng.choice([0.9, 1.0, 1.1])), PLAYER_DB)
        spans.append((phrase, at, at + len(x)))
        gap = np.zeros(int(rng.uniform(1.5, 3.5) * RATE), np.float32)
        pieces += [x, gap]
        at += len(x) + len(gap)
    player = np.concatenate(pieces)
    if below is None:
        room = np.random.default_rng(seed).standard_normal(len(player)).astype(np.float32) * 10 ** (-65 / 20)
    elif below == "noises":
        room = noises(len(player), spans, seed)
    elif below.startswith("hiss"):
        # steady broadband noise (a fan, an air conditioner) `N` dB under the player
        level = PLAYER_DB - float(below.removeprefix("hiss"))
        room = np.random.default_rng(seed).standard_normal(len(player)).astype(np.float32) * 10 ** (level / 20)
    else:
        below = float(below)
    if isinstance(below, float):
        room = at_level(chatter(voices, len(player) / RATE + 1, seed=seed)[:len(player)], PLAYER_DB - below)
    mix = np.clip(player + room, -1, 1)
    return (mix * 32767).astype("<i2").tobytes(), spans


def noises(n, spans, seed):
    """Everyday noises in the gaps between commands, as loud as the player: clatter
    (clicks), knocks (low thumps), a burst of hiss, a hummed tone with harmonics."""
    rng = np.random.default_rng(seed)
    out = np.zeros(n, np.float32)
    for k, (_, _, e) in enumerate(spans):
        at = e + int(0.6 * RATE)
        t = np.arange(int(0.8 * RATE)) / RATE
        kind = k % 4
        if kind == 0:
            x = np.zeros(len(t), np.float32)
            for c in rng.integers(0, len(t) - 200, 8):
                x[c:c + 200] += rng.standard_normal(200) * np.exp(-np.arange(200) / 40)
        elif kind == 1:
            x = np.zeros(len(t), np.float32)
            for c in (0, 3000, 6000):
                x[c:c + 1600] += np.sin(2 * np.pi * 90 * t[:1600]) * np.exp(-t[:1600] * 30)
        elif kind == 2:
            x = rng.standard_normal(len(t))
        else:
            x = sum(np.sin(2 * np.pi * 220 * h * t) / h for h in (1, 2, 3, 4))
        x = at_level(np.asarray(x, np.float32), PLAYER_DB)
        k2 = min(len(x), n - at)
        if k2 > 0:
            out[at:at + k2] += x[:k2]
    return out


def cut(cutter, pcm):
    out = []
    for i in range(0, len(pcm) - FRAME_BYTES + 1, FRAME_BYTES):
        u = cutter.push(pcm[i:i + FRAME_BYTES])
        if u:
            # the Endpointer hands its audio over a window late
            end = (i + FRAME_BYTES) // 2 - (int(0.45 * RATE) if isinstance(cutter, UtteranceCutter)
                                            else (cutter.window_frames * FRAME_BYTES - cutter.tail) // 2)
            out.append((end - len(u) // 2, end, u))
    return out


def evaluate(utterances, spans, recognizer, grammar):
    whole, used, lengths = 0, set(), [len(u) / 32000 for _, _, u in utterances]
    right = wrong = 0
    for phrase, s, e in spans:
        over = [k for k, (a, b, _) in enumerate(utterances) if a < e and b > s]
        used.update(over)
        ok = len(over) == 1 and utterances[over[0]][0] <= s + 800 and utterances[over[0]][1] >= e - 800 \
            and (utterances[over[0]][1] - utterances[over[0]][0]) - (e - s) < 1.5 * RATE
        whole += ok
        if recognizer is not None:
            expected = grammar.parse(phrase).text
            for k in over:
                heard = decide(recognizer.decode(utterances[k][2]), grammar, Settings())
                if heard.command is not None and heard.command.text == expected:
                    right += 1
                    break
                if heard.command is not None and not heard.confirm:
                    wrong += 1
    extra = [k for k in range(len(utterances)) if k not in used]
    talk_acted = 0
    if recognizer is not None:
        for k in extra:
            heard = decide(recognizer.decode(utterances[k][2]), grammar, Settings())
            talk_acted += heard.command is not None and not heard.confirm
    return whole, len(extra), lengths, right, wrong, talk_acted


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commands", type=int, default=30)
    ap.add_argument("--below", default="quiet,noises,10,12,hiss10",
                    help="chatter dB under the player; quiet: no chatter; noises: everyday noises between commands; "
                         "hissN: steady hiss N dB under the player")
    ap.add_argument("--cutters", default="endpointer,energy,silero,silero+energy")
    ap.add_argument("--decode", action="store_true", help="decode each utterance (pocketsphinx, trust layer)")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    voices = Voices()
    grammar = grammar_for_game("galaxis")
    recognizer = None
    if args.decode:
        from audio_console.voice.engines import select_recognizer
        recognizer, why = select_recognizer()
        recognizer.set_grammar(grammar)
        print(why)
    print(f"{'room':<8} {'cutter':<14} | {'whole':>7} {'no command':>10} {'capped':>6} {'median s':>8}"
          + (f" | {'right':>7} {'wrong':>5} {'talk acted':>10}" if recognizer else ""))
    for below in args.below.split(","):
        pcm, spans = room_stream(voices, args.commands, {"quiet": None, "noises": "noises"}.get(below, below),
                                 args.seed)
        for name, make in cutters(args.cutters.split(",")).items():
            cutter = make()
            utterances = cut(cutter, pcm)
            whole, extra, lengths, right, wrong, talk = evaluate(utterances, spans, recognizer, grammar)
            capped = getattr(cutter, "overruns", 0)
            med = statistics.median(lengths) if lengths else 0
            room = below if below in ("quiet", "noises") or below.startswith("hiss") else f"-{below} dB"
            print(f"{room:<8} {name:<14} | {whole:>3}/{len(spans):<3} {extra:>10} {capped:>6} {med:>8.2f}"
                  + (f" | {right:>3}/{len(spans):<3} {wrong:>5} {talk:>10}" if recognizer else ""), flush=True)
    print("whole: one utterance holding the whole command (+-50 ms) and at most 1.5 s more; no command: "
          "utterances overlapping no command; capped: dropped past the length cap")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
