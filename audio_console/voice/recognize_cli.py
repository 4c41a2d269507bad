"""`audio-console recognize --game GAME FILE.wav ...`: decode WAV files as live play would.

Prints one JSON line per file: {"file", "heard", "command", "confidence", "seconds"}.
`command` is the canonical command, or null when the input was rejected (noise,
out-of-grammar speech, too unsure): the same recognizer, grammar and trust logic
(the player's saved confirm/clarity settings) as the listener uses. A result that
live play would confirm first ("Did you say D5?") is printed with its command.
"""
from __future__ import annotations

import argparse
import json
import sys

from audio_console.settings import Settings
from audio_console.voice.audio import wav_pcm16
from audio_console.voice.engines import select_recognizer
from audio_console.voice.grammars import grammar_for_game
from audio_console.voice.recognizer import RecognizerError
from audio_console.voice.trust import decide

GAMES = ("galaxis", "battleship", "arkade")


def build_parser(prog: str = "audio-console recognize") -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=prog, description="Decode WAV files with the console's recognizer.")
    ap.add_argument("--game", required=True, help="galaxis, battleship or arkade")
    ap.add_argument("--phase", default="searching", help="the game phase whose grammar to use")
    ap.add_argument("--model", help="a vosk model directory (default: models/ or VOSK_MODEL_PATH)")
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
    failed = 0
    for path in args.files:
        line = {"file": path, "heard": "", "command": None, "confidence": 0.0, "seconds": 0.0}
        try:
            pcm = wav_pcm16(path)
        except Exception as e:  # noqa: BLE001 - OSError, wave.Error, EOFError: one line, go on
            print(f"recognize: cannot read {path}: {e}", file=sys.stderr)
            failed += 1
            print(json.dumps(line), flush=True)
            continue
        decoded = recognizer.decode(pcm)
        heard = decide(decoded, grammar, settings)
        line.update(heard=decoded.text, command=heard.command.text if heard.command else None,
                    confidence=heard.confidence, seconds=round(decoded.seconds, 3))
        print(json.dumps(line), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
