"""pocketsphinx, the embedded recognizer, on real synthesized English speech.

Every command form of the (stand-in) Galaxis grammar is spoken by two synthetic
voices (flite slt and hibari); the recognizer and trust layer must understand
each form, never act on a wrong command without asking, and reject talk and noise.
"""
import pytest

pytestmark = pytest.mark.slow   # about 30 s: 60 synthesized utterances, 4 decodes each

from audio_console.settings import Settings
from audio_console.voice.audio import wav_pcm16
from audio_console.voice.trust import decide

FORMS = [
    "delta five", "bravo three", "golf nine", "d five",          # query, phonetic and plain
    "search charlie two",
    "what is at charlie four", "read row echo", "read column seven",
    "mark foxtrot two", "rule out alpha one", "unmark delta eight",
    "caution spaceship echo six",
    "repeat", "help", "status", "undo", "yes", "no", "cancel", "stop", "quit",
    "hint", "louder", "softer", "faster", "slower", "summary", "new game",
]
VOICES = ["flite:slt", "hibari:heart"]
OUT_OF_GRAMMAR = ["the weather is nice today", "could you pass me the salt please",
                  "I think we should order pizza tonight"]


def hear(recognizer, grammar, path, settings=None):
    decoded = recognizer.decode(wav_pcm16(path))
    return decide(decoded, grammar, settings or Settings())


@pytest.fixture(scope="module")
def results(sphinx, galaxis_grammar, speech):
    """Each form by each voice -> Heard (decoded once for all the tests here)."""
    return {(form, voice): hear(sphinx, galaxis_grammar, speech.say(form, voice))
            for form in FORMS for voice in VOICES}


@pytest.mark.parametrize("form", FORMS)
def test_every_command_form_is_understood(form, results, galaxis_grammar):
    expected = galaxis_grammar.parse(form).text
    got = {voice: results[form, voice] for voice in VOICES}
    understood = [v for v, h in got.items() if h.command is not None and h.command.text == expected]
    assert understood, f"{form!r} ({expected}) not understood: {got}"


def test_no_wrong_command_is_ever_acted_on_without_asking(results, galaxis_grammar):
    wrong = [(form, voice, h) for (form, voice), h in results.items()
             if h.command is not None and h.command.text != galaxis_grammar.parse(form).text
             and not h.confirm]
    assert wrong == []


def test_most_commands_are_understood_by_both_voices(results, galaxis_grammar):
    right = sum(h.command is not None and h.command.text == galaxis_grammar.parse(form).text
                for (form, _), h in results.items())
    assert right >= 0.8 * len(results)


@pytest.mark.parametrize("sentence", OUT_OF_GRAMMAR)
def test_talk_outside_the_grammar_is_not_a_command(sentence, sphinx, galaxis_grammar, speech):
    for voice in VOICES:
        heard = hear(sphinx, galaxis_grammar, speech.say(sentence, voice))
        assert heard.command is None, (voice, heard)


def test_the_naive_grammar_decoder_would_have_acted_on_talk(sphinx, galaxis_grammar, speech):
    # Why the guard exists: a grammar-only decoder forces talk onto some command.
    forced = [galaxis_grammar.parse(sphinx.decode(wav_pcm16(speech.say(s, "flite:slt")), naive=True).text)
              for s in OUT_OF_GRAMMAR]
    assert any(c is not None for c in forced)


def test_noise_is_not_a_command(sphinx, galaxis_grammar, speech):
    for seed, level in [(1, 0.05), (2, 0.2)]:
        assert hear(sphinx, galaxis_grammar, speech.noise(1.5, level, seed)).command is None


def test_words_missing_from_the_dictionary_get_pronunciations(sphinx):
    assert "unmark" in sphinx.added_words
    assert sphinx.dropped_words == []


def _stream(recognizer, pcm):
    stream = recognizer.stream()
    for i in range(0, len(pcm), 960):   # 30 ms frames, as the microphone gives them
        stream.feed(pcm[i:i + 960])
    return stream.finish()


def test_streaming_gives_the_same_command_as_decoding_the_whole_utterance(galaxis_grammar, speech):
    from audio_console.voice.sphinx import SphinxRecognizer
    recognizer = SphinxRecognizer()
    recognizer.set_grammar(galaxis_grammar)
    first = wav_pcm16(speech.say("echo four", "flite:slt"))
    # the first utterance of a session has no running cepstral mean yet: decoded whole
    assert _stream(recognizer, first).text == "echo four"
    for form in ["delta five", "rule out bravo three", "status", "repeat"]:
        said = galaxis_grammar.parse(form).text
        pcm = wav_pcm16(speech.say(form, "flite:slt"))
        streamed = decide(_stream(recognizer, pcm), galaxis_grammar, Settings())
        whole = decide(recognizer.decode(pcm), galaxis_grammar, Settings())
        # the words always come from the whole utterance; the streamed guard (another
        # cepstral mean) may believe a command the whole one doubted, never another one
        assert streamed.command is not None and streamed.command.text == said, (form, streamed)
        assert whole.command is None or whole.command == streamed.command, (form, whole)


def test_a_new_grammar_mid_utterance_decodes_it_whole(galaxis_grammar, speech):
    from audio_console.voice.sphinx import SphinxRecognizer
    recognizer = SphinxRecognizer()
    recognizer.set_grammar(galaxis_grammar)
    recognizer.decode(wav_pcm16(speech.say("echo four", "flite:slt")))
    pcm = wav_pcm16(speech.say("golf two", "flite:slt"))
    stream = recognizer.stream()
    stream.feed(pcm[: len(pcm) // 2])
    recognizer.set_grammar(galaxis_grammar)   # the session changed phase meanwhile
    stream.feed(pcm[len(pcm) // 2:])
    assert stream.finish().text == "golf two"


def test_a_short_answer_the_phone_loop_took_is_accepted_and_noise_still_is_not(tmp_path):
    """Battleship's menu asks "Random or hand?". flite's awb voice saying "hand" fits
    the command well, but the phone-loop guard alone took it as garbage ("Say
    again.", for ever): the word guard accepts it. Noise is still not an answer."""
    import shutil
    import subprocess
    import numpy as np
    from audio_console.commands.vocabulary import common_grammar
    from audio_console.console.menu import MenuConsole
    from audio_console.games import GAMES
    from audio_console.voice.sphinx import SphinxRecognizer
    if not shutil.which("flite"):
        pytest.skip("flite is not installed")
    menu = MenuConsole(GAMES)
    menu.info, menu.answers = GAMES["battleship"], {"opponent": "human"}
    assert "hand" in menu.prompt().lower()
    grammar = menu.grammar() + common_grammar()
    path = tmp_path / "hand.wav"
    subprocess.run(["flite", "-voice", "awb", "-t", "hand", "-o", str(path)], check=True)
    pcm = bytes(6400) + wav_pcm16(path) + bytes(9600)
    old, new = SphinxRecognizer(word_guard=False), SphinxRecognizer()
    for recognizer in (old, new):
        recognizer.set_grammar(grammar)
    assert decide(old.decode(pcm), grammar, Settings()).command is None   # the case the word guard is for
    heard = decide(new.decode(pcm), grammar, Settings())
    assert heard.command is not None and heard.command.text == grammar.parse("hand").text and not heard.confirm
    rng = np.random.default_rng(3)
    for level in (0.05, 0.2):
        noise = (rng.standard_normal(24000) * level * 32767).clip(-32767, 32767).astype("<i2").tobytes()
        assert decide(new.decode(noise), grammar, Settings()).command is None
