"""Cues for Battleship: Outer Space: each rules event -> the text line, the words
spoken and the signal played, on the shooter's side of the stereo field (player 1
left, player 2 right).

The wording and the signals live in the CUES table, so both can be changed in one
place. Names ("You", "The computer", "Player 2") are handed in by the console.
"""
from __future__ import annotations

from audio_console.battleship.events import HIT, FleetDestroyed, ShipVaporized, ShotFired, ShotRecalled
from audio_console.output.message import CENTRE, LEFT, RIGHT, Message
from audio_console.base.wording import sentence

SIDES = {1: LEFT, 2: RIGHT}


def who_prefix(opponent: str, player: int) -> str:
    """A line's first words naming the player it is for: none against the computer."""
    return "" if opponent == "computer" else f"Player {player}: "


def first_words(opponent: str, first: int) -> str:
    """Who shoots first, as the battle begins."""
    return "You shoot first." if opponent == "computer" else f"Player {first} shoots first."

# event kind -> (text template, speech template or None for "speak the text", signal)
CUES: dict[str, tuple[str, str | None, str | None]] = {
    "laser": ("{shooter} {fires}: sector {sector} {line}.", "{shooter} {fires}: sector {sector}, {line}.", "laser"),
    "hit": ("{whose} hit: sector {sector} {line}.", "Hit!", "hit"),
    "miss": ("{whose} miss: sector {sector} {line}.", "Miss.", "miss"),
    "recalled": ("Already called: sector {sector} {line} was a {result}. It costs nothing; shoot again.",
                 None, None),
    "vaporized": ("Vaporized: {owner} {ship}.", None, "vaporized"),
    "fleet_destroyed": ("Fleet destroyed: {winner} won with {shots} shots.", None, "fleet_destroyed"),
}


def _message(kind: str, side: int, **values) -> Message:
    text, speech, signal = CUES[kind]
    return Message(text.format(**values), speech.format(**values) if speech else None, signal, side)


def cue(event, names: dict[int, str], possessive: dict[int, str]) -> list[Message]:
    """The messages for one event. `names[p]` is how player p is called as the
    subject ("You", "The computer"); `possessive[p]` as an owner ("your", "the
    computer's")."""
    if isinstance(event, ShotFired):
        side = SIDES[event.player]
        values = dict(shooter=names[event.player], fires="fire" if names[event.player] == "You" else "fires",
                      whose=sentence(possessive[event.player]), sector=event.line.sector, line=event.line.name)
        return [_message("laser", side, **values),
                _message(HIT if event.result == HIT else "miss", side, **values)]
    if isinstance(event, ShotRecalled):
        return [_message("recalled", SIDES[event.player], sector=event.line.sector,
                         line=event.line.name, result=event.result)]
    if isinstance(event, ShipVaporized):
        return [_message("vaporized", SIDES[event.by], owner=possessive[event.owner], ship=event.ship)]
    if isinstance(event, FleetDestroyed):
        return [_message("fleet_destroyed", SIDES[event.winner], winner=names[event.winner],
                         shots=dict(event.shots)[event.winner])]
    return []


def owner_news(event) -> list[Message]:
    """A vaporized ship told to its owner alone, on the owner's side: at one console the
    public "Vaporized" line was said while the shooter had it."""
    if isinstance(event, ShipVaporized):
        return [_message("vaporized", SIDES[event.owner], owner="your", ship=event.ship)]
    return []


def log_event(event) -> dict | None:
    """The --log form of an event (docs/architecture.md, "The event log"), or None when it is not logged."""
    if isinstance(event, ShotFired):
        return {"event": "shot", "player": event.player, "sector": event.line.sector,
                "line": event.line.name, "result": event.result}
    if isinstance(event, ShipVaporized):
        return {"event": "vaporized", "player": event.owner, "ship": event.ship}
    if isinstance(event, FleetDestroyed):
        return {"event": "game_over", "winner": event.winner,
                "shots": {str(p): n for p, n in event.shots}}
    return None


__all__ = ["CUES", "SIDES", "CENTRE", "cue", "log_event", "owner_news"]
