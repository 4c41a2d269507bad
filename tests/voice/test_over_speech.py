"""'stop' said over the console's speech: the evidence Whisper gave for real stops
said over a hint with the speakers in the microphone (scripts/bench_bargein.py),
which the trust layer alone rejects; taken while the console was held for them, and
only then, and never for a sentence, another command or no voice."""
from audio_console.base.settings import Settings
from audio_console.voice.over_speech import point_over_speech, stop_over_speech
from audio_console.voice.recognizer import Decoded, Evidence
from audio_console.voice.trust import decide


def _decoded(command, score, transcript, no_speech=0.2, margin=2.0):
    evidence = Evidence(command, score, margin, no_speech, transcript, False)
    text = "stop" if command == "stop" else ""
    return Decoded(text, words=[(w, 0.3) for w in text.split()], evidence=evidence)


def _taken(decoded, grammar, held=True):
    heard = decide(decoded, grammar, Settings())
    return heard, stop_over_speech(heard, decoded, grammar, held)


def test_a_real_stop_half_written_over_the_console_is_acted_on_while_it_is_held(galaxis_grammar):
    # evidence of real stops said over a hint (Speech Commands people), all rejected
    for score, transcript in [(-1.616, "And"), (-1.518, "Duh. Duh. Duh."), (-1.712, "Done. Done. Done."),
                              (-2.838, "T t t t t t t t t"), (-2.78, "of drop drop drop drop drop")]:
        before, after = _taken(_decoded("stop", score, transcript), galaxis_grammar)
        assert before.action == "reject", transcript
        assert (after.action, after.command.name) == ("act", "stop"), transcript


def test_not_when_the_console_was_not_held(galaxis_grammar):
    before, after = _taken(_decoded("stop", -1.6, "Duh."), galaxis_grammar, held=False)
    assert after is before and after.action == "reject"


def test_not_for_a_sentence_another_command_no_voice_or_no_likeness(galaxis_grammar):
    cases = [_decoded("stop", -1.7, "Hey, I'm gonna start."),          # talk over the console
             _decoded("query D2", -1.9, "The"),                        # another best phrase
             _decoded("stop", -1.6, "Stop.", no_speech=1.0),           # the voice detector heard no voice
             _decoded("stop", -4.27, "Up. Up. Up.")]                   # a real "up": far from stop
    for decoded in cases:
        before, after = _taken(decoded, galaxis_grammar)
        assert after is before, decoded.evidence


def test_a_stop_already_acted_on_is_left_as_it_was(galaxis_grammar):
    decoded = _decoded("stop", -0.2, "Stop. Stop. Stop.", margin=6.0)
    decoded.evidence = Evidence("stop", -0.2, 6.0, 0.1, "Stop. Stop. Stop.", True)
    before, after = _taken(decoded, galaxis_grammar)
    assert before.action == "act" and after is before


def test_a_real_stop_chopped_by_the_canceller_is_taken_down_to_the_floor(galaxis_grammar):
    # real tuning stops said over a hint, missed live at the old floor (-3.0)
    for score, transcript in [(-3.32, "Star. Star. Star. Star. Star"), (-3.195, "St, St, St, St, St"),
                              (-3.922, "Stank Stank Stank Stank St"), (-3.964, "Th Th")]:
        before, after = _taken(_decoded("stop", score, transcript), galaxis_grammar)
        assert before.action == "reject", transcript
        assert (after.action, after.command.name) == ("act", "stop"), transcript


def _point(score, margin, transcript, text="delta five", command="query D5", second_look=True):
    evidence = Evidence(command, score, margin, 0.3, transcript, True, second_look=second_look)
    return Decoded(text, words=[(w, 0.5) for w in text.split()], evidence=evidence)


def test_a_nato_point_said_over_the_console_is_acted_on_while_it_is_held(galaxis_grammar):
    # the bench's "charlie three" said over the hint through the canceller (-0.31 a token),
    # asked about at 0.68 before the trust refit, now acted on at once; a little less
    # sure it is still asked about, and taken while the point is held
    sure = _point(-0.31, 3.161, "Charlie 3. Charlie 3. Charlie 3.", text="charlie three", command="query C3")
    assert decide(sure, galaxis_grammar, Settings()).action == "act"
    decoded = _point(-0.4, 3.161, "Charlie 3. Charlie 3. Charlie 3.", text="charlie three", command="query C3")
    heard = decide(decoded, galaxis_grammar, Settings())
    assert heard.action == "confirm" and 0.6 < heard.confidence < 0.7
    acted = point_over_speech(heard, decoded, Settings(), held=True)
    assert (acted.action, acted.command.text) == ("act", "query C3")
    assert point_over_speech(heard, decoded, Settings(), held=False) is heard


def test_the_point_keeps_its_question_for_plain_letters_doubt_or_confirm_always(galaxis_grammar):
    plain = _point(-0.31, 3.161, "C3. C3. C3.", text="c three", command="query C3")
    five = _point(-0.42, 3.4, "Delta 5. Delta 5. Delta 5.")        # the live test's: five is heard as nine
    unsure = _point(-1.4, 3.0, "Delta 5.")                         # far under the bar
    disagreeing = Decoded("delta five", words=[("delta", 0.5), ("five", 0.5)],
                          evidence=Evidence("query D5", -0.42, 3.4, 0.3, "Delta 9.", False, second_look=True))
    for decoded in (plain, five, unsure, disagreeing):
        heard = decide(decoded, galaxis_grammar, Settings())
        assert heard.action in ("confirm", "reject"), decoded.evidence
        assert point_over_speech(heard, decoded, Settings(), held=True) is heard, decoded.evidence
    always = Settings(confirm="always")
    decoded = _point(-0.31, 3.161, "Charlie 3. Charlie 3. Charlie 3.", text="charlie three", command="query C3")
    heard = decide(decoded, galaxis_grammar, always)
    assert point_over_speech(heard, decoded, always, held=True) is heard


def _chopped(command, score, transcript, keyword_p, keyword_score, agrees=False):
    evidence = Evidence(command, score, 1.0, 0.2, transcript, agrees, keyword="stop", keyword_p=keyword_p,
                        keyword_score=keyword_score)
    return Decoded("", evidence=evidence)


def test_a_stop_the_search_wrote_as_another_command_is_taken_on_the_encoders_opinion(galaxis_grammar):
    """Over the console the canceller leaves only a stop's vowel: the phrase search
    chose another short command, the encoder states' opinion still named "stop"
    (real tuning stops replayed from live rounds, bench_bargein_replay.py)."""
    for command, score, transcript, p, own in [("no", -2.54, "Second", 0.89, -3.50),
                                               ("query B5", -3.54, "Five. Five. Five. Five. Five", 0.82, -4.98),
                                               ("yes", -4.32, "Sounds", 0.97, -4.25)]:
        before, after = _taken(_chopped(command, score, transcript, p, own), galaxis_grammar)
        assert before.action != "act", transcript
        assert (after.action, after.command.name) == ("act", "stop"), transcript


def test_the_opinion_takes_nothing_unsure_far_from_stop_agreeing_or_unheld(galaxis_grammar):
    cases = [_chopped("no", -2.8, "No", 0.46, -3.6, agrees=True),     # "no" written alone: the player's no
             _chopped("no", -2.5, "Second", 0.6, -3.5),              # the opinion unsure
             _chopped("why", -4.26, "My silver.", 0.9, -6.66),        # stop searched alone: no likeness
             _chopped("query C2", -2.0, "Clear it up now, please.", 0.9, -3.0)]   # a sentence
    for decoded in cases:
        before, after = _taken(decoded, galaxis_grammar)
        assert after is before, decoded.evidence
    before, after = _taken(_chopped("no", -2.54, "Second", 0.89, -3.50), galaxis_grammar, held=False)
    assert after is before
