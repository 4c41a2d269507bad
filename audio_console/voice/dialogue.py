"""The voice dialogue: what the console does with one utterance the listener heard, and
what it remembers from one utterance to the next.

- An utterance that is no command: "Say again."; the second one in a row says back
  what was heard, once, so the player can say it otherwise or type it.
- An unsure command (`Heard.confirm`): asked about first, "Did you say D5?", unless it
  is an answer or a quick control itself (NEVER_CONFIRMED).
- A command heard again as what the player just said it was not (a voice the model
  keeps mishearing the same way): the runner-up is asked about instead, and the
  command never acted on, so "no" cannot loop on the same question.
- While "Did you say ...?" waits, the next utterance is most likely its answer: a
  yes or no is taken by the answers' own bar (`Heard.as_answer`, answers.py), every
  other command by the usual one.
- A yes or no the player began to say before the question now waiting was asked
  answers an earlier question, not this one (a repeated point heard otherwise can
  replace the question while the player says yes to the first): the question is
  asked again, never answered by it.

The session asks the questions and shows the lines; this module only decides
(docs/architecture.md, "The voice pipeline").
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from audio_console.commands import Command
from audio_console.commands.vocabulary import NEVER_CONFIRMED

if TYPE_CHECKING:
    from audio_console.voice.trust import Heard

SAY_BACK_AFTER = 2      # misheard this many times in a row: what was heard is said back


@dataclass(frozen=True)
class Turn:
    """What to do with one utterance: act on `act`, ask about `ask`, or (neither) say again."""
    act: Command | None = None
    ask: Command | None = None
    words: str = ""     # ask: the words asked about; say again: the words to say back ("": none)
    silent: bool = False   # nothing said to the console: no answer at all
    ask_again: bool = False  # an answer said before the question waiting: ask it again


class VoiceDialogue:
    def __init__(self) -> None:
        self.misheard = 0                       # "Say again." in a row since a command was understood
        self.asked_about: Command | None = None  # the command of the question waiting, if heard
        self.refused: Command | None = None      # the command the player last said no to
        self.asked_at: float | None = None        # when the question waiting was asked (monotonic)

    @property
    def expects_answer(self) -> bool:
        """A "Did you say ...?" question waits for its yes or no."""
        return self.asked_about is not None

    def understood(self) -> None:
        """A typed command was understood: the count of mishearings starts again."""
        self.misheard = 0
        self.refused = None

    def take(self, heard: Heard) -> Turn:
        said_at = heard.said_at
        if self.expects_answer and heard.as_answer is not None:
            heard = heard.as_answer    # a yes or no the answers' own bar takes
        elif heard.silent:
            return Turn(silent=True)
        if self._said_before_the_question(heard, said_at):
            return Turn(ask_again=True)
        if heard.command is None:
            self.misheard += 1
            say_back = self.misheard == SAY_BACK_AFTER and heard.text
            return Turn(words=heard.text if say_back else "")
        self.misheard = 0
        refused, self.refused = self.refused, None
        if refused is not None and heard.command.text == refused.text:
            if heard.runner_up is not None:
                return Turn(ask=heard.runner_up, words=heard.runner_up_text)
            return Turn(ask=heard.command, words=heard.text or heard.command.text)
        if heard.confirm and heard.command.name not in NEVER_CONFIRMED:
            return Turn(ask=heard.command, words=heard.text or heard.command.text)
        return Turn(act=heard.command)

    def _said_before_the_question(self, heard: Heard, said_at: float | None) -> bool:
        return (heard.command is not None and heard.command.name in ("yes", "no")
                and self.asked_at is not None and said_at is not None and said_at < self.asked_at)

    def asking(self, about: Command | None) -> None:
        """A yes-or-no question is asked; `about`: the heard command it checks, if any."""
        self.asked_about = about
        self.asked_at = time.monotonic()

    def answered(self, answer: str) -> None:
        """The question was answered "yes", "no" or "cancel" (or dropped by another
        command, `answer` its name): a no refuses what it asked about."""
        self.refused = self.asked_about if answer == "no" else None
        self.asked_about = None
        self.asked_at = None
