"""Arkade cues: each rules event in words and sound, in one table.

The Alien sounds on the left and the Defence on the right. Every signal comes with
words, so nothing is conveyed by tone alone.
"""
from __future__ import annotations

from audio_console.output.message import CENTRE, LEFT, RIGHT, Message

SIDE = {"alien": LEFT, "defence": RIGHT}

CHIP_RESULTS = {
    "shield": "the {saucer} saucer at {cell} turns its heart side up: shielded.",
    "moved": "",
    "booster_lost": "the Defence loses a booster; {boosters} left.",
    "reactor": "the spaceship may only fly to 1 or 6 in the Defence's next turn, with no boosters or GPS.",
    "fizzled": "it has no effect and leaves the game.",
    "boosters": "{gained} more booster{s}; {boosters} now.",
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


def messages(event: dict, peng: bool = False) -> list[Message]:
    kind = event["event"]
    side = SIDE.get(event.get("side"), CENTRE)
    if kind == "roll":
        last = " Last roll." if event.get("last") else ""
        if event["side"] == "alien":
            a, b = event["dice"]
            text = f"Alien rolls {a} and {b}.{last}"
        else:
            text = f"Defence rolls flight {event['flight']}, shot {event['shot']}.{last}"
        return [Message(text, signal="dice", side=side)]
    if kind == "flight":
        by = {"engine": " by the improved engine", "rift": " through the rift"}.get(event.get("by"), "")
        text = f"{event['saucer'].capitalize()} saucer flies from {event['from']} to {event['to']}{by}."
        return [Message(text, signal=f"saucer_{event['saucer']}", side=LEFT)]
    if kind == "spaceship_flight":
        by = " by GPS" if event["by"] == "gps" else ""
        return [Message(f"Spaceship flies to {event['to']}{by}.", signal="spaceship_flight", side=RIGHT)]
    if kind == "booster":
        return [Message(f"Booster {event['direction']}: spaceship at {event['to']}. "
                        f"{event['boosters']} booster{'s' if event['boosters'] != 1 else ''} left.",
                        signal="booster", side=RIGHT)]
    if kind == "shot":
        weapon = "Plasma cannon" if event["weapon"] == "plasma" else (
            "Outpost shoots" if event["from"] == "outpost" else "Shot")
        shot = Message("Peng!" if peng else "", signal="peng" if peng else "shot", side=RIGHT)
        if event["result"] == "shield":
            text = f"{weapon}: hit the {event['saucer']} saucer at {event['target']}; its shield is gone."
            return [shot, Message(text, signal="shield", side=LEFT)]
        text = f"{weapon}: {event['saucer']} saucer at {event['target']} destroyed."
        return [shot, Message(text, signal="saucer_destroyed", side=LEFT)]
    if kind == "chip":
        owner = "Alien" if event["side"] == "alien" else "Defence"
        result = event["result"]
        if result == "choose":
            effect = CHOOSE[event["chip"]]
        else:
            effect = CHIP_RESULTS[result].format(s="s" if event.get("gained", 1) != 1 else "", **event)
        text = f"{owner} bonus chip: {event['title']}! {effect}".strip()
        return [Message(text, signal="chip", side=side)]
    if kind == "chosen":
        what = {"asteroid": "Asteroid placed at {cell}.", "magnet": "Magnetic field placed at {cell}.",
                "outpost": "Outpost established at {cell}.",
                "comet1": "The comet pushes the {saucer} saucer from {cell} to {to}.",
                "comet2": "The comet pushes the {saucer} saucer from {cell} to {to}.",
                "rift": "The rift takes the saucer at {cell}.",
                "repair": "The repaired {saucer} saucer returns at {cell}."}[event["chip"]]
        return [Message(what.format(**event), side=side)]
    if kind == "magnet_cleared":
        return [Message(f"Magnetic field at {event['cell']} cleared with an orange die.", side=LEFT)]
    if kind == "asteroid_removed":
        return [Message(f"The {event['saucer']} saucer at {event['from']} crashes into the asteroid at "
                        f"{event['cell']}: both are gone.", signal="saucer_destroyed", side=LEFT)]
    if kind == "alarm":
        return [Message(f"Alarm! The {event['saucer']} saucer reached the last row at {event['cell']}.",
                        signal="alarm", side=LEFT)]
    if kind == "game_over":
        who = "The Alien wins" if event["winner"] == "alien" else "The Defence wins: every saucer destroyed"
        return [Message(f"Game over. {who}, after {event['turns']} turns.")]
    if kind == "keep":
        return [Message(f"{event['side'].capitalize()} keeps the dice.", side=side)]
    if kind == "turn":
        reactor = " Reactor damage: only 1 or 6, no boosters." if event.get("reactor") else ""
        return [Message(f"{event['side'].capitalize()}'s turn {event['turn']}.{reactor}", side=side)]
    if kind == "turn_end":
        return []
    return [Message(str(event))]
