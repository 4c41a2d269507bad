"""The one shape of a game at the console.

Every game's console adapter (Galaxis, Battleship, Arkade, the practice drills and
the menu) is a GameAdapter. The session calls its methods, which always exist (the
defaults below say nothing and change nothing), and the base owns what every game
did its own way before:

- dispatch: a Command named "read sector" goes to `do_read_sector(command, now)`, or
  to the method `handled_by` names for it (several commands, one handler: data, not
  aliases), on the adapter or on one of its `parts()` (a phase or helper with commands
  of its own, such as Battleship's placing);
  `refusal(command)` may refuse it first (the console is being passed, it is the
  computer's turn); a Command with no `do_` method is refused plainly;
- the rules core's errors (`rule_errors`) become InputError, as one sentence;
- replay: a saved action is parsed with `replay_grammar()` and acted on with
  `replaying` set (no computer answers, nothing said), and must change something;
- the common lines: GAME_OVER (the prompt after the end) and ALREADY_OVER (a move after it).
"""
from __future__ import annotations

from contextlib import contextmanager

from audio_console.commands import Command, Grammar
from audio_console.contract.base import InputError, Message, Reply
from audio_console.contract.hot_seat import HotSeat
from audio_console.base.wording import sentence

GAME_OVER = "Game over. Say new game, or quit."
ALREADY_OVER = "The game is over. Say new game, or quit."


def refusal_sentence(error: Exception, more: str = "") -> str:
    """A rules core's reason as a line: capital first, a full stop at the end."""
    text = sentence(str(error))
    text = text if text.endswith((".", "!", "?")) else text + "."
    return f"{text} {more}" if more else text


def plain_lines(*texts: str) -> Reply:
    """A Reply of plain lines (answers from the board memory and the like)."""
    return Reply(messages=[Message(text) for text in texts])


def do_method(name: str) -> str:
    """The name of the method that carries out the command `name` ("read row" ->
    "do_read_row"): the games' adapters and the session's handlers alike."""
    return "do_" + name.replace(" ", "_")


class GameAdapter:
    game = ""                  # "galaxis", "battleship", "arkade", "menu"
    title = "game"             # as named in a refusal of a saved action
    needs_signals = False      # True: nothing to do without the console's sounds (ear drills)
    practice = False           # True: a drill, never saved over the game in progress
    rule_errors: tuple[type[Exception], ...] = ()   # the rules core's refusals
    replaying = False          # True while a saved action is replayed
    hot_seat: HotSeat | None = None   # two people at one console pass it (Galaxis, Battleship)
    handled_by: dict[str, str] = {}   # command name -> the do_ method's name, when they differ

    # --- what the session asks ------------------------------------------------------

    def start(self) -> Reply:
        """The opening lines: what game, which option, whose turn."""
        return Reply()

    def grammar(self) -> Grammar:
        """What can be said now (game and phase), without the common commands."""
        raise NotImplementedError

    def replay_grammar(self) -> Grammar:
        """What a saved action may be (canonical forms of every phase)."""
        return self.grammar()

    def prompt(self) -> str:
        """The question the console is waiting on, important words first."""
        return GAME_OVER if self.finished() else ""

    def help(self) -> list[str]:
        """What can be said now, one line each."""
        return []

    def status(self, now: float | None = None) -> list[str]:
        """Where the game stands, for 'status' and after a resume."""
        return []

    def rules_summary(self) -> list[str]:
        """The game's rules in short, for 'rules': one line each, spoken in turn."""
        return []

    def explain(self, text: str) -> str | None:
        """Why a line that looks like a command is not one here (None: no better reason)."""
        return None

    def fixed_phrases(self) -> list[str]:
        """Spoken lines worth rendering ahead, so that they are never late."""
        return []

    def finished(self) -> bool:
        raise NotImplementedError

    def passing(self) -> bool:
        """True while the console is passed to the next player: nothing secret is kept."""
        return self.hot_seat is not None and self.hot_seat.passing

    def restart_clock(self, now: float) -> None:
        """A resumed game's clocks start again from now."""

    def holds_clock(self, command: Command) -> bool:
        """True: the game's clocks wait while the answer to `command` is heard (a long
        list in real time); they start again from when the speech ends."""
        return False

    def tick(self, now: float) -> Reply:
        """Clocks and computer players. An empty Reply when nothing happens."""
        return Reply()

    # --- acting -----------------------------------------------------------------------

    def handle(self, command: Command, now: float = 0.0) -> Reply:
        """Act on a player's command; raises InputError to refuse it without a change."""
        reason = self.refusal(command)
        if reason:
            raise InputError(reason)
        return self.act(command, now)

    def refusal(self, command: Command) -> str | None:
        """Why the player may not give this command now, before it is looked at."""
        return None

    def act(self, command: Command, now: float) -> Reply:
        """Carry out a command: its `do_` method, the rules core's errors as InputError."""
        method = do_method(self.handled_by.get(command.name, command.name))
        handler = next((getattr(owner, method) for owner in (self, *self.parts())
                        if hasattr(owner, method)), None)
        if handler is None:
            raise InputError(self.unknown(command))
        with self.rules():
            return handler(command, now)

    def parts(self) -> tuple[object, ...]:
        """The parts the adapter owns that carry out commands of their own (their `do_`
        methods), looked at after the adapter's."""
        return ()

    def unknown(self, command: Command) -> str:
        return f"{command.text} cannot be done now; say help for what you can say."

    @contextmanager
    def rules(self, *more: type[Exception], then: str = ""):
        """Inside: an error of the rules core (or of `more`) is refused as one sentence."""
        try:
            yield
        except (self.rule_errors + more) as error:
            raise InputError(refusal_sentence(error, then)) from error

    def apply_recorded(self, action: str) -> None:
        """Replay one saved action silently (resuming a saved game)."""
        command = self.parse_recorded(action)
        if command is None:
            raise InputError(f"the saved action {action!r} is not a {self.title} action")
        self.replaying = True
        try:
            reply = self.replay(command)
        finally:
            self.replaying = False
        if not reply.record:
            raise InputError(f"the saved action {action!r} changes nothing at that point")

    def parse_recorded(self, action: str) -> Command | None:
        """The Command a saved action says, or None when it is not one of this game's."""
        return self.replay_grammar().parse(action)

    def replay(self, command: Command) -> Reply:
        """Act on a saved command (no refusal: it was allowed when it was given)."""
        return self.act(command, 0.0)
