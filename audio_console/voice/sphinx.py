"""The embedded recognizer: pocketsphinx with the English model from its wheel.

Two searches decode every utterance:
- "grammar": the game's JSGF grammar alone (what the naive recognizer returns);
- "guarded": the same grammar beside a free phone loop ("garbage"). Speech that is
  not a command (talk, coughs, noise) fits the phone loop better than any command,
  so the guarded search answers with garbage words instead of a command.
The share of the speech that the guarded search gives to garbage, and whether it
agrees with the grammar search, is the evidence the trust layer scores.

pocketsphinx's Python scores (hyp().best_score, prob) are exp'd and renormalised
per frame, so they do not compare across searches; this competition inside one
search does not depend on them.
"""
from __future__ import annotations

import collections
import math
import time

from audio_console.voice import frontend, sphinx_model
from audio_console.voice.sphinx_model import EXTRA_PRONUNCIATIONS
from audio_console.voice.recognizer import Decoded, RecognizerError

# Pronunciations for grammar words the CMU dictionary lacks (CMU phone set); the
# first is the word itself, more become "word(2)", ... (alternative pronunciations).
PHONES = ("AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R "
          "S SH T TH UH UW V W Y Z ZH").split()
GARBAGE_PREFIX = "zzgb"
# The probability weight of each garbage phone against an unspeakable <VOID>
# alternative: the guard's strength. Lower: the phone loop takes only what clearly
# is not a command (fewer false rejections, more false accepts).
GARBAGE_WEIGHT = 1e-7
PHONE_LOOP = "phoneloop"
# The word guard (docs/listen.md): a phrase of at most this many words, not a
# coordinate, that the phone-loop guard rejected is still believed (evidence WORD_GUARD_EVIDENCE, then
# the margin and the second opinion as for any command) when its best family
# phrase is itself, it has at least WORD_GUARD_SPEECH frames (10 ms) of speech and
# the free phone loop's acoustic score minus the phrase's, per speech frame, is
# below WORD_GUARD_FIT (an empirical measure; noise and talk score +10, rejected
# right words -13 in the median).
# Tuned on the tuning corpus's word clips (scripts/bench_words.py --seed 1).
WORD_GUARD_WORDS = 2
WORD_GUARD_SPEECH = 30
WORD_GUARD_FIT = -5.0
WORD_GUARD_EVIDENCE = 0.8


class SphinxRecognizer:
    name = "pocketsphinx"

    def __init__(self, garbage_weight: float = GARBAGE_WEIGHT, adaptation="auto", word_guard: bool = True,
                 **config):
        """`adaptation`: "auto" (the player's saved voice training, if any), None (the
        plain model), or an adaptation.Adaptation. `word_guard` False: short phrases
        are judged by the phone-loop guard alone (the old way, for benchmarks)."""
        self._config = config
        self.adaptation, self.adaptation_note = None, None
        if adaptation == "auto":
            adaptation = None   # the voice training was removed (issue 15)
        self.garbage_weight = garbage_weight
        self.grammar = None
        self.last_pcm = b""   # the last utterance decoded (the voice check trains on it)
        self._recent: collections.deque = collections.deque(maxlen=8)   # (text heard, pcm)
        # Voice training: every utterance counts (its audio is what matters), so the
        # grammar search's words go out as sure; the listener then never drops one.
        self.training = False
        self.word_guard = word_guard
        self._channel_cmn = ""   # the last whole utterance's cepstral mean (SphinxStream)
        self._build_decoder(adaptation)

    def audio_for(self, text: str) -> bytes:
        """The audio of the latest recent utterance heard as `text`. The session gets
        Heard results through a queue, so by then the recognizer may have decoded the
        next utterance already (last_pcm is only right on the listener thread)."""
        for heard, pcm in reversed(self._recent):
            if heard == text:
                return pcm
        return b""

    def use_adaptation(self, adaptation) -> None:
        """Switch to a new voice training (None: the plain model); keeps the grammar."""
        self.adaptation_note = None
        self._build_decoder(adaptation)
        if self.grammar is not None:
            self.set_grammar(self.grammar)

    def _build_decoder(self, adaptation) -> None:
        self._open_stream = None   # an utterance streamed into the old decoder is gone
        try:
            import pocketsphinx
        except ImportError as e:  # pragma: no cover - it is a dependency
            raise RecognizerError(f"pocketsphinx is not installed ({e})") from e
        config = sphinx_model.decoder_config(bestpath=False)
        extra = adaptation.decoder_config() if adaptation is not None else {}
        try:
            self._decoder = pocketsphinx.Decoder(**config, **extra, **self._config)
            self.adaptation = adaptation
        except Exception as e:  # noqa: BLE001 - the library raises plain RuntimeError/ValueError
            if not extra:
                raise RecognizerError(f"pocketsphinx could not load its model: {e}") from e
            self.adaptation = None
            self.adaptation_note = "The voice training could not be loaded; using the plain voice model."
            try:
                self._decoder = pocketsphinx.Decoder(**config, **self._config)
            except Exception as e2:  # noqa: BLE001
                raise RecognizerError(f"pocketsphinx could not load its model: {e2}") from e2
        for phone in PHONES:
            self._decoder.add_word(f"{GARBAGE_PREFIX}{phone.lower()}", phone, False)
        # A word nobody says: the weight sink that makes each garbage phone cost something.
        self._decoder.add_word(f"{GARBAGE_PREFIX}void", "ZH OY ZH OY ZH OY ZH OY ZH OY", True)
        # Any phone sequence at all, for the word guard's comparison (_phone_fit).
        self._decoder.add_jsgf_string(PHONE_LOOP, "#JSGF V1.0;\ngrammar phones;\npublic <phones> = <phone>+ ;\n"
                                      "<phone> = " + " | ".join(GARBAGE_PREFIX + p.lower() for p in PHONES) + " ;\n")
        self._family = (0, 0)
        self._logmath = self._decoder.get_logmath()
        self._flat: dict[str, bool] = {}
        self._phrases: list = []
        self.added_words: list[str] = []
        self.dropped_words: list[str] = []

    def set_grammar(self, grammar) -> None:
        self._close_stream()
        d = self._decoder
        self.added_words, self.dropped_words = [], []
        for word in sorted(grammar.words()):
            if d.lookup_word(word) is None:
                if word in EXTRA_PRONUNCIATIONS:
                    self.added_words.append(word)
                else:
                    self.dropped_words.append(word)
        entries = [(word if n == 0 else f"{word}({n + 1})", phones)
                   for word in self.added_words for n, phones in enumerate(EXTRA_PRONUNCIATIONS[word])]
        for i, (entry, phones) in enumerate(entries):
            d.add_word(entry, phones, i == len(entries) - 1)   # rebuild the dictionary once, at the end
        if self.dropped_words:
            # No pronunciation: listen for every phrase without those words (reported
            # through dropped_words, like vosk), rather than for nothing at all.
            missing = set(self.dropped_words)
            phrases = [p for p in grammar.phrases() if not missing.intersection(p.split())]
            if not phrases:
                raise RecognizerError("pocketsphinx has no pronunciation for: " + ", ".join(self.dropped_words))
            jsgf = ("#JSGF V1.0;\ngrammar commands;\npublic <command> = "
                    + " | ".join(phrases) + " ;\n")
        else:
            jsgf = grammar.jsgf("commands")
        w = f"{self.garbage_weight:g}"
        phones = " | ".join(f"/{w}/ {GARBAGE_PREFIX}{p.lower()}" for p in PHONES)
        guarded = jsgf.replace("public <command> =", "public <top> = <command> | <garbage> ;\n<command> =", 1)
        # JSGF normalises weights among alternatives: the unsayable "void" word (pocketsphinx
        # mishandles <VOID>) makes every garbage phone cost w / (39 w + 1), phone after phone.
        guarded += f"<garbage> = <phone>+ ;\n<phone> = {phones} | /1/ {GARBAGE_PREFIX}void ;\n"
        for name in ("grammar", "guarded"):
            try:
                d.remove_search(name)
            except Exception:  # noqa: BLE001 - not there yet
                pass
        d.add_jsgf_string("grammar", jsgf)
        d.add_jsgf_string("guarded", guarded)
        for old in self._flat:
            d.remove_search(old)
        self._flat = {}
        missing = set(self.dropped_words)
        self._phrases = [(p, grammar.parse(p)) for p in grammar.phrases() if not missing.intersection(p.split())]
        self._phrases = [(p, c) for p, c in self._phrases if c is not None]
        self.grammar = grammar

    def _run(self, search: str, pcm: bytes, channel: bool = True) -> tuple[str, list[tuple[str, int, int]]]:
        d = self._decoder
        d.activate_search(search)
        sphinx_model.decode_whole(d, pcm)
        if channel:
            # The whole utterance's cepstral mean: a streamed utterance starts from it
            # (live CMN), not from the mean of the denoised copy decoded last.
            self._channel_cmn = d.get_cmn()
        hyp = d.hyp()
        segments = [(s.word, s.start_frame, s.end_frame) for s in (d.seg() or [])]
        return (hyp.hypstr if hyp else ""), segments

    def _acoustic(self) -> int:
        """The last decode's acoustic score (log units), summed over its segments. The
        Python wrapper exps scores; logmath.log undoes it. Per-frame normalisation is
        the same for every search, so sums over the same audio compare."""
        total = 0
        for seg in self._decoder.seg() or []:
            total += self._logmath.log(seg.ascore) if seg.ascore > 0 else -10**7
        return total

    def _phrase_search(self, name: str, phrases: list[str]) -> str | None:
        """A flat search over `phrases` (each equally likely), cached by name."""
        if name in self._flat:
            return name
        if not phrases:
            return None
        if len(self._flat) >= 128:   # keep the decoder's search table small
            old = next(iter(self._flat))
            self._flat.pop(old)
            self._decoder.remove_search(old)
        self._decoder.add_jsgf_string(name, "#JSGF V1.0;\ngrammar flat;\npublic <flat> = "
                                      + " | ".join(phrases) + " ;\n")
        self._flat[name] = True
        return name

    def _margin(self, command, pcm: bytes) -> tuple[float | None, str]:
        """How much better (acoustic log units per frame) the heard command fits the
        audio than the best rival phrase that means something else ("b three",
        "delta four", "what is at d three" ... when "d three" was heard). Both
        searches are flat lists with the same prior, so their acoustic scores
        compare; the main grammar's structure would skew them."""
        if command.values:
            # a coordinate: rivals say other values with the same rule ("b three" for
            # "d three"), or the same values with another rule ("what D3", "mark D3")
            same_rule = [(p, c) for p, c in self._phrases
                         if c.name == command.name or c.values == command.values]
        else:
            # a word command: rivals are the other word commands and short coordinates
            same_rule = [(p, c) for p, c in self._phrases if not c.values or len(p.split()) <= 2]
        flat = self._phrase_search("family:" + command.text, [p for p, _ in same_rule])
        rival = self._phrase_search("rival:" + command.text,
                                    [p for p, c in same_rule if c.text != command.text])
        if flat is None or rival is None:
            return None, ""
        flat_text, flat_segments = self._run(flat, pcm)
        flat_score = self._acoustic()
        # for the word guard (_phone_fit): the heard phrase's score and speech frames
        self._family = (flat_score, sum(end - start + 1 for word, start, end in flat_segments
                                        if not word.startswith(("<", "[", "(")) and word != "(NULL)"))
        rival_text, _ = self._run(rival, pcm)
        rival_score = self._acoustic()
        frames = max(1, self._decoder.n_frames())
        flat_command = self.grammar.parse(flat_text) if flat_text else None
        self.last_flat = flat_text
        if flat_command is None or flat_command.text != command.text:
            return DISAGREE_MARGIN, rival_text   # the heard command is not even best here
        if not rival_text:
            # No rival phrase fits the audio at all (the search ends without a
            # hypothesis, and its score is that of silence): nothing competes.
            return UNRIVALLED_MARGIN, rival_text
        return (flat_score - rival_score) / frames, rival_text

    def decode(self, pcm: bytes, naive: bool = False) -> Decoded:
        """Decode one utterance (16 kHz mono int16). `naive`: the grammar search only."""
        if self.grammar is None:
            raise RecognizerError("no grammar set")
        self._close_stream()
        started = time.perf_counter()
        text = self._hear_whole(pcm)
        if naive or self.training:
            return _as_sure(text, started)
        return self._verify(pcm, started, text, self._run("guarded", pcm))

    def _hear_whole(self, pcm: bytes) -> str:
        """The grammar search's words for a whole utterance, whose audio is kept for
        the voice training (last_pcm, audio_for)."""
        text, _ = self._run("grammar", pcm)
        self.last_pcm = pcm
        self._recent.append((text, pcm))
        return text

    def stream(self) -> "SphinxStream":
        """Decode one utterance while it is spoken (the live listener's way)."""
        if self.grammar is None:
            raise RecognizerError("no grammar set")
        return SphinxStream(self)

    def _close_stream(self) -> None:
        """End a streamed utterance in progress (its finish() then decodes it whole)."""
        if self._open_stream is not None:
            self._open_stream = None
            self._decoder.end_utt()

    def _verify(self, pcm: bytes, started: float, text: str, guarded) -> Decoded:
        """The evidence for `text` (the grammar search's answer) from the guarded
        search's (text, segments) and, when the guard leaves room for acting, the
        margin against rival phrases and the second opinion."""
        guarded_text, guarded_segments = guarded
        speech = garbage = 0
        for word, start, end in guarded_segments:
            if word.startswith("<") or word == "(NULL)" or word == f"{GARBAGE_PREFIX}void":
                continue
            frames = end - start + 1
            speech += frames
            if word.startswith(GARBAGE_PREFIX):
                garbage += frames
        guarded_words = " ".join(w for w in guarded_text.split() if not w.startswith(GARBAGE_PREFIX))
        agree = bool(text) and guarded_words == text
        garbage_share = garbage / speech if speech else 1.0
        # Without agreement the evidence is only what the guarded search left to the command.
        evidence = (1.0 - garbage_share) if agree else 0.0
        command = self.grammar.parse(text) if text else None
        margin, rival_text, fit = None, "", None
        self.last_flat = ""
        # coordinates (a row letter among the values) keep the phone-loop guard alone:
        # a wrong one costs a turn, and rescuing them gained little (docs/listen.md)
        short = (command is not None and not agree and self.word_guard and len(text.split()) <= WORD_GUARD_WORDS
                 and not any(name.startswith("row") for name, _ in command.values))
        if command is not None and (evidence > 0 or short):
            # how much better the heard phrase fits than its best rival (not needed
            # when the guard took everything from a long phrase: the evidence is 0)
            margin, rival_text = self._margin(command, pcm)
            if short and margin is not None and margin != DISAGREE_MARGIN:
                fit = self._phone_fit(pcm)
                if fit is not None and fit < WORD_GUARD_FIT:
                    evidence = WORD_GUARD_EVIDENCE
            if margin is not None:
                evidence *= margin_confidence(margin)
        second = None
        if evidence > SECOND_OPINION_CAP:
            # Sure enough to act on without asking: only if a noise-reduced copy of the
            # audio decodes to the same command (in babble the first decode is often
            # sure of a wrong command; the copy rarely makes the same mistake).
            second, _ = self._run("grammar", frontend.to_pcm(frontend.denoise(frontend.to_float(pcm))),
                                  channel=False)
            second_command = self.grammar.parse(second) if second else None
            if second_command is None or second_command.text != command.text:
                evidence = min(evidence, SECOND_OPINION_CAP)
        words = [(w, evidence) for w in text.split()]
        return Decoded(text, words=words, seconds=time.perf_counter() - started,
                       detail={"guarded": guarded_text, "garbage_share": round(garbage_share, 3),
                               "agree": agree, "rival": rival_text, "second": second,
                               "phone_fit": None if fit is None else round(fit, 1),
                               "margin": None if margin is None else round(margin, 2)})

    def _phone_fit(self, pcm: bytes) -> float | None:
        """The word guard: the acoustic score of a free phone loop minus the heard
        phrase's (from the family search just run), per frame of speech. Low when
        the phrase fits the audio about as well as any phone sequence: a clearly
        spoken word the phone-loop guard took as garbage only because a short
        phrase has few frames to win its language weight back. None when there is
        too little speech to judge (a click, a cough)."""
        family_score, speech = self._family
        if speech < WORD_GUARD_SPEECH:
            return None
        self._run(PHONE_LOOP, pcm)
        return (self._acoustic() - family_score) / speech


def _as_sure(text: str, started: float) -> Decoded:
    """The grammar search's words taken as they are (naive decoding, voice training)."""
    return Decoded(text, words=[(w, 1.0) for w in text.split()], seconds=time.perf_counter() - started)


class SphinxStream:
    """One utterance decoded while it is spoken: the guarded search (the grammar
    beside the phone loop) takes each piece of audio as it comes, so when speech
    ends only its tail is left to decode; the grammar search, the margin and the
    second opinion need the whole utterance (batch cepstral mean) or the heard
    command, so they run after. Any other use of the
    recognizer meanwhile (a new grammar, a whole-utterance decode) ends the stream,
    and finish() then decodes the audio whole."""

    def __init__(self, recognizer: SphinxRecognizer):
        self._r = recognizer
        self._pcm = bytearray()
        self.busy_seconds = 0.0   # decoding time spent while the audio came in
        recognizer._close_stream()
        if not recognizer._channel_cmn:
            return   # no utterance heard yet: finish() decodes this one whole
        # A streamed utterance is normalised with a running cepstral mean that starts
        # from the last whole utterance's (same player, same microphone); the
        # model's initial mean is far off and made the first streamed decodes wrong.
        recognizer._decoder.set_cmn(recognizer._channel_cmn)
        recognizer._decoder.activate_search("guarded")
        recognizer._decoder.start_utt()
        recognizer._open_stream = self

    def feed(self, pcm: bytes) -> str:
        started = time.perf_counter()
        self._pcm += pcm
        if self._r._open_stream is self and pcm:
            self._r._decoder.process_raw(pcm, False, False)
        self.busy_seconds += time.perf_counter() - started
        return ""   # no partial results: pocketsphinx's mid-utterance hypotheses are not used

    def finish(self) -> Decoded:
        r, started = self._r, time.perf_counter()
        if r._open_stream is not self:
            return r.decode(bytes(self._pcm))
        r._open_stream = None
        r._decoder.end_utt()
        hyp = r._decoder.hyp()
        streamed = hyp.hypstr if hyp else ""
        segments = [(s.word, s.start_frame, s.end_frame) for s in (r._decoder.seg() or [])]
        pcm = bytes(self._pcm)
        # The words come from the whole utterance, as before: the streamed decode
        # starts from the previous utterance's cepstral mean and differs now and
        # then. Its guard is kept only when it is that same command and nothing else
        # (no phone loop); otherwise the guard runs again over the whole utterance.
        text = r._hear_whole(pcm)
        if r.training:
            return _as_sure(text, started)
        if not (text and streamed == text):
            return r._verify(pcm, started, text, r._run("guarded", pcm))
        return r._verify(pcm, started, text, (streamed, segments))

    def cancel(self) -> None:
        if self._r._open_stream is self:
            self._r._close_stream()


# Acoustic margin per frame (log units) at which the heard phrase and its best rival
# are equally likely to be right, and how fast confidence grows with it.
MARGIN_MIDPOINT = 1.5
MARGIN_SCALE = 0.6
DISAGREE_MARGIN = -1.0
# Evidence at most this (below any accept threshold, above the reject floor: the
# player is asked) when the noise-reduced second opinion hears another command.
SECOND_OPINION_CAP = 0.45


UNRIVALLED_MARGIN = 6.0   # well past the midpoint: as sure as the margin can make it


def margin_confidence(margin: float) -> float:
    return 1.0 / (1.0 + math.exp(-(margin - MARGIN_MIDPOINT) / MARGIN_SCALE))
