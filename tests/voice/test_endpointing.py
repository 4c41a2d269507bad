"""Cutting utterances out of a continuous microphone stream (no device needed)."""
import numpy as np

from audio_console.voice.audio import wav_pcm16
from audio_console.voice.frames import FRAME_BYTES
from scripts.bench_support.endpointer_cutter import UtteranceCutter


def frames(pcm):
    for i in range(0, len(pcm) - FRAME_BYTES + 1, FRAME_BYTES):
        yield pcm[i:i + FRAME_BYTES]


def test_two_phrases_with_a_pause_are_two_utterances(speech):
    one = wav_pcm16(speech.say("delta five", "flite:slt"))
    two = wav_pcm16(speech.say("read row echo", "flite:slt"))
    silence = bytes(32000)   # one second
    stream = silence + one + silence + two + silence
    cutter = UtteranceCutter()
    utterances = [u for u in (cutter.push(f) for f in frames(stream)) if u]
    assert len(utterances) == 2
    for got, said in zip(utterances, (one, two)):
        # each holds the phrase (within 0.4 s either way), not the whole stream
        assert abs(len(got) - len(said)) < 0.4 * 32000 + len(said) * 0.5


def test_silence_is_no_utterance():
    cutter = UtteranceCutter()
    assert not any(cutter.push(f) for f in frames(bytes(3 * 32000)))
    assert cutter.flush() is None


def test_speech_cut_off_by_the_end_of_input_is_flushed(speech):
    one = wav_pcm16(speech.say("golf two", "flite:slt"))
    cutter = UtteranceCutter()
    results = [cutter.push(f) for f in frames(bytes(16000) + one)]
    assert not any(results)
    assert cutter.flush()


def test_endless_loud_noise_is_dropped_not_kept_growing():
    rng = np.random.default_rng(0)
    noise = (rng.standard_normal(16000 * 10) * 8000).astype("<i2").tobytes()
    cutter = UtteranceCutter()
    for f in frames(noise):
        cutter.push(f)
    assert len(cutter._speech) < 8.5 * 32000


def _paused(speech, first, second, pause):
    """flite saying `first`, `pause` seconds of silence, then `second` (silences trimmed)."""
    def trimmed(pcm):
        x = np.frombuffer(pcm, "<i2")
        loud = np.flatnonzero(np.abs(x) > 0.02 * np.abs(x).max())
        return x[loud[0]:loud[-1] + 1].tobytes()
    one = trimmed(wav_pcm16(speech.say(first, "flite:slt")))
    two = trimmed(wav_pcm16(speech.say(second, "flite:slt")))
    return one + bytes(int(pause * 16000) * 2) + two


def test_a_player_pausing_inside_a_command_is_one_utterance(speech):
    # "delta ... five": a pause between letter and number must not cut the command
    # (with the old 0.3 s window a pause of 0.35 s cut it now and then)
    stream = bytes(32000) + _paused(speech, "delta", "five", 0.35) + bytes(32000)
    cutter = UtteranceCutter()
    utterances = [u for u in (cutter.push(f) for f in frames(stream)) if u]
    assert len(utterances) == 1
    assert len(utterances[0]) > 32000 * 0.35


def test_the_early_guess_comes_before_the_end_and_is_confirmed(speech):
    said = wav_pcm16(speech.say("bravo three", "flite:slt"))
    cutter = UtteranceCutter(early_window=0.15)
    guessed_at = closed_at = None
    for i, f in enumerate(frames(bytes(32000) + said + bytes(32000))):
        if cutter.push(f):
            closed_at = i
            break
        if cutter.early is not None and guessed_at is None:
            guessed_at = i
    assert guessed_at is not None and closed_at is not None and guessed_at < closed_at
    assert cutter.closed_on_guess == cutter.early_count   # nothing was said after the guess


def test_speech_after_a_pause_voids_the_early_guess(speech):
    stream = bytes(32000) + _paused(speech, "rule", "out bravo five", 0.4) + bytes(32000)
    cutter = UtteranceCutter(window=0.6, early_window=0.15)
    utterances, guesses = [], set()
    for f in frames(stream):
        u = cutter.push(f)
        if cutter.early is not None:
            guesses.add(cutter.early_count)
        if u:
            utterances.append((u, cutter.closed_on_guess))
    assert len(utterances) == 1
    assert len(guesses) == 2                 # one guess after "rule", one at the end
    assert utterances[0][1] is None          # no guess taken: the whole utterance is decoded


# --- in a room where other people talk (vad.VadCutter, the listener's default) -------

def _at_db(pcm: bytes, db: float) -> np.ndarray:
    """The speech (flite's silences trimmed) at an active level of `db` dBFS."""
    x = np.frombuffer(pcm, "<i2").astype(np.float32) / 32768
    loud = np.flatnonzero(np.abs(x) > 0.02 * np.abs(x).max())
    x = x[loud[0]:loud[-1] + 1]
    active = x[np.abs(x) > 0.02 * np.abs(x).max()]
    return x * 10 ** (db / 20) / np.sqrt(np.mean(active ** 2))


def _mix(*parts) -> bytes:
    n = max(len(p) for p in parts)
    out = np.zeros(n, np.float32)
    for p in parts:
        out[:len(p)] += p
    return (np.clip(out, -1, 1) * 32767).astype("<i2").tobytes()


def _cut(cutter, pcm):
    """Utterances as (start s, end s, bytes), by where the cutter closed them."""
    out = []
    for i, f in enumerate(frames(pcm)):
        u = cutter.push(f)
        if u:
            end = (i + 1) * 0.03 - (cutter.window_frames * FRAME_BYTES - cutter.tail) / 32000
            out.append((end - len(u) / 32000, end, u))
    return out


def test_a_command_over_people_chatting_is_cut_as_one_utterance(speech):
    """Three people talk without pause 10 dB below the player: the old Endpointer
    never hears silence (no utterance ever ends); the VAD cutter hands over each of
    the player's commands as one utterance of about its own length."""
    from audio_console.voice.vad import VadCutter
    said = [_at_db(wav_pcm16(speech.say(t, "flite:slt")), -20) for t in ("delta five", "read row echo")]
    player = np.concatenate([np.zeros(48000, np.float32), said[0], np.zeros(40000, np.float32), said[1],
                             np.zeros(32000, np.float32)])
    room = speech.chatter(len(player) / 16000, -30, seed=1)
    stream = _mix(player, room)
    assert not [u for u in (UtteranceCutter().push(f) for f in frames(stream)) if u]
    # (the first seconds teach the cutter the room's level: a blip of chatter may pass)
    got = [u for u in _cut(VadCutter(), stream) if u[1] > 2.5]
    assert len(got) == 2, [(a, b) for a, b, _ in got]
    starts = [3.0, 3.0 + len(said[0]) / 16000 + 2.5]
    for (a, b, _), start, x in zip(got, starts, said):
        assert a <= start + 0.05 and b >= start + len(x) / 16000 - 0.05   # the whole command
        assert (b - a) - len(x) / 16000 < 0.7                               # and little else


def test_people_chatting_alone_are_no_utterance_and_never_grow(speech):
    from audio_console.voice.vad import MAX_SECONDS, VadCutter
    cutter = VadCutter()
    room = _mix(speech.chatter(12, -30, seed=2))
    got = _cut(cutter, room)
    assert len(got) <= 1
    assert cutter.held <= MAX_SECONDS * 32000


def test_everyday_noise_as_loud_as_the_player_is_no_utterance(speech):
    """Hiss and knocks as loud as the player: not speech for the neural VAD, no
    utterance; a hummed tone at most a short blip at its onset (silero's first frames)."""
    from audio_console.voice.vad import VadCutter
    t = np.arange(16000) / 16000
    hum = sum(np.sin(2 * np.pi * 220 * h * t) / h for h in (1, 2, 3)).astype(np.float32) * 0.1
    knocks = np.zeros(16000, np.float32)
    for c in (0, 5000, 10000):
        knocks[c:c + 1600] = np.sin(2 * np.pi * 90 * t[:1600]) * np.exp(-t[:1600] * 30) * 0.5
    hiss = np.random.default_rng(0).standard_normal(16000).astype(np.float32) * 0.1
    quiet = np.zeros(16000, np.float32)
    stream = _mix(np.concatenate([quiet, hum, quiet, knocks, quiet, hiss, quiet]))
    got = _cut(VadCutter(), stream)
    assert all(a < 2.0 and b - a < 0.6 for a, b, _ in got), [(a, b) for a, b, _ in got]


def test_delta_pause_five_stays_whole_with_the_vad_cutter(speech):
    from audio_console.voice.vad import VadCutter
    for pause in (0.25, 0.35):
        stream = bytes(32000) + _paused(speech, "delta", "five", pause) + bytes(32000)
        got = _cut(VadCutter(), stream)
        assert len(got) == 1, pause


def test_the_vad_cutters_early_guess_is_the_utterance_it_confirms(speech):
    """The guess after a short silence holds the same bytes as the utterance the full
    window closes, so its decoding stands for it."""
    from audio_console.voice.vad import VadCutter
    said = wav_pcm16(speech.say("bravo three", "flite:slt"))
    cutter, guess = VadCutter(), None
    for f in frames(bytes(32000) + said + bytes(32000)):
        u = cutter.push(f)
        if cutter.early is not None and guess is None:
            guess = cutter.early
        if u:
            break
    assert guess is not None and u == guess and cutter.closed_on_guess == cutter.early_count


def test_a_soft_phrase_in_a_fans_hiss_is_cut_whole_and_chatter_keeps_its_margin(speech):
    """Steady hiss 10 dB under the player: a room where no one else talks needs no
    extra margin at the onset, so hibari's "foxtrot two", whose loudest frames stayed
    0-2 dB short of it, is cut as a whole utterance (live it was heard as nothing, 26 of 35
    times in a row; with the margin this cut 0 of these 4 hisses whole). People
    chatting keep the full margin."""
    from audio_console.voice.vad import SpeechFrames, VadCutter
    said = _at_db(wav_pcm16(speech.say("foxtrot two", "hibari:heart")), -20)
    player = np.concatenate([np.zeros(48000, np.float32), said, np.zeros(24000, np.float32)])
    for seed in range(4):
        hiss = np.random.default_rng(seed).standard_normal(len(player)).astype(np.float32) * 10 ** (-30 / 20)
        cutter = VadCutter()
        got = _cut(cutter, _mix(player, hiss))
        assert cutter.frames.voiceless_room
        assert len(got) == 1 and got[0][0] <= 3.05 and got[0][1] >= 3.0 + len(said) / 16000 - 0.05, (seed, got)
    chatter = SpeechFrames()
    for f in frames(_mix(speech.chatter(4, -30, seed=3))):
        chatter(f, False)
    assert not chatter.voiceless_room


def test_after_the_console_speaks_the_room_is_weighed_by_its_own_frames(speech):
    """Through the echo canceller the frames of the console's speech are far quieter
    than the room (measured: three people talking, 30th percentile -34 dB; the cleaned
    frames while the console spoke, -51 dB). Learnt as the room's level, the chatter
    began an utterance the moment the console fell silent. The room's own frames, once
    it is quiet, are its level; an utterance begins only once a few are known."""
    from audio_console.voice.vad import ROOM_FRAMES_TO_LEARN, SpeechFrames
    sounding = [True]
    frames_of = SpeechFrames(console_heard=lambda: sounding[0])
    chatter = speech.chatter(6, -34, seed=1)
    suppressed = frames(_mix(chatter[:3 * 16000] * 10 ** (-17 / 20)))     # the canceller's output
    for f in suppressed:
        frames_of(f, False)
    assert frames_of.background < -45 and frames_of.learnt          # barge-in: weighed as today
    sounding[0] = False
    room = list(frames(_mix(chatter[3 * 16000:])))
    for f in room[:ROOM_FRAMES_TO_LEARN - 1]:
        frames_of(f, False)
    assert not frames_of.learnt                                       # not yet: no utterance begins
    for f in room[ROOM_FRAMES_TO_LEARN - 1:]:
        assert not frames_of(f, False), "the room's own chatter began an utterance"
    assert frames_of.learnt and frames_of.background > -42


def _vowel_only(keep: int) -> np.ndarray:
    """A real "stop" (tests/voice/real/stop.wav) as the echo canceller gives it while
    the console speaks as loud as the player: only its `keep` loudest frames as said
    (the vowel), the rest 35 dB down with the console's voice (measured live,
    docs/measurements/voice-constants.md, "Barge-in")."""
    from pathlib import Path

    from audio_console.voice.audio import read_wav
    x, _ = read_wav(Path(__file__).resolve().parent / "real" / "stop.wav")
    n = len(x) // 480 * 480
    framed = x[:n].reshape(-1, 480).copy()
    power = (framed ** 2).mean(axis=1)
    quiet = np.argsort(power)[:-keep]
    framed[quiet] *= 10 ** (-35 / 20)
    return framed.reshape(-1)


def _begins(console_sounds: bool, word: np.ndarray, leftover_db: float) -> bool:
    """Whether the VAD cutter begins an utterance on `word` after 2 s of the canceller's
    leftover at `leftover_db` (noise), with the console sounding or quiet."""
    from audio_console.voice.vad import SpeechFrames, VadCutter
    rng = np.random.default_rng(3)
    leftover = (rng.standard_normal(2 * 16000) * 10 ** (leftover_db / 20)).astype(np.float32)
    cutter = VadCutter(0.45, frames=SpeechFrames(console_heard=lambda: console_sounds))
    tail = (rng.standard_normal(16000) * 10 ** (leftover_db / 20)).astype(np.float32)
    began = False
    for f in frames(_mix(np.concatenate([leftover, word * 0.5, tail]))):
        cutter.push(f)
        began = began or cutter.in_speech
    return began


def test_over_the_console_a_stops_vowel_alone_begins_an_utterance():
    """Of a short "stop" said over the console the canceller may leave the vowel
    alone, two or three frames: that begins an utterance while the console sounds
    (it is far over what the canceller leaves of the console's voice), not where
    the console is quiet (two loud frames alone are a knock there)."""
    assert _begins(True, _vowel_only(2), -65.0)
    assert not _begins(False, _vowel_only(2), -65.0)


def test_over_the_console_its_own_leftover_alone_begins_nothing():
    """What the canceller leaves of the console's own voice (a low murmur) begins no
    utterance however it is shaped, and a faint word under 25 dB over it neither."""
    assert not _begins(True, np.zeros(8000, np.float32), -65.0)
    assert not _begins(True, _vowel_only(2) * 10 ** (-40 / 20), -65.0)


def _loud_frames(count: int, db: float = -16.0) -> np.ndarray:
    """`count` frames of sound as loud as a word's vowel, in which the voice detector
    hears no voice (noise): what the canceller left of a short "stop" that silero
    scored under 0.1 in live rounds (docs/measurements/barge-in.md)."""
    rng = np.random.default_rng(5)
    return (rng.standard_normal(count * 480) * 10 ** (db / 20)).astype(np.float32)


def test_over_the_console_a_loud_stretch_begins_an_utterance_a_voice_heard_or_not():
    """Through the canceller a short stop's vowel may be four or five frames 30 dB
    and more over the room that the detector does not call a voice: that begins an
    utterance while the console sounds (Whisper then judges it), not the same where
    the console is quiet (a knock there), nor under 30 dB over the room."""
    assert _begins(True, _loud_frames(4), -65.0)
    assert not _begins(False, _loud_frames(4), -65.0)
    assert not _begins(True, _loud_frames(4, -45.0), -65.0)     # under 30 dB over the leftover's room


def _held_late(parts: list) -> bytes:
    """The last utterance the cutting stage gives for `parts` (float arrays) said over
    the console, its cleaned frames' levels kept as the canceller would."""
    from audio_console.audio.echo_reference import EchoReference
    from audio_console.voice.cutting import Cutting
    from audio_console.voice.echo_cancel import EchoCanceller, Hold
    from audio_console.voice.vad import SpeechFrames, VadCutter

    class Speaking:
        def busy(self):
            return True

        def hold(self, on):
            pass

    frames_of = SpeechFrames(console_heard=lambda: True)
    cutter = VadCutter(0.45, frames=frames_of)
    canceller = EchoCanceller(EchoReference(48000), cancel=False)
    cutting = Cutting(cutter, Hold(Speaking(), canceller, lambda: round(frames_of.background, 1)),
                      lambda *a, **k: None, lambda: None)
    quiet = np.zeros(16000, np.float32)
    utterances = []
    for f in frames(_mix(np.concatenate([quiet, *parts, quiet]))):
        canceller.clean(f)
        u, _ = cutting.push(f)
        if u:
            utterances.append(u)
    return utterances[-1]


def test_a_point_whose_first_word_is_softer_keeps_it_when_held_late():
    """A point whose first word came through the canceller 25 dB over the room (over
    the console's leftover, not loud enough to hold) and its second loud: the console
    is held at the second, and the first is kept (the live test's "delta five" was
    asked about twice when only a pre-roll before the hold was kept)."""
    from pathlib import Path

    from audio_console.voice.audio import read_wav
    real = Path(__file__).resolve().parent / "real"
    first, _ = read_wav(real / "point_a6.wav")
    second, _ = read_wav(real / "stop.wav")
    soft = _at_db(_mix(first), -35)
    utterance = _held_late([soft, second * 0.5])
    assert len(utterance) / 32000 > len(soft) / 16000


def test_an_utterance_held_only_when_the_word_grew_loud_starts_shortly_before_it():
    """Over the console an utterance may begin on the canceller's faint leftover of
    the console's voice (Whisper writes it as words: "5. Big light is stomp."); when
    the player's word then holds the console, what came before it is dropped but
    the word's own start (a pre-roll) is kept."""
    from pathlib import Path

    from audio_console.audio.echo_reference import EchoReference
    from audio_console.voice.audio import read_wav
    from audio_console.voice.cutting import Cutting
    from audio_console.voice.echo_cancel import EchoCanceller, Hold
    from audio_console.voice.vad import PRE_ROLL, SpeechFrames, VadCutter

    class Speaking:
        def busy(self):
            return True

        def hold(self, on):
            pass

    real = Path(__file__).resolve().parent / "real"
    murmur, _ = read_wav(real / "point_a6.wav")            # a voice, faint: the leftover
    word, _ = read_wav(real / "stop.wav")
    quiet = np.zeros(16000, np.float32)
    pcm = _mix(np.concatenate([quiet, _at_db(_mix(murmur), -42), word * 0.5, quiet]))
    frames_of = SpeechFrames(console_heard=lambda: True)
    cutter = VadCutter(0.45, frames=frames_of)
    canceller = EchoCanceller(EchoReference(48000), cancel=False)
    restarted = []
    cutting = Cutting(cutter, Hold(Speaking(), canceller, lambda: round(frames_of.background, 1)),
                      lambda *a, **k: None, lambda: None, lambda: restarted.append(True))
    utterances = []
    for f in frames(pcm):
        canceller.clean(f)
        u, _ = cutting.push(f)
        if u:
            utterances.append(u)
    assert restarted and utterances
    murmur_seconds = len(_at_db(_mix(murmur), -42)) / 16000
    assert len(utterances[-1]) / 32000 < PRE_ROLL + 0.1 + len(word) / 16000 < murmur_seconds + len(word) / 16000
