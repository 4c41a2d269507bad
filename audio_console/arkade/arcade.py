"""Arcade Mode's real time, a part of the Arkade console (its `parts()`), given the
console as an ArcadeHost: what the clock uses of it.

Arcade Mode starts "on the signal" (the rulebook): it waits after the introduction
until the player says go, then counts down aloud (three, two, one) and gives the
start signal; `pause` stops the clock at any time and `go` counts down again. A
resumed arcade game starts paused. Every `pace` seconds of the clock handed in
(`now`) the computer rolls its dice and uses them; while the player listens to a
long answer (`what can I do`, the board, the rules, help) the session holds the
clock (`holds_clock`), so that nothing moves under the player's ears.
"""
from __future__ import annotations

from typing import Protocol

from audio_console.arkade.actions import Action, Roll
from audio_console.arkade.rules import ALIEN, ARCADE, DEFENCE, SIDES, Game
from audio_console.commands import Command
from audio_console.contract.adapter import ALREADY_OVER
from audio_console.contract.base import InputError, Reply
from audio_console.base.wording import noun

COMPUTER_TURN_LIMIT = 200     # actions in one computer turn; far more than any real turn
COUNTDOWN = ("Three.", "Two.", "One.")   # one a second, then the start signal
FIRST_GAME_PACE = 5           # seconds: the slower pace offered for a first game
PAUSED = "Paused. Say go to go on."
# Answers long enough to be worth holding the clock for while they are heard.
LONG_ANSWERS = {"options", "board", "summary", "help", "rules", "more", "saucers", "nearest", "read", "listen"}


class ArcadeHost(Protocol):
    core: Game
    players: dict[str, str]      # side -> "human" or "computer"

    def computer_action(self, side: str) -> Action | None: ...

    def play_action(self, side: str, action: Action) -> Reply: ...


class ArcadeClock:
    """go, pause, the countdown, the computer's rolls at the pace; for ArkadeConsole."""

    def __init__(self, host: ArcadeHost, mode: str, pace: float, now: float):
        self.host = host
        self.arcade = mode == ARCADE
        self.pace = pace
        self.next_computer = {ALIEN: now + pace, DEFENCE: now + pace}
        # "waiting" (for go), "counting" (from countdown_start), or "running"
        self.state = "waiting" if self.arcade else "running"
        self.paused = False           # waiting because the player said pause (not before the start)
        self.countdown_start = 0.0
        self.counted = 0

    def pace_words(self) -> str:
        return f"{self.pace:g} {noun(self.pace, 'second')}"

    def intro(self) -> str:
        slower = (f"First game? Say computer pace {FIRST_GAME_PACE} seconds for a slower pace, now or at any time. "
                  if self.pace < FIRST_GAME_PACE else "")
        return (f"Both sides play at once; the computer rolls every {self.pace_words()}. {slower}"
                "Say go to start the countdown; say pause at any time.")

    def clock_line(self) -> str:
        """Where Arcade Mode's clock stands, for status."""
        if self.state == "counting":
            return "Counting down to the start."
        if self.state == "running":
            return f"Running: the computer rolls every {self.pace_words()}."
        if self.paused:
            return "Paused: the computer waits. Say go to go on."
        return "Not started: say go to start the countdown."

    def holds_clock(self, command: Command) -> bool:
        """True: the computer waits while the answer to this command is heard."""
        return self.arcade and self.state == "running" and command.name in LONG_ANSWERS

    def do_pace(self, command: Command, now: float) -> Reply:
        # Only the timing of the computer's turns changes; its actions are recorded.
        self.pace = float(command.get("seconds"))
        self.next_computer = {side: min(t, now + self.pace) for side, t in self.next_computer.items()}
        return Reply().say(f"The computer now rolls every {self.pace_words()}.")

    def _arcade_only(self) -> None:
        if not self.arcade:
            raise InputError("Go and pause are for Arcade Mode; in Strategy Mode the game waits for you.")

    def do_go(self, command: Command, now: float) -> Reply:
        self._arcade_only()
        if self.host.core.finished():
            raise InputError(ALREADY_OVER)
        if self.state != "waiting":
            raise InputError("The game is already going." if self.state == "running"
                             else "The countdown is on.")
        self.state, self.countdown_start, self.counted = "counting", now, 0
        self.paused = False
        return Reply().say("Countdown.")

    def do_pause(self, command: Command, now: float) -> Reply:
        self._arcade_only()
        if self.state == "waiting":
            raise InputError("Already paused: say go to start the countdown.")
        self.state, self.paused = "waiting", True
        return Reply().say(PAUSED, signal="prompt")

    def _countdown(self, now: float) -> Reply:
        """One line a second, then the start signal; the computer's clock starts with it."""
        reply = Reply()
        while self.counted < len(COUNTDOWN) and now >= self.countdown_start + self.counted:
            reply.say(COUNTDOWN[self.counted], signal="time_warning")
            self.counted += 1
        if self.counted == len(COUNTDOWN) and now >= self.countdown_start + len(COUNTDOWN):
            self.state = "running"
            self.restart_clock(now)
            reply.say("Start!", signal="ready")
        return reply

    def tick(self, now: float) -> Reply:
        if self.state == "counting":
            return self._countdown(now)
        reply = Reply()
        if self.state != "running":
            return reply
        for side in SIDES:
            if self.host.players[side] != "computer" or now < self.next_computer[side] or self.host.core.finished():
                continue
            reply.extend(self._computer_roll(side))
            self.next_computer[side] = now + self.pace
        return reply

    def _computer_roll(self, side: str) -> Reply:
        """One roll of the computer's dice and everything it does with it."""
        reply, rolled = Reply(), False
        for _ in range(COMPUTER_TURN_LIMIT):
            if self.host.core.finished():
                break
            action = self.host.computer_action(side)
            if action is None or (action == Roll() and rolled):
                break
            rolled = rolled or action == Roll()
            reply.extend(self.host.play_action(side, action))
        # Real time: the computer's dice, boosters and ship moves are heard as signals
        # and printed, but only what happened to the saucers is spoken, so the speech
        # keeps up with the game and does not bury the player's own answers.
        for message in reply.messages:
            if message.signal in ("dice", "booster", "spaceship_flight"):
                message.speech = ""
        return reply

    def restart_clock(self, now: float) -> None:
        self.next_computer = {ALIEN: now + self.pace, DEFENCE: now + self.pace}
