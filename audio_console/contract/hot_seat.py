"""Hot-seat passing: two teams or two players at one console. At a change of turn
the screen is cleared once and the console waits for the next one to say "ready";
until then nothing secret is said and only what the game allows (always "ready") is
taken. Galaxis (options 1 and 3, between teams) and Battleship (between players) use
it; each game keeps only its own words around it."""
from __future__ import annotations

from audio_console.commands import Command
from audio_console.contract.base import InputError, Message
from audio_console.output.screen import clear_for


class HotSeat:
    def __init__(self, noun: str):
        self.noun = noun                 # who takes the console: "team" or "player"
        self.to: int | None = None       # waiting for this one to say "ready"

    @property
    def passing(self) -> bool:
        return self.to is not None

    def pass_to(self, who: int, public: list[Message] | None = None) -> Message:
        """Start passing to `who`: the screen's one clear (`public`: lines that stay readable)."""
        self.to = who
        return clear_for(f"{self.noun} {who}", public or [])

    def ready(self) -> int:
        """The one passed to has the console: who it is; refused when nothing is passed."""
        if self.to is None:
            raise InputError("Nothing to be ready for.")
        who, self.to = self.to, None
        return who

    def cancel(self) -> None:
        """A replay passes the console silently."""
        self.to = None

    def prompt(self) -> str:
        return f"Pass the console to {self._who()}. {self._who().capitalize()}: say ready."

    def help(self) -> list[str]:
        return [f"The console is passing to {self._who()}. Say ready when {self._who()} has it; "
                "nothing secret is said before."]

    def refusal(self, command: Command | None = None, allowed: tuple[str, ...] = ("ready",)) -> str | None:
        """Why `command` waits while the console is passed (None: it may go on)."""
        if self.to is None or (command is not None and command.name in allowed):
            return None
        return f"The console is passing to {self._who()}: {self._who()}, say ready first."

    def _who(self) -> str:
        return f"{self.noun} {self.to}"
