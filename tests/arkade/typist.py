"""A stand-in player who types what a person would say: the computer's choice for the
player's side, phrased in words, so that whole games can be typed through the CLI."""
import random

from audio_console.arkade.actions import Action
from audio_console.arkade.computer import next_action
from audio_console.arkade.console import ArkadeConsole
from audio_console.arkade.commands import action_of, spoken


def phrase(action: Action, console: ArkadeConsole) -> str:
    def colour_at(cell):
        saucer = console.core.saucer_at(cell)
        return saucer.colour if saucer else None
    return spoken(action, colour_at)


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
        assert command is not None and command.text == action.text(), (line, action, command)
        assert action_of(command) == action, (line, action, command)
        console.handle(command, 0.0)
        lines.append(line)
    return lines, console
