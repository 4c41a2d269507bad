"""The unit every stage of the microphone side counts in: 30 ms frames of 16 kHz mono
int16 (the microphone's blocks, the cutters' frames, the echo canceller's levels)."""

FRAME_SECONDS = 0.03
FRAME_BYTES = 960            # 30 ms of 16 kHz int16
BYTES_PER_SECOND = 32000     # 16 kHz int16


def seconds(pcm: bytes) -> float:
    """How long `pcm` (16 kHz int16) lasts."""
    return len(pcm) / BYTES_PER_SECOND
