#!/usr/bin/env python3
"""What is taken when said over the console (voice/over_speech.py), offline.

--decodes FILE...  stored decodes (bench_speech.py --json) decided again as if every
    clip had been said over the console and the console held for it: real stops
    taken as stop and other words taken as stop at each --floors value, and points
    at once, asked and wrong with and without point_over_speech.
--audio DIR...  the stop rounds bench_bargein.py --audio recorded (NAME-mic.wav: the
    raw microphone, NAME-cleaned.wav: the sound server's canceller's output,
    NAME-out.wav: what the console played): the word (found in the raw microphone by
    cross-correlation with its clip in --stops CORPUS) cut out of each, and of the
    in-process AEC3 (pywebrtc-audio) run on the raw microphone against what was
    played, decoded with the game's grammar and decided as with the console held.

    python scripts/bench_over_speech.py --decodes tune.json nato_tune.json
    python scripts/bench_over_speech.py --audio RUN1 RUN2 --stops CORPUS
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from audio_console.app.games import grammar_for_game  # noqa: E402
from audio_console.base.settings import Settings  # noqa: E402
from audio_console.commands.vocabulary import common_grammar  # noqa: E402
from audio_console.galaxis.commands import grammar as galaxis_grammar  # noqa: E402
from audio_console.voice import over_speech  # noqa: E402
from audio_console.voice.audio import read_wav, to_pcm16  # noqa: E402
from audio_console.voice.recognizer import Decoded, Evidence  # noqa: E402
from audio_console.voice.trust import decide  # noqa: E402

RATE = 16000
AROUND = 0.25          # seconds kept either side of the word


def taken_as_stop(decoded: Decoded, grammar, settings, floor: float, opinion: float | None = None) -> bool:
    """Acted on as stop with the console held, over_speech.FLOOR at `floor` and
    over_speech.KEYWORD_P at `opinion` (None: as it is)."""
    saved = over_speech.FLOOR, over_speech.KEYWORD_P
    over_speech.FLOOR = floor
    over_speech.KEYWORD_P = saved[1] if opinion is None else opinion
    try:
        heard = over_speech.stop_over_speech(decide(decoded, grammar, settings), decoded, grammar, True)
    finally:
        over_speech.FLOOR, over_speech.KEYWORD_P = saved
    return heard.action == "act" and heard.command is not None and heard.command.name == "stop"


def stored(path: Path):
    """(row, Decoded) of every clip with evidence in a bench_speech.py --json file."""
    for row in json.loads(path.read_text()):
        result = next(iter(row["engines"].values()))
        evidence = result.get("evidence")
        if evidence:
            fields = {k: v for k, v in evidence.items() if k in Evidence.__dataclass_fields__}
            yield row, Decoded(result["heard"], evidence=Evidence(**fields))


def decodes(paths: list[Path], floors: list[float], opinions: list[float]) -> None:
    grammar, settings = grammar_for_game("galaxis"), Settings()
    for path in paths:
        c: Counter = Counter()
        for row, decoded in stored(path):
            expected = row["expected"]
            kind = "stops" if expected == "stop" else "others"
            c[kind] += 1
            for floor in floors:
                c[kind, floor] += taken_as_stop(decoded, grammar, settings, floor)
            for p in opinions:
                c[kind, "opinion", p] += taken_as_stop(decoded, grammar, settings, over_speech.FLOOR, p)
            if expected and expected.startswith("query "):
                heard = decide(decoded, grammar, settings)
                allowed = over_speech.point_over_speech(heard, decoded, settings, True)
                c["points"] += 1
                for how, h in (("as now", heard), ("allowance", allowed)):
                    said = h.command.text if h.command else None
                    c[how, "once"] += h.action == "act" and said == expected
                    c[how, "wrong"] += h.action == "act" and said != expected
                    c[how, "asked"] += h.action == "confirm"
        print(f"{path}: {c['stops']} stops, {c['others']} other clips")
        for floor in floors:
            print(f"  floor {floor:g}: stops taken {c['stops', floor]}, others taken as stop {c['others', floor]}")
        for p in opinions:
            print(f"  opinion of stop from {p:g}: stops taken {c['stops', 'opinion', p]}, "
                  f"others taken as stop {c['others', 'opinion', p]}")
        if c["points"]:
            for how in ("as now", "allowance"):
                print(f"  points ({how}, all held): at once {c[how, 'once']}/{c['points']}, "
                      f"asked {c[how, 'asked']}, wrong {c[how, 'wrong']}")


def find(clip: np.ndarray, x: np.ndarray) -> int:
    """Where `clip` begins in `x` (cross-correlation)."""
    n = len(x) + len(clip)
    return int(np.argmax(np.fft.irfft(np.fft.rfft(x, n) * np.conj(np.fft.rfft(clip, n)), n)[:len(x)]))


def in_process_aec3(mic: np.ndarray, out: np.ndarray) -> np.ndarray:
    from pywebrtc_audio import EchoCanceller
    n = min(len(mic), len(out)) // 160 * 160
    aec = EchoCanceller(RATE, 1)
    near, far = (np.frombuffer(to_pcm16(x[:n], RATE), "<i2") for x in (mic, out))
    return np.concatenate([aec.process(near[i:i + 160], far[i:i + 160]) for i in range(0, n, 160)]) / 32768


def sources(mic_wav: Path, corpus: Path):
    """The word of one recorded round as the raw microphone, the server's canceller
    and the in-process AEC3 have it, or None if it cannot be found whole."""
    name = re.search(r"(cmd-\d+)", mic_wav.name)
    if name is None:
        return None
    clip = read_wav(corpus / "clean" / f"{name.group(1)}.wav")[0]
    mic = read_wav(mic_wav)[0]
    cleaned = read_wav(mic_wav.with_name(mic_wav.name.replace("-mic", "-cleaned")))[0]
    out = read_wav(mic_wav.with_name(mic_wav.name.replace("-mic", "-out")))[0]
    loud = np.flatnonzero(np.abs(clip) > 0.05 * np.max(np.abs(clip)))
    at = find(clip, mic)
    lo, hi = max(0, at + loud[0] - int(AROUND * RATE)), at + loud[-1] + int(AROUND * RATE)
    if hi > min(len(mic), len(out)) or hi - lo < RATE // 10:
        return None
    near = cleaned[max(0, lo - RATE // 4): hi + RATE // 4]
    lag = find(mic[lo:hi], near) + max(0, lo - RATE // 4) - lo if len(near) > hi - lo else 0
    lag = lag if abs(lag) < RATE // 5 else 0
    return {"raw": mic[lo:hi], "server canceller": cleaned[max(0, lo + lag):hi + lag],
            "in-process AEC3": in_process_aec3(mic, out)[lo:hi]}


def audio(folders: list[Path], corpus: Path, floors: list[float]) -> None:
    from audio_console.voice.engines import open_engine
    grammar, settings = galaxis_grammar("searching", 2) + common_grammar(), Settings()
    engine = open_engine("whisper")
    engine.set_grammar(grammar)
    c: Counter = Counter()
    for mic_wav in sorted(p for folder in folders for p in folder.glob("*-mic.wav")):
        words = sources(mic_wav, corpus)
        if words is None:
            continue
        c["rounds"] += 1
        heard = {source: engine.decode(to_pcm16(x, RATE)) for source, x in words.items()}
        raw, server = heard["raw"], heard["server canceller"]
        heard["raw and server, the better scoring"] = max(raw, server, key=_score)
        for floor in floors:
            taken = {source: taken_as_stop(d, grammar, settings, floor) for source, d in heard.items()}
            taken["raw or server, either"] = taken["raw"] or taken["server canceller"]
            for source, yes in taken.items():
                c[source, floor] += yes
    print(f"{c['rounds']} recorded stop rounds, the word decoded from:")
    for source in ("server canceller", "raw", "raw and server, the better scoring", "raw or server, either",
                   "in-process AEC3"):
        print(f"  {source}: " + ", ".join(f"floor {f:g} {c[source, f]}" for f in floors))


def _score(decoded: Decoded) -> float:
    return decoded.evidence.score if decoded.evidence is not None else float("-inf")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decodes", nargs="*", default=[], help="bench_speech.py --json files")
    ap.add_argument("--audio", nargs="*", default=[], help="bench_bargein.py --audio folders")
    ap.add_argument("--stops", help="with --audio: the corpus the stops were played from")
    ap.add_argument("--floors", default="-3,-4", help="over_speech.FLOOR values, comma-separated (--floors=-3,-4)")
    ap.add_argument("--opinions", default="1.01,0.9,0.75,0.6",
                    help="with --decodes: over_speech.KEYWORD_P values (above 1: the opinion never takes stop)")
    args = ap.parse_args(argv)
    floors = [float(f) for f in args.floors.split(",")]
    if args.decodes:
        decodes([Path(p) for p in args.decodes], floors, [float(p) for p in args.opinions.split(",")])
    if args.audio:
        if not args.stops:
            ap.error("--audio needs --stops CORPUS")
        audio([Path(p) for p in args.audio], Path(args.stops), floors)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
