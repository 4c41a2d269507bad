"""Voice training: pocketsphinx adapted to one voice with SphinxTrain, for real.

Speech is synthesised with espeak-ng (the voice family the plain model hears worst,
where adaptation is measured to help most: docs/adapt.md), the real tools adapt the
real model, and the adapted decoder is compared with the plain one on held-out
phrases of the same voice.
"""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

from audio_console.voice import adaptation, sphinx_model
from audio_console.voice.audio import wav_pcm16
from audio_console.voice.check import VoiceCheck, VoiceTraining, train, training_off
from audio_console.voice.sphinx import SphinxRecognizer
from audio_console.voice.trust import Heard

VOICE = "espeak:en-us"
# Held-out commands: none of them is a training prompt (checked below).
HELD_OUT = ["b five", "delta three", "e seven", "golf one", "c two", "bravo nine", "d eight", "g four",
            "echo three", "alpha seven", "caution d six", "a three", "what is at e one", "clear g seven",
            "charlie four", "summary", "mark b two", "f six", "a four", "bravo seven", "c nine",
            "delta one", "e four", "foxtrot seven", "golf six", "g two", "query c three", "check d two",
            "alpha two", "b eight"]
TRAINING_SEED = 5

needs_tools = pytest.mark.skipif(adaptation.find_tools() is None, reason=adaptation.MISSING_TOOLS)


def heard(text):
    return Heard(text, None, 0.0, False)


@pytest.fixture(scope="module")
def training_run(speech, tmp_path_factory):
    """The voice training flow with espeak-ng answering every prompt; its utterances."""
    training = VoiceTraining(random.Random(TRAINING_SEED))
    while training.next_prompt() is not None:
        phrase = training.prompts[training.done()]
        assert training.record(heard(phrase), audio=wav_pcm16(speech.say(phrase, VOICE))) == "Thank you."
    return training


def count_right(recognizer, grammar, clips):
    right = 0
    for text, pcm in clips:
        decoded = recognizer.decode(pcm, naive=True).text
        command = grammar.parse(decoded) if decoded else None
        right += command is not None and command.text == grammar.parse(text).text
    return right


def test_training_prompts_cover_every_letter_plain_and_phonetic_every_number_and_commands():
    prompts = VoiceTraining(random.Random(TRAINING_SEED)).prompts
    words = {w for p in prompts for w in p.split()}
    assert set("abcdefghij") <= words
    assert {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"} <= words
    assert {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"} <= words
    assert {"help", "repeat", "yes", "no", "status"} <= words and not {"cancel", "stop", "quit"} & words
    assert 20 <= len(prompts) <= 30
    assert not set(HELD_OUT) & set(prompts)
    # not even the same command in other words
    from audio_console.voice.grammars import grammar_for_game
    grammar = grammar_for_game("galaxis")
    assert all(grammar.parse(p) is not None for p in HELD_OUT)
    trained = {grammar.parse(p).text for p in prompts if grammar.parse(p)}
    assert not {grammar.parse(p).text for p in HELD_OUT} & trained


def test_the_wheels_model_converts_to_what_sphinxtrain_reads(tmp_path):
    folder = sphinx_model.prepare_trainable_model(tmp_path / "model")
    text = (folder / "mdef.txt").read_text().splitlines()
    assert text[:7] == ["0.3", "42 n_base", "137053 n_tri", "548380 n_state_map", "5126 n_tied_state",
                        "126 n_tied_ci_state", "42 n_tied_tmat"]
    rows = [line.split() for line in text[10:]]
    assert len(rows) == 42 + 137053
    assert rows[0] == ["+NSN+", "-", "-", "-", "filler", "0", "0", "1", "2", "N"]
    # every senone id is in range, CI phones use the 126 CI senones
    ids = np.array([[int(x) for x in r[6:9]] for r in rows])
    assert ids.min() == 0 and ids.max() == 5125 and ids[:42].max() == 125
    weights = sphinx_model.sendump_to_mixture_weights((sphinx_model.model_dir() / "sendump").read_bytes())
    assert weights.shape == (5126, 3, 128)
    assert np.allclose(weights.sum(axis=2), 1.0, atol=1e-4)


@needs_tools
@pytest.mark.slow
def test_adapting_to_a_voice_recognises_its_held_out_phrases_better(training_run, speech, galaxis_grammar,
                                                                    tmp_path):
    home = tmp_path / "home"
    clips = [(text, wav_pcm16(speech.say(text, VOICE))) for text in HELD_OUT]
    plain = SphinxRecognizer(adaptation="auto")     # nothing saved yet: the plain model
    assert plain.adaptation is None and plain.adaptation_note is None
    plain.set_grammar(galaxis_grammar)
    before = count_right(plain, galaxis_grammar, clips)

    lines = train(training_run.utterances(), plain, home)
    assert lines[0].startswith("Voice training done: adapted to 26 phrases"), lines
    result, note = adaptation.saved(home)
    assert note is None and result.method == adaptation.DEFAULT_METHOD
    assert result.means.is_file() and (result.mllr is None) == ("mllr" not in result.method)
    # the live recognizer switched over, keeping its grammar; a new one loads the saved files
    assert plain.adaptation is not None and plain.grammar is galaxis_grammar
    fresh = SphinxRecognizer(adaptation=result)
    assert fresh._decoder.config["mean"] == str(result.means)
    assert fresh._decoder.config["mllr"] == (str(result.mllr) if result.mllr else None)
    fresh.set_grammar(galaxis_grammar)
    after = count_right(fresh, galaxis_grammar, clips)
    assert count_right(plain, galaxis_grammar, clips) == after
    # measured: 16 of 30 before, 22 of 30 after (docs/adapt.md); a broken or identity
    # adaptation stays at 16
    print(f"held-out {VOICE}: plain {before}, adapted {after} of {len(clips)}")
    assert after >= before + 4, (before, after)

    # and the full path (guard, margin, trust) still rejects noise after adaptation
    noise = (np.random.default_rng(3).standard_normal(24000) * 0.1 * 32767).astype("<i2").tobytes()
    assert fresh.decode(noise).words == [] or max(c for _, c in fresh.decode(noise).words) < 0.5

    assert training_off(fresh, home).startswith("Voice training removed")
    assert adaptation.saved(home) == (None, None)
    assert fresh.adaptation is None and fresh._decoder.config["mean"].startswith(str(sphinx_model.model_dir()))
    assert count_right(fresh, galaxis_grammar, clips) == before


@needs_tools
@pytest.mark.slow
def test_the_voice_check_trains_on_what_was_said_for_each_prompted_coordinate(speech, tmp_path):
    check = VoiceCheck(random.Random(8), count=8)
    said = []
    for i, prompt in enumerate(check.prompts):
        row, column = prompt[0], int(prompt[1])
        from audio_console.commands.vocabulary import NUMBER_WORDS, PHONETIC
        words = f"{PHONETIC[row][0] if i % 2 else row.lower()} {NUMBER_WORDS[column - 1]}"
        said.append(words)
        check.next_prompt()
        check.record(heard(words), audio=wav_pcm16(speech.say(words, "flite:slt")))
    utterances = check.utterances()
    assert len(utterances) == 8 and all(not u.transcript and u.alternatives for u in utterances)
    chosen = [u.transcript for u in adaptation.choose_wordings(utterances)]
    assert sum(c == s for c, s in zip(chosen, said)) >= 7, (chosen, said)
    lines = train(utterances, None, tmp_path / "home")
    assert lines[0].startswith("Voice training done"), lines
    assert adaptation.saved(tmp_path / "home")[0] is not None


def test_missing_tools_give_one_plain_line_and_the_plain_model(tmp_path, monkeypatch, galaxis_grammar):
    monkeypatch.setenv("AUDIO_CONSOLE_SPHINXTRAIN", str(tmp_path / "nowhere"))
    assert adaptation.find_tools() is None
    utterances = [adaptation.Utterance(b"\0\0" * 16000, "delta five")] * 6
    lines = train(utterances, None, tmp_path / "home")
    assert lines == [adaptation.MISSING_TOOLS]
    assert "sphinxtrain" in lines[0] and "\n" not in lines[0]
    with pytest.raises(adaptation.AdaptationError):
        adaptation.adapt(utterances, home=tmp_path / "home")
    assert adaptation.saved(tmp_path / "home") == (None, None)


@needs_tools
def test_too_few_clear_phrases_are_refused_with_a_message(tmp_path):
    utterances = [adaptation.Utterance(b"\0\0" * 16000, "delta five"),
                  adaptation.Utterance(b"\0\0" * 100, "bravo two"),   # too short to be speech
                  adaptation.Utterance(b"\0\0" * 16000, "")]
    lines = train(utterances, None, tmp_path / "home")
    assert lines[0].startswith("Voice training needs at least 5 clear phrases")
    assert adaptation.saved(tmp_path / "home") == (None, None)


def fake_saved_training(home):
    """A format-valid saved training (identity MLLR, the model's own means)."""
    home.mkdir(parents=True, exist_ok=True)
    ident = "\n".join(" ".join("1.0" if i == j else "0.0" for j in range(13)) for i in range(13))
    block = f"13\n{ident}\n" + " ".join(["0.0"] * 13) + "\n" + " ".join(["1.0"] * 13) + "\n"
    (home / adaptation.MLLR_FILE).write_text("1\n3\n" + block * 3)
    (home / adaptation.MEANS_FILE).write_bytes((sphinx_model.model_dir() / "means").read_bytes())
    (home / adaptation.INFO_FILE).write_text(json.dumps({"method": "mllr+map", "utterances": 26,
                                                         "created": "today",
                                                         "files": [adaptation.MLLR_FILE, adaptation.MEANS_FILE]}))


@pytest.mark.parametrize("damage", ["truncated mllr", "nan mllr", "short means", "garbage json", "text means"])
def test_a_damaged_training_file_is_ignored_with_a_message(tmp_path, damage, galaxis_grammar, speech):
    home = tmp_path / "home"
    fake_saved_training(home)
    assert adaptation.saved(home)[0] is not None
    if damage == "truncated mllr":
        text = (home / adaptation.MLLR_FILE).read_text()
        (home / adaptation.MLLR_FILE).write_text(text[: len(text) // 2])
    elif damage == "nan mllr":
        (home / adaptation.MLLR_FILE).write_text((home / adaptation.MLLR_FILE).read_text().replace("1.0", "nan", 1))
    elif damage == "short means":
        data = (home / adaptation.MEANS_FILE).read_bytes()
        (home / adaptation.MEANS_FILE).write_bytes(data[:-1000])
    elif damage == "garbage json":
        (home / adaptation.INFO_FILE).write_text("{not json")
    else:
        (home / adaptation.MEANS_FILE).write_text("these are not means")
    result, note = adaptation.saved(home)
    assert result is None
    assert "damaged" in note and "plain voice model" in note and "\n" not in note
    recognizer = SphinxRecognizer(adaptation=result)
    recognizer.set_grammar(galaxis_grammar)
    assert recognizer.adaptation is None and recognizer._decoder.config["mllr"] is None
    assert recognizer._decoder.config["mean"].startswith(str(sphinx_model.model_dir()))


def test_the_engine_reports_a_damaged_training_and_still_hears(tmp_path, monkeypatch, galaxis_grammar, speech):
    home = tmp_path / "home"
    fake_saved_training(home)
    (home / adaptation.MLLR_FILE).write_text("1\n3\n13\n0.5")
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(home))
    recognizer = SphinxRecognizer()   # "auto": the player's saved training
    assert recognizer.adaptation is None and "damaged" in recognizer.adaptation_note
    recognizer.set_grammar(galaxis_grammar)
    assert recognizer.decode(wav_pcm16(speech.say("delta five")), naive=True).text == "delta five"


class ListenerWithRecognizer:
    """The session's listener, minus the microphone: the real recognizer decodes each
    utterance as the listener thread would, drops what it would drop (nothing heard),
    and the session hears each result one utterance late (as through the session's
    queue, when the player speaks again quickly)."""

    def __init__(self, recognizer):
        self.recognizer = recognizer
        self.grammar = None
        self.pending = []

    def set_grammar(self, grammar):
        self.grammar = grammar
        self.recognizer.set_grammar(grammar)

    def talk(self, pressed):
        pass

    def stop(self):
        pass

    def say(self, session, pcm):
        from audio_console.settings import Settings
        from audio_console.voice.trust import decide
        heard = decide(self.recognizer.decode(pcm), self.grammar, Settings())
        if heard.command is not None or heard.text:
            self.pending.append(heard)
        if len(self.pending) > 1:
            session.hear(self.pending.pop(0))

    def flush(self, session):
        while self.pending:
            session.hear(self.pending.pop(0))


SESSION_PROMPTS_SEED = 1


@needs_tools
@pytest.mark.slow
def test_the_session_runs_voice_training_and_switches_the_recognizer(tmp_path, speech):
    import io

    from audio_console.console.session import Session
    from audio_console.console.storage import EventLog
    from audio_console.games import GAMES
    from audio_console.output.presenter import Presenter
    from audio_console.settings import Settings, data_dir

    out = io.StringIO()
    session = Session(Presenter(out=out), Settings(), GAMES, tmp_path / "save.json", EventLog(None))
    listener = ListenerWithRecognizer(SphinxRecognizer())
    session.listener = listener
    # Fixed prompts: with random ones now and then one of espeak's utterances is left
    # out of the training (too long for its words), and the count below would vary.
    session.prompt_rng = random.Random(SESSION_PROMPTS_SEED)
    session.open_game(GAMES["galaxis"], {"option": 2}, seed=1)
    session.do(session.parse("voice training"))
    assert "Voice training. Say each phrase as it is written" in out.getvalue()
    prompts = list(session.check.prompts)
    for phrase in prompts:
        listener.say(session, wav_pcm16(speech.say(phrase, VOICE)))
    listener.flush(session)
    text = out.getvalue()
    assert f"Voice training done: adapted to {len(prompts)} phrases" in text, text[-600:]
    assert session.check is None and listener.recognizer.adaptation is not None
    assert not listener.recognizer.training      # back to judging what it hears
    assert adaptation.saved(data_dir())[0] is not None
    # back in the game: the listener hears the game's grammar again, with the adapted model
    listener.say(session, wav_pcm16(speech.say("delta three", VOICE)))
    listener.flush(session)
    session.do(session.parse("voice training off"))
    assert "Voice training removed" in out.getvalue()
    assert listener.recognizer.adaptation is None and adaptation.saved(data_dir()) == (None, None)


def test_the_recognizer_line_names_the_voice_training_or_its_damage(tmp_path, monkeypatch):
    from audio_console.voice.engines import select_recognizer
    home = tmp_path / "home"
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(home))
    monkeypatch.setenv("VOSK_MODEL_PATH", str(tmp_path / "no-model"))
    monkeypatch.chdir(tmp_path)
    recognizer, line = select_recognizer()
    assert recognizer.name == "pocketsphinx" and "Voice training" not in line
    fake_saved_training(home)
    recognizer, line = select_recognizer()
    assert recognizer.adaptation is not None and "Voice training in use: 26 phrases" in line
    (home / adaptation.MEANS_FILE).write_bytes(b"s3\nendhdr\n")
    recognizer, line = select_recognizer()
    assert recognizer.adaptation is None and "damaged" in line and "plain voice model" in line


def test_a_voice_check_with_misses_suggests_the_voice_training():
    check = VoiceCheck(random.Random(3), count=2)
    check.next_prompt()
    check.record(None)
    check.next_prompt()
    check.record(None)
    assert not any("voice training" in line for line in check.report())
    assert "Say voice training to adapt" in check.report(training_available=True)[-1]


def test_the_session_finds_each_utterances_audio_even_after_the_next_was_decoded(speech, galaxis_grammar):
    recognizer = SphinxRecognizer(adaptation=None)
    recognizer.set_grammar(galaxis_grammar)
    first, second = wav_pcm16(speech.say("delta five")), wav_pcm16(speech.say("bravo two"))
    a = recognizer.decode(first, naive=True).text
    b = recognizer.decode(second, naive=True).text
    assert (a, b) == ("delta five", "bravo two")
    assert recognizer.audio_for(a) == first and recognizer.audio_for(b) == second
    assert recognizer.audio_for("golf one") == b""


def test_the_listener_swaps_the_model_only_between_utterances(tmp_path, monkeypatch):
    # The session changes the recognizer's model through the listener, under the same
    # lock as decoding, so an utterance is never decoded half by each model.
    from audio_console.output.sink import NullSink
    from audio_console.settings import Settings
    from audio_console.voice.listener import Listener
    monkeypatch.setenv("AUDIO_CONSOLE_HOME", str(tmp_path))
    recognizer = SphinxRecognizer(adaptation=None)
    listener = Listener(recognizer, Settings(), NullSink(), lambda line: None)
    seen = []
    line = listener.with_recognizer(lambda r: seen.append(r) or training_off(r, home=tmp_path))
    assert seen == [recognizer] and recognizer.adaptation is None
    assert line == "There was no voice training; the plain voice model is in use."
