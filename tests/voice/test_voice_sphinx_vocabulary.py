"""pocketsphinx and words its dictionary lacks: added pronunciations, or dropped and reported."""
from audio_console.commands.grammar import Grammar, Rule
from audio_console.commands.vocabulary import common_grammar
from audio_console.settings import Settings
from audio_console.voice.audio import wav_pcm16
from audio_console.voice.sphinx import SphinxRecognizer
from audio_console.voice.trust import decide


def test_the_menu_can_be_answered_by_voice(speech):
    from audio_console.console.menu import MenuConsole
    from audio_console.games import GAMES
    grammar = MenuConsole(GAMES).grammar() + common_grammar()
    recognizer = SphinxRecognizer()
    recognizer.set_grammar(grammar)
    assert recognizer.dropped_words == []            # "galaxis" got a pronunciation
    heard = decide(recognizer.decode(wav_pcm16(speech.say("galaxis", "flite:slt"))), grammar, Settings())
    assert heard.command is not None and heard.command.name == "choose"


def test_a_word_without_pronunciation_drops_its_phrases_not_the_grammar(speech):
    grammar = Grammar([Rule("warp", "warp", ["zorblax warp"])]) + common_grammar()
    recognizer = SphinxRecognizer()
    recognizer.set_grammar(grammar)
    assert recognizer.dropped_words == ["zorblax"]
    heard = decide(recognizer.decode(wav_pcm16(speech.say("status", "flite:slt"))), grammar, Settings())
    assert heard.command is not None and heard.command.text == "status"


def test_a_menu_choice_no_rival_can_match_is_not_refused(speech):
    """Found live: a menu answer like "play two" came back right, but the rival search
    (every other choice) found no hypothesis at all and its silence-like score made the
    margin hugely negative, so the clearest case was refused. Nothing rivalling it must
    count as certain, not as doubt."""
    from audio_console.console.menu import MenuConsole
    from audio_console.games import GAMES
    menu = MenuConsole(GAMES)
    menu.info = GAMES["galaxis"]                     # the option question
    grammar = menu.grammar() + common_grammar()
    recognizer = SphinxRecognizer()
    recognizer.set_grammar(grammar)
    for said in ("play two", "demonstration"):
        decoded = recognizer.decode(wav_pcm16(speech.say(said, "flite:slt")))
        heard = decide(decoded, grammar, Settings())
        assert decoded.detail["rival"] == "", "the case this test is about: no rival fits"
        assert heard.command is not None and heard.command.name == "choose", (said, decoded.detail)
