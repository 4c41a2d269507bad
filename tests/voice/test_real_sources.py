"""scripts/real_speech_sources.py and make_real_corpus.py --kind nato: the telephone
prompt packs are read in their own formats, and a voice added to the corpus changes
no clip of the people who were in it before (their figures stay comparable)."""
import csv
import importlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from audio_console.voice.audio import write_wav

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
RATE = 16000


def _module(name):
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    return importlib.import_module(name)


@pytest.fixture(scope="module")
def sources():
    return _module("real_speech_sources")


@pytest.fixture(scope="module")
def corpus():
    return _module("make_real_corpus")


def _word(freq: float, seconds: float = 0.4) -> np.ndarray:
    """A tone burst standing for a word, with silence either side."""
    t = np.arange(int(seconds * RATE)) / RATE
    quiet = np.zeros(int(0.2 * RATE), np.float32)
    return np.concatenate([quiet, (0.5 * np.sin(2 * np.pi * freq * t)).astype(np.float32), quiet])


def _peak_hz(x: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(x))
    return float(np.fft.rfftfreq(len(x), 1 / RATE)[np.argmax(spectrum)])


def test_a_raw_16_khz_prompt_is_read_as_it_is(sources, tmp_path):
    x = _word(440)
    (np.round(x * 32767).astype("<i2")).tofile(tmp_path / "d_p.sln16")
    y = sources.load_prompt(tmp_path / "d_p.sln16")
    assert len(y) == len(x) and np.max(np.abs(y - x)) < 1e-3


def test_a_gsm_prompt_is_decoded_to_16_khz(sources, tmp_path):
    write_wav(tmp_path / "tone.wav", _word(440), RATE)
    subprocess.run(["sox", str(tmp_path / "tone.wav"), "-r", "8000", str(tmp_path / "five.gsm")], check=True)
    y = sources.load_prompt(tmp_path / "five.gsm")
    assert abs(len(y) / RATE - 0.8) < 0.05          # 8 kHz GSM frames, resampled to 16 kHz
    assert abs(_peak_hz(y) - 440) < 10


def _pack(root: Path, folder: str, letter_file: str, digit_file: str, base: float) -> None:
    """A prompt pack laid out as PROMPT_FOLDERS says: rows a-g and digits 1-9."""
    for i, letter in enumerate("abcdefg"):
        path = root / folder / letter_file.format(letter=letter, code=ord(letter))
        path.parent.mkdir(parents=True, exist_ok=True)
        (np.round(_word(base + 40 * i) * 32767).astype("<i2")).tofile(path)
    for digit in range(1, 10):
        path = root / folder / digit_file.format(digit=digit)
        path.parent.mkdir(parents=True, exist_ok=True)
        (np.round(_word(base + 400 + 40 * digit) * 32767).astype("<i2")).tofile(path)


def test_prompt_packs_are_found_by_their_folder(sources, tmp_path):
    _pack(tmp_path, "sounds/en_AU", "phonetic/{letter}_p.sln16", "digits/{digit}.sln16", 300)
    (tmp_path / "sounds/en").mkdir()              # another pack's folder of the same name, no prompts in it
    speakers: dict = {}
    sources.prompts(tmp_path, speakers)
    assert list(speakers) == ["nato:cameron"]
    who = speakers["nato:cameron"]
    assert {"alpha", "delta", "golf"} <= set(who.letters) and len(who.digits) == 9
    assert abs(_peak_hz(who.letters["delta"][0]) - 420) < 10   # d: the fourth row's own prompt


def _sources_for_a_corpus(root: Path, corpus) -> dict:
    """The folders make_real_corpus needs: three held-out people's addresses (the
    babble), the noises, one NATO_FOLDERS speaker held out."""
    people = sorted(corpus.HELD_ALPHANUMERIC)[:3]
    (root / "alnum/audio_data/Addresses").mkdir(parents=True)
    with open(root / "alnum/metadata.csv", "w", newline="") as f:
        rows = csv.DictWriter(f, ["file_name", "Response_ID", "Name", "Number", "Address"])
        rows.writeheader()
        for i, person in enumerate(people):
            name = f"audio_data/Addresses/{person}.wav"
            write_wav(root / "alnum" / name, np.concatenate([_word(200 + 50 * i)] * 8), RATE)
            rows.writerow({"file_name": name, "Response_ID": person, "Name": "", "Number": "", "Address": "x"})
    (root / "noise").mkdir()
    rng = np.random.default_rng(1)
    for name in ("doing_the_dishes", "running_tap"):
        write_wav(root / "noise" / f"{name}.wav", (0.1 * rng.standard_normal(8 * RATE)).astype(np.float32), RATE)
    folder = root / "barry/audio Scottish female/audio"
    folder.mkdir(parents=True)
    for i, name in enumerate("abcdefg"):
        write_wav(folder / f"{name}.wav", _word(500 + 30 * i), RATE)
    for digit in range(1, 10):
        write_wav(folder / f"{digit}.wav", _word(900 + 30 * digit), RATE)
    return {"alnum": root / "alnum", "noise": root / "noise", "barry": root / "barry"}


def _clips(out: Path, speaker: str) -> dict:
    rows = [json.loads(line) for line in open(out / "manifest.jsonl")]
    return {(r["degradation"], Path(r["file"]).name, r["text"]): Path(r["file"]).read_bytes()
            for r in rows if r["speaker"] == speaker}


def test_a_new_voice_changes_no_clip_of_the_people_before(corpus, tmp_path):
    folders = _sources_for_a_corpus(tmp_path, corpus)
    _pack(tmp_path / "prompts", "sounds/en_AU", "phonetic/{letter}_p.sln16", "digits/{digit}.sln16", 250)
    common = ["--kind", "nato", "--role", "held", "--nato-points", "4", "--alphanumeric", str(folders["alnum"]),
              "--noise", str(folders["noise"]), "--nato", str(folders["barry"])]
    corpus.main(common + ["--out", str(tmp_path / "before")])
    corpus.main(common + ["--nato", str(tmp_path / "prompts"), "--out", str(tmp_path / "after")])
    before = _clips(tmp_path / "before", "nato:fitzpatrick")
    assert len(before) == 4 * len(corpus.CONDITIONS)
    assert _clips(tmp_path / "after", "nato:fitzpatrick") == before
    added = _clips(tmp_path / "after", "nato:cameron")   # the AU pack's voice, held out
    assert len(added) == len(before) and not set(added.values()) & set(before.values())
