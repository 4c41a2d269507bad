"""Voice check: prompts, counting, confusions and the advice it gives."""
import random

from audio_console.commands.grammar import Command
from audio_console.voice.check import VoiceCheck
from audio_console.voice.trust import Heard


def heard_coordinate(text, row, column, confirm=False):
    # As the check's grammar gives it: one <point> slot, "D5".
    return Heard(text, Command("query", f"query {row}{column}", (("point", f"{row}{column}"),)), 0.9, confirm)


def run(check, answers):
    lines = []
    for answer in answers:
        assert check.next_prompt() is not None
        lines.append(check.record(answer))
    assert check.next_prompt() is None
    return lines


def test_prompts_are_coordinates_and_end_after_the_count():
    check = VoiceCheck(random.Random(1), count=4)
    first = check.next_prompt()
    assert first.startswith("Voice check.") and "1 of 4" in first
    assert all(len(p) == 2 and p[0] in "ABCDEFG" and p[1] in "123456789" for p in check.prompts)


def test_a_clean_run_suggests_plain_letters_and_confirm_when_unsure():
    check = VoiceCheck(random.Random(2), count=6)
    answers = [heard_coordinate(f"{p[0].lower()} x", p[0], p[1]) for p in check.prompts]
    run(check, answers)
    report = check.report()
    assert report[0] == "Voice check: understood 6 of 6."
    assert check.suggested_style() == "plain" and check.suggested_confirm() == "unsure"


def test_confused_letters_are_named_and_the_phonetic_alphabet_suggested():
    check = VoiceCheck(random.Random(3), count=4)
    check.prompts = ["D5", "B3", "E7", "A1"]
    answers = [heard_coordinate("b five", "B", "5"), heard_coordinate("d three", "D", "3"),
               None, heard_coordinate("a one", "A", "1")]
    replies = run(check, answers)
    assert replies == ["I understood B5.", "I understood D3.", "Not understood.", "Understood A1."]
    report = " ".join(check.report())
    assert "understood 1 of 4" in report
    assert "D heard as B" in report and "B heard as D" in report
    assert "Not understood: E7" in report
    assert check.suggested_style() == "phonetic"
    assert "phonetic alphabet" in report
    assert check.suggested_confirm() == "always"


def test_the_check_listens_for_coordinates_and_common_words():
    grammar = VoiceCheck(random.Random(4)).grammar()
    assert grammar.parse("delta five").text == "query D5"
    assert grammar.parse("d five").text == "query D5"
    assert grammar.parse("cancel").text == "cancel"
    assert grammar.parse("read row d") is None


def test_answers_in_the_phonetic_alphabet_get_no_advice_about_plain_letters():
    # issue 13 item 18: a player who said "delta five" was told "Plain letters work well for you"
    check = VoiceCheck(random.Random(5), count=4)
    check.prompts = ["D5", "B3", "E7", "A1"]
    answers = [heard_coordinate("delta five", "D", "5"), heard_coordinate("bravo three", "B", "3"),
               heard_coordinate("echo seven", "E", "7"), heard_coordinate("alpha one", "A", "1")]
    run(check, answers)
    report = " ".join(check.report())
    assert "understood 4 of 4" in report
    assert "Plain letters" not in report
    assert "Phonetic alphabet: keep using it" in report


def test_a_phonetic_row_heard_wrong_is_not_blamed_on_plain_letters():
    check = VoiceCheck(random.Random(6), count=4)
    check.prompts = ["D5", "B3", "E7", "A1"]
    answers = [heard_coordinate("d five", "D", "5"), heard_coordinate("b three", "B", "3"),
               heard_coordinate("e seven", "E", "7"), heard_coordinate("echo one", "E", "1")]
    run(check, answers)
    assert check.suggested_style() == "plain"
