"""The mixer with a sound on top that is still being rendered (speech with overlap):
the blocks go on, and the sound plays from its start once its samples arrive."""
import time

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


def test_hold_falls_silent_with_a_fade_and_goes_on_from_the_same_sample():
    import numpy as np
    from audio_console.audio.mixer import STOP_FADE, Mixer, Sound
    rate = 48000
    ramp = np.stack([np.linspace(0.1, 0.9, rate)] * 2, axis=1).astype(np.float32)
    mixer = Mixer(rate)
    mixer.add(Sound("speech", ramp))
    first, _ = mixer.render(4800)
    mixer.hold(True)
    fade, active = mixer.render(4800)
    fade_frames = int(STOP_FADE * rate)
    assert active and abs(fade[0, 0] - ramp[4800, 0]) < 1e-3   # no jump at the hold
    assert not fade[fade_frames:].any()                          # then silence
    silent, active = mixer.render(4800)
    assert not active and not silent.any() and not mixer.idle()  # still busy: held, not stopped
    mixer.hold(False)
    after, _ = mixer.render(4800)
    assert abs(after[0, 0] - ramp[4800, 0]) < 1e-3               # on from where it was
    mixer.hold(True)
    mixer.clear()                                # stop while held: the hold's fade, then nothing
    assert not mixer.render(4800)[0][fade_frames:].any() and mixer.idle() and not mixer.held
    assert not mixer.render(4800)[0].any()


def test_the_fade_of_a_hold_wakes_the_virtual_clock():
    """Held, the mixer still has the fade-out of where it was to play: the virtual
    clock (recording without a device) waits in wait_for_work and must wake for it,
    or the recording keeps the cut's click and the fade is played only on release."""
    rate = 48000
    mixer = Mixer(rate)
    mixer.add(Sound("speech", np.full((rate, 2), 0.5, np.float32)))
    mixer.render(4800)
    mixer.hold(True)
    assert mixer.wait_for_work(0.05)                 # the fade is work
    fade, active = mixer.render(4800)
    assert active and fade[0, 0] > 0.4
    assert not mixer.wait_for_work(0.05)             # then, held, nothing more until released
    mixer.hold(False)
    assert mixer.wait_for_work(0.05)


def test_an_overlapping_sound_still_rendering_is_not_work_yet():
    """The virtual clock must not spin while speech on top is still being rendered."""
    mixer = Mixer(48000)
    speech = Sound("speech: on top")
    mixer.add(speech, overlap=True)
    assert not mixer.wait_for_work(0.05)
    mixer.fill(speech, np.full((32, 2), 0.5, np.float32))
    assert mixer.wait_for_work(0.05)


def test_what_was_said_lately_is_remembered_until_it_is_long_past():
    """The listener asks what the console said while an utterance was captured, to
    drop its own words heard back (voice/own_words.py)."""
    mixer = Mixer(1000)
    line = Sound("speech: D5 answered 1.", np.full((100, 2), 0.1, np.float32), kind="speech")
    beep = Sound("beep", np.full((100, 2), 0.1, np.float32))
    mixer.add(line)
    mixer.add(beep)
    assert mixer.sounded_within(5.0, "speech") == []          # not yet played
    mixer.render(50)
    assert mixer.sounded_within(0.0, "speech") == ["speech: D5 answered 1."]   # playing now
    mixer.render(200)
    assert mixer.sounded_within(5.0, "speech") == ["speech: D5 answered 1."]   # ended, but lately
    assert mixer.sounded_within(5.0, "signal") == ["beep"]
    time.sleep(0.05)
    assert mixer.sounded_within(0.01, "speech") == []         # long past
