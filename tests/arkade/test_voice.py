"""Arkade commands spoken by a real synthetic voice (flite) and decoded by the real
pocketsphinx recognizer with the grammar's own JSGF: the spoken forms are
recognisable, and what is recognised parses to the intended action."""
import shutil
import subprocess
import wave

import pytest

from audio_console.arkade.commands import grammar

SAID = {
    "roll": "roll",
    "roll the shot die again": "reroll shot",
    "ship to four": "ship 4",
    "booster left": "booster left",
    "fly the yellow saucer at bravo three forward": "fly B3 forward",
    "use the plasma cannon": "plasma",
    "done": "done",
    "nearest saucers": "nearest",
    "read row charlie": "read row C",
    "where are my saucers": "saucers",
}


@pytest.mark.skipif(not (shutil.which("flite") and shutil.which("sox")), reason="needs flite and sox")
def test_flite_speech_is_recognised_as_the_intended_action(tmp_path):
    from pocketsphinx import Decoder
    g = grammar(8)
    decoder = Decoder(lm=None)
    decoder.add_jsgf_string("arkade", g.jsgf("arkade"))
    decoder.activate_search("arkade")
    right = []
    for said, canonical in SAID.items():
        raw, wav = tmp_path / "raw.wav", tmp_path / "say.wav"
        subprocess.run(["flite", "-t", said, "-o", str(raw)], check=True)
        subprocess.run(["sox", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(wav)], check=True)
        with wave.open(str(wav)) as w:
            pcm = w.readframes(w.getnframes())
        decoder.start_utt()
        decoder.process_raw(pcm, full_utt=True)
        decoder.end_utt()
        hyp = decoder.hyp()
        command = g.parse(hyp.hypstr) if hyp else None
        # a wrong action would be worse than none: anything recognised must be right
        assert command is None or command.text == canonical, (said, hyp.hypstr)
        right.append(command is not None)
    assert sum(right) >= len(SAID) - 2, right
