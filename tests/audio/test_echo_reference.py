"""The engine's record of what it plays, read back at 16 kHz for the echo canceller."""
import numpy as np

from audio_console.audio.echo_reference import RATE, EchoReference


def _write_tone(reference, seconds, rate, freq=440.0, block=256, start=0):
    n = int(seconds * rate)
    t = (np.arange(start, start + n)) / rate
    x = (0.5 * np.sin(2 * np.pi * freq * t)).astype(np.float32)
    for i in range(0, n, block):
        chunk = x[i:i + block]
        reference.write(np.stack([chunk, chunk], axis=1))
    return start + n


def test_read_back_at_16k_is_the_tone_without_breaks():
    # a 440 Hz tone written at 48 kHz in 256-frame blocks, read in 30 ms pieces as the
    # microphone's frames come: one continuous 440 Hz tone at 16 kHz, no gaps or clicks
    for rate in (48000, 44100):
        reference = EchoReference(rate)
        written = _write_tone(reference, 0.5, rate)
        reader = reference.reader()
        pieces = []
        for _ in range(20):
            written = _write_tone(reference, 0.03, rate, start=written)
            pieces.append(reader.read(480))
        y = np.concatenate(pieces)[480:]
        spectrum = np.abs(np.fft.rfft(y * np.hanning(len(y))))
        assert abs(np.argmax(spectrum) * RATE / len(y) - 440) < 10
        assert 0.3 < np.max(np.abs(y)) < 0.6
        # no jumps: consecutive samples of a 440 Hz tone at 0.5 differ by at most 0.09
        assert np.max(np.abs(np.diff(y))) < 0.1, rate
        assert reader.resyncs == 0


def test_a_reader_that_fell_far_behind_starts_again_at_the_newest():
    reference = EchoReference(48000)
    reader = reference.reader()
    reader.read(480)
    _write_tone(reference, 2.0, 48000)      # the listener stalled for two seconds
    reader.read(480)
    assert reader.resyncs == 1


def test_nothing_written_yet_reads_silence():
    reader = EchoReference(48000).reader()
    assert not reader.read(480).any()
