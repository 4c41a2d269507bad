"""Real recordings for scripts/make_real_corpus.py: each source's clips by speaker.

Sources (local copies of public repositories; see docs/voice-real.md for how to get them):
- alphanumeric: Sakshee5/alphanumeric-audio-dataset (MIT): people spelling a name
  letter by letter (audio_data/Names), reading a phone number digit by digit
  (audio_data/Numbers) and saying an address (audio_data/Addresses), with
  metadata.csv saying what each said. The letters and digits are cut apart by
  their pauses; a recording is used only when the cut gives exactly as many
  pieces as it has letters or digits, each of a plausible length (people say
  "double eight" or "eight eight": see labelled()).
- speech commands: a folder of Google Speech Commands word folders (yes/, no/,
  stop/, bed/ ...; CC BY 4.0), file names SPEAKER_nohash_N.wav.
- speech commands test set (--kind words): Speech Commands v0.02's canonical test
  set (CC BY 4.0; yes/, no/, stop/, up/ ... _unknown_/, about 400 clips a word by
  some 200 people), e.g. thegtagamer/PICO-tinyML-benchmark's MLTK_keyworkSpotting/dataset.
- noise: Speech Commands' _background_noise_ folder (doing_the_dishes.wav,
  running_tap.wav, exercise_bike.wav, dude_miaowing.wav: real recordings).
- digits (optional): Jakobovski/free-spoken-digit-dataset's recordings/
  (DIGIT_SPEAKER_N.wav, CC BY-SA 4.0): lone digits, no command.
- NATO alphabet: folders in which one real person says each letter's phonetic word
  and each digit, one clip each (a.wav ... z.wav, 0.wav ... 9.wav): NATO_FOLDERS.
- Telephone voice prompts: the Asterisk and FreeSWITCH prompt packs recorded by
  professional voice artists, whose phonetic and digit prompts are one person's NATO
  words and digits: PROMPT_FOLDERS (16 kHz raw .sln16, 8 kHz GSM .gsm, .wav).
"""
from __future__ import annotations

import csv
import itertools
import subprocess
import wave
import zlib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from audio_console.commands.vocabulary import PHONETIC
from audio_console.voice.audio import read_wav, resample

RATE = 16000
DIGIT_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
FRAME = 320                      # 20 ms
# pause lengths (s) and level thresholds (fraction between the floor and the peak, in
# dB) tried in turn until a recording falls into exactly as many pieces as it should
GAPS = (0.15, 0.12, 0.1, 0.08, 0.2, 0.06)
LEVELS = (0.35, 0.3, 0.4, 0.25, 0.45, 0.5, 0.2)
PIECE_SECONDS = (0.12, 1.3)      # a letter, a digit (or "double eight") said alone takes this long
MARGIN = int(0.04 * RATE)        # kept before and after a piece (its onset and tail)
NOISE_FILES = ("doing_the_dishes", "running_tap", "exercise_bike", "dude_miaowing")
COMMAND_WORDS = ("yes", "no", "stop")
# Real people saying the NATO alphabet and the digits: the folder inside its public
# repository -> the speaker's id (docs/voice-real.md: who they are, the licences).
NATO_FOLDERS = {
    "nato_spell/sounds": "kahn",                       # Qu4tro/nato-spell: Tim Kahn's packs, CC BY 4.0
    "audio American male/audio": "hansen",             # barry-ha/Audio_QSPI: Barry Hansen, GPL-3.0
    "audio Scottish female/audio": "fitzpatrick",      # barry-ha/Audio_QSPI: Christine Fitzpatrick, GPL-3.0
}
# Telephone voice-prompt packs: the folder inside the copy of a repository holding one
# -> (speaker id, a letter's prompt, a digit's prompt); {letter} is a-z, {code} its
# character code, {digit} 0-9. docs/voice-real.md: who they are, the licences.
PROMPT_FOLDERS = {
    "sounds/en": ("smith", "phonetic/{letter}_p.sln16", "digits/{digit}.sln16"),        # Asterisk: Allison Smith
    "sounds/en_AU": ("cameron", "phonetic/{letter}_p.sln16", "digits/{digit}.sln16"),   # Asterisk: Cameron
    "sounds/en_GB": ("benham", "phonetic/{letter}_p.gsm", "digits/{digit}.gsm"),        # Asterisk: Jay Benham
    "sounds/en/us/callie": ("callie", "phonetic-ascii/16000/{code}.wav", "digits/16000/{digit}.wav"),  # FreeSWITCH
}


@dataclass
class Speaker:
    """One person's usable clips: letters and digits (word -> clips), one-word
    commands, other words, longer talk."""
    name: str
    letters: dict = field(default_factory=lambda: defaultdict(list))
    digits: dict = field(default_factory=lambda: defaultdict(list))
    words: list = field(default_factory=list)      # (word, samples): commands
    other: list = field(default_factory=list)      # (text, samples): no command
    talk: list = field(default_factory=list)       # (text, samples): sentences


def load(path: Path) -> np.ndarray:
    try:
        x, rate = read_wav(path)
    except ValueError:            # 24-bit samples (Tim Kahn's alphabet pack)
        x, rate = _read_24bit(path)
    return resample(x, rate, RATE)


def _read_24bit(path: Path) -> tuple[np.ndarray, int]:
    """A 24-bit WAV file as float32 mono samples and its rate."""
    with wave.open(str(path), "rb") as w:
        rate, channels, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
        raw = w.readframes(w.getnframes())
    if width != 3:
        raise ValueError(f"{path}: {8 * width}-bit samples are not supported")
    b = np.frombuffer(raw[: len(raw) - len(raw) % (3 * channels)], np.uint8).reshape(-1, 3).astype(np.int32)
    x = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
    x = np.where(x >= 1 << 23, x - (1 << 24), x).astype(np.float32) / float(1 << 23)
    return x.reshape(-1, channels).mean(axis=1, dtype=np.float32), rate


def pieces(x: np.ndarray, count: int) -> list[np.ndarray] | None:
    """`x` cut at its pauses into exactly `count` pieces, or None."""
    frames = len(x) // FRAME
    if frames < 2:
        return None
    energy = 10 * np.log10(np.mean(x[: frames * FRAME].reshape(frames, FRAME) ** 2, axis=1) + 1e-10)
    floor, peak = np.percentile(energy, 10), np.percentile(energy, 99)
    for gap in GAPS:
        for level in LEVELS:
            spans = _spans(np.flatnonzero(energy > floor + level * (peak - floor)), gap)
            seconds = [(b - a) * FRAME / RATE for a, b in spans]
            if len(spans) == count and all(PIECE_SECONDS[0] <= s <= PIECE_SECONDS[1] for s in seconds):
                return [x[max(0, a * FRAME - MARGIN): b * FRAME + MARGIN].copy() for a, b in spans]
    return None


def _spans(loud: np.ndarray, gap: float) -> list[tuple[int, int]]:
    """Runs of loud frames joined across pauses shorter than `gap`, at least 80 ms."""
    if not len(loud):
        return []
    spans, start, last = [], loud[0], loud[0]
    for i in loud[1:]:
        if (i - last - 1) * FRAME / RATE >= gap:
            spans.append((start, last + 1))
            start = i
        last = i
    spans.append((start, last + 1))
    return [(a, b) for a, b in spans if (b - a) * FRAME / RATE >= 0.08]


def labelled(said: list[str], x: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """The pieces of a recording of `said` (letters or digits one by one) with their
    labels. A repeated one may have been said as one ("double eight", "triple one"):
    the cut is tried both ways, and a recording that fits both, or neither, is left
    out; a "double" piece is not used."""
    runs = [said[i] for i in range(len(said)) if i == 0 or said[i] != said[i - 1]]
    single = pieces(x, len(said))
    if len(runs) == len(said):
        return list(zip(said, single)) if single else []
    grouped = pieces(x, len(runs))
    if (single is None) == (grouped is None):
        return []
    if single is not None:
        return list(zip(said, single))
    assert grouped is not None
    sizes = [len(list(g)) for _, g in itertools.groupby(said)]
    return [(word, clip) for word, size, clip in zip(runs, sizes, grouped) if size == 1]


def trimmed(x: np.ndarray) -> np.ndarray:
    """A clip without its leading and trailing silence (Speech Commands clips are
    one second each, the word anywhere in it)."""
    cut = pieces(x, 1)
    if cut is not None:
        return cut[0]
    loud = np.flatnonzero(np.abs(x) > 0.1 * np.max(np.abs(x) + 1e-9))
    return x[max(0, loud[0] - MARGIN): loud[-1] + MARGIN] if len(loud) else x


def phone_number(text: str) -> str:
    """The digits said: metadata.csv lost the leading zero of the ten-digit numbers
    that start with one (people said "0123456789" for "123456789")."""
    digits = "".join(c for c in text if c.isdigit())
    return digits.zfill(10) if len(digits) == 9 else digits


def alphanumeric(root: Path, speakers: dict) -> None:
    """Letters, digits and address talk from the alphanumeric dataset."""
    with open(root / "metadata.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        path = root / row["file_name"]
        if not path.is_file():
            continue                  # a file the local copy lacks
        who = speakers.setdefault(f"alnum:{row['Response_ID']}", Speaker(f"alnum:{row['Response_ID']}"))
        kind = row["file_name"].split("/")[1]
        x = load(path)
        if kind == "Names":
            for letter, clip in labelled([c.lower() for c in row["Name"] if c.isalpha()], x):
                who.letters[letter].append(clip)
        elif kind == "Numbers":
            for digit, clip in labelled([DIGIT_WORDS[int(c)] for c in phone_number(row["Number"])], x):
                who.digits[digit].append(clip)
        elif kind == "Addresses":
            who.talk.append((row["Address"], x))


def speech_commands(root: Path, speakers: dict, other_words: tuple[str, ...]) -> None:
    """One-word commands (yes, no, stop) and other words (bed, cat, go ...) by speaker."""
    for word in COMMAND_WORDS + other_words:
        folder = root / word
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.wav")):
            name = f"sc:{path.stem.split('_')[0]}"
            who = speakers.setdefault(name, Speaker(name))
            clip = trimmed(load(path))
            (who.words if word in COMMAND_WORDS else who.other).append((word, clip))


def free_digits(root: Path, speakers: dict, per_speaker: int) -> None:
    """Lone digits from the free spoken digit dataset (no command on their own)."""
    for path in sorted(root.glob("*.wav")):
        digit, person, take = path.stem.split("_")
        if int(take) >= per_speaker:
            continue
        name = f"fsdd:{person}"
        who = speakers.setdefault(name, Speaker(name))
        who.other.append((DIGIT_WORDS[int(digit)], trimmed(load(path))))


def noises(root: Path) -> dict[str, np.ndarray]:
    """The real background noises by name (those the folder has)."""
    return {name: load(root / f"{name}.wav") for name in NOISE_FILES if (root / f"{name}.wav").is_file()}


def nato(root: Path, speakers: dict) -> None:
    """The NATO folders found under `root` (a copy of their repository): each person's
    phonetic words (letters keyed by the word, "delta") and digits, one clip each."""
    for folder, person in NATO_FOLDERS.items():
        if not (root / folder).is_dir():
            continue
        who = speakers.setdefault(f"nato:{person}", Speaker(f"nato:{person}"))
        for letter, words in PHONETIC.items():
            path = root / folder / f"{letter.lower()}.wav"
            if path.is_file():
                who.letters[words[0]].append(trimmed(load(path)))
        for digit, word in enumerate(DIGIT_WORDS):
            path = root / folder / f"{digit}.wav"
            if path.is_file():
                who.digits[word].append(trimmed(load(path)))


def prompts(root: Path, speakers: dict) -> None:
    """The prompt packs of PROMPT_FOLDERS found under `root` (a copy of their
    repository): each voice's phonetic words and digits, one clip each."""
    for folder, (person, letter_file, digit_file) in PROMPT_FOLDERS.items():
        letters = {words[0]: root / folder / letter_file.format(letter=letter.lower(), code=ord(letter.lower()))
                   for letter, words in PHONETIC.items()}
        digits = {word: root / folder / digit_file.format(digit=digit) for digit, word in enumerate(DIGIT_WORDS)}
        if not any(path.is_file() for path in letters.values()):
            continue           # another pack's folder of the same name ("sounds/en" of FreeSWITCH)
        who = speakers.setdefault(f"nato:{person}", Speaker(f"nato:{person}"))
        for clips, paths in ((who.letters, letters), (who.digits, digits)):
            for word, path in paths.items():
                if path.is_file():
                    clips[word].append(trimmed(load_prompt(path)))


def load_prompt(path: Path) -> np.ndarray:
    """A prompt file at RATE: raw 16 kHz 16-bit samples (.sln16), GSM 06.10 at 8 kHz
    (.gsm, decoded by sox) or a WAV file."""
    if path.suffix == ".sln16":
        return np.fromfile(path, "<i2").astype(np.float32) / 32768.0
    if path.suffix == ".gsm":
        raw = subprocess.run(["sox", str(path), "-t", "raw", "-e", "signed-integer", "-b", "16", "-c", "1", "-"],
                             capture_output=True, check=True).stdout
        return resample(np.frombuffer(raw, "<i2").astype(np.float32) / 32768.0, 8000, RATE)
    return load(path)


def held_by_crc(person: str) -> bool:
    """Two of every five people of a large source held out, fixed by a CRC of their id
    alone (not by their rank among the others: a copy with more or fewer clips moves
    nobody from one role to the other)."""
    return zlib.crc32(person.encode()) % 5 in (1, 3)


def command_words(root: Path, speakers: dict, role: str, words: tuple[str, ...], per_word: int) -> None:
    """One take each of up to `per_word` people of `role` for each word of `words` in a
    Speech Commands word-folder copy (the test set's many speakers): the commands of
    COMMAND_WORDS as commands, the others (up, left, go ...) as words for no command.
    The people are taken in the order of a CRC of their file name, so a word's clips
    come from many different people."""
    for word in words:
        folder = root / word
        takes: dict = {}
        for path in sorted(folder.glob("*.wav")) if folder.is_dir() else []:
            person = path.stem.split("_nohash_")[0]
            if ("held" if held_by_crc(person) else "tune") == role:
                takes.setdefault(person, path)      # each person's first take
        chosen = sorted(takes.items(), key=lambda kv: zlib.crc32(f"{word}/{kv[1].name}".encode()))[:per_word]
        for person, path in chosen:
            name = f"scw:{person}"
            who = speakers.setdefault(name, Speaker(name))
            clip = trimmed(load(path))
            (who.words if word in COMMAND_WORDS else who.other).append((word, clip))
