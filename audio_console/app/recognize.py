"""`audio-console recognize --game GAME FILE.wav ...`: decode WAV files as live play would.

Prints one JSON line per file: {"file", "heard", "command", "action", "engine",
"confidence", "seconds", "runner_up"}. `command` is the canonical command, or null when the input
was rejected (noise, out-of-grammar speech, too unsure): the same recognizer, grammar
and trust logic (the player's saved confirm/clarity settings) as the listener uses.
`action` is what live play would do: "act", "confirm" ("Did you say D5?", printed
with its command) or "reject". `runner_up` is the best different command the engine
found (asked about instead when the player has said no to `command` and it is heard
again), or null. A file that cannot be used (not a WAV, empty, longer
than a command may be, an absurd sample rate, channel count or sample width) gets its
line with an "error" and one line on stderr; the batch goes on. The header is
checked before any audio is read, and the audio is read, mixed down and (above
48 kHz) divided down a chunk at a time, so memory follows the audio's length (at
most 30 s), never the file's size, channel count or rate.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import wave

from audio_console.app.games import grammar_for_game
from audio_console.base.settings import Settings
from audio_console.voice.audio import WIDTHS, read_speech, to_pcm16
from audio_console.voice.engines import select_recognizer
from audio_console.voice.recognizer import RecognizerError
from audio_console.voice.trust import decide

GAMES = ("galaxis", "battleship", "arkade")
MAX_SECONDS = 30.0               # longer than any command: refused, not decoded
RATES = (4000, 192000)           # sample rates a speech recording can have
MAX_CHANNELS = 8                 # a microphone array at most; more is not speech to decode
FORMATS = {3: "32-bit float samples", 6: "A-law samples", 7: "mu-law samples", 85: "MP3 inside a WAV",
           0xFFFE: "an extensible WAV header (WAVE_FORMAT_EXTENSIBLE)"}   # the codes wave cannot read


def load_utterance(path) -> bytes:
    """A WAV file as recognizer input (16 kHz mono int16), or ValueError saying
    plainly why not. The header is checked before any audio is read."""
    try:
        size = os.path.getsize(path)
    except OSError as e:
        raise ValueError(e.strerror or type(e).__name__) from e
    if size == 0:
        raise ValueError("the file is empty (0 bytes)")
    try:
        with wave.open(str(path), "rb") as w:
            rate, frames, channels, width = w.getframerate(), w.getnframes(), w.getnchannels(), w.getsampwidth()
    except (wave.Error, EOFError) as e:
        raise ValueError(_unreadable(e)) from e
    except OSError as e:
        raise ValueError(e.strerror or str(e) or type(e).__name__) from e
    if not RATES[0] <= rate <= RATES[1]:
        raise ValueError(f"sample rate {rate} Hz is not a speech recording's ({RATES[0]}-{RATES[1]} Hz)")
    if not 1 <= channels <= MAX_CHANNELS:
        raise ValueError(f"{channels} channels; a speech recording has 1 to {MAX_CHANNELS}")
    if width not in WIDTHS:
        raise ValueError(f"{8 * width}-bit samples; use 8, 16 or 32-bit PCM")
    if frames == 0:
        raise ValueError("no audio in it (0 frames)")
    if frames / rate > MAX_SECONDS:
        raise ValueError(f"{frames / rate:.0f} s long; one command is at most {MAX_SECONDS:.0f} s")
    try:
        samples, speech_rate = read_speech(path)
    except (wave.Error, EOFError, ValueError) as e:
        raise ValueError(str(e) or type(e).__name__) from e
    if len(samples) == 0:
        raise ValueError("no audio in it (0 frames)")
    return to_pcm16(samples, speech_rate)


def _unreadable(error: Exception) -> str:
    """Why the wave module would not open a file: a sample format named, as the player's
    recording program names it, and what to use instead."""
    code = re.fullmatch(r"unknown format: (\d+)", str(error))
    if code:
        return f"{FORMATS.get(int(code[1]), f'WAV format {code[1]}')}; use 8, 16 or 32-bit PCM"
    return f"not a readable WAV file ({error or type(error).__name__})"


def build_parser(prog: str = "audio-console recognize") -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=prog, description="Decode WAV files with the console's recognizer.")
    ap.add_argument("--game", required=True, help="galaxis, battleship or arkade")
    ap.add_argument("--phase", default="searching", help="the game phase whose grammar to use")
    ap.add_argument("--model", help="a Whisper CTranslate2 or vosk model folder (default: the console's own choice)")
    ap.add_argument("files", nargs="+", metavar="FILE.wav")
    return ap


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        grammar = grammar_for_game(args.game, args.phase)
    except (ValueError, ImportError, KeyError) as e:
        print(f"recognize: no grammar for game {args.game!r}: {e}", file=sys.stderr)
        return 2
    try:
        recognizer, why = select_recognizer(args.model)
        recognizer.set_grammar(grammar)
    except RecognizerError as e:
        print(f"recognize: no speech recognizer: {e}", file=sys.stderr)
        return 2
    print(why, file=sys.stderr)
    settings = Settings.load()
    engine = recognizer.describe() if hasattr(recognizer, "describe") else recognizer.name
    failed = 0
    for path in args.files:
        line = {"file": path, "heard": "", "command": None, "action": "reject", "engine": engine,
                "confidence": 0.0, "seconds": 0.0, "runner_up": None}
        try:
            pcm = load_utterance(path)
            decoded = recognizer.decode(pcm)
        except Exception as e:  # noqa: BLE001 - one clear line per file, and the batch goes on
            reason = str(e) or type(e).__name__
            print(f"recognize: cannot use {path}: {reason}", file=sys.stderr)
            failed += 1
            print(json.dumps({**line, "error": reason}), flush=True)
            continue
        heard = decide(decoded, grammar, settings)
        line.update(heard=decoded.text, command=heard.command.text if heard.command else None,
                    action=heard.action, confidence=heard.confidence, seconds=round(decoded.seconds, 3),
                    runner_up=heard.runner_up.text if heard.runner_up else None)
        print(json.dumps(line), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
