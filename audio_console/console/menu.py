"""The console menu (no --game): choose the game, then answer its questions.
Runs in the session like a game, so it can be answered by keys or by voice.

Unfinished saved games come first: "You have a Battleship game in progress, 12 moves
saved: say resume, or new game." A new game of a game that has one in progress asks
before replacing it. `back` goes to the previous question, `menu` to the first."""
from __future__ import annotations

from audio_console.commands import Command, Grammar, Rule, Slot
from audio_console.commands.grammar import SlotOption
from audio_console.contract.adapter import GameAdapter
from audio_console.contract.base import InputError, Reply
from audio_console.contract.gameinfo import GameInfo, Question
from audio_console.base.settings import Settings
from audio_console.base.wording import article


def moves(n: int) -> str:
    return f"{n} move{'' if n == 1 else 's'}"


class MenuConsole(GameAdapter):
    game = "menu"
    title = "menu"

    def __init__(self, games: dict[str, GameInfo], offers=(), start=None):
        """offers: the unfinished SavedGames, the one played last first; start: the
        (GameInfo, options, seed) the command line asked for, started on `new game`."""
        self.games = games
        self.offers = list(offers)
        self.start_with = start
        self.info: GameInfo | None = None
        self.answers: dict = {}
        self.meta: dict = {}                # "saved", "replace": answers that are not game options
        self.order: list[str] = []          # the keys answered, for `back`
        self.resume = None                  # the SavedGame chosen to resume
        self.done = False

    def chosen_options(self) -> dict:
        """The chosen game's options: the answers, and each option the game declares that
        the menu did not ask at its declared default, as the command line gives them
        (answers that are no command-line option, like Arkade's difficulty, kept)."""
        assert self.info is not None     # asked only once a game is chosen
        return {**self.answers, **self.info.options_from(self.answers)}

    def _offer_for(self, name: str):
        return next((saved for saved in self.offers if saved.game == name), None)

    def _title(self, saved) -> str:
        return self.games[saved.game].title

    # --- the question being asked ------------------------------------------------

    def _question(self) -> Question | None:
        if self.offers and "saved" not in self.meta:
            return self._offer_question()
        if self.info is None:
            choices = [(info.name, info.name) for info in self.games.values()]
            names = ", ".join(info.title for info in self.games.values())
            return Question("game", f"Choose a game: {names}.", choices)
        replaced = self._offer_for(self.info.name)
        if replaced is not None and "replace" not in self.meta and self.start_with is None:
            return Question("replace", f"A new {self.info.title} game replaces the one in progress, "
                            f"{moves(len(replaced.actions))} saved. Start a new one? Yes or no.",
                            [("yes", True), ("no", False)])
        for question in self.info.questions:
            if question.key not in self.answers and question.ask_if(self.answers):
                return question
        return None

    def _offer_question(self) -> Question:
        first = self.offers[0]
        if len(self.offers) == 1:
            title = self._title(first)
            prompt = (f"You have {article(title)} {title} game in progress, {moves(len(first.actions))} saved: "
                      "say resume, or new game.")
        else:
            games = "; ".join(f"{self._title(s)}, {moves(len(s.actions))}" for s in self.offers)
            prompt = (f"You have games in progress: {games}. Say resume for {self._title(first)}, "
                      f"resume and the game's name, or new game.")
        choices: list[tuple[str, object]] = [("resume", 0), ("continue", 0), ("new game", None)]
        for i, saved in enumerate(self.offers):
            for word in ("resume", "continue"):
                choices.append((f"{word} {saved.game}", i))
        if self.start_with is None:     # a game's name: a new game of it
            choices += [(info.name, info.name) for info in self.games.values()]
        return Question("saved", prompt, choices)

    def _asking(self) -> Question:
        """The question being asked; once the menu is done there is none to answer."""
        question = self._question()
        if question is None:
            raise InputError("The menu is done.")
        return question

    def grammar(self) -> Grammar:
        question = self._asking()
        options = []
        for i, (words, _value) in enumerate(question.choices):
            options.append(SlotOption(tuple(words.split()), str(i)))
            # Typed, a choice may also be given by its number in the list.
            options.append(SlotOption((str(i + 1),), str(i), spoken=False))
        return Grammar([Rule("choose", "choose {choice}", ["[play] <choice>"]),
                        Rule("back", "back", ["back", "go back", "previous"]),
                        Rule("menu", "menu", ["menu", "main menu"])],
                       [Slot("choice", options)])

    def prompt(self) -> str:
        return self._asking().prompt

    def rules_summary(self) -> list[str]:
        if self.info is not None:          # a game chosen: its rules, with the answers so far
            try:
                return self.info.create(self.chosen_options(), 0, Settings(), 0.0).rules_summary()
            except InputError:             # answers that make no game yet: the overview
                pass
        return ["Each game's rules are told in short when you choose it and say rules, or say rules in that game.",
                "Galaxis: find four hidden spaceships by the answers of space buoys. "
                "Battleship: Outer Space: sink a hidden fleet by calling whole rows and columns. "
                "Arkade: saucers race a defence spaceship across a board of coloured spaces."]

    def help(self) -> list[str]:
        question = self._asking()
        return [question.prompt, "Say one of: " + ", ".join(w for w, _ in question.choices) + ".",
                "Back: the previous question. Menu: the first question."]

    def explain(self, text: str) -> str:
        return f"Not understood: {text}. {self.prompt()}"

    def start(self) -> Reply:
        return Reply().say("Audio console.", signal="ready")

    def act(self, command: Command, now: float) -> Reply:
        if command.name == "back":
            return self._back()
        if command.name == "menu":
            self.info, self.answers, self.meta, self.order = None, {}, {}, []
            return Reply().say("Menu.").say(self.prompt(), signal="prompt")
        if command.name != "choose":
            # status, summary, hint, undo: said back, so the player knows it was heard
            raise InputError(f"{command.text[:1].upper()}{command.text[1:]} needs a game first. {self.prompt()}")
        question = self._asking()
        words, value = question.choices[int(command.get("choice"))]
        self.order.append(question.key)
        if question.key == "saved":
            self.meta["saved"] = value
            if isinstance(value, int):
                self.resume, self.done = self.offers[value], True
                return Reply().say(f"Resume {self._title(self.resume)}.")
            if isinstance(value, str):      # a game named: a new game of it
                self.meta["saved"] = None
                self.info = self.games[value]
                self.order.append("game")
                if self._question() is None:
                    self.done = True
                return Reply().say(f"{self.info.title}, new game.")
            if self.start_with is not None:    # the command line named the game
                self.done = True
                return Reply().say("New game.")
            return Reply().say("New game.").say(self.prompt(), signal="prompt")
        if question.key == "game":
            self.info = self.games[str(value)]
        elif question.key == "replace" and not value:
            assert self.info is not None     # asked only once a game is chosen
            kept = self.info.title

            self.info, self.answers, self.meta, self.order = None, {}, {}, []
            return Reply().say(f"Kept your {kept} game.").say(self.prompt(), signal="prompt")
        elif question.key == "replace":
            self.meta["replace"] = value
        else:
            self.answers[question.key] = value
        reply = Reply().say(f"{words.capitalize()}.")
        if self._question() is None:
            self.done = True
        return reply

    def _back(self) -> Reply:
        if not self.order:
            raise InputError("This is the first question. " + self.prompt())
        key = self.order.pop()
        if key == "game":
            self.info = None
        self.answers.pop(key, None)
        self.meta.pop(key, None)
        return Reply().say("Back.").say(self.prompt(), signal="prompt")

    def apply_recorded(self, action: str) -> None:
        raise InputError("the menu is not saved")

    def finished(self) -> bool:
        return self.done
