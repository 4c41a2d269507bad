#!/usr/bin/env python3
"""Where each "stop" said over the console is lost, replayed offline.

Replays the stop rounds recorded by `bench_bargein.py --audio DIR` (each round: the
raw microphone `*-mic.wav`, the sound server canceller's output the console read
`*-cleaned.wav`, what the console played `*-out.wav`) through the console's own
listening stages: the VAD cutter and the barge-in hold (cutting.Cutting,
echo_cancel.Hold), the reporter's echo and own-words drops and trust layer
(report.Reporter, over_speech), each utterance decoded whole by Whisper with the
game's grammar (Galaxis option 2). Each run's rounds go one after the other through
one cutter, so the voice detector's state is carried as in a session. Deterministic:
the clock is the recording's.

Each round's real stop (found in the raw microphone by cross-correlation with its
clip in --stops CORPUS) is put in one class: acted on; said after the line ended;
no utterance began (the detector did not open, or the level rule); dropped as the
console's echo or its own words; Whisper wrote another best phrase; best phrase
"stop" rejected (over_speech.FLOOR, words, no speech); rejected with the console not
held (trust alone). -v prints each miss.

    python scripts/bench_bargein_replay.py --stops CORPUS [-v] DIR [DIR ...]
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from audio_console.base.settings import Settings  # noqa: E402
from audio_console.commands.vocabulary import common_grammar  # noqa: E402
from audio_console.galaxis.commands import grammar as galaxis_grammar  # noqa: E402
from audio_console.voice import cutting as cutting_module  # noqa: E402
from audio_console.voice.audio import read_wav, to_pcm16  # noqa: E402
from audio_console.voice.cutting import Cutting, vad_cutter  # noqa: E402
from audio_console.voice.echo_cancel import ECHO_ACTIVE_DB, EchoCanceller, Hold  # noqa: E402
from audio_console.voice.frames import FRAME_SECONDS  # noqa: E402
from audio_console.voice.report import Reporter  # noqa: E402

RATE = 16000
FRAME = int(FRAME_SECONDS * RATE)
BUSY_AROUND = 0.5     # seconds: the engine is busy through the pauses between its words
# a line spoken in parts: the text the console was saying (its own-words drop reads it)
SPOKEN = ["Hint: D5: D5 is the best query now: of the 1,000 placements left, its answer "
          "should leave about 200 (20%), and it is a ship with chance 30%."]


class Clock:
    """The recording's time, for the stages that read time.monotonic()."""
    now = 0.0

    @classmethod
    def monotonic(cls) -> float:
        return cls.now


class Reference:
    """What the console played, as the echo canceller's reference reads it."""

    def __init__(self):
        self.block = np.zeros(FRAME, np.float32)

    def reader(self):
        return self

    def read(self, n: int, queued: int = 0) -> np.ndarray:
        return self.block[:n]


class Sink:
    """The console's output as recorded: busy while it sounds (unless held)."""

    def __init__(self):
        self.sounding, self.held = False, False

    def busy(self) -> bool:
        return self.sounding or self.held

    def hold(self, on: bool) -> None:
        self.held = on

    def spoken_within(self, seconds: float) -> list[str]:
        return SPOKEN


def _db(x: np.ndarray) -> float:
    return float(10 * np.log10(np.mean(x.astype(np.float64) ** 2) + 1e-12))


def _find(clip: np.ndarray, x: np.ndarray) -> int:
    n = len(x) + len(clip)
    return int(np.argmax(np.fft.irfft(np.fft.rfft(x, n) * np.conj(np.fft.rfft(clip, n)), n)[:len(x)]))


def load_round(mic_wav: Path, corpus: Path):
    """(cleaned, out aligned with it, word start, word end in cleaned samples) or None."""
    name = re.search(r"(cmd-\d+)", mic_wav.name)
    cleaned_wav = mic_wav.with_name(mic_wav.name.replace("-mic", "-cleaned"))
    out_wav = mic_wav.with_name(mic_wav.name.replace("-mic", "-out"))
    if name is None or not cleaned_wav.exists() or not out_wav.exists():
        return None
    clip = read_wav(corpus / "clean" / f"{name.group(1)}.wav")[0]
    mic, cleaned, out = (read_wav(p)[0] for p in (mic_wav, cleaned_wav, out_wav))
    if len(cleaned) < RATE:
        return None
    # the cleaned source's recorder began later and ended with the others
    offset = len(mic) - len(cleaned)
    lag = _find(cleaned[RATE // 2: -RATE // 2], mic) - RATE // 2 - offset
    offset += lag if abs(lag) < RATE // 5 else 0
    loud = np.flatnonzero(np.abs(clip) > 0.05 * np.max(np.abs(clip)))
    at = _find(clip, mic)
    start, end = at + loud[0] - offset, at + loud[-1] - offset
    if start < RATE // 2 or end > len(cleaned):
        return None
    out_here = np.zeros(len(cleaned), np.float32)
    part = out[max(0, offset):offset + len(cleaned)]
    out_here[max(0, -offset):max(0, -offset) + len(part)] = part
    return cleaned, out_here, start, end


class Replay:
    """One run's rounds through the console's listening stages (one cutter)."""

    def __init__(self, engine, grammar, settings):
        self.engine, self.grammar, self.settings = engine, grammar, settings
        self.sink, self.reference = Sink(), Reference()
        self.echo = EchoCanceller(self.reference, cancel=False)
        self.events: list[tuple[float, str, dict]] = []
        self.cutter = vad_cutter(console_heard=lambda: self.sink.sounding and self.hold.since is None)
        self.hold = Hold(self.sink, self.echo, self._room, self._trace)
        self.cutting = Cutting(self.cutter, self.hold, self._trace, lambda: None)
        self.report = Reporter(settings, self.sink, self.echo, self.hold, self._trace, self._room,
                               voiceless=lambda: self.cutter.voiceless_onset)
        self.heard: list[tuple[float, float, object, object]] = []   # (start, end, decoded, Heard)
        self.voiced: list[tuple[float, float]] = []   # the detector's probability per frame
        self.over_line: dict[float, bool] = {}   # per onset: the console's line sounded

    def _room(self):
        return self.cutting.room_db()

    def _trace(self, event: str, **fields) -> None:
        self.events.append((Clock.now, event, fields))

    def round(self, cleaned: np.ndarray, out: np.ndarray, t0: float) -> None:
        pcm = to_pcm16(cleaned, RATE)
        sounding = np.array([_db(out[i:i + FRAME]) > ECHO_ACTIVE_DB for i in range(0, len(out) - FRAME + 1, FRAME)])
        around = round(BUSY_AROUND / FRAME_SECONDS)
        began = None
        self.cutter.reset()
        self.sink.held, self.hold.since = False, None
        for j in range(len(sounding)):
            Clock.now = t0 + j * FRAME_SECONDS
            self.sink.sounding = bool(sounding[max(0, j - around):j + around].any())
            self.reference.block = out[j * FRAME:(j + 1) * FRAME]
            frame = pcm[2 * j * FRAME: 2 * (j + 1) * FRAME]
            self.echo.clean(frame)
            utterance, now_began = self.cutting.push(frame)
            self.voiced.append((Clock.now, self.cutter.frames.vad.probability))
            if now_began:
                began = Clock.now
                self.over_line[began] = self.sink.sounding
            if utterance:
                self._hear(utterance, began if began is not None else Clock.now)
        self.sink.held = False

    def _hear(self, pcm: bytes, began: float) -> None:
        if self.report.own_echo(pcm):
            self.heard.append((began, Clock.now, None, "echo"))
            return
        decoded = self.engine.decode(pcm, True)
        got: list = []
        before = len(self.events)
        self.report(decoded, self.grammar, Clock.now, "whole", pcm, 0.0, got.append)
        own = any(e == "the console's own words: dropped" for _, e, _ in self.events[before:])
        self.heard.append((began, Clock.now, decoded, "own words" if own else (got[0] if got else None)))


def line_start(out: np.ndarray, before: int) -> float:
    """Seconds into the round where the console's line that the word was said over
    began: after its last half second of silence before sample `before`."""
    silent, at = 0, before // FRAME
    while at > 0 and silent < round(0.5 / FRAME_SECONDS):
        at -= 1
        silent = silent + 1 if _db(out[at * FRAME:(at + 1) * FRAME]) <= ECHO_ACTIVE_DB else 0
    return (at + silent) * FRAME_SECONDS


def classify(replay: Replay, start: float, end: float, sounding_before: bool, held_at: list) -> str:
    """The class of one round's stop (times in the replay's clock)."""
    mine = [h for h in replay.heard if h[0] <= end + 0.3 and h[1] >= start]
    for _, _, decoded, heard in mine:
        if getattr(heard, "command", None) is not None and heard.action == "act" and heard.command.name == "stop":
            return "acted on"
    if not sounding_before:
        return "said after the line ended"
    if not mine:
        return "no utterance began"
    if all(h[3] in ("echo", "own words") for h in mine):
        return "dropped as the console's echo or own words"
    decoded = [h[2] for h in mine if h[2] is not None and h[2].evidence is not None]
    if not any(d.evidence.command == "stop" for d in decoded):
        return "Whisper's best phrase another"
    if not held_at:
        return "best phrase stop, the console not held"
    return "best phrase stop, rejected over speech"


def describe(replay: Replay, start: float, end: float) -> str:
    parts = []
    for began, ended, decoded, heard in replay.heard:
        if began <= end + 0.3 and ended >= start:
            if decoded is None or isinstance(heard, str):
                parts.append(f"[{began - start:+.2f}..{ended - start:+.2f}] {heard}")
                continue
            e = decoded.evidence
            parts.append(f"[{began - start:+.2f}..{ended - start:+.2f}] {e.transcript!r} best {e.command} "
                         f"{e.score:.2f} ns {e.no_speech:.2f} kw {e.keyword} {e.keyword_p:.2f} ks {e.keyword_score} agrees {e.agrees} "
                         f"-> {getattr(heard, 'action', heard)}")
    return "; ".join(parts)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stops", required=True, help="the words corpus the stops were played from")
    ap.add_argument("--opinion", type=float, help="over_speech.KEYWORD_P (above 1: the opinion never takes stop)")
    ap.add_argument("--loud-onset", type=int, help="vad.LOUD_ONSET (0: a voice is needed to begin)")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("runs", nargs="+", help="folders of bench_bargein.py --audio, one run each")
    args = ap.parse_args(argv)
    from audio_console.voice import over_speech, vad
    from audio_console.voice.engines import open_engine
    if args.opinion is not None:
        over_speech.KEYWORD_P = args.opinion
    if args.loud_onset is not None:
        vad.LOUD_ONSET = args.loud_onset
    cutting_module.time = Clock   # type: ignore[assignment]
    import audio_console.voice.report as report_module
    report_module.time = Clock    # type: ignore[assignment]
    grammar, settings = galaxis_grammar("searching", 2) + common_grammar(), Settings()
    engine = open_engine("whisper")
    engine.set_grammar(grammar)
    totals: Counter = Counter()
    for run in args.runs:
        replay = Replay(engine, grammar, settings)
        t0, counts = 0.0, Counter()
        for mic_wav in sorted(Path(run).glob("*-mic.wav")):
            loaded = load_round(mic_wav, Path(args.stops))
            if loaded is None:
                continue
            cleaned, out, start, end = loaded
            before = len(replay.events)
            replay.round(cleaned, out, t0)
            s, e = t0 + start / RATE, t0 + end / RATE
            sounding_before = _db(out[max(0, start - RATE // 4):start]) > ECHO_ACTIVE_DB
            held = [t for t, ev, _ in replay.events[before:] if ev == "held when the word grew loud"] + \
                [t for t, ev, _ in replay.events[before:] if ev == "speech began" and replay.sink.held]
            held = held or ([1.0] if replay.hold.since is not None else [])
            word = [p for t, p in replay.voiced if s <= t <= e + 0.1]
            kind = classify(replay, s, e, sounding_before, held)
            if kind == "no utterance began":
                kind += ", detector under 0.5" if max(word, default=0) < 0.5 else ", detector opened"
            counts[kind] += 1
            if args.verbose and kind != "acted on":
                print(f"  {mic_wav.name}: {kind} (word {e - s:.2f} s, detector max {max(word, default=0):.2f}) "
                      f"{describe(replay, s, e)}", flush=True)
            for began, ended, _, heard in replay.heard:
                # begun over the round's line before the word: the console's own voice
                # (the recording's start may hold the round before's word)
                if t0 + line_start(out, start) <= began < s - 0.3 and ended < s and replay.over_line.get(began):
                    counts["utterances over the line before the word"] += 1
                    passed = not isinstance(heard, (str, type(None)))
                    counts["... passed to the session (false triggers)"] += passed
                    if passed and args.verbose:
                        print(f"  {mic_wav.name}: passed to the session {began - s:+.2f} s from the word: "
                              f"{describe(replay, began, began)}", flush=True)
            t0 += len(cleaned) / RATE + 1.0
        print(f"{run}: {dict(counts)}", flush=True)
        totals += counts
    outside = {k: totals.pop(k) for k in list(totals) if "before the word" in k or "session" in k}
    print(f"all: {sum(totals.values())} stops")
    for kind, n in [*totals.most_common(), *outside.items()]:
        print(f"  {n:4d}  {kind}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
