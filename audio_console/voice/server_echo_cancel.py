"""Barge-in on Linux with PulseAudio (or PipeWire's pulse server): the sound server's
own echo canceller (module-echo-cancel, WebRTC).

The server sees both streams with their real timing, so it aligns the console's
output with the microphone itself; the in-process canceller (echo_cancel.py) has to
guess that alignment from a worker that can fall seconds behind the microphone
(docs/listen.md has the figures). At the start, when the player listens by voice with
speakers (headphones off), the module is loaded between the default output and
microphone, and the console plays into its sink and records from its source
(PULSE_SINK, PULSE_SOURCE); it is unloaded at exit. Anywhere else, or if it cannot be
loaded, the in-process canceller is used as before.
"""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
from typing import Callable

# AGC and noise suppression off: the recognizer wants the voice as it is (the AGC
# raised the microphone 11 dB in a first try), only the echo taken out.
AEC_ARGS = "analog_gain_control=0 digital_gain_control=0 noise_suppression=0 high_pass_filter=1"
NOT_LOADED = "The sound server's echo canceller could not be loaded ({why}); the console's own is used."


def _pactl(*args: str) -> str:
    return subprocess.run(["pactl", *args], capture_output=True, text=True, timeout=10, check=True).stdout


def _default(info: str, kind: str) -> str | None:
    """The server's default sink or source ("Default Sink: x" in pactl info)."""
    for line in info.splitlines():
        if line.startswith(f"Default {kind}: "):
            return line.split(": ", 1)[1].strip()
    return None


class ServerEchoCancel:
    """The loaded module: its sink (to play into) and source (the cleaned microphone)."""

    def __init__(self, module: str, sink: str, source: str):
        self.module, self.sink, self.source = module, sink, source

    def unload(self) -> None:
        if self.module:
            subprocess.run(["pactl", "unload-module", self.module], capture_output=True, timeout=10)
            self.module = ""


def load(notify: Callable[[str], None]) -> ServerEchoCancel | None:
    """module-echo-cancel between the default (or PULSE_SINK/PULSE_SOURCE) output and
    microphone, and this process pointed at it; None (one line through `notify` if it
    was tried and failed) when there is no such server."""
    if not sys.platform.startswith("linux") or shutil.which("pactl") is None:
        return None
    try:
        info = _pactl("info")
    except (OSError, subprocess.SubprocessError):
        return None                       # no pulse server: ALSA alone, nothing to load into
    sink_master = os.environ.get("PULSE_SINK") or _default(info, "Sink")
    source_master = os.environ.get("PULSE_SOURCE") or _default(info, "Source")
    if not sink_master or not source_master:
        return None
    name = f"audio_console_echo_{os.getpid()}"
    try:
        module = _pactl("load-module", "module-echo-cancel", "aec_method=webrtc", f"aec_args=\"{AEC_ARGS}\"",
                        f"sink_master={sink_master}", f"source_master={source_master}",
                        f"sink_name={name}_sink", f"source_name={name}_source").strip()
    except (OSError, subprocess.SubprocessError) as e:
        why = (getattr(e, "stderr", "") or str(e)).strip().splitlines()
        notify(NOT_LOADED.format(why=why[-1] if why else "no reason given"))
        return None
    server = ServerEchoCancel(module, f"{name}_sink", f"{name}_source")
    atexit.register(server.unload)
    os.environ.update(PULSE_SINK=server.sink, PULSE_SOURCE=server.source)
    return server


def wanted(voice: bool, headphones: bool) -> bool:
    """Worth loading: the player speaks to the console and its speakers reach the
    microphone (AUDIO_CONSOLE_SERVER_ECHO=0 turns it off, for comparisons)."""
    return voice and not headphones and os.environ.get("AUDIO_CONSOLE_SERVER_ECHO", "1") != "0"
