"""The trust fit's replay (scripts/fit_whisper_trust.py) decides stored looks as the
engine and trust.decide would, second looks included, so that a refit measured on
the tuning corpora is what a player would get."""
from __future__ import annotations

from audio_console.base.settings import Settings
from audio_console.voice import second_look, trust
from audio_console.voice.recognizer import Evidence
from scripts.fit_whisper_trust import Replay, restored, second_looked


def _look(text, command, score, margin, transcript, agrees, no_speech=0.1):
    evidence = Evidence(command, score, margin, no_speech, transcript, agrees)
    return {"text": text, "evidence": evidence.__dict__}


def _row(expected, first, others):
    return {"file": "x.wav", "degradation": "clean", "expected": expected, "corpus": "tune",
            "looks": {"first": first, "others": others}}


ROWS = [
    # sure at once: no second look
    _row("query D5", _look("delta five", "query D5", -0.2, 3.5, "Delta 5.", True),
         [_look("delta nine", "query D9", -0.1, 3.0, "Delta 9.", True)] * 2),
    # unsure at first: the second look's better scoring decode is kept and, a plain
    # letter, asked about
    _row("query C3", _look("c three", "query C3", -1.5, 1.0, "See free", False),
         [_look("c three", "query C3", -0.4, 3.0, "C3.", True),
          _look("c two", "query C2", -1.0, 1.0, "C2.", True)]),
    # talk: nothing worth a question either way
    _row(None, _look("hint", "hint", -2.5, 14.0, "I think we should go.", False),
         [_look("no", "no", -2.9, 12.0, "I think so.", False)] * 2),
]


def test_the_replay_decides_as_trust_decide_with_the_second_look(galaxis_grammar):
    settings = Settings()
    replay = Replay(ROWS, galaxis_grammar, settings)
    outcome = replay.decide(trust.WHISPER_WEIGHTS, trust.MARGIN_CAP)
    for row, code in zip(ROWS, outcome):
        others = [restored(o) for o in row["looks"]["others"]]
        decoded = second_look.with_second_look(restored(row["looks"]["first"]), b"\0\0" * 3200,
                                               lambda pcms, voiced: others, second_look.SECOND_LOOK_SPEEDS,
                                               galaxis_grammar)
        heard = trust.decide(decoded, galaxis_grammar, settings)
        action = "act" if replay.acts[code] else "confirm" if replay.asks[code] else "reject"
        assert (action, replay.command[code] or None) == (heard.action, heard.command.text if heard.command else None)
    figures = replay.figures(outcome)
    assert (figures["once"], figures["asked"], figures["acted"]) == (1, 1, 0)


def test_the_second_look_kept_is_the_best_scoring_speed(galaxis_grammar):
    kept = second_looked(ROWS[1], galaxis_grammar)
    assert kept.text == "c three" and kept.evidence.second_look and kept.evidence.score == -0.4
