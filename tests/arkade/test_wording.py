"""What an Arkade player hears, worded right (issue 13 items 8, 12 and 17): whose
spaceship it is, refusals that name commands a player can say, plurals and capitals."""
import pytest

from audio_console.arkade import cues
from audio_console.arkade.actions import Roll
from audio_console.arkade.console import ArkadeConsole
from audio_console.arkade.events import BoosterFired, DefenceChipDrawn, GameOver, ShotFired
from audio_console.arkade.rules import DEFENCE, IllegalAction
from audio_console.contract.base import InputError
from tests.conftest import run_console


def ask(console, text):
    return " ".join(m.text for m in console.handle(console.grammar().parse(text), 0.0).messages)


def refusal(console, text):
    with pytest.raises(InputError) as caught:
        console.handle(console.grammar().parse(text), 0.0)
    return str(caught.value)


# --- item 8: the spaceship is the Defence's ---------------------------------------

def test_the_alien_hears_that_the_spaceship_below_a_column_is_the_defences():
    alien = ArkadeConsole({"alien": "human", "defence": "computer"}, 2)
    column = ask(alien, "column one")
    assert "The Defence's spaceship is below it." in column and "Your spaceship" not in column


def test_the_defence_hears_that_the_spaceship_is_its_own():
    defence = ArkadeConsole({"alien": "computer", "defence": "human"}, 2)
    column = ask(defence, f"column {defence.core.ship + 1}")
    assert "Your spaceship is below it." in column


# --- item 12 ---------------------------------------------------------------------------

def test_the_alien_asking_for_a_defence_action_hears_whose_it_is():
    alien = ArkadeConsole({"alien": "human", "defence": "computer"}, 1)
    alien.handle(alien.grammar().parse("roll"), 0.0)
    said = refusal(alien, "ship to four")
    assert said != "The alien cannot ship." and "Defence" in said and "spaceship" in said
    assert "Defence" in refusal(alien, "shoot") and "Alien" in refusal(alien, "booster left")


def test_refusals_about_rolling_name_what_a_player_can_say():
    alien = ArkadeConsole({"alien": "human", "defence": "computer"}, 1)
    alien.handle(alien.grammar().parse("roll"), 0.0)
    said = refusal(alien, "roll")
    assert "reroll" not in said.lower() and "roll again" in said
    assert alien.grammar().parse("roll again") is not None
    defence = ArkadeConsole({"alien": "computer", "defence": "human"}, 1)
    defence.handle(defence.grammar().parse("roll"), 0.0)
    said = refusal(defence, "roll the first die again")
    assert "reroll" not in said.lower() and "roll the shot die again" in said


def test_undo_is_not_promised_and_gets_a_plain_reason(tmp_path):
    result = run_console(["--game", "arkade", "--seed", "1", "--text"], ["help", "undo", "quit"], tmp_path)
    always = [line for line in result.stdout.splitlines() if line.startswith("Always:")]
    assert always and "undo" not in always[0]
    assert "Arkade has no undo" in result.stdout
    assert "undo is not something Arkade can do" not in result.stdout


def test_the_gps_is_offered_once_with_its_spaces():
    defence = ArkadeConsole({"alien": "computer", "defence": "human"}, 1)
    core = defence.core
    core.turn = DEFENCE
    core.kept = [("gps", "pink")]
    core.defence_dice.flight, core.defence_dice.shot, core.defence_dice.rolls = 3, "pink", 1
    options = ask(defence, "what can I do")
    assert options.count("GPS") == 1 and "gps" not in options
    assert "use the GPS to two, three, four, five or six" in options


# --- item 17: plurals and capitals ------------------------------------------------------

def test_counts_take_the_right_plural():
    console = ArkadeConsole({"alien": "human", "defence": "computer", "boosters": 1}, 3)
    for saucer in console.core.saucers[1:]:
        saucer.cell = None
    status = " ".join(console.status())
    assert "1 saucer left" in status and "1 booster." in status
    assert "1 saucer," in ask(console, "where are my saucers")
    assert "1 booster." in ask(console, "where is the spaceship")
    assert "1 booster," in console.start().messages[0].text
    assert cues.messages(GameOver("alien", 1))[0].text == "Game over. The Alien wins, after 1 turn."
    assert "1 booster left" in cues.messages(BoosterFired("left", 2, 1, 1))[0].text
    mine = cues.messages(DefenceChipDrawn("mine1", "pink", "boosters", gained=1, boosters=7))[0].text
    assert "1 more booster; 7 now." in mine


def test_every_line_starts_with_a_capital():
    console = ArkadeConsole({"alien": "human", "defence": "computer"}, 3)
    lines = [m.text for m in console.start().messages] + [console.prompt()] + console.status()
    for event in [DefenceChipDrawn("plasma", "pink", "kept"), DefenceChipDrawn("asteroid", "pink", "choose"),
                  ShotFired("ship", "shot", (3, 2), "pink", "destroyed")]:
        lines += [m.text for m in cues.messages(event) if m.text]
    for line in lines:
        for part in line.replace("! ", ". ").split(". "):
            assert part[:1] == part[:1].upper(), (part, line)
    assert "alien computer" not in lines[0]


def test_side_names_are_capitalised_in_turn_lines():
    console = ArkadeConsole({"alien": "human", "defence": "human"}, 3)
    assert console.status()[0] == "Turn 1: the Alien's turn."
    assert "the Alien's turn" in refusal_of_the_defence(console)


def refusal_of_the_defence(console):
    with pytest.raises(IllegalAction) as caught:
        console.core.act(DEFENCE, Roll())
    return str(caught.value)


def test_the_arcade_prompt_offers_only_what_is_accepted():
    console = ArkadeConsole({"mode": "arcade", "alien": "human", "defence": "computer"}, 1)
    console.clock.state = "running"          # as after go and the countdown
    console.handle(console.grammar().parse("roll"), 0.0)
    prompt = console.prompt()
    assert prompt.endswith("or roll.") and "roll again" not in prompt
    console.handle(console.grammar().parse("roll"), 0.0)     # what the prompt offers is accepted
