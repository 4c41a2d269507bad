"""The capture stage: the microphone's blocks as 30 ms frames, with the console's own
sound taken out (barge-in, echo_cancel.py) and the player told when the microphone
stops, comes back, or sends only silence."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterator

from audio_console.voice.frames import BYTES_PER_SECOND, FRAME_BYTES
from audio_console.voice.microphone import Microphone, SilenceWatch

MIC_RETRY = 2.0              # seconds between attempts to open it again

MIC_STOPPED = "The microphone stopped; type your commands."
MIC_BACK = "The microphone is back: listening again."
MIC_MUTED = "The microphone sends only silence: if it is muted, unmute it; or type your commands."


@dataclass
class MicrophoneState:
    heard_any: bool = False             # a first block came: from now on silence means stopped
    lost_since: float | None = None     # stopped: the monotonic time of the last attempt to reopen it
    pending: bytes = b""                # the start of the next frame


class Capture:
    """Frames from `microphone`, cleaned by `echo` (an EchoCanceller, or None).
    `counting()` says whether silence now is telling (the console is quiet and has
    asked for a command), so that only then it counts toward "muted"."""

    def __init__(self, microphone: Microphone, echo, notice: Callable[[str], None],
                 counting: Callable[[], bool]):
        self.microphone, self.echo, self.notice, self.counting = microphone, echo, notice, counting
        self.state = MicrophoneState()
        self.muted = SilenceWatch()     # only zeros for seconds: muted, said once
        # when the frame last given was captured (monotonic): the worker may run behind
        # the microphone by what its queue holds
        self.captured_at = time.monotonic()

    def frames(self, running: Callable[[], bool]) -> Iterator[bytes]:
        """Every 30 ms frame while `running()`, until the microphone is closed."""
        while running():
            block = self.microphone.next_block(first=not self.state.heard_any)
            if block is None:
                return
            behind = self.microphone.frames.qsize() * len(block) / BYTES_PER_SECOND if block else 0.0
            block = self._take(block)
            if block is None:
                continue
            self.captured_at = time.monotonic() - behind
            pending = self.state.pending + block
            while len(pending) >= FRAME_BYTES:
                frame, pending = pending[:FRAME_BYTES], pending[FRAME_BYTES:]
                self.state.pending = pending
                yield frame
            self.state.pending = pending

    def _take(self, block: bytes) -> bytes | None:
        """The block cleaned of the console's sound, or None when none came for a while."""
        state = self.state
        state.heard_any = state.heard_any or bool(block)
        if block == "":
            self._lost()
            return None
        if state.lost_since is not None:
            state.lost_since = None
            self.notice(MIC_BACK)
        # Muted only after MUTED_AFTER seconds of zeros with the console quiet and the
        # player asked for a command: not while the console speaks its opening lines.
        # The microphone's own samples are judged (a mute makes them zeros), not what
        # the echo canceller leaves of them.
        if self.muted.push(block, counting=self.counting()):
            self.notice(MIC_MUTED)
        if self.echo is not None:
            block = self.echo.clean(block, self.microphone.frames.qsize() * len(block) // 2)
        return block

    def _lost(self) -> None:
        """No frames for a while: say so once, then try to open the microphone again
        every MIC_RETRY seconds."""
        now, since = time.monotonic(), self.state.lost_since
        if since is None:
            self.notice(MIC_STOPPED)
        elif now - since < MIC_RETRY:
            return
        self.microphone.reopen()
        self.state.lost_since = now
