"""The microphone side: capture, endpointing, decoding, trust, and the session callback.

One worker thread owns the recognizer: it reads 30 ms frames that the microphone
(microphone.py) queues, cuts utterances out of the room's sound (vad.VadCutter: a neural
voice activity detector and the level over the room's background, so that people
talking nearby do not hold an utterance open; pocketsphinx's Endpointer is the old
way, `cutter="endpointer"`), decodes each one and hands a Heard to the session's
callback. After a short silence (EARLY_WINDOW) the utterance is decoded at once, and
a sure, complete command that no longer command extends is acted on right away;
otherwise the full ENDPOINT_WINDOW is waited for. The player hears a short cue
whenever the microphone reopens after the console's own sound, is told when their
speech was cut by it, when the room is too talkative, when the microphone
stopped, and when it sends only silence (notices, through on_notice). Decoding streams: the recognizer is
fed while the player speaks, so when the Endpointer closes the utterance only the
tail and the checks that need the whole utterance are left (docs/listen.md). While the console speaks or signals
(sink.busy()) it keeps listening when it can take its own sound out of the microphone
(barge-in: echo_cancel.py, against what the engine plays) or the player wears
headphones; otherwise the microphone is ignored then, so the console never hears
itself. An utterance that was only the console's own echo is dropped. In push-to-talk mode only frames while the key is
held (talk(True) .. talk(False)) are listened to. The early guess's decisions are in
early_guess.py, the Endpointer cutter in endpointer_cutter.py, the opening of voice
input for the session in open_voice.py.
"""
from __future__ import annotations

import threading
import time

from audio_console.voice import echo_cancel
from audio_console.voice.addressed import spoke_to_me
from audio_console.voice.early_guess import (Guess, extendable_prefixes, is_complete, is_unfinished,
                                              says_unfinished, with_unfinished)
from audio_console.voice.endpointer_cutter import (ENDPOINT_WINDOW, FRAME_BYTES, FRAME_SECONDS,
                                                   UtteranceCutter)
from audio_console.voice.microphone import Microphone, SilenceWatch
from audio_console.voice.recognizer import RecognizerError, one_line
from audio_console.voice.trace import heard_fields
from audio_console.voice.trust import decide

ECHO_TAIL = 0.3              # seconds still ignored after the console falls silent
ECHO_CHECK_AFTER = 15        # frames after an utterance's sound also weighed (the window that closed it)

# The quick guess that speech ended (UtteranceCutter.early): decoded at once, used
# when the main Endpointer confirms it with no speech in between, or acted on at once
# when it is a sure, complete command (act_early).
EARLY_WINDOW = 0.18
TRACE_QUIET_FRAMES = 33         # the trace looks for a voice too quiet to start every second
TRACE_QUIET_MIN = 3             # ... and says so from this many frames of it
TRACE_QUIET_WITHIN = 6.0        # ... within this many dB of the level needed (not chatter far off)
UNFINISHED_WINDOW = 1.0     # the silence waited for after an unfinished command ("delta ...")
REOPEN_CUT = 0.15            # speech found this soon after the microphone reopened began before
CUT_MIN_SPEECH = 0.4         # seconds of an utterance the console's sound must cut to say so
OVERRUNS_TO_GIVE_UP = 2      # utterances in a row that ran to the cap: offer push-to-talk
MIC_RETRY = 2.0              # seconds between attempts to open it again

TOO_MUCH_TALK = "Too much talk around me to hear you: say push to talk, or press Enter to talk."
SAY_AGAIN_CUT = "I was speaking: say it again."
MIC_STOPPED = "The microphone stopped; type your commands."
MIC_BACK = "The microphone is back: listening again."
MIC_MUTED = "The microphone sends only silence: if it is muted, unmute it; or type your commands."
LISTENING_AGAIN = "Listening."


class Listener:
    """Listens on the default input device and reports each utterance as a Heard."""

    def __init__(self, recognizer, settings, sink, notify, device=None, streaming: bool = True,
                 window: float = ENDPOINT_WINDOW, early: bool = True, cutter: str = "vad",
                 act_early: bool = True, cue: bool = True, open_stream=None, trace=None,
                 cancel_echo: bool = True):
        self.recognizer = recognizer
        # Feed the recognizer while the player speaks (if the engine can stream);
        # False: decode each utterance whole once it ended (the old way, for benchmarks).
        self.streaming = streaming and hasattr(recognizer, "stream")
        self.window = window
        # Decode the quick guess that speech ended at once, instead of streaming; the
        # main window then only confirms it (docs/listen.md).
        self.early = early
        # "vad": VadCutter (neural VAD + level over the room); "endpointer": pocketsphinx's
        self.cutter_kind = cutter
        # Act on a sure, complete command at the early guess, without the full window.
        self.act_early = act_early and early
        # The "listening" cue through the sink when the microphone reopens.
        self.cue = cue
        self._guess: Guess | None = None   # the last early guess, decoded
        self.timings: list[dict] = []   # per utterance: when it ended, decode times (benchmarks)
        # trace(event, **fields): what was heard, for finding why a command was missed
        # (trace.VoiceTrace, --voice-trace); None: no trace
        self.trace = trace
        self._room_db = lambda: None    # the cutter's background level, when it has one
        self.settings = settings
        self.sink = sink
        self.notify = notify
        self.microphone = Microphone(device, open_stream)
        # barge-in: the console's own sound taken out of the microphone, if the sink
        # keeps what it plays and the canceller is installed (None: deaf while it sounds)
        self.echo = _echo_canceller(sink) if cancel_echo else None
        # ... and silent as soon as the player speaks over it (the session then cuts it off)
        self._hold = echo_cancel.Hold(sink, self.echo) if self.echo is not None and settings.barge_in else None
        self._lock = threading.Lock()          # guards the talk key
        self._engine_lock = threading.Lock()   # the recognizer is used by one thread at a time
        self._grammar = None
        self._early_grammar = None   # Whisper's early guess: the commands and their beginnings
        self._grammar_key = ""
        self._extendable: set = set()   # word tuples that some longer phrase of the grammar begins with
        self._reported: tuple = ()
        self._thread: threading.Thread | None = None
        self._running = threading.Event()
        self._talking = False
        self._quiet_until = 0.0
        self._cue_until = 0.0
        self._prompted = False       # set_grammar called: the player was asked for a command
        self._pending = b""
        self._decoding = None   # the recognizer's stream for the utterance in progress
        self._fed = 0           # bytes of that utterance fed to it
        self._on_notice = notify
        self.said_too_much_talk = False

    # --- the session's side (any thread) ---------------------------------------

    def set_grammar(self, grammar) -> None:
        """Listen for this grammar from the next utterance on. Words the recognizer
        cannot listen for are reported once through notify. The session may call this
        at every prompt: the same grammar again costs nothing."""
        self._prompted = True      # the console waits for a command: silence now is telling
        key = grammar.jsgf()
        if key == self._grammar_key:
            return
        extendable = extendable_prefixes(grammar)
        with self._engine_lock:
            self._drop_stream()   # an utterance begun under the old grammar is decoded whole
            try:
                # The early guess listens for the unfinished beginnings too ("delta",
                # "read row"), so a half command decodes as what it is: Whisper's nearest
                # whole command for "delta" was "delta two", acted on. Whisper decodes the
                # whole utterance with the commands alone (the short beginnings would
                # crowd its search); an engine that streams keeps one grammar throughout.
                early = with_unfinished(grammar, extendable) if self.act_early else grammar
                self._early_grammar = early if self._transcribes() else None
                self.recognizer.set_grammar(grammar if self._transcribes() else early)
            except RecognizerError as e:
                self.notify(f"Voice input cannot listen for these commands: {e}")
                self._grammar = None
                return
            self._grammar = grammar
            self._grammar_key = key
            self._extendable = extendable
            dropped = tuple(getattr(self.recognizer, "dropped_words", ()))
        if dropped and dropped != self._reported:
            self.notify(f"The {self.recognizer.name} recognizer cannot hear: {', '.join(dropped)}; "
                        "type those commands.")
        self._reported = dropped

    def talk(self, pressed: bool) -> None:
        """Push-to-talk: the key went down (True) or up (False)."""
        with self._lock:
            self._talking = pressed

    def start(self, on_heard, on_notice=None) -> None:
        """Open the microphone and call on_heard(Heard) from the listener thread;
        on_notice(line) gets what the player must hear (speech cut, too much talk,
        microphone stopped or back; default: notify)."""
        if self._thread is not None:
            return
        self._on_notice = on_notice or self.notify
        try:
            self.microphone.open()
        except Exception as e:  # noqa: BLE001 - PortAudioError, OSError: voice off, keys go on
            self.notify(f"Cannot open the microphone ({one_line(e)}): voice input is off; "
                        "the keyboard works as always.")
            return
        self._pending = b""
        self._running.set()
        self._thread = threading.Thread(target=self._work, args=(on_heard,), name="voice-listener",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Close the microphone and end the listener thread (waits for it)."""
        self._running.clear()
        self.microphone.close()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            self.microphone.wake()
            thread.join(timeout=5)
        for part in (self.recognizer, self.trace):   # the engine's background work, the trace file
            close = getattr(part, "close", None)
            if close is not None:
                close()

    # --- the worker thread ---------------------------------------------------------

    def _deaf(self) -> bool:
        """True while the console itself is making sound (and a short echo after)."""
        now = time.monotonic()
        if not self.settings.headphones and self.echo is None and self.sink.busy() and now >= self._cue_until:
            self._quiet_until = now + ECHO_TAIL
            return True
        if now < self._quiet_until:
            return True
        return self.settings.listening == "push" and not self._talking

    def _make_cutter(self):
        early = EARLY_WINDOW if self.early else None
        if self.cutter_kind == "endpointer":
            return UtteranceCutter(self.window, early_window=early)
        from audio_console.voice.vad import VadCutter
        return VadCutter(self.window, early_window=early)

    def _work(self, on_heard) -> None:
        cutter = self._make_cutter()
        frames = getattr(cutter, "frames", None)
        if frames is not None:
            self._room_db = lambda: round(frames.background, 1)
        counted = 0                     # frames since the trace last looked for a quiet voice
        self._overruns_seen = 0
        was_deaf = False
        talk_audio = bytearray()        # push to talk: everything while the key is held
        talking = False
        reopened_at = None              # frames since the microphone reopened
        cut_by_console = False          # the console's sound cut the player's utterance
        said_cut = False                # ... and the player was told at the reopening
        began_cut = False               # the utterance in progress began before the reopening
        overruns = 0
        lost_since = None               # the microphone stopped (monotonic time of the last retry)
        heard_any = False               # a first block came: from now on silence means stopped
        muted = SilenceWatch()          # only zeros for seconds: muted, said once
        while self._running.is_set():
            block = self.microphone.next_block(first=not heard_any)
            if block is None:
                break
            heard_any = heard_any or bool(block)
            if block == "":
                lost_since = self._microphone_lost(lost_since)
                continue
            if lost_since is not None:
                lost_since = None
                self._on_notice(MIC_BACK)
            if self.echo is not None:
                block = self.echo.clean(block, self.microphone.frames.qsize() * len(block) // 2)
            # Muted only after MUTED_AFTER seconds of zeros with the console quiet and the
            # player asked for a command: not while the console speaks its opening lines.
            if muted.push(block, counting=self._prompted and not self.sink.busy()):
                self._on_notice(MIC_MUTED)
            self._pending += block
            while len(self._pending) >= FRAME_BYTES:
                frame, self._pending = self._pending[:FRAME_BYTES], self._pending[FRAME_BYTES:]
                if self.settings.listening == "push":
                    # push to talk: the key decides where the utterance begins and ends
                    if self._talking:
                        talk_audio += frame
                        talking = True
                    elif talking:
                        talking = False
                        utterance, talk_audio = bytes(talk_audio), bytearray()
                        cutter.reset()
                        if len(utterance) > 0.15 * 32000:
                            self._hear(utterance, on_heard)
                    continue
                if self._deaf():
                    if not was_deaf:   # forget what was heard up to the console's sound
                        self._trace("microphone closed while the console sounds")
                        cut_by_console = cutter.in_speech and cutter.held >= CUT_MIN_SPEECH * 32000
                        if cutter.in_speech:
                            self._trace("cut by the console's sound", seconds=round(cutter.held / 32000, 2))
                        cutter.reset()
                        with self._engine_lock:
                            self._drop_stream()
                        self._guess = None
                        was_deaf = True
                    continue
                if was_deaf:   # the microphone reopens
                    was_deaf = False
                    self._trace("microphone reopened")
                    reopened_at = 0
                    said_cut = cut_by_console
                    if cut_by_console:
                        cut_by_console = False
                        self._on_notice(SAY_AGAIN_CUT)
                    self._cue_listening()
                if reopened_at is not None:
                    reopened_at += 1
                was_speaking = cutter.in_speech
                utterance = cutter.push(frame)
                if self._hold is not None:
                    self._hold.release(time.monotonic())   # held too long: talk, go on
                if cutter.in_speech and not was_speaking:
                    self._trace("speech began", room_db=self._room_db())
                    if self._hold is not None:
                        self._hold.onset(time.monotonic())
                    # speech already going on as the microphone reopened: its start was lost
                    began_cut = reopened_at is not None and reopened_at * FRAME_SECONDS <= REOPEN_CUT + 0.15
                if reopened_at is not None and reopened_at * FRAME_SECONDS > 1.0:
                    reopened_at = None
                overruns = self._count_overruns(cutter, overruns, utterance)
                counted += 1
                if self.trace is not None and frames is not None and counted >= TRACE_QUIET_FRAMES:
                    counted = 0
                    self._trace_quiet_voice(frames)
                if utterance:
                    if began_cut:   # not decoded; said once (not again if just said for the cut)
                        self._trace("began before the microphone reopened", seconds=round(len(utterance) / 32000, 2))
                        began_cut = False
                        self._guess = None
                        if not said_cut:
                            self._on_notice(SAY_AGAIN_CUT)
                        said_cut = False
                        continue
                    self._hear(utterance, on_heard, cutter.closed_on_guess)
                elif self.early:
                    if cutter.early is not None:
                        if self._guess is None or self._guess[0] != cutter.early_count:
                            if not began_cut and self._guess_now(cutter, on_heard):
                                cutter.reset()   # acted on: what follows is a new utterance
                    elif self.streaming:   # fed from the quick Endpointer, finished at its guess
                        self._feed(cutter.early_held, cutter.early_held_since)
                elif self.streaming:
                    self._feed(cutter.held, cutter.held_since)

    def _count_overruns(self, cutter, overruns: int, utterance) -> int:
        """Utterances in a row that ran to the length cap; at OVERRUNS_TO_GIVE_UP the
        player is told once that the room is too talkative, and offered push to talk."""
        now = getattr(cutter, "overruns", 0)
        if utterance:
            self._overruns_seen = now
            return 0
        if now != getattr(self, "_overruns_seen", 0):
            self._overruns_seen = now
            self._trace("too long: dropped as background talk")
            overruns += 1
            if overruns >= OVERRUNS_TO_GIVE_UP and not self.said_too_much_talk:
                self.said_too_much_talk = True
                self._on_notice(TOO_MUCH_TALK)
        return overruns

    def _trace_quiet_voice(self, frames) -> None:
        """A voice the detector heard but too quiet against the room to begin an
        utterance: a player speaking too softly, or far from the microphone."""
        quiet, loudest = frames.take_too_quiet()
        if quiet >= TRACE_QUIET_MIN and loudest > -TRACE_QUIET_WITHIN:
            self._trace("voice too quiet to begin an utterance", frames=quiet,
                        loudest_db_under_needed=round(-loudest, 1), room_db=self._room_db())

    def _trace(self, event: str, **fields) -> None:
        if self.trace is not None:
            self.trace(event, **fields)

    def _cue_listening(self) -> None:
        """The short cue and its text line: the microphone hears the player again."""
        if not self.cue or self.settings.headphones:
            return
        try:
            from audio_console.audio.signals import duration
            self._cue_until = time.monotonic() + duration("listening") + 0.1
            self.sink.play_signal("listening")
        except Exception:  # noqa: BLE001 - no cue is no reason to stop listening
            pass
        self.notify(LISTENING_AGAIN)

    def _microphone_lost(self, since):
        """No frames for a while: say so once, then try to open the microphone again
        every MIC_RETRY seconds. Returns the time of the last attempt."""
        now = time.monotonic()
        if since is None:
            self._on_notice(MIC_STOPPED)
        elif now - since < MIC_RETRY:
            return since
        self.microphone.reopen()
        return now

    def _feed(self, held: int, held_since) -> None:
        """Give the recognizer the speech the Endpointer let through since last time
        (`held` bytes so far; held_since(n) -> the bytes from n on)."""
        if held == self._fed:
            return
        try:
            with self._engine_lock:
                if held < self._fed:   # the cutter dropped the utterance (too long)
                    self._drop_stream()
                    if not held:
                        return
                if self._grammar is None:
                    return
                if self._decoding is None:
                    self._decoding, self._fed = self.recognizer.stream(), 0
                self._decoding.feed(held_since(self._fed))
                self._fed = held
        except Exception as e:  # noqa: BLE001 - streaming failed: the utterance is decoded whole
            self._drop_stream()
            self.notify(f"Voice input problem: {one_line(e)}")

    def _drop_stream(self) -> None:
        """Forget the stream of the utterance in progress (call with the engine lock)."""
        decoding, self._decoding, self._fed = self._decoding, None, 0
        if decoding is not None and hasattr(decoding, "cancel"):
            try:
                decoding.cancel()
            except Exception:  # noqa: BLE001 - nothing to keep from a stream being dropped
                pass

    def _guess_now(self, cutter, on_heard) -> bool:
        """Decode the early guess of a whole utterance. A sure, complete command that no
        longer phrase of the grammar extends is reported at once (True); otherwise the
        result is kept for when the main window confirms the guess."""
        self._guess = Guess(cutter.early_count, None, None, 0.0)
        try:
            with self._engine_lock:
                grammar, early = self._grammar, self._early_grammar
                if early is not None:
                    self.recognizer.set_grammar(early)
                try:
                    # speech may resume: then a new stream from the start
                    decoded, during = self._finish_decoding(cutter.early, use_stream=grammar is not None)
                finally:
                    if early is not None:
                        self.recognizer.set_grammar(grammar)
                if grammar is None:
                    return False
                half = early is not None and decoded is not None and says_unfinished(decoded, early)
                # a half command's guess is not kept: the whole utterance is decoded again
                self._guess = Guess(cutter.early_count, None if half else decoded, grammar, during or 0.0)
            if self.act_early and hasattr(cutter, "wait_longer") and self._unfinished(decoded, grammar):
                cutter.wait_longer(UNFINISHED_WINDOW)   # "delta ...": wait longer for the rest
            if self.act_early and self._complete(decoded, grammar):
                self._guess = None
                self._report(decoded, grammar, time.monotonic(), "early-act", cutter.early, during or 0.0,
                             on_heard)
                return True
        except Exception as e:  # noqa: BLE001 - the main window's utterance is decoded instead
            self.notify(f"Voice input problem: {one_line(e)}")
        return False

    def _transcribes(self) -> bool:
        return getattr(self.recognizer, "name", "") == "whisper"

    def _unfinished(self, decoded, grammar) -> bool:
        return is_unfinished(decoded, grammar, self._extendable, self._transcribes())

    def _complete(self, decoded, grammar) -> bool:
        return is_complete(decoded, grammar, self.settings, self._extendable, self._transcribes())

    def _hear(self, pcm: bytes, on_heard, guess: int | None = None) -> None:
        """Decode and report one utterance; a failure is reported, never kills the thread."""
        try:
            guessed, self._guess = self._guess, None
            if guessed and guess is not None and guessed.number == guess and guessed.decoded is not None \
                    and guessed.grammar is self._grammar:
                self._report(guessed.decoded, guessed.grammar, time.monotonic(), "early", pcm,
                             guessed.while_speaking, on_heard)
                return
            self._decode_and_report(pcm, on_heard)
        except Exception as e:  # noqa: BLE001 - one bad utterance must not end voice input
            self.notify(f"Voice input problem: {one_line(e)}")

    def _decode_and_report(self, pcm: bytes, on_heard) -> None:
        ended = time.monotonic()
        with self._engine_lock:
            grammar = self._grammar
            try:
                # (in early mode the stream followed the quick Endpointer: other bytes)
                decoded, during = self._finish_decoding(pcm, use_stream=grammar is not None and not self.early)
            except RecognizerError as e:
                self.notify(f"Voice input problem: {e}")
                return
        if grammar is None:
            return
        self._report(decoded, grammar, ended, "whole" if during is None else "stream", pcm,
                     during or 0.0, on_heard)

    def _finish_decoding(self, pcm: bytes, use_stream: bool):
        """(Decoded, seconds decoded while the player spoke, or None if decoded whole) for
        the utterance `pcm`, taking over the stream in progress (call with the engine
        lock): the stream gets the tail the Endpointer held back, unless it must not be
        used or was fed other bytes; then it is cancelled and `pcm` decoded whole.
        With no grammar set, only the stream is dropped: (None, None)."""
        decoding, fed = self._decoding, self._fed
        self._decoding, self._fed = None, 0
        if decoding is not None and use_stream and fed <= len(pcm):
            decoding.feed(pcm[fed:])
            return decoding.finish(), getattr(decoding, "busy_seconds", 0.0)
        if decoding is not None:
            decoding.cancel()
        if self._grammar is None:
            return None, None
        # the neural cutter starts an utterance only on speech (push to talk: the key does)
        voiced = self.cutter_kind == "vad" and self.settings.listening != "push"
        return self.recognizer.decode(pcm, voiced=voiced), None

    def _report(self, decoded, grammar, ended: float, how: str, pcm: bytes, during: float, on_heard) -> None:
        if self.echo is not None and self.echo.echo_only(len(pcm) // FRAME_BYTES + ECHO_CHECK_AFTER):
            self._trace("the console's own echo: dropped", removed_db=self.echo.removed_db(len(pcm) // FRAME_BYTES))
            self._go_on()
            return
        heard = decide(decoded, grammar, self.settings)
        if self.trace is not None:
            self._trace("heard", **heard_fields(heard, decoded, len(pcm) / 32000, how), room_db=self._room_db())
        self.timings.append({"ended": ended, "decoded": time.monotonic(), "how": how,
                             "seconds": len(pcm) / 32000, "decode": decoded.seconds, "while_speaking": during})
        del self.timings[:-100]
        if heard.command is None and not heard.text and not self._spoke_to_me(pcm, decoded):
            self._go_on()
            return   # a cough, a knock, noise, talk to someone else: nothing to answer
        on_heard(heard)   # not understood but surely said to the console: "Say again."

    def _go_on(self) -> None:
        """The console goes on speaking if it was held for what turned out to be nothing."""
        if self._hold is not None:
            self._hold.release()

    def _spoke_to_me(self, pcm: bytes, decoded) -> bool:
        if self.settings.listening == "push":
            return True   # the player held the key to talk to the console
        if self.echo is None and self.sink.busy():
            return False
        return spoke_to_me(pcm, self._room_db(), decoded.evidence)


def _echo_canceller(sink):
    """The echo canceller against what `sink` plays, or None (no reference, e.g. no
    sound device or text only; or pywebrtc-audio not installed)."""
    reference = getattr(sink, "echo_reference", None)
    if reference is None or not echo_cancel.available():
        return None
    return echo_cancel.EchoCanceller(reference)
