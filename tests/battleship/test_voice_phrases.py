"""The Battleship grammar on a real recognizer: pocketsphinx, constrained by the phase's JSGF,
decodes synthesised speech (flite) of the game's phrases into the right commands.
(The live listener, endpointing and rejection belong to the voice engineer's tests.)"""
import shutil
import subprocess
import wave

import pytest

from audio_console.battleship.commands import PLACING, SHOOTING, grammar_for
from audio_console.commands.vocabulary import common_grammar

pytestmark = pytest.mark.skipif(not (shutil.which("flite") and shutil.which("sox")),
                                reason="needs Debian flite and sox")


@pytest.fixture(scope="module")
def decoder():
    pocketsphinx = pytest.importorskip("pocketsphinx")
    d = pocketsphinx.Decoder(lm=None)
    d.add_word("juliett", "JH UW L IY EH T", True)   # the shared vocabulary's NATO spelling
    for phase in (PLACING, SHOOTING):
        d.add_jsgf_string(phase, (grammar_for(phase) + common_grammar()).jsgf(phase))
    return d


def speak(text, tmp_path):
    raw, wav = tmp_path / "raw.wav", tmp_path / "16k.wav"
    subprocess.run(["flite", "-t", text, "-o", str(raw)], check=True)
    subprocess.run(["sox", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(wav)], check=True)
    with wave.open(str(wav)) as f:
        return f.readframes(f.getnframes())


@pytest.mark.parametrize("said, phase, canonical", [
    ("sector two row delta", SHOOTING, "shoot 2 row D"),
    ("sector one column three", SHOOTING, "shoot 1 column 3"),
    ("what about sector three row juliet", SHOOTING, "what 3 row J"),
    ("quad ron sector one bravo three across", PLACING, "position quadron 1 B3 across"),
    ("duel er sector two echo five down", PLACING, "position dueler 2 E5 down"),
    ("turn it", PLACING, "turn"),
])
def test_spoken_phrases_come_back_as_their_commands(decoder, tmp_path, said, phase, canonical):
    decoder.activate_search(phase)
    decoder.start_utt()
    decoder.process_raw(speak(said, tmp_path), full_utt=True)
    decoder.end_utt()
    heard = decoder.hyp().hypstr if decoder.hyp() else ""
    command = (grammar_for(phase) + common_grammar()).parse(heard)
    assert command is not None and command.text == canonical, heard
