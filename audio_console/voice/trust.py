"""Whether to act on what a recognizer heard: accept, confirm, or say again.

A wrong coordinate costs a blind player a turn they cannot see was lost, so a
result is acted on silently only when it parses and is sure. The confidence is the
engine's weakest word confidence, lowered for each word that is easily confused
with another (plain B/D/E/G/C/P/T/V/Z, A/eight, five/nine), as Lichess's voice
input does; the clarity setting scales those costs and raises the bar. Phonetic
alphabet words carry no cost: they are always accepted when the engine is sure.

A grammar-constrained engine (Whisper) hands over Evidence instead: the best
phrase's score, its margin over the best different command, the no-speech
probability and whether a free transcript says the same. Those are combined into
one confidence by a logistic model fitted on the tuning corpora
(scripts/fit_whisper_trust.py), and the same player settings apply to it.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from audio_console.commands.grammar import Command, Grammar
from audio_console.commands.vocabulary import NEVER_CONFIRMED, ONLY_SPEAK
from audio_console.base.settings import Settings
from audio_console.voice.phrase_trie import PHONETIC as PHONETIC_WORDS, transcript_command, words_of
from audio_console.voice.recognizer import Decoded, Evidence
from audio_console.voice.sounds_like import sounds_like_point

# Cost of each easily confused word: how likely it is to have been another word.
CONFUSION_COST = {
    "b": 0.2, "d": 0.2, "e": 0.2, "g": 0.2, "p": 0.2, "t": 0.2, "v": 0.2, "z": 0.2,
    "c": 0.15, "a": 0.1, "eight": 0.1, "five": 0.1, "nine": 0.1,
    "m": 0.15, "n": 0.15, "f": 0.15, "s": 0.15,
}
# What each confusable word is usually mistaken for (for the voice check's report).
CONFUSED_WITH = {
    "b": "D E G P T V", "d": "B E G T", "e": "B D G", "g": "B D E", "c": "E T Z",
    "p": "B T", "t": "D P", "a": "eight", "five": "nine", "nine": "five",
}

REJECT_BELOW = 0.05  # below this, not even worth a question: "say again"


@dataclass(frozen=True)
class Heard:
    """One utterance as the session receives it. `command` None: rejected (say
    again; `text` "" means nothing recognisable was said, e.g. a cough: stay quiet).
    `confirm` True: ask "Did you say D5?" before acting."""
    text: str
    command: Command | None
    confidence: float
    confirm: bool
    # the best different command the engine found, and its words: asked about instead
    # when the player has just said no to `command` and it is heard again
    runner_up: Command | None = None
    runner_up_text: str = ""
    # the same utterance heard as the answer to a "Did you say ...?" question waiting
    # (answers.py), when that differs: the dialogue takes it while one waits
    as_answer: Heard | None = None
    # nothing said to the console (noise, talk to someone else): passed on only for
    # `as_answer`, and silence if no question waits
    silent: bool = False
    # when the utterance began, as the microphone captured it (monotonic seconds; the
    # worker may run behind the microphone), or None: a yes or no said before the
    # question now waiting was asked does not answer it (dialogue.py)
    said_at: float | None = None

    @property
    def action(self) -> str:
        """What live play does: "act" at once, "confirm" first, or "reject"."""
        if self.command is None:
            return "reject"
        return "confirm" if self.confirm else "act"


def accept_threshold(clarity: float) -> float:
    """Clarity 0 (lenient) accepts at 0.5, 1 (strict) at 0.9."""
    return 0.5 + 0.4 * _clamp(clarity)


def confidence(decoded: Decoded, clarity: float) -> float:
    """The engine's weakest word confidence times each confusable word's risk."""
    if not decoded.words:
        return 0.0
    score = min(conf for _, conf in decoded.words)
    scale = 2.0 * _clamp(clarity)   # clarity 0.5: costs as listed; 1: doubled; 0: ignored
    for word, _ in decoded.words:
        score *= 1.0 - min(0.9, CONFUSION_COST.get(word, 0.0) * scale)
    return max(0.0, min(1.0, score))


# Whisper evidence -> confidence: sigmoid(bias + weights . features); fitted by
# scripts/fit_whisper_trust.py on the real tuning corpora (never the held-out ones)
# for the most commands acted on rightly at once and the fewest questions, with no more
# acted on wrongly and no more reject clips acted on or asked about
# (docs/measurements/voice-constants.md). Since the margin is bounded by the close
# rival of the best's own kind (whisper_search) it is small for right and wrong
# points alike, so it weighs less and the bias more. With the prompt, tiny.en writes
# chatter in the commands' style ("Delta 4 is a good film."), so the score is higher
# for chatter too and the transcript agrees only when it is the command alone
# (phrase_trie.transcript_command).
WHISPER_WEIGHTS = {"bias": -0.3, "score": 1.0, "margin": 0.2, "no_speech": -0.5, "agrees": 1.0}
WHISPER_ASK_FROM = 0.1   # below this confidence not even worth a question
WHISPER_ASK_NO_SPEECH = 0.5   # nor above this no-speech probability, unless sure
MARGIN_CAP = 10.0   # beyond this a margin says nothing more
# An utterance Whisper is sure was speech (no-speech probability below this), wrote in
# at most SHORT_WORDS different words and with a word it had to spell in pieces
# ("Gint", "Stagas": a mangled command word, not ordinary talk) was meant for the
# console: "Say again", not silence, so that a player is not left unsure they were
# heard. Remarks ("Okay.", "Your turn.", "Oh no.") are words Whisper knows whole and
# keep their silence.
CLEAR_SPEECH_BELOW = 0.2
SHORT_WORDS = 3
# A transcript with this many different words that no phrase of the grammar uses is
# talk to someone else ("I think we should order pizza tonight."), not a command to
# ask about: silence instead of "Did you say A1?". Far fewer questions to talk, few
# commands lost; at 3 words, more commands lost (docs/measurements/voice-constants.md).
TALK_WORDS = 4
# A one-word answer, control or speaking command written alone is taken only if its
# phrase scores at least this a token: real single words in loud noise ("cat" as
# "Yeah.", "house" as "Help.", "dog" as "Stop.") scored below it, real yes / no /
# stop taken rightly mostly above (docs/measurements/voice-constants.md).
WRITTEN_SHORT_FLOOR = -1.2
# ... except "stop", which only silences the console: a false one costs nothing, a
# missed one leaves the player unable to cut the console off. Through the echo
# canceller a real "stop" said over the console's speech scored under the floor and
# was dropped (tests/voice/test_echo_cancel.py); on the real tuning corpus one more
# real stop is taken, and one more reject clip, a "stop" that silences nothing (docs/measurements/voice-constants.md).
FLOOR_EXEMPT = frozenset({"stop"})
# The one-word commands' second opinion (keywords.py) stands in for the free
# transcript when it names the phrase search's word at least this surely and the
# phrase scores at least KEYWORD_FLOOR a token (_keyword_agrees). "no" needs more:
# the opinion takes "go" and "down" for "no"; "yes" too, which confirms a move
# (docs/measurements/voice-constants.md).
KEYWORD_SURE = {"yes": 0.95, "no": 0.99, "stop": 0.9}
KEYWORD_FLOOR = -2.0
# A surer opinion of "stop" takes it on a lower phrase score (_keyword_overrules):
# at least KEYWORD_OWN_FLOOR a token for the best phrase, or, when the search chose
# another command, for "stop" searched alone (keywords.py) if that scores more in
# total than the phrase chosen: in babble the search's first step drops a real
# "stop" behind the background's "The ..." ("the rules", "query D2"). Only "stop",
# which only silences the console: on the plain-letter tuning corpus the same rule
# for "yes" acted on 6 addresses in noise (docs/voice-real.md).
KEYWORD_OVERRULE = {"stop": 0.98}    # its words are keywords.SEARCHED_ALONE
KEYWORD_OWN_FLOOR = -5.0
# An all but certain opinion of "stop" takes it even when the phrase chosen scores
# more in total than "stop" searched alone ("hint", "more", "no" written over real
# stops in babble, "I see the", "0."), if "stop" scores at least KEYWORD_CERTAIN_FLOOR
# a token: on the one-word tuning part 3 more real stops in babble at 10 dB, no other
# word more (docs/voice-real.md).
KEYWORD_CERTAIN = {"stop": 0.99}
KEYWORD_CERTAIN_FLOOR = -3.5
# A "yes" (it confirms a move) is not acted on when the opinion names it less surely
# than this (_keyword_doubts): on the one-word tuning part, 2 of its 14 other words
# acted on were such ("down" written "Yes."), and no real yes of any tuning corpus.
KEYWORD_DOUBT = {"yes": 0.7}


def whisper_features(evidence: Evidence) -> dict:
    return {"score": evidence.score, "margin": max(-MARGIN_CAP, min(MARGIN_CAP, evidence.margin)),
            "no_speech": evidence.no_speech, "agrees": 1.0 if evidence.agrees else 0.0}


def whisper_confidence(evidence: Evidence, weights: dict | None = None) -> float:
    """How likely the best phrase is the command said (0..1), from the evidence."""
    if evidence.command is None:
        return 0.0
    w = weights or WHISPER_WEIGHTS
    z = w["bias"] + sum(w[name] * value for name, value in whisper_features(evidence).items())
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def decide(decoded: Decoded, grammar: Grammar, settings) -> Heard:
    """Accept, confirm or reject one decoded utterance, per the player's settings."""
    text = decoded.text.strip()
    command = grammar.parse(text) if text else None
    if decoded.evidence is not None and _keyword_overrules(decoded.evidence, settings):
        word = grammar.parse(decoded.evidence.keyword or "")
        if word is not None:
            return Heard(word.text, word, round(decoded.evidence.keyword_p, 3), False)
    if decoded.evidence is not None:
        evidence = _heard_alike(decoded.evidence, text) if command else decoded.evidence
        conf = whisper_confidence(evidence) if command else 0.0
        written = command is not None and (
            _written_alone(command, evidence, grammar)
            and not (_short_word(command) and command.name not in FLOOR_EXEMPT
                     and evidence.score < WRITTEN_SHORT_FLOOR)
            or _mangled_stop(command, evidence) or _keyword_agrees(command, evidence))
        sure = command is not None and (
            conf >= accept_threshold(settings.clarity) and _margin_means_something(text, written)
            or written and _taken_when_written_alone(command, settings))
        if (evidence.second_look and command is not None and not _second_look_may_act(command, written)
                and not (sure and written and nato_point(text))):
            sure = False   # found only at another speed: asked about (an answer: said again)
        no_voice = evidence.no_speech >= 1.0   # Whisper doubted and the voice detector heard none
        if (command is None or conf < WHISPER_ASK_FROM or no_voice
                or (evidence.no_speech > WHISPER_ASK_NO_SPEECH and not sure)):
            # "say again" when the model itself wrote a command or short clear speech;
            # chatter and noise get silence, so does a "No." the voice detector heard no voice in
            if no_voice:
                said = ""
            elif command is not None and evidence.agrees:
                said = text
            else:
                said = _short_clear_speech(evidence)
            return Heard(said, None, round(conf, 3), False)

        heard = _by_settings(text, command, conf, settings, sure)
        if heard.confirm and not sure and evidence.talk_words >= TALK_WORDS:
            return Heard("", None, heard.confidence, False)   # talk to someone else: silence
        if heard.command is None and not evidence.agrees:
            # an unsure "no" in noise: silence; said clearly but unsure: say again
            return Heard(_short_clear_speech(evidence), None, heard.confidence, False)
        if heard.action == "act" and _keyword_doubts(command, evidence):
            return Heard(_short_clear_speech(evidence), None, heard.confidence, False)
        return _with_runner_up(heard, evidence, grammar)
    conf = confidence(decoded, settings.clarity) if command else 0.0
    if command is None or conf < REJECT_BELOW:
        return Heard(text if _has_words(decoded) else "", None, round(conf, 3), False)
    return _by_settings(text, command, conf, settings)


def worth_a_second_look(decoded: Decoded, grammar: Grammar) -> bool:
    """Whether an engine should decode `decoded`'s sound again (Whisper's second look
    at other speeds): live play at the default settings would not act on it, and it
    may be a command, not surely silence or noise, nor talk to someone else."""
    evidence = decoded.evidence
    if evidence is None or evidence.no_speech >= WHISPER_ASK_NO_SPEECH or evidence.talk_words >= TALK_WORDS:
        return False
    return decide(decoded, grammar, Settings()).action != "act"


def _heard_alike(evidence: Evidence, text: str) -> Evidence:
    """`evidence`, agreeing when the free transcript says the NATO point `text` as it
    sounds ("Boxtrot 7. Boxtrot 7", "Charlie 3. Charley 3. Charley": sounds_like.py):
    more real points acted on at once, none wrong (docs/measurements/voice-constants.md)."""
    if evidence.agrees or not sounds_like_point(text, evidence.transcript):
        return evidence
    return replace(evidence, agrees=True)


def _with_runner_up(heard: Heard, evidence: Evidence, grammar: Grammar) -> Heard:
    """`heard` with the engine's runner-up command, if it is one worth a question."""
    if heard.command is None or not evidence.runner_up:
        return heard
    other = grammar.parse(evidence.runner_up)
    if other is None or other.name in NEVER_CONFIRMED:
        return heard
    return replace(heard, runner_up=other, runner_up_text=evidence.runner_up)


def _short_word(command: Command) -> bool:
    return command.name in NEVER_CONFIRMED | ONLY_SPEAK and not command.values


def _second_look_may_act(command: Command, written: bool) -> bool:
    """What only the second look found is acted on when it only speaks, or when it is
    an answer or a control ("no", "stop", "cancel", "yes": never asked about) that the
    free transcript wrote alone and scored above the floor; a real "No. No. No." found
    at another speed was dropped before (real tuning corpus). A "yes" confirms a move,
    but only one the console itself asked about; "Say again." lost real yeses: one-word
    tuning part (issue 28; 40 people saying "yes", 3 conditions), yeses at once
    91 -> 103 of 120, no reject clip of any tuning corpus acted on more."""
    return command.name in ONLY_SPEAK or (written and command.name in NEVER_CONFIRMED)


def nato_point(text: str) -> bool:
    """The phrase is a bare point said in the NATO alphabet ("delta five"). What only
    the second look found is still acted on then, when it is sure and the free
    transcript wrote it alone: real people's "alpha four", "foxtrot three" came out
    "Alpha 4. Alpha 4." at another speed with confidences of 0.77-0.89 and were asked
    about. Real NATO tuning points (issue 28; 2 people, 300 clips): at once 182 -> 201
    with tiny.en, wrong 0 -> 0. Only the bare point: Whisper base wrote "Mark
    Foxtrot 2." for a real "foxtrot two", and "mark F2" would be a wrong move. Plain
    letters ("a" + "four"), heard as other letters with the same confidence, keep
    their question (real plain-letter tuning: 61 at once, 0 wrong, 7 of 520 reject
    clips acted on, unchanged; synthetic tuning: 49 -> 53, 0 wrong)."""
    words = text.split()
    return len(words) == 2 and words[0] in PHONETIC_WORDS


def _mangled_stop(command: Command, evidence: Evidence) -> bool:
    """The phrase is "stop" and the free transcript one or two words, the first
    beginning with "st" ("Start.", "Stuck.", "Ston. Ston.", "Stops."): real people's
    "stop" that Whisper misspelled. Taken as if written alone, because "stop" only
    silences the console. Real one-word tuning part (issue 28; 40 people saying
    "stop", heard in 3 conditions): stops at once 72 -> 82 of 120; no reject clip of
    any tuning corpus ("up", "dog", addresses, noise) is acted on more."""
    return (command.name == "stop" and 0 < len(words_of(evidence.transcript)) <= 2
            and evidence.transcript.strip().lower().startswith("st"))


def _keyword_agrees(command: Command, evidence: Evidence) -> bool:
    """The phrase is "yes", "no" or "stop", the encoder states' second opinion
    (keywords.py) says the same word at least as surely as KEYWORD_SURE, and the
    phrase scores at least KEYWORD_FLOOR a token: taken as if the free transcript had
    written it alone. In babble the transcript writes the background's words
    ("Stand.", "You know it.") while the phrase search found the word said
    (docs/measurements/voice-constants.md)."""
    return (command.name in KEYWORD_SURE and evidence.keyword == command.name and not command.values
            and evidence.keyword_p >= KEYWORD_SURE[command.name] and evidence.score >= KEYWORD_FLOOR)


def _keyword_overrules(evidence: Evidence, settings) -> bool:
    """The encoder states' opinion (keywords.py) names a word of KEYWORD_OVERRULE
    ("stop") at least that surely, and the word's phrase scores at least
    KEYWORD_OWN_FLOOR a token: the best phrase, or the word's own phrase searched
    alone when the best is another command, if it scores more than that one in
    total (the search's beam dropped the word said), or, when the opinion is all but
    certain (KEYWORD_CERTAIN), at least KEYWORD_CERTAIN_FLOOR whatever the phrase
    chosen scores. Taken at the default clarity or a more lenient one, as a word
    written alone is (_taken_when_written_alone), never where Whisper and the voice
    detector heard no voice."""
    word = evidence.keyword
    chosen = evidence.command == word
    score = evidence.score if chosen else evidence.keyword_score
    if word not in KEYWORD_OVERRULE or score is None or evidence.no_speech >= 1.0 or settings.clarity > 0.5:
        return False
    sure = (evidence.keyword_p >= KEYWORD_OVERRULE[word] and score >= KEYWORD_OWN_FLOOR
            and (chosen or evidence.keyword_margin > 0))
    certain = evidence.keyword_p >= KEYWORD_CERTAIN.get(word, 1.0) and score >= KEYWORD_CERTAIN_FLOOR
    return sure or certain


def _keyword_doubts(command: Command, evidence: Evidence) -> bool:
    """The command is one of KEYWORD_DOUBT ("yes") and the encoder states' opinion
    names it, but less surely than that: other words in noise ("down" written
    "Yes.") come out so, real ones far more surely. Or the command is "yes", "no" or
    "stop" and the opinion names another of those: "down", "up", "go" in kitchen noise
    written "No. No." that the opinion took for "stop"; no real one of any tuning
    corpus (docs/measurements/voice-constants.md)."""
    if command.name in KEYWORD_SURE and evidence.keyword in KEYWORD_SURE and evidence.keyword != command.name:
        return True
    return (command.name in KEYWORD_DOUBT and evidence.keyword == command.name
            and evidence.keyword_p < KEYWORD_DOUBT[command.name])


def _margin_means_something(text: str, written: bool) -> bool:
    """False for a one-word phrase that the free transcript does not say (`written`):
    its margin over the longer phrases is large on any sound (talk, "I think we
    should order pizza tonight", was "hint" by 14.9 nats; background voices were "no"
    by 14.6), so it is asked about ("hint") or said again ("no": answers are never
    asked about)."""
    return written or len(text.split()) > 1


def _short_clear_speech(evidence: Evidence) -> str:
    """The free transcript if it was surely speech, short and with a word spelled in
    pieces (a try at a command, not a remark or a sentence to someone else; Whisper
    repeats short words, so different words are counted), else ""."""
    words = words_of(evidence.transcript)
    if evidence.no_speech < CLEAR_SPEECH_BELOW and 0 < len(words) <= SHORT_WORDS and evidence.pieced:
        return evidence.transcript
    return ""


def _taken_when_written_alone(command: Command, settings) -> bool:
    """An answer or quick control ("yes", "no", "repeat") is never asked about, so a
    middling score would mean "say again" for ever. When Whisper, free to write
    anything, wrote that word alone (or repeated) and the constrained search chose it
    too, it is taken at the default clarity or a more lenient one. (Held-out one-word
    commands: "yes", "no" and "repeat" were the best phrase for 139 of 147 clips but
    acted on for 41; noise written "No." is left to the no-speech check.) A command
    that only makes the console speak ("hint", "status") is taken the same way: a
    wrong one costs a sentence the player can cut off, a question an utterance
    (tuning: 18 one-word commands acted on instead of asked, all right)."""
    return command.name in NEVER_CONFIRMED | ONLY_SPEAK and settings.clarity <= 0.5


def _written_alone(command: Command, evidence: Evidence, grammar: Grammar) -> bool:
    """The free transcript says the command alone (or repeated), or as a sentence of
    its own before other words: in babble the background's words follow it ("Yes.
    What are you?"; a comma, "No, I don't think so", is not enough)."""
    if evidence.agrees:
        return True
    parts = re.split(r"[.?!]", evidence.transcript, maxsplit=1)
    return len(parts) == 2 and bool(parts[0].strip()) and transcript_command(grammar, parts[0]) == command.text


def _by_settings(text: str, command: Command, conf: float, settings, sure: bool | None = None) -> Heard:
    """Act, confirm or reject a parsed command of confidence `conf`, per the settings
    (`sure`: already decided by the caller)."""
    consequential = bool(command.values)   # coordinates and other moves; "help" is harmless
    if sure is None:
        sure = conf >= accept_threshold(settings.clarity)
    mode = settings.confirm
    if sure:
        return Heard(text, command, round(conf, 3), consequential and mode == "always")
    if command.name not in NEVER_CONFIRMED and mode in ("unsure", "always"):
        return Heard(text, command, round(conf, 3), True)
    return Heard(text, None, round(conf, 3), False)   # "never" confirms: say again


def _has_words(decoded: Decoded) -> bool:
    """Heard words the engine itself believed in at least a little (not a cough)."""
    return any(conf >= REJECT_BELOW for _, conf in decoded.words)


def _clamp(x: float) -> float:
    return max(0.0, min(1.0, float(x)))
