"""The console menu (no --game): choose the game, then answer its questions.
Runs in the session like a game, so it can be answered by keys or by voice."""
from __future__ import annotations

from audio_console.commands import Command, Grammar, Rule, Slot
from audio_console.commands.grammar import SlotOption
from audio_console.console.base import InputError, Reply
from audio_console.console.gameinfo import GameInfo, Question


class MenuConsole:
    game = "menu"

    def __init__(self, games: dict[str, GameInfo]):
        self.games = games
        self.info: GameInfo | None = None
        self.answers: dict = {}
        self.done = False

    # --- the question being asked ------------------------------------------------

    def _question(self) -> Question | None:
        if self.info is None:
            choices = [(info.name, info.name) for info in self.games.values()]
            names = ", ".join(info.title for info in self.games.values())
            return Question("game", f"Choose a game: {names}.", choices)
        for question in self.info.questions:
            if question.key not in self.answers and question.ask_if(self.answers):
                return question
        return None

    def grammar(self) -> Grammar:
        question = self._question()
        options = []
        for i, (words, _value) in enumerate(question.choices):
            options.append(SlotOption(tuple(words.split()), str(i)))
            # Typed, a choice may also be given by its number in the list.
            options.append(SlotOption((str(i + 1),), str(i), spoken=False))
        return Grammar([Rule("choose", "choose {choice}", ["[play] <choice>"])],
                       [Slot("choice", options)])

    def prompt(self) -> str:
        return self._question().prompt

    def help(self) -> list[str]:
        question = self._question()
        return [question.prompt, "Say one of: " + ", ".join(w for w, _ in question.choices) + "."]

    def explain(self, text: str) -> str:
        return f"Not understood: {text}. {self.prompt()}"

    def start(self) -> Reply:
        return Reply().say("Audio console.", signal="ready")

    def handle(self, command: Command, now: float) -> Reply:
        if command.name != "choose":
            raise InputError("First choose: " + self.prompt())
        question = self._question()
        words, value = question.choices[int(command.get("choice"))]
        if question.key == "game":
            self.info = self.games[value]
        else:
            self.answers[question.key] = value
        reply = Reply().say(f"{words.capitalize()}.")
        if self._question() is None:
            self.done = True
        return reply

    def tick(self, now: float) -> Reply:
        return Reply()

    def apply_recorded(self, action: str) -> None:
        raise InputError("the menu is not saved")

    def finished(self) -> bool:
        return self.done
