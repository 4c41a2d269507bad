"""--voice-trace: what voice input heard, a JSON line an utterance (trace.py).
The microphone is real synthesized speech fed to the listener's callback; the
recognizer is the real Whisper, so the trace carries its real evidence."""
import json
import time

from audio_console.app.games import grammar_for_game
from audio_console.output.sink import NullSink
from audio_console.base.settings import Settings
from audio_console.voice import listener as listening
from audio_console.voice.audio import wav_pcm16
from audio_console.voice.trace import VoiceTrace
from audio_console.voice.whisper_engine import WhisperRecognizer

from tests.voice.test_listener_notices import FeedingStream, run


def run_until(listener, path, needle='"heard"', limit=30.0):
    """Listens until the trace holds `needle` (a loaded machine gets there later than an
    idle one: a fixed 4 s once ended the listener before the second look's decodes were
    done, and a fixed 2 s before the worker had seen the console fall silent), at most
    `limit` seconds."""
    listener.set_grammar(grammar_for_game("galaxis"))
    listener.start(lambda heard: None, on_notice=lambda line: None)
    try:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and not (path.exists() and needle in path.read_text()):
            time.sleep(0.1)
    finally:
        listener.stop()


def test_a_spoken_command_is_traced_from_its_start_to_what_was_done(speech, tmp_path):
    path = tmp_path / "voice.jsonl"
    pcm = bytes(32000) + wav_pcm16(speech.say("delta five", "flite:slt"))
    trace = VoiceTrace(path)
    listener = listening.Listener(WhisperRecognizer(), Settings(), NullSink(), lambda line: None,
                                  open_stream=lambda cb: FeedingStream(cb, pcm), trace=trace)
    run_until(listener, path)
    events = [json.loads(line) for line in path.read_text().splitlines()]
    kinds = [e["event"] for e in events]
    assert kinds[0] == "speech began" and "heard" in kinds, kinds
    assert events[0]["room_db"] <= -59          # digital silence before it: the floor
    heard = next(e for e in events if e["event"] == "heard")
    assert heard["action"] in ("act", "confirm") and heard["command"] == "query D5" == heard["best"]
    assert 0.5 < heard["seconds"] < 3 and heard["how"].startswith("early")
    assert heard["no_speech"] < 0.5 and "score" in heard and "transcript" in heard
    assert all(e["t"] >= 0 for e in events)


def test_a_trace_that_cannot_be_written_says_why_and_changes_nothing(tmp_path):
    trace = VoiceTrace(tmp_path)               # a folder: cannot be opened for appending
    assert trace.problem and str(tmp_path) in trace.problem
    trace("heard", action="act")               # ignored, no exception


def test_a_voice_too_soft_for_the_room_is_traced_as_such(speech, tmp_path):
    """A player speaking about as loud as the hiss around (both near -30 dBFS), under
    the level an onset needs: no utterance, and the trace says why."""
    import numpy as np
    path = tmp_path / "voice.jsonl"
    rng = np.random.default_rng(0)
    voice = np.frombuffer(wav_pcm16(speech.say("delta five", "flite:slt")), "<i2").astype(np.float32) / 32768
    voice = voice / np.sqrt(np.mean(voice[np.abs(voice) > 0.02] ** 2)) * 10 ** (-31 / 20)
    x = np.concatenate([np.zeros(48000, np.float32), voice, np.zeros(16000, np.float32)])
    x = x + rng.standard_normal(len(x)).astype(np.float32) * 10 ** (-30 / 20)
    pcm = (np.clip(x, -1, 1) * 32767).astype("<i2").tobytes()
    trace = VoiceTrace(path)
    listener = listening.Listener(WhisperRecognizer(), Settings(), NullSink(), lambda line: None,
                                  open_stream=lambda cb: FeedingStream(cb, pcm), trace=trace)
    run(listener, len(pcm) / 64000 + 1.0)
    events = [json.loads(line) for line in path.read_text().splitlines()]
    kinds = [e["event"] for e in events]
    assert "speech began" not in kinds, kinds
    quiet = [e for e in events if e["event"] == "voice too quiet to begin an utterance"]
    assert quiet and quiet[0]["frames"] >= 3 and 0 <= quiet[0]["loudest_db_under_needed"] < 6
    assert -32 < quiet[0]["room_db"] < -28


def test_the_microphone_closing_for_the_console_and_reopening_is_traced(tmp_path):
    from tests.voice.test_listener_notices import Deaf, SpeaksAt

    class SpeaksOnceLooked(SpeaksAt):
        """Its 0.5 s of sound counted from the listener's first look, not from its making:
        a loaded machine's worker once looked first after the sound was over."""
        def busy(self):
            if not getattr(self, "looked", False):
                self.start, self.looked = time.monotonic(), True
            return super().busy()

    path = tmp_path / "voice.jsonl"
    listener = listening.Listener(Deaf(), Settings(headphones=False), SpeaksOnceLooked(0.3, 0.5), lambda line: None,
                                  open_stream=lambda cb: FeedingStream(cb, bytes(64000)), trace=VoiceTrace(path))
    run_until(listener, path, "microphone reopened")
    kinds = [json.loads(line)["event"] for line in path.read_text().splitlines()]
    assert kinds == ["microphone closed while the console sounds", "microphone reopened"], kinds


def test_an_utterance_looked_at_twice_is_traced_with_the_speed_kept(speech, tmp_path):
    """flite's awb voice saying "mark b seven" is not sure enough to act on: the
    engine decodes it at two other speeds too (the second look), the listener asks
    about it, and the trace says which speed's decode was kept."""
    path = tmp_path / "voice.jsonl"
    pcm = bytes(32000) + wav_pcm16(speech.say("mark b seven", "flite:awb"))
    listener = listening.Listener(WhisperRecognizer(), Settings(), NullSink(), lambda line: None,
                                  open_stream=lambda cb: FeedingStream(cb, pcm), trace=VoiceTrace(path))
    run_until(listener, path)
    heard = [json.loads(line) for line in path.read_text().splitlines() if '"heard"' in line]
    assert heard and heard[-1]["command"] == "mark B7" and heard[-1]["action"] == "confirm", heard
    assert heard[-1]["speed"] in (1.0, 0.9, 1.111)


def test_what_is_heard_carries_when_it_began_to_be_said(speech):
    """The session needs the time the player began an utterance (a yes said before a
    question was asked never answers it): the real listener and Whisper set it from
    the microphone's capture, before the Heard arrives, after the microphone opened."""
    pcm = bytes(32000) + wav_pcm16(speech.say("delta five", "flite:slt"))
    listener = listening.Listener(WhisperRecognizer(), Settings(), NullSink(), lambda line: None,
                                  open_stream=lambda cb: FeedingStream(cb, pcm))
    arrived = []
    listener.set_grammar(grammar_for_game("galaxis"))
    opened = time.monotonic()
    listener.start(lambda heard: arrived.append((heard, time.monotonic())), on_notice=lambda line: None)
    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not any(h.command for h, _ in arrived):
            time.sleep(0.05)
    finally:
        listener.stop()
    heard, at = next((h, t) for h, t in arrived if h.command)
    assert heard.said_at is not None and opened < heard.said_at + 0.2 < at, (opened, heard.said_at, at)


def test_the_worker_traces_a_heartbeat_of_what_it_took_from_the_microphone(speech, tmp_path, monkeypatch):
    """Every few seconds the trace says how many frames the worker took, how far it
    ran behind the microphone, how loud they were and what the voice detector made of
    them: where nothing else was traced, whether the worker, the stream or the
    detector went quiet."""
    from audio_console.voice import heartbeat
    monkeypatch.setattr(heartbeat, "EVERY", 1.0)
    path = tmp_path / "voice.jsonl"
    said = wav_pcm16(speech.say("delta five", "flite:slt"))
    pcm = bytes(32000) + said + bytes(64000)
    listener = listening.Listener(WhisperRecognizer(), Settings(), NullSink(), lambda line: None,
                                  open_stream=lambda cb: FeedingStream(cb, pcm), trace=VoiceTrace(path))
    run(listener, 3.5)
    beats = [e for e in map(json.loads, path.read_text().splitlines()) if e["event"] == "listening"]
    assert len(beats) >= 2, beats
    # fed at twice real time: about 66 frames a second, none of them waiting long
    assert all(50 <= b["frames"] / b["seconds"] <= 80 and b["behind"] < 0.5 for b in beats), beats
    assert max(b["peak_db"] for b in beats) > -20 and max(b["voice"] for b in beats) > 0.5, beats
    assert beats[-1]["peak_db"] == heartbeat.FLOOR_DB and beats[-1]["voice"] < 0.5, beats   # the silence after
    assert all(b["sounding"] is False and b["held"] is False and b["room_db"] <= -59 for b in beats), beats
