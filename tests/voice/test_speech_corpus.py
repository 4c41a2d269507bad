"""scripts/make_speech_corpus.py: the held-out corpus shares nothing with the tuning one,
its chatter is really no command, and a tiny corpus comes out whole (real TTS)."""
import importlib.util
import json
import random
import shutil
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_speech_corpus.py"


@pytest.fixture(scope="module")
def corpus():
    spec = importlib.util.spec_from_file_location("make_speech_corpus", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tuning_and_held_out_lists_do_not_overlap(corpus, galaxis_grammar):
    for lists in (corpus.CHATTER, corpus.TALK):
        assert lists["tune"] and lists["held"]
        assert not set(lists["tune"]) & set(lists["held"])
    # the voices differ except hibari's one bundled voice, which has no other
    assert set(corpus.VOICES["tune"]) & set(corpus.VOICES["held"]) == {"hibari:heart"}
    tune = set(corpus.pick_phrases(galaxis_grammar, 90, random.Random(1), "tune"))
    held = set(corpus.pick_phrases(galaxis_grammar, 90, random.Random(1), "held"))
    assert len(tune) == len(held) == 90 and not tune & held


def test_chatter_and_talk_are_no_command(corpus, galaxis_grammar):
    for role in corpus.ROLES:
        for sentence in corpus.CHATTER[role] + corpus.TALK[role]:
            assert galaxis_grammar.parse(sentence) is None, sentence


def test_chatter_contains_command_words(corpus, galaxis_grammar):
    """Close chatter is hard only if it shares words with the commands."""
    words = galaxis_grammar.words()
    for role in corpus.ROLES:
        for sentence in corpus.CHATTER[role]:
            assert set(sentence.lower().split()) & words, sentence


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("espeak-ng") and shutil.which("flite")), reason="needs espeak-ng and flite")
def test_a_tiny_held_out_corpus_has_a_valid_manifest(corpus, galaxis_grammar, tmp_path):
    out = tmp_path / "held"
    assert corpus.main(["--role", "held", "--out", str(out), "--commands", "2", "--chatter", "2",
                        "--oog", "1", "--noise", "10", "--degradations", "babble10"]) == 0
    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert [r["kind"] for r in rows].count("cmd") == 2
    assert {r["kind"] for r in rows} == {"cmd", "chat", "oog", "noise"}
    assert len(rows) == 2 + 2 + 1 + 10
    for r in rows:
        assert Path(r["file"]).is_file() and Path(r["file"]).stat().st_size > 1000
        assert r["degradation"] == "babble10" and r["role"] == "held"
        if r["kind"] == "cmd":
            assert galaxis_grammar.parse(r["text"]).text == r["expected"]
            assert corpus.role_of(r["text"]) == "held"
        else:
            assert r["expected"] is None
        if r["kind"] in ("chat", "oog"):
            assert r["text"] in corpus.CHATTER["held"] + corpus.TALK["held"]
            assert r["speaker"].split("@")[0] in corpus.VOICES["held"]
    # written under a temporary name and renamed: nothing half-made is left beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["held"]


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("espeak-ng") and shutil.which("flite")), reason="needs espeak-ng and flite")
def test_one_word_commands_come_from_every_voice_of_the_role(corpus, galaxis_grammar, tmp_path):
    """"hint", "yes", "no" ...: what a hands-free player says between points; the
    benchmarks missed them for want of clips."""
    out = tmp_path / "short"
    assert corpus.main(["--role", "tune", "--out", str(out), "--commands", "0", "--chatter", "0", "--oog", "0",
                        "--noise", "0", "--short", "10", "--degradations", "clean"]) == 0
    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert [r["text"] for r in rows] == list(corpus.SHORT_COMMANDS) * 2
    assert all(r["kind"] == "cmd" and galaxis_grammar.parse(r["text"]).text == r["expected"] for r in rows)
    voices = [r["speaker"].split("@")[0] for r in rows]
    assert voices == [corpus.VOICES["tune"][0]] * 5 + [corpus.VOICES["tune"][1]] * 5


def test_remarks_are_no_command_and_differ_by_role(corpus, galaxis_grammar, tmp_path):
    """Short remarks between players ("your turn", "oh no"): what should keep silence."""
    out = tmp_path / "remarks"
    assert corpus.main(["--role", "tune", "--out", str(out), "--commands", "0", "--chatter", "0", "--oog", "0",
                        "--noise", "0", "--remarks", "3", "--degradations", "clean"]) == 0
    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert [r["text"] for r in rows] == corpus.REMARKS["tune"][:3]
    assert all(r["kind"] == "remark" and r["expected"] is None for r in rows)
    assert not any(galaxis_grammar.parse(text) for role in corpus.ROLES for text in corpus.REMARKS[role])
    assert not set(corpus.REMARKS["tune"]) & set(corpus.REMARKS["held"])


def test_the_benchmark_counts_a_confirmed_command_right_and_only_unasked_mistakes_wrong():
    spec = importlib.util.spec_from_file_location("bench_speech", SCRIPT.parent / "bench_speech.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)

    def clip(kind, expected, command, action):
        return {"kind": kind, "expected": expected, "degradation": "clean", "speaker": "flite:rms@1.0",
                "engines": {"e": {"command": command, "action": action, "ms": 10.0}}}

    c = bench.counts([clip("cmd", "query D5", "query D5", "act"),
                      clip("cmd", "query D5", "query D5", "confirm"),      # yes to "Did you say D5?"
                      clip("cmd", "query D5", "query B5", "confirm"),      # asked: the player says no
                      clip("cmd", "query D5", "query B5", "act"),          # the dangerous one
                      clip("chat", None, "query D4", "act"),
                      clip("noise", None, "query A1", "confirm"),
                      clip("oog", None, None, "reject")], "e")
    assert (c["commands"], c["right"], c["confirmed"], c["wrong"]) == (4, 2, 1, 1)
    assert (c["chat_acted"], c["noise_acted"], c["noise_asked"], c["oog_acted"]) == (1, 0, 1, 0)
