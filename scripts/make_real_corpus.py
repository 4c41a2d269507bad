#!/usr/bin/env python3
"""Make a corpus of REAL people's speech for scripts/bench_speech.py (outside git).

Commands as the console hears them, from public recordings of real people: a point
is one person's own letter clip and digit clip with a natural pause ("d" + "five" ->
query D5); "yes", "no" and "stop" are Speech Commands clips. Reject clips: the same
people saying addresses (numbers and words, no command), other single words (bed,
cat, go, left ...; lone digits) and real background noise alone. Every clip is heard
clean and in real noise: kitchen (dishes, a running tap) and three-talker babble
(three other people of the same role saying addresses) at 10 and 5 dB.

`--kind nato`: the points are said in the NATO alphabet ("delta" + "five") by the
real people of real_speech_sources.NATO_FOLDERS and PROMPT_FOLDERS (a copy of each
repository holding one: --nato DIR, repeated), every row-and-column pair of each
person once at most; the corpus holds those points alone (the commands and reject
clips both kinds share are in the plain-letter corpus), heard in the same conditions.
The prompt voices draw their points, pauses and noise from random streams of their
own (seeded by the seed and their id), after the first three people's clips: adding
a voice changes no other person's clips.

`--kind words`: one-word commands by many people: "yes", "no" and "stop" from a copy
of Speech Commands v0.02's test set (--speech-commands DIR: one take each of up to
--per-word people a word), and as words for no command the same set's "up", "down",
"left", "right", "go", "on", "off" (--reject-per-word people each), heard in the same
conditions; its people are split by real_speech_sources.held_by_crc.

Speakers are split into tune and held-out (roles_of): 42 and 28 of the alphanumeric
dataset's 70 people, fixed by id; of the NATO speakers the ones in HELD_NATO (4 of 7); of the
other sources 3 of 5 tune by a CRC of their id. A corpus holds
one role's speakers only, its babble is made of that role's voices and its noise of
that role's half of each noise recording; nobody tunes on --role held.

    python scripts/make_real_corpus.py --role tune --out corpus_real_tune \\
        --alphanumeric DIR --speech-commands DIR --noise DIR [--digits DIR]
    python scripts/make_real_corpus.py --kind nato --role tune --out corpus_nato_tune \\
        --alphanumeric DIR --noise DIR --nato DIR [--nato DIR]
    python scripts/make_real_corpus.py --kind words --role tune --out corpus_words_tune \\
        --alphanumeric DIR --noise DIR --speech-commands DIR [--per-word N]

The folders are local copies of public repositories (docs/voice-real.md says how to
get them): Sakshee5/alphanumeric-audio-dataset, a Speech Commands word-folder copy
(e.g. vinsis/speech-commands-recognition's speech_commands_v0.01), a Speech Commands
_background_noise_ folder (e.g. chaeyoung-lee/wids_tutorial's data/_background_noise_)
and Jakobovski/free-spoken-digit-dataset's recordings; for --nato, Qu4tro/nato-spell,
barry-ha/Audio_QSPI, joshuabowen0831/Asterisk-testing-menu (branch dev) and
nrahnemoon/nimatel_freeswitch (commit c22b638). Writes OUT/manifest.jsonl as
make_speech_corpus.py does (file, degradation, role, kind, speaker, family, text,
expected), written under a temporary name and renamed when complete.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import zlib
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from audio_console.commands.vocabulary import PHONETIC  # noqa: E402
from audio_console.app.games import grammar_for_game  # noqa: E402
from audio_console.voice.audio import write_wav  # noqa: E402
from corpus_noise import _mix, _normalise, _pad  # noqa: E402
from make_speech_corpus import written_as  # noqa: E402
import real_speech_sources as sources  # noqa: E402

RATE = sources.RATE
ROLES = ("tune", "held")
CONDITIONS = ("clean", "kitchen10", "babble10", "kitchen5", "babble5")
ROWS, COLUMNS = "abcdefg", sources.DIGIT_WORDS[1:]   # the Galaxis board: A-G, 1-9
ROW_WORDS = frozenset(ROWS) | {word for letter in ROWS.upper() for word in PHONETIC[letter]}
OTHER_WORDS = ("bed", "bird", "cat", "dog", "happy", "house", "marvin", "sheila", "tree", "wow",
               "go", "up", "down", "left", "right", "on", "off")
REJECT_WORDS = ("up", "down", "left", "right", "go", "on", "off")   # --kind words
TALK_SECONDS = (2.0, 4.5)      # an address cut to what the listener would pass (it drops > 5 s)


# The held-out people of the alphanumeric dataset, fixed by id (the other 42 tune), so
# that a change in how recordings are cut never moves a person from one role to the other.
HELD_ALPHANUMERIC = frozenset({
    "R_1DN3Yy2ILEefmz8", "R_1KvCEEGNThnpnzy", "R_1VaNGgPhYxnUTbC", "R_1bhWwiBjHlA1GcF",
    "R_34Kh357EGklz2X7", "R_34RasWwKijJI5sB", "R_3OihBnBKQuMFAz4", "R_3f5pnhlvLlxkfu1",
    "R_3i2ltOSffNPHRfR", "R_3vhWAQpPNAgLass", "R_41aAifnTBI6jslp", "R_4Cbjs7mWxj4Ri7v",
    "R_4JsyJD7ticKbRiZ", "R_4M4K1OEOS6Dy9xr", "R_4QJpbtn4T8z4ixS", "R_4TIdkLil27HhMH3",
    "R_4gezxpDDRaPXKIs", "R_4zatSIgrUgsETE5", "R_57WCdr3dpzLNhbe", "R_5hBj9gxvIoDecnz",
    "R_5jebEVEgcwRTOcO", "R_6E6ELKr8L1H0RnH", "R_6thxkopa8CNYELv", "R_7DHnUtjhzr5gTvl",
    "R_7HEfVLTSyuEezdf", "R_7QGd13jsljnaCbY", "R_7Vlj2RdVyGOM7Yz", "R_7pKNTfB39Yc3I41",
})
# The NATO speakers held out (real_speech_sources.NATO_FOLDERS, PROMPT_FOLDERS): never
# tuned on. Fixed by id before any of the prompt voices was measured.
HELD_NATO = frozenset({"fitzpatrick", "benham", "callie", "cameron"})


def roles_of(speakers: dict) -> dict[str, str]:
    """Speaker -> tune or held: the alphanumeric dataset's people by HELD_ALPHANUMERIC;
    the others (Speech Commands, spoken digits) in each source in the order of a CRC
    of their id, two of every five held-out; the NATO speakers by HELD_NATO."""
    groups: dict = {}
    for name in speakers:
        groups.setdefault(name.split(":")[0], []).append(name)
    roles = {}
    for source, names in groups.items():
        for i, name in enumerate(sorted(names, key=lambda n: zlib.crc32(n.encode()))):
            if source == "scw":   # the Speech Commands test set (--kind words)
                roles[name] = "held" if sources.held_by_crc(name.split(":")[1]) else "tune"
            elif source in ("alnum", "nato"):
                held = HELD_ALPHANUMERIC if source == "alnum" else HELD_NATO
                roles[name] = "held" if name.split(":")[1] in held else "tune"
            else:
                roles[name] = "held" if i % 5 in (1, 3) else "tune"
    return roles


def points_of(who: sources.Speaker, count: int, rng: random.Random) -> list[tuple[str, np.ndarray]]:
    """Up to `count` points said by one person: their letter, a pause, their digit."""
    letters = [(w, c) for w, clips in who.letters.items() if w in ROW_WORDS for c in clips]
    digits = [(w, c) for w, clips in who.digits.items() if w in COLUMNS for c in clips]
    if not letters or not digits:
        return []
    out, seen = [], set()
    for _ in range(4 * count):
        (letter, a), (digit, b) = rng.choice(letters), rng.choice(digits)
        if (letter, digit) in seen:
            continue
        seen.add((letter, digit))
        pause = np.zeros(int(RATE * rng.uniform(0.12, 0.3)), np.float32)
        out.append((f"{letter} {digit}", np.concatenate([a, pause, b])))
        if len(out) == count:
            break
    return out


def talk_piece(x: np.ndarray, rng: random.Random) -> np.ndarray:
    seconds = rng.uniform(*TALK_SECONDS)
    n = int(seconds * RATE)
    start = rng.randrange(0, max(1, len(x) - n))
    return x[start:start + n]


def items_of(speakers: dict, role: str, args, rng: random.Random, noise: dict, streams: dict) -> list[tuple]:
    """(kind, speaker, family, text, samples) of the role's clips; a speaker of
    `streams` draws from their own."""
    items = []
    roles = roles_of(speakers)
    mine = [s for name, s in sorted(speakers.items()) if roles[name] == role]
    if args.kind == "nato":   # the NATO speakers' points alone, the first three people first
        nato = [who for who in mine if who.name.startswith("nato:")]
        nato.sort(key=lambda who: who.name in streams)
        return [("cmd", who.name, "nato", t, x) for who in nato
                for t, x in points_of(who, args.nato_points, streams.get(who.name, (rng,))[0])]
    if args.kind == "words":   # the test set's people's one-word commands and other words
        words = [w for w in mine if w.name.startswith("scw:")]
        return ([("cmd", w.name, "short", t, x) for w in words for t, x in w.words]
                + [("oog", w.name, "word", t, x) for w in words for t, x in w.other])
    for who in mine:
        items += [("cmd", who.name, "point", t, x) for t, x in points_of(who, args.points, rng)]
        items += [("cmd", who.name, "short", w, x) for w, x in who.words]
        items += [("chat", who.name, "address", t, talk_piece(x, rng)) for t, x in who.talk[:1]]
        items += [("oog", who.name, "word", w, x) for w, x in who.other[:args.words]]
    for name, x in noise.items():
        for i in range(args.noise_clips):
            n = int(rng.uniform(1.5, 3.0) * RATE)
            start = rng.randrange(0, max(1, len(x) - n))
            items.append(("noise", "none", "noise", name, x[start:start + n]))
    return items


def role_half(x: np.ndarray, role: str) -> np.ndarray:
    """The first half of a noise recording for tuning, the second for held-out."""
    half = len(x) // 2
    return x[:half] if role == "tune" else x[half:]


def babble_of(speakers: dict, role: str, rng: random.Random) -> np.ndarray:
    """Three people of the role talking at once (their addresses, one after another)."""
    roles = roles_of(speakers)
    talk = [_normalise(x, 0.3) for name, s in sorted(speakers.items()) if roles[name] == role for _, x in s.talk]
    rng.shuffle(talk)
    voices = [np.concatenate(talk[i::3]) for i in range(3)]
    n = min(len(v) for v in voices)
    return sum(v[:n] for v in voices).astype(np.float32)


def degrade(x: np.ndarray, how: str, kitchen: list[np.ndarray], babble: np.ndarray,
            np_rng: np.random.Generator) -> np.ndarray:
    if how == "clean":
        return x
    source = babble if how.startswith("babble") else kitchen[int(np_rng.integers(0, len(kitchen)))]
    start = int(np_rng.integers(0, max(1, len(source) - len(x))))
    return _mix(x, source[start:start + len(x)], float(how.lstrip("abcdefghijklmnopqrstuvwxyz")))


def gather(args) -> tuple[dict, dict]:
    speakers: dict = {}
    sources.alphanumeric(Path(args.alphanumeric), speakers)
    if args.kind == "nato":
        for root in args.nato:
            sources.nato(Path(root), speakers)
            sources.prompts(Path(root), speakers)
        return speakers, sources.noises(Path(args.noise))
    if args.kind == "words":
        root = Path(args.speech_commands)
        sources.command_words(root, speakers, args.role, sources.COMMAND_WORDS, args.per_word)
        sources.command_words(root, speakers, args.role, REJECT_WORDS, args.reject_per_word)
        return speakers, sources.noises(Path(args.noise))
    sources.speech_commands(Path(args.speech_commands), speakers, OTHER_WORDS)
    if args.digits:
        sources.free_digits(Path(args.digits), speakers, args.digits_per_speaker)
    return speakers, sources.noises(Path(args.noise))


def own_streams(speakers: dict, seed: int) -> dict[str, tuple[random.Random, np.random.Generator]]:
    """Speaker -> their own random streams, for the NATO speakers found after the
    first three (real_speech_sources.PROMPT_FOLDERS)."""
    first = {f"nato:{person}" for person in sources.NATO_FOLDERS.values()}
    return {name: (random.Random(f"{seed}/{name}"), np.random.default_rng([seed, zlib.crc32(name.encode())]))
            for name in speakers if name.startswith("nato:") and name not in first}


def write_corpus(out: Path, role: str, args) -> int:
    rng, np_rng = random.Random(args.seed), np.random.default_rng(args.seed)
    grammar = grammar_for_game("galaxis")
    speakers, noise = gather(args)
    noise = {name: role_half(x, role) for name, x in noise.items()}
    kitchen = [noise[n] for n in ("doing_the_dishes", "running_tap") if n in noise]
    babble = babble_of(speakers, role, rng)
    streams = own_streams(speakers, args.seed)
    items = items_of(speakers, role, args, rng, noise, streams)
    with written_as(out) as partial:
        with open(partial / "manifest.jsonl", "w") as manifest:
            for how in args.conditions.split(","):
                (partial / how).mkdir()
                for i, (kind, speaker, family, text, x) in enumerate(items):
                    command = grammar.parse(text) if kind == "cmd" else None
                    its_rng, its_np_rng = streams.get(speaker, (rng, np_rng))
                    clip = _pad(_normalise(x) if kind != "noise" else _normalise(x, 0.3), its_rng)
                    name = f"{kind}-{i:04d}.wav"
                    write_wav(partial / how / name, degrade(clip, how, kitchen, babble, its_np_rng), RATE)
                    manifest.write(json.dumps({
                        "file": str(out / how / name), "degradation": how, "role": role, "kind": kind,
                        "speaker": speaker, "family": family, "text": text, "real": True,
                        "expected": command.text if command else None}) + "\n")
    return len(items)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--role", default="tune", choices=ROLES)
    ap.add_argument("--alphanumeric", required=True, help="a copy of Sakshee5/alphanumeric-audio-dataset")
    ap.add_argument("--kind", default="letters", choices=("letters", "nato", "words"),
                    help="letters: plain-letter points, commands and reject clips; nato: NATO points alone; "
                         "words: one-word commands and other words by many people")
    ap.add_argument("--nato", action="append", default=[],
                    help="a copy of a repository with real_speech_sources.NATO_FOLDERS or PROMPT_FOLDERS "
                         "(--kind nato; repeated)")
    ap.add_argument("--nato-points", type=int, default=30, help="points per NATO speaker (at most 63)")
    ap.add_argument("--speech-commands", help="Speech Commands word folders (yes/, no/, ...; --kind letters, "
                                              "words: a copy of the v0.02 test set)")
    ap.add_argument("--per-word", type=int, default=40, help="people saying each command (--kind words)")
    ap.add_argument("--reject-per-word", type=int, default=10, help="people saying each other word (--kind words)")
    ap.add_argument("--noise", required=True, help="Speech Commands' _background_noise_ folder")
    ap.add_argument("--digits", help="free-spoken-digit-dataset's recordings/ (optional)")
    ap.add_argument("--digits-per-speaker", type=int, default=1, help="takes of each digit per FSDD speaker")
    ap.add_argument("--points", type=int, default=5, help="points per alphanumeric speaker")
    ap.add_argument("--words", type=int, default=2, help="other words (no command) per speaker")
    ap.add_argument("--noise-clips", type=int, default=3, help="clips of each noise alone")
    ap.add_argument("--conditions", default=",".join(CONDITIONS))
    ap.add_argument("--seed", type=int, default=None, help="default: 11 for tune, 12 for held")
    args = ap.parse_args(argv)
    if (args.kind == "nato") != bool(args.nato) or (args.kind != "nato") != bool(args.speech_commands):
        ap.error("--kind letters and words need --speech-commands; --kind nato needs --nato (and neither the other)")
    if args.seed is None:
        args.seed = 11 if args.role == "tune" else 12
    count = write_corpus(Path(args.out), args.role, args)
    print(f"{count} clips x {len(args.conditions.split(','))} conditions, role {args.role} -> {args.out}/manifest.jsonl")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
