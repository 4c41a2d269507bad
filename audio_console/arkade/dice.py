"""Arkade's dice: the Alien's two flight dice (space colours) and the Defence's
flight die (a space 1-6) and shot die (a saucer colour), with their rolls.

The faces come from boards.json; the rng is the game's own, so the same actions
give the same rolls.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from audio_console.arkade.board import load_data

ALIEN_DICE_NAMES = ("first", "second")
DEFENCE_DICE_NAMES = ("flight", "shot")


@dataclass
class AlienDice:
    faces: list[str] = field(default_factory=list)   # two space colours, once rolled
    used: list[bool] = field(default_factory=lambda: [False, False])
    rolls: int = 0
    committed: bool = False      # kept, or a die used: no more rerolls

    def roll(self, rng: random.Random, which: str = "both") -> None:
        """Roll both dice, or "first" or "second" again."""
        faces = load_data()["dice"]["saucer_flight"]
        if not self.faces:
            self.faces = [rng.choice(faces) for _ in range(2)]
        else:
            for i, name in enumerate(ALIEN_DICE_NAMES):
                if which in (name, "both"):
                    self.faces[i] = rng.choice(faces)
        self.rolls += 1

    def free(self) -> list[int]:
        """Indices of the dice not used yet."""
        return [i for i in range(2) if not self.used[i]]

    def copy(self) -> "AlienDice":
        return AlienDice(list(self.faces), list(self.used), self.rolls, self.committed)


@dataclass
class DefenceDice:
    flight: int | None = None
    shot: str | None = None
    flight_used: bool = False
    shot_used: bool = False
    rolls: int = 0
    committed: bool = False

    def roll(self, rng: random.Random, which: str = "both") -> None:
        """Roll both dice, or "flight" or "shot" again."""
        faces = load_data()["dice"]
        if which in ("flight", "both"):
            self.flight = rng.choice(faces["spaceship_flight"])
        if which in ("shot", "both"):
            self.shot = rng.choice(faces["shot"])
        self.rolls += 1

    def copy(self) -> "DefenceDice":
        return DefenceDice(self.flight, self.shot, self.flight_used, self.shot_used, self.rolls, self.committed)


def assign_dice(faces: list[str], needed: list[str]) -> list[int] | None:
    """Indices into `faces`, one distinct die per needed colour, or None."""
    if len(needed) == 1:
        return next(([i] for i, f in enumerate(faces) if f == needed[0]), None)
    if len(needed) == 2 and len(faces) == 2:
        if faces[0] == needed[0] and faces[1] == needed[1]:
            return [0, 1]
        if faces[1] == needed[0] and faces[0] == needed[1]:
            return [1, 0]
    return None
