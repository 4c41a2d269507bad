"""Arkade's sides, modes, options and pieces: what a game is set up with.

Directions: "forward" is towards the defence line (the next row letter), "left" is
towards column 1, "right" towards column 6.
"""
from __future__ import annotations

from dataclasses import dataclass

from audio_console.arkade.board import Cell

ALIEN, DEFENCE = "alien", "defence"
SIDES = (ALIEN, DEFENCE)
STRATEGY, ARCADE = "strategy", "arcade"
STEPS = {"forward": (1, 0), "left": (0, -1), "right": (0, 1)}

# The bonus chips as printed on them (their titles are part of the --log events).
CHIP_TITLES = {
    # Defence
    "asteroid": "Asteroid on a collision course",
    "magnet": "Magnetic field",
    "outpost": "Defence outpost",
    "mine1": "Intergalactic mine, one booster",
    "mine2": "Intergalactic mine, two boosters",
    "comet1": "Comet, one space",
    "comet2": "Comet, two spaces",
    "plasma": "Plasma cannon",
    "gps": "GPS update",
    # Alien
    "shield": "Shield",
    "engine": "Improved engine",
    "rift": "Rift in the galaxy",
    "hit": "Saucer hits the spaceship",
    "repair": "Repaired saucer",
    "reactor": "Reactor damage",
}


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why. Nothing changed."""


@dataclass(frozen=True)
class Options:
    mode: str = STRATEGY
    side: str = "classic"          # board side: "classic" or "expert"
    formation: str = "offset"      # "offset" (Fig. 1) or "pairs" (Fig. 2)
    boosters: int = 6              # 4 high, 6 normal, 8 low difficulty for the Defence
    max_rolls: int = 3             # 2 in the experts' variant of Strategy Mode
    chips: bool | None = None      # None: Strategy yes, Arcade no (the rulebook's default)
    rows: int | None = None        # None: the reconstruction's choice

    @property
    def with_chips(self) -> bool:
        return self.mode == STRATEGY if self.chips is None else self.chips

    def validate(self) -> "Options":
        if self.mode not in (STRATEGY, ARCADE):
            raise ValueError(f"mode must be strategy or arcade, not {self.mode!r}")
        if self.boosters not in range(0, 12):
            raise ValueError("the Defence starts with 0 to 11 boosters")
        if self.max_rolls not in (1, 2, 3):
            raise ValueError("1 to 3 rolls a turn")
        return self


# The rulebook's last page as menu presets; explicit options (CLI) win over them.
PRESETS: dict[str, dict[str, object]] = {
    "normal": {},
    "beginner alien": {"board": "classic", "formation": "pairs"},
    "pro alien": {"board": "expert", "formation": "offset"},
    "pro defence": {"boosters": 4},
    "beginner defence": {"boosters": 8},
    "easy start": {"chips": False},
    "experts": {"rolls": 2},          # Strategy; in Arcade Mode experts play with chips
}


def options_from(options: dict) -> Options:
    """Rules options from the session's option dict (CLI or menu)."""
    mode = options.get("mode") or STRATEGY
    preset = dict(PRESETS.get(options.get("difficulty") or "normal", {}))
    if options.get("difficulty") == "experts" and mode == ARCADE:
        preset = {"chips": True}
    options = {**preset, **{k: v for k, v in options.items() if v is not None}}
    chips = options.get("chips")
    return Options(mode=mode, side=options.get("board") or "classic",
                   formation=options.get("formation") or "offset",
                   boosters=int(options.get("boosters") or 6),
                   max_rolls=int(options.get("rolls") or 3),
                   chips=chips if chips is not None else None).validate()


@dataclass
class Saucer:
    id: int
    colour: str
    cell: Cell | None            # None: destroyed
    shield: bool = False         # heart side up

    @property
    def at(self) -> Cell:
        """Where a saucer in play is; asking it of a destroyed one is a mistake."""
        if self.cell is None:
            raise ValueError(f"the {self.colour} saucer is destroyed")
        return self.cell
