"""The microphone side: capture, endpointing, decoding, trust, and the session callback.

One worker thread owns the recognizer: it reads 30 ms frames that the sounddevice
callback queues, cuts utterances with pocketsphinx's Endpointer (a WebRTC-style
voice activity detector; it answers 0.3 s after speech ends), decodes each one and
hands a Heard to the session's callback. While the console speaks or signals
(sink.busy()) the microphone is ignored, unless the player wears headphones, so the
console never hears itself. In push-to-talk mode only frames while the key is
held (talk(True) .. talk(False)) are listened to.
"""
from __future__ import annotations

import queue
import threading
import time

from audio_console.voice.recognizer import RecognizerError
from audio_console.voice.trust import Heard, decide

FRAME_SECONDS = 0.03
FRAME_BYTES = 960            # 30 ms of 16 kHz int16
ECHO_TAIL = 0.3              # seconds still ignored after the console falls silent
MAX_UTTERANCE = 8.0          # seconds; a longer "utterance" is background talk


class UtteranceCutter:
    """Frames in, whole utterances out (bytes), by pocketsphinx's Endpointer."""

    def __init__(self, window: float = 0.3, ratio: float = 0.9):
        from pocketsphinx import Endpointer, Vad
        self._make = lambda: Endpointer(window=window, ratio=ratio, vad_mode=Vad.LOOSE,
                                        sample_rate=16000, frame_length=FRAME_SECONDS)
        self.reset()

    def reset(self) -> None:
        self._ep = self._make()
        self._speech = bytearray()

    @property
    def in_speech(self) -> bool:
        return self._ep.in_speech

    def push(self, frame: bytes) -> bytes | None:
        """Feed one 30 ms frame; returns a finished utterance when speech just ended."""
        was_in_speech = self._ep.in_speech
        out = self._ep.process(frame)
        if out is not None:
            self._speech += out
        if was_in_speech and not self._ep.in_speech:
            return self._take()
        if len(self._speech) > MAX_UTTERANCE * 32000:
            self.reset()   # endless "speech": background talk or steady noise
        return None

    def flush(self) -> bytes | None:
        """End of input: the utterance in progress, if any."""
        if self._ep.in_speech:
            out = self._ep.end_stream(bytes(FRAME_BYTES))   # one frame of silence closes it
            if out:
                self._speech += out
        return self._take() if self._speech else None

    def _take(self) -> bytes:
        utterance, self._speech = bytes(self._speech), bytearray()
        return utterance


class Listener:
    """Listens on the default input device and reports each utterance as a Heard."""

    def __init__(self, recognizer, settings, sink, notify, device=None):
        self.recognizer = recognizer
        self.settings = settings
        self.sink = sink
        self.notify = notify
        self.device = device
        self._lock = threading.Lock()          # guards the talk key
        self._engine_lock = threading.Lock()   # the recognizer is used by one thread at a time
        self._grammar = None
        self._grammar_key = ""
        self._reported: tuple = ()
        self._frames: queue.Queue = queue.Queue(maxsize=2000)
        self._thread: threading.Thread | None = None
        self._stream = None
        self._running = threading.Event()
        self._talking = False
        self._quiet_until = 0.0
        self._pending = b""

    # --- the session's side (any thread) ---------------------------------------

    def set_grammar(self, grammar) -> None:
        """Listen for this grammar from the next utterance on. Words the recognizer
        cannot listen for are reported once through notify. The session may call this
        at every prompt: the same grammar again costs nothing."""
        key = grammar.jsgf()
        if key == self._grammar_key:
            return
        with self._engine_lock:
            try:
                self.recognizer.set_grammar(grammar)
            except RecognizerError as e:
                self.notify(f"Voice input cannot listen for these commands: {e}")
                self._grammar = None
                return
            self._grammar = grammar
            self._grammar_key = key
            dropped = tuple(getattr(self.recognizer, "dropped_words", ()))
        if dropped and dropped != self._reported:
            self.notify(f"The {self.recognizer.name} recognizer cannot hear: {', '.join(dropped)}; "
                        "type those commands.")
        self._reported = dropped

    def talk(self, pressed: bool) -> None:
        """Push-to-talk: the key went down (True) or up (False)."""
        with self._lock:
            self._talking = pressed

    def start(self, on_heard) -> None:
        """Open the microphone and call on_heard(Heard) from the listener thread."""
        if self._thread is not None:
            return
        try:
            import sounddevice as sd
            self._stream = sd.RawInputStream(samplerate=16000, channels=1, dtype="int16",
                                             blocksize=FRAME_BYTES // 2, device=self.device,
                                             callback=self._on_audio)
        except Exception as e:  # noqa: BLE001 - PortAudioError, OSError: voice off, keys go on
            self.notify(f"Cannot open the microphone ({_one_line(e)}): voice input is off; "
                        "the keyboard works as always.")
            self._stream = None
            return
        self._running.set()
        self._thread = threading.Thread(target=self._work, args=(on_heard,), name="voice-listener",
                                        daemon=True)
        self._thread.start()
        self._stream.start()

    def stop(self) -> None:
        """Close the microphone and end the listener thread (waits for it)."""
        self._running.clear()
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.stop()
                stream.close()
            except Exception:  # noqa: BLE001 - a device that vanished is closed anyway
                pass
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            self._frames.put(None)
            thread.join(timeout=5)

    # --- the audio callback (PortAudio's thread): queue only ---------------------------

    def _on_audio(self, indata, frames, time_info, status) -> None:
        try:
            self._frames.put_nowait(bytes(indata))
        except queue.Full:
            pass   # the worker is far behind: dropping audio beats growing without bound

    # --- the worker thread ---------------------------------------------------------

    def _deaf(self) -> bool:
        """True while the console itself is making sound (and a short echo after)."""
        now = time.monotonic()
        if not self.settings.headphones and self.sink.busy():
            self._quiet_until = now + ECHO_TAIL
            return True
        if now < self._quiet_until:
            return True
        return self.settings.listening == "push" and not self._talking

    def _work(self, on_heard) -> None:
        cutter = UtteranceCutter()
        was_talking = was_deaf = False
        while self._running.is_set():
            block = self._frames.get()
            if block is None:
                break
            self._pending += block
            while len(self._pending) >= FRAME_BYTES:
                frame, self._pending = self._pending[:FRAME_BYTES], self._pending[FRAME_BYTES:]
                push_mode = self.settings.listening == "push"
                if push_mode and was_talking and not self._talking:
                    utterance = cutter.flush()   # key released: the utterance is complete
                    cutter.reset()
                    was_talking = False
                    if utterance:
                        self._hear(utterance, on_heard)
                    continue
                if self._deaf():
                    if not was_deaf:   # forget what was heard up to the console's sound
                        cutter.reset()
                        was_deaf = True
                    continue
                was_deaf = False
                was_talking = self._talking
                utterance = cutter.push(frame)
                if utterance:
                    self._hear(utterance, on_heard)

    def _hear(self, pcm: bytes, on_heard) -> None:
        """Decode and report one utterance; a failure is reported, never kills the thread."""
        try:
            self._decode_and_report(pcm, on_heard)
        except Exception as e:  # noqa: BLE001 - one bad utterance must not end voice input
            self.notify(f"Voice input problem: {_one_line(e)}")

    def _decode_and_report(self, pcm: bytes, on_heard) -> None:
        with self._engine_lock:
            grammar = self._grammar
            if grammar is None:
                return
            try:
                decoded = self.recognizer.decode(pcm)
            except RecognizerError as e:
                self.notify(f"Voice input problem: {e}")
                return
        heard = decide(decoded, grammar, self.settings)
        if heard.command is None and not heard.text:
            return   # a cough, a knock, noise: nothing to answer
        on_heard(heard)


def open_listener(settings, sink, notify, model_path=None):
    """A Listener on the default microphone with the best recognizer available, or
    None (after one notify message saying why) when there is no recognizer or no
    microphone. On success notify says which recognizer is used and why."""
    from audio_console.voice.engines import select_recognizer
    try:
        import sounddevice as sd
        sd.query_devices(kind="input")
    except Exception as e:  # noqa: BLE001 - OSError (no PortAudio), PortAudioError, ValueError
        notify(f"No microphone ({_one_line(e)}): voice input is off; the keyboard works as always.")
        return None
    try:
        recognizer, why = select_recognizer(model_path)
    except RecognizerError as e:
        notify(f"No speech recognizer ({_one_line(e)}): voice input is off; the keyboard works as always.")
        return None
    notify(why)
    return Listener(recognizer, settings, sink, notify)


def _one_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
