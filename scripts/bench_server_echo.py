#!/usr/bin/env python3
"""The sound server's echo canceller in double talk: how much of a real "stop" said
over the console's speech it keeps, and how much of the speech it takes out, per
module-echo-cancel configuration.

For each configuration the module is loaded between console_out and console_mic's
monitor (as voice/server_echo_cancel.py loads it), a long espeak-ng line is played
into its sink and looped into the microphone at -6 dB (bench_barge_in_parts.
SpeakersIntoMicrophone), and real stops (a corpus of make_real_corpus.py --kind
words, one person each) are played into the microphone one after another over it.
The raw and the cleaned microphone are recorded. Per stop: of the word's loud frames
(within 20 dB of its loudest), how many the cleaned microphone keeps within 6 dB of
their level; between the words: the echo's level raw and cleaned.

    python scripts/bench_server_echo.py --stops CORPUS [--count 12] [--configs webrtc,webrtc-extended]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_barge_in_parts import Recorder, SpeakersIntoMicrophone, corpus_clips, pactl  # noqa: E402
from room import room_tone, stop_loop  # noqa: E402

from audio_console.voice.audio import read_wav, resample, write_wav  # noqa: E402
from audio_console.voice.server_echo_cancel import AEC_ARGS  # noqa: E402

CONFIGS = {
    "webrtc": ("webrtc", AEC_ARGS),
    "webrtc-extended": ("webrtc", AEC_ARGS + " extended_filter=1"),
    "webrtc-mobile": ("webrtc", AEC_ARGS + " mobile=1 routing_mode=speakerphone comfort_noise=0"),
    "speex-linear": ("speex", "agc=0 denoise=0 echo_suppress=0 filter_size_ms=200"),
    "speex": ("speex", "agc=0 denoise=0 echo_suppress=1 echo_suppress_attenuation=-40 "
                       "echo_suppress_attenuation_active=-6 filter_size_ms=200"),
}
LINE = ("Hint 3: query delta five. The answer is two, because two ships are seen from there; "
        "foxtrot one is empty and golf nine answered three. Then query echo seven, which is "
        "next to two stars, and charlie four, which answered one before. ") * 2
FRAME = 480


def _db(x: np.ndarray) -> float:
    return float(10 * np.log10(np.mean(np.asarray(x, np.float64) ** 2) + 1e-12))


def _lag(clip: np.ndarray, x: np.ndarray) -> int:
    """Where `clip` lies in `x` (cross-correlation)."""
    n = 1 << (len(x) + len(clip) - 1).bit_length()
    c = np.fft.irfft(np.fft.rfft(x, n) * np.conj(np.fft.rfft(clip, n)), n)[:len(x) - len(clip) + 1]
    return int(np.argmax(np.abs(c)))


def kept_frames(clip: np.ndarray, raw: np.ndarray, cleaned: np.ndarray) -> tuple[int, int]:
    """(The word's loud frames kept within 6 dB in `cleaned`, its loud frames): the
    word found in the raw microphone, at the level it arrived there."""
    at = _lag(clip, raw)
    gain = float(np.dot(raw[at:at + len(clip)], clip) / np.dot(clip, clip))
    levels = [_db(gain * clip[i:i + FRAME]) for i in range(0, len(clip) - FRAME, FRAME)]
    top, kept, loud = max(levels), 0, 0
    for k, level in enumerate(levels):
        i = at + k * FRAME
        if level < top - 20 or i + FRAME > len(cleaned):
            continue
        loud += 1
        kept += _db(cleaned[i:i + FRAME]) >= level - 6
    return kept, loud


def measure(name: str, line: Path, clips: list[Path], out: str, mic: str) -> dict:
    method, args = CONFIGS[name]
    module = pactl("load-module", "module-echo-cancel", f"aec_method={method}", f'aec_args="{args}"',
                   f"sink_master={out}", f"source_master={mic}.monitor", "sink_name=bench_echo_sink",
                   "source_name=bench_echo_source").strip()
    raw, cleaned = Recorder(f"{mic}.monitor", keep=90), Recorder("bench_echo_source", keep=90)
    try:
        time.sleep(0.5)
        player = subprocess.Popen(["paplay", "--device=bench_echo_sink", str(line)])
        time.sleep(3.0)                        # the canceller converges
        said = []
        for clip in clips:
            start = time.monotonic()
            subprocess.run(["paplay", f"--device={mic}", str(clip)], check=True, timeout=30)
            said.append((clip, start, time.monotonic()))
            time.sleep(1.0)
            if player.poll() is not None:
                break
        player.kill()
        kept = loud = 0
        for clip, start, end in said:
            k, n = kept_frames(read_wav(clip)[0], *(r.between(start - 0.3, end + 0.5).astype(np.float32) / 32768
                                                     for r in (raw, cleaned)))
            kept, loud = kept + k, loud + n
        between = [(end + 0.6, start - 0.1) for (_, _, end), (_, start, _) in zip(said, said[1:])]
        echo = [np.median([_db(r.between(a, b).astype(np.float32) / 32768) for a, b in between])
                for r in (raw, cleaned)]
        return {"stops": len(said), "kept": kept, "loud": loud, "echo_raw": echo[0], "echo_cleaned": echo[1]}
    finally:
        raw.close()
        cleaned.close()
        subprocess.run(["pactl", "unload-module", module], capture_output=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stops", required=True, help="a one-word corpus (make_real_corpus.py --kind words)")
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--mic", default="console_mic")
    ap.add_argument("--out", default="console_out")
    args = ap.parse_args(argv)
    clips = corpus_clips(Path(args.stops), "stop", args.count)
    with tempfile.TemporaryDirectory() as tmp:
        spoken = Path(tmp) / "spoken.wav"
        subprocess.run(["espeak-ng", "-w", str(spoken), LINE], check=True)
        x, rate = read_wav(spoken)
        line = Path(tmp) / "line.wav"
        write_wav(line, resample(x, rate, 16000) * 0.8, 16000)
        loop = room_tone(Path(tmp), args.mic)
        try:
            with SpeakersIntoMicrophone(args.out, args.mic, -6.0):
                for name in args.configs.split(","):
                    r = measure(name, line, clips, args.out, args.mic)
                    print(f"{name}: {r['stops']} stops over the speech, their loud frames kept {r['kept']}/{r['loud']} "
                          f"({100 * r['kept'] / max(1, r['loud']):.0f} %); the echo between them "
                          f"{r['echo_raw']:.1f} -> {r['echo_cleaned']:.1f} dBFS", flush=True)
        finally:
            stop_loop(loop)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
