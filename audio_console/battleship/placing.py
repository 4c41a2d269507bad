"""Placing a fleet at the console, ship by ship: a ship is tried somewhere (and
described, or refused with the reason), turned, moved, then placed; or the rest is
placed at random; a ship is removed; "done" ends the player's placing.

A part of BattleshipConsole (its `parts()`): the placing phase's do_ methods, kept
apart because it is its own job. It is given what it uses: the rules core, the seed,
who plays, the hot seat, and `learn` (the board memories take every event).
"""
from __future__ import annotations

import random
from typing import Any, Callable

from audio_console.battleship.board import SECTORS, BattleshipError, Placement, other, placements_in_sector
from audio_console.battleship.commands import ship_name
from audio_console.battleship.cues import SIDES, first_words, who_prefix
from audio_console.battleship.events import BattleBegins
from audio_console.battleship.footprints import FOOTPRINTS, HEADINGS, SHIP_NAMES
from audio_console.battleship.memory import describe_placement
from audio_console.battleship.rules import PLACING, Game, random_fleet
from audio_console.commands import Command
from audio_console.contract.adapter import refusal_sentence
from audio_console.contract.base import InputError, Reply
from audio_console.contract.hot_seat import HotSeat
from audio_console.base.wording import sentence


class FleetPlacing:
    def __init__(self, core: Game, seed: int, opponent: str, hot_seat: HotSeat,
                 learn: Callable[[list], None]):
        self.core, self.seed, self.opponent, self.hot_seat = core, seed, opponent, hot_seat
        self.learn = learn
        self.pending: Placement | None = None        # a ship being tried out, not yet placed

    @property
    def player(self) -> int:
        """The player placing now: player 1 first, then player 2."""
        return 1 if not self.core.ready[1] else 2

    def _core(self, action: Callable[..., list], *args: Any) -> list:
        events = action(*args)      # its refusals become InputError in the adapter's act()
        self.learn(events)
        return events

    def prompt(self) -> str:
        who = who_prefix(self.opponent, self.player)
        if self.pending is not None:
            where = (f"{who}{self.pending.ship} at sector {self.pending.sector} {self.pending.corner} "
                     f"{self.pending.heading}")
            if not self._fits(self.pending):     # never offer to place it where it cannot go
                return f"{where} cannot go there. {self._offer(self.pending)}"
            return f"{where}: say place, turn it, or move to another corner."
        missing = [s for s in SHIP_NAMES if s not in self.core.fleets[self.player]]
        if not missing:
            return f"{who}all five ships placed: say done to begin, my fleet to hear it, or remove a ship."
        ship = missing[0]
        return (f"{who}place the {ship}, {len(FOOTPRINTS[ship].holes)} holes: say the ship, a sector, "
                f"a corner and a heading, like {ship.lower()} sector 1 B3 across; or say random.")

    @staticmethod
    def help() -> list[str]:
        return [
            "Try a ship somewhere: the ship, a sector, the top-left corner of its box and a heading "
            "(across, down, left, up), like quadron sector 1 B3 across. You hear which holes it covers.",
            "Then: place; turn it (a quarter turn clockwise); move to C4; move to sector 2.",
            "Place quadron sector 1 B3 across places at once. Random places the rest at random. "
            "Remove dueler takes a ship back; undo, the last one placed. Done when all five are placed.",
            "Ships: " + "; ".join(f"{s}, {len(FOOTPRINTS[s].holes)} holes" for s in SHIP_NAMES) + ".",
        ]

    def _fits(self, placement: Placement) -> bool:
        try:
            self.core.check_placement(self.player, placement)
        except BattleshipError:
            return False
        return True

    def _offer(self, pending: Placement) -> str:
        """A place near `pending` where the ship fits, and the fewest words that try it:
        the same heading in the same sector (nearest corner first), one quarter turn,
        another sector at the same corner, else anywhere free."""
        if pending.ship in self.core.fleets[self.player]:
            return f"The {pending.ship} is placed already: say remove {pending.ship.lower()} to move it."
        free = [p for s in (pending.sector, *(s for s in SECTORS if s != pending.sector))
                for p in placements_in_sector(pending.ship, s) if self._fits(p)]
        if not free:
            return "There is no room left for it: remove a ship, like remove dueler."

        def distance(p: Placement) -> int:
            return abs(p.row - pending.row) + abs(p.column - pending.column)
        moved = [p for p in free if p.sector == pending.sector and p.heading == pending.heading]
        if moved:
            near = min(moved, key=distance)
            return f"It fits at {near.corner}: say move to {near.corner}."
        turned = pending._replace(heading=HEADINGS[(HEADINGS.index(pending.heading) + 1) % len(HEADINGS)])
        if turned in free:
            return f"It fits turned {turned.heading}: say turn it."
        elsewhere = [p for p in free if (p.row, p.column, p.heading) == (pending.row, pending.column, pending.heading)]
        if elsewhere:
            return f"It fits in sector {elsewhere[0].sector}: say move to sector {elsewhere[0].sector}."
        near = min(free, key=lambda p: (p.sector != pending.sector, distance(p)))
        return (f"It fits at sector {near.sector} {near.corner} {near.heading}: say {near.ship.lower()} "
                f"sector {near.sector} {near.corner} {near.heading}.")

    def _placement(self, command: Command) -> Placement:
        corner = command.value("corner")
        return Placement(ship_name(command.get("ship")), int(command.get("sector")), corner.row,
                         corner.column, command.get("heading"))

    def _try(self, placement: Placement, side: int) -> Reply:
        """Remember `placement` as the ship being tried, and describe it or explain why not."""
        self.pending = placement
        try:
            self.core.check_placement(self.player, placement)
        except BattleshipError as error:
            return Reply().say(f"Cannot go there: {error}.", signal="error", side=side)
        return Reply().say(describe_placement(placement) + ".", side=side)

    def do_position(self, command: Command, now: float = 0.0) -> Reply:
        self._placing_only()
        return self._try(self._placement(command), SIDES[self.player])

    def do_turn(self, command: Command, now: float = 0.0) -> Reply:
        pending = self._need_pending()
        heading = HEADINGS[(HEADINGS.index(pending.heading) + 1) % len(HEADINGS)]
        return self._try(pending._replace(heading=heading), SIDES[self.player])

    def do_move(self, command: Command, now: float = 0.0) -> Reply:
        pending = self._need_pending()
        square = command.value("square")
        return self._try(pending._replace(row=square.row, column=square.column), SIDES[self.player])

    def do_move_sector(self, command: Command, now: float = 0.0) -> Reply:
        pending = self._need_pending()
        return self._try(pending._replace(sector=int(command.get("sector"))), SIDES[self.player])

    def do_place(self, command: Command, now: float = 0.0) -> Reply:
        self._placing_only()
        if command.values:
            placement = self._placement(command)
            if not self._fits(placement):      # tried there instead: the prompt offers where it fits
                return self._try(placement, SIDES[self.player])
        else:
            placement = self._need_pending()
        player = self.player
        self._core(self.core.place, player, placement)
        self.pending = None
        reply = Reply(record=[_place_action(placement)])
        reply.say(f"Placed: {describe_placement(placement)}.", side=SIDES[player])
        return self._next_ship(reply, player)

    def _next_ship(self, reply: Reply, player: int) -> Reply:
        missing = [s for s in SHIP_NAMES if s not in self.core.fleets[player]]
        if missing:
            reply.say(f"Next: the {missing[0]}, {len(FOOTPRINTS[missing[0]].holes)} holes.", side=SIDES[player])
        return reply      # all five placed: the prompt says so, once

    def do_random(self, command: Command, now: float = 0.0) -> Reply:
        self._placing_only()
        player = self.player
        fleet = self.core.fleets[player]
        rng = random.Random(f"battleship:{self.seed}:random:{player}:{len(fleet)}")
        try:
            complete = random_fleet(rng, fleet)
        except BattleshipError as error:
            raise InputError(refusal_sentence(error, "Remove a ship and try again.")) from error
        reply = Reply()
        for ship in SHIP_NAMES:
            if ship not in fleet:
                self._core(self.core.place, player, complete[ship])
                reply.record.append(_place_action(complete[ship]))
                reply.say(f"Placed: {describe_placement(complete[ship])}.", side=SIDES[player])
        self.pending = None
        if not reply.record:
            raise InputError("All five ships are placed already. Say done.")
        return self._next_ship(reply, player)

    def do_remove(self, command: Command, now: float = 0.0, ship: str | None = None) -> Reply:
        self._placing_only()
        ship = ship or ship_name(command.get("ship"))
        events = self._core(self.core.remove, self.player, ship)
        reply = Reply(record=[f"remove {ship.lower()}"])
        return reply.say(f"Removed: {describe_placement(events[0].placement)}.",
                         side=SIDES[self.player])

    def do_undo(self, command: Command, now: float = 0.0) -> Reply:
        if self.core.phase == PLACING:
            placed = list(self.core.fleets[self.player])
            if self.pending is not None:
                self.pending = None
                return Reply().say("The ship being tried is put aside.")
            if not placed:
                raise InputError("Nothing to undo: no ship is placed.")
            return self.do_remove(command, now, ship=placed[-1])
        raise InputError("A shot cannot be taken back.")

    def do_done(self, command: Command, now: float = 0.0) -> Reply:
        self._placing_only()
        player = self.player
        events = self._core(self.core.finish_placing, player)
        self.pending = None
        reply = Reply(record=["done"]).say(sentence(f"{who_prefix(self.opponent, player)}fleet ready."), side=SIDES[player])
        if self.opponent == "human":
            # Hand over: to player 2 to place, or back to player 1 to shoot first.
            to = other(player) if not self.core.ready[other(player)] else self.core.to_move
            reply.messages.append(self.hot_seat.pass_to(to))   # the only clear
        if any(isinstance(e, BattleBegins) for e in events):
            reply.say(f"Battle begins. {first_words(self.opponent, self.core.first)}")
        return reply

    def _placing_only(self) -> None:
        if self.core.phase != PLACING:
            raise InputError("The fleets are placed; now shoot, like sector 2 row D.")

    def _need_pending(self) -> Placement:
        self._placing_only()
        if self.pending is None:
            raise InputError("No ship is being tried: first say a ship, a sector, a corner and a heading, "
                             "like quadron sector 1 B3 across.")
        return self.pending

def _place_action(placement: Placement) -> str:
    return f"place {placement.ship.lower()} {placement.sector} {placement.corner} {placement.heading}"

