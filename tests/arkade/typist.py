"""A stand-in player who types what a person would say: the computer's choice for the
player's side, phrased in words, so that whole games can be typed through the CLI."""
import random

from audio_console.arkade.board import LETTERS
from audio_console.arkade.computer import next_action
from audio_console.arkade.console import ArkadeConsole
from audio_console.commands.vocabulary import NUMBER_WORDS

ROLLS = {"reroll both": "roll again", "reroll shot": "roll the shot die again",
         "reroll flight": "reroll the flight die", "reroll first": "roll the first die again",
         "reroll second": "reroll the second die"}


def phrase(action: str, console: ArkadeConsole) -> str:
    words = action.split()
    verb = words[0]
    if action in ROLLS:
        return ROLLS[action]
    if verb == "ship":
        return f"ship to {NUMBER_WORDS[int(words[1]) - 1]}"
    if verb == "gps":
        return f"use the gps to {NUMBER_WORDS[int(words[1]) - 1]}"
    if verb == "shoot" and len(words) == 2:
        return "shoot from the outpost"
    if verb == "plasma":
        return f"use the {words[1]} plasma cannon" if len(words) == 2 else "use the plasma cannon"
    if verb == "fly":
        cell = words[1]
        saucer = console.core.saucer_at((LETTERS.index(cell[0]), int(cell[1:]) - 1))
        return f"fly the {saucer.colour} saucer at {cell} " + " then ".join(words[2:])
    if verb == "choose" and len(words) == 3:
        return f"choose the {words[1]} saucer at {words[2]}"
    if verb == "clear":
        return f"clear the magnetic field at {words[2]}"
    if verb == "sacrifice":
        return f"sacrifice the saucer at {words[1]}"
    return action


def type_a_game(options: dict, seed: int, level: str = "normal", limit: int = 3000):
    """Play the human side(s) in process; returns (typed lines, console at the end)."""
    console = ArkadeConsole(options, seed)
    lines = []
    console.tick(0.0)
    while not console.finished() and len(lines) < limit:
        side = console.human_side()
        action = next_action(console.core, side, level, random.Random(len(lines)))
        line = phrase(action, console)
        command = console.grammar().parse(line)
        assert command is not None and command.text == action, (line, action, command)
        console.handle(command, 0.0)
        lines.append(line)
    return lines, console
