"""The mixer with a sound on top that is still being rendered (speech with overlap):
the blocks go on, and the sound plays from its start once its samples arrive."""
import numpy as np

from audio_console.audio.mixer import Mixer, Sound


def test_an_overlapping_sound_still_rendering_waits_and_then_plays():
    mixer = Mixer(48000)
    queued = Sound("tone", np.full((100, 2), 0.25, np.float32))
    speech = Sound("speech: on top")                  # no samples yet
    mixer.add(queued)
    mixer.add(speech, overlap=True)
    block, active = mixer.render(64)
    assert active and np.allclose(block, 0.25)        # the queue plays; nothing crashes
    mixer.fill(speech, np.full((32, 2), 0.5, np.float32))
    block, active = mixer.render(64)
    assert np.allclose(block[:32], 0.75) and np.allclose(block[32:36], 0.25)
    mixer.clear()                                      # stop() with sounds of both kinds
