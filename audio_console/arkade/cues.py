"""Arkade cues: each rules event in words and sound, from the tables below.

The Alien sounds on the left and the Defence on the right. Every signal comes with
words, so nothing is conveyed by tone alone. CUES holds, for each kind of line, its
text template, its signal and its side of the stereo field (None: the side of the
event's owner); the smaller tables hold the words that fill the templates.
"""
from __future__ import annotations

from audio_console.arkade.board import cell_name
from audio_console.arkade.events import (
    Alarm, AlienChipDrawn, AlienRolled, AsteroidRemoved, BoosterFired, ChipLapsed, Chosen, DefenceChipDrawn,
    DefenceRolled, DiceKept, Event, GameOver, MagnetCleared, SaucerFlew, ShotFired, SpaceshipFlew, TurnBegan,
)
from audio_console.arkade.board import cell_name
from audio_console.output.message import CENTRE, LEFT, RIGHT, Message
from audio_console.base.wording import counted, sentence

SIDE = {"alien": LEFT, "defence": RIGHT}

# kind of line -> (text template, signal, stereo side; None: the event owner's side)
CUES: dict[str, tuple[str, str | None, int | None]] = {
    "alien_roll": ("Alien rolls {a} and {b}.{last}", "dice", LEFT),
    "defence_roll": ("Defence rolls flight {flight}, shot {shot}.{last}", "dice", RIGHT),
    "flight": ("{Saucer} saucer flies from {start} to {end}{by}.", "saucer_{saucer}", LEFT),
    "spaceship_flight": ("Spaceship flies to column {end}{by}.", "spaceship_flight", RIGHT),
    "booster": ("Booster {direction}: spaceship at column {end}. {boosters} left.", "booster", RIGHT),
    "shield_hit": ("{weapon}: hit the {saucer} saucer at {target}; its shield is gone.", "shield", LEFT),
    "destroyed": ("{weapon}: {saucer} saucer at {target} destroyed.", "saucer_destroyed", LEFT),
    "chip": ("{owner} bonus chip: {title}! {effect}", "chip", None),
    "magnet_cleared": ("Magnetic field at {cell} cleared with an orange die.", None, LEFT),
    "asteroid_removed": ("The {saucer} saucer at {start} crashes into the asteroid at {cell}: both are gone.",
                         "saucer_destroyed", LEFT),
    "alarm": ("Alarm! The {saucer} saucer reached the last row at {cell}.", "alarm", LEFT),
    "game_over": ("Game over. {who}, after {turns}.", None, CENTRE),
    "keep": ("{Side} keeps the dice.", None, None),
    "turn": ("{Side}'s turn {turn}.{reactor}", None, None),
}
LAST_ROLL = " Last roll."
FLOWN_BY: dict[str | None, str] = {"engine": " by the improved engine", "rift": " through the rift"}   # None: dice
WEAPONS = {"plasma": "Plasma cannon", "outpost": "Outpost shoots", "shot": "Shot"}
REACTOR = " Reactor damage: only 1 or 6, no boosters."
WINNERS = {"alien": "The Alien wins", "defence": "The Defence wins: every saucer destroyed"}
CHIP_RESULTS = {
    "shield": "the {saucer} saucer at {cell} turns its heart side up: shielded.",
    "moved": "",
    "booster_lost": "the Defence loses a booster; {boosters} left.",
    "reactor": "the spaceship may only fly to 1 or 6 in the Defence's next turn, with no boosters or GPS.",
    "fizzled": "it has no effect and leaves the game.",
    "boosters": "{gained}; {boosters} now.",
    "kept": "kept for a later turn.",
}
CHOOSE = {
    "asteroid": "choose a free space for the asteroid, not a bonus space.",
    "magnet": "choose a free space for the magnetic field, not a bonus space.",
    "outpost": "choose a free space of the last row for the outpost.",
    "comet1": "choose the saucer the comet pushes one space back.",
    "comet2": "choose the saucer the comet pushes up to two spaces back.",
    "rift": "choose the saucer that the rift moves forward.",
    "repair": "choose a free space of row A for the repaired saucer.",
}
CHOSEN = {
    "asteroid": "Asteroid placed at {cell}.",
    "magnet": "Magnetic field placed at {cell}.",
    "outpost": "Outpost established at {cell}.",
    "comet1": "The comet pushes the {saucer} saucer from {cell} to {to}.",
    "comet2": "The comet pushes the {saucer} saucer from {cell} to {to}.",
    "rift": "The rift takes the saucer at {cell}.",
    "repair": "The repaired {saucer} saucer returns at {cell}.",
}


def _line(kind: str, side: int = CENTRE, **values) -> Message:
    text, signal, fixed_side = CUES[kind]
    return Message(text.format(**values).strip(), signal=signal.format(**values) if signal else None,
                   side=side if fixed_side is None else fixed_side)


def _chip(event: AlienChipDrawn | DefenceChipDrawn | ChipLapsed) -> Message:
    values = {"saucer": getattr(event, "saucer", None), "boosters": getattr(event, "boosters", None),
              "gained": getattr(event, "gained", None)}
    if isinstance(event, AlienChipDrawn):
        values["cell"] = cell_name(event.cell)
    if event.result == "choose":
        effect = CHOOSE[event.chip]
    else:
        if values["gained"] is not None:
            values["gained"] = counted(values["gained"], "more booster", "more boosters")
        effect = CHIP_RESULTS[event.result].format(**values)
    return _line("chip", SIDE[event.side], owner=event.side.capitalize(), title=event.title, effect=sentence(effect))


def messages(event: Event, peng: bool = False) -> list[Message]:
    """The lines and signals of one event; `peng`: the variant that shouts every shot."""
    if isinstance(event, AlienRolled):
        a, b = event.faces
        return [_line("alien_roll", a=a, b=b, last=LAST_ROLL if event.last else "")]
    if isinstance(event, DefenceRolled):
        return [_line("defence_roll", flight=event.flight, shot=event.shot, last=LAST_ROLL if event.last else "")]
    if isinstance(event, SaucerFlew):
        return [_line("flight", Saucer=event.saucer.capitalize(), saucer=event.saucer, start=cell_name(event.start),
                      end=cell_name(event.end), by=FLOWN_BY.get(event.by, ""))]
    if isinstance(event, SpaceshipFlew):
        return [_line("spaceship_flight", end=event.end, by=" by GPS" if event.by == "gps" else "")]
    if isinstance(event, BoosterFired):
        return [_line("booster", direction=event.direction, end=event.end,
                      boosters=counted(event.boosters, "booster"))]
    if isinstance(event, ShotFired):
        weapon = WEAPONS["plasma" if event.weapon == "plasma" else "outpost" if event.source == "outpost" else "shot"]
        shot = Message("Peng!" if peng else "", signal="peng" if peng else "shot", side=RIGHT)
        kind = "shield_hit" if event.result == "shield" else "destroyed"
        return [shot, _line(kind, weapon=weapon, saucer=event.saucer, target=cell_name(event.target))]
    if isinstance(event, (AlienChipDrawn, DefenceChipDrawn, ChipLapsed)):
        return [_chip(event)]
    if isinstance(event, Chosen):
        text = CHOSEN[event.chip].format(cell=cell_name(event.cell), saucer=event.saucer,
                                         to=cell_name(event.to) if event.to else None)
        return [Message(text, side=SIDE[event.side])]
    if isinstance(event, MagnetCleared):
        return [_line("magnet_cleared", cell=cell_name(event.cell))]
    if isinstance(event, AsteroidRemoved):
        return [_line("asteroid_removed", saucer=event.saucer, start=cell_name(event.start),
                      cell=cell_name(event.cell))]
    if isinstance(event, Alarm):
        return [_line("alarm", saucer=event.saucer, cell=cell_name(event.cell))]
    if isinstance(event, GameOver):
        return [_line("game_over", who=WINNERS[event.winner], turns=counted(event.turns, "turn"))]
    if isinstance(event, DiceKept):
        return [_line("keep", SIDE[event.side], Side=event.side.capitalize())]
    if isinstance(event, TurnBegan):
        return [_line("turn", SIDE[event.side], Side=event.side.capitalize(), turn=event.turn,
                      reactor=REACTOR if event.reactor else "")]
    return []     # TurnEnded: the next turn's line says it
