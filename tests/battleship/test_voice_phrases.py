"""The Battleship grammar on the console's embedded recognizer (Whisper tiny.en,
constrained to the phase's phrases): synthesised speech (flite) of the game's phrases
comes back as the right commands. (The live listener, endpointing and rejection belong
to the voice tests.)"""
import shutil
import subprocess
import wave

import pytest

from audio_console.battleship.commands import PLACING, SHOOTING, grammar_for
from audio_console.commands.vocabulary import common_grammar

pytestmark = pytest.mark.skipif(not (shutil.which("flite") and shutil.which("sox")),
                                reason="needs Debian flite and sox")


# flite's "dueler" and "tricorn" come out of tiny.en as "the large ..." and "Dragon
# Fighter ...": the search's beam (3 prefixes at the first word) drops the ship's name.
@pytest.fixture(scope="module")
def recognizer():
    from audio_console.voice.whisper_engine import WhisperRecognizer
    return WhisperRecognizer()


def speak(text, tmp_path):
    raw, wav = tmp_path / "raw.wav", tmp_path / "16k.wav"
    subprocess.run(["flite", "-t", text, "-o", str(raw)], check=True)
    subprocess.run(["sox", "-R", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(wav)], check=True)
    with wave.open(str(wav)) as f:
        return f.readframes(f.getnframes())


@pytest.mark.parametrize("said, phase, canonical", [
    ("sector two row delta", SHOOTING, "shoot 2 row D"),
    ("sector one column three", SHOOTING, "shoot 1 column 3"),
    ("what about sector three row juliet", SHOOTING, "what 3 row J"),
    ("quadron sector one bravo three across", PLACING, "position quadron 1 B3 across"),
    # without the prompt of the grammar's own phrases tiny.en wrote these ship names
    # as other words and the beam dropped them (they were expected failures)
    # on the edge of the beam: tiny.en writes flite's "dueler" as "The large", and
    # "Duel" is the third of the three first words the search keeps. With the int8
    # encoder it lost to "no" on one machine and won on another; the float32 encoder
    # scores it the same on every instruction set (margin 1.8 nats)
    ("dueler sector two echo five down", PLACING, "position dueler 2 E5 down"),
    ("tricorn fighter sector three charlie four across", PLACING, "position tricorn fighter 3 C4 across"),
    ("turn it", PLACING, "turn"),
])
def test_spoken_phrases_come_back_as_their_commands(recognizer, tmp_path, said, phase, canonical):
    grammar = grammar_for(phase) + common_grammar()
    recognizer.set_grammar(grammar)
    decoded = recognizer.decode(speak(said, tmp_path))
    command = grammar.parse(decoded.text)
    assert command is not None and command.text == canonical, (decoded.text, decoded.detail)
