"""The Show part of issue 12: a bounded, seeded fuzz of typed lines through the real
session, for every game and mode. No line raises; a refused line changes nothing
(not the game, not the save); every accepted line is a command a player could have
meant (only a player's characters, and it says what its canonical form says)."""
import random

import pytest

from audio_console.commands.grammar import normalize
from audio_console.console.typed import HARMLESS, MAX_LINE, refusal

from .helpers import make_session, start

LINES = 2000
SETUPS = {
    "galaxis option 2": ("galaxis", {"option": 2}),
    "galaxis option 1": ("galaxis", {"option": 1}),
    "galaxis option 3": ("galaxis", {"option": 3}),
    "battleship": ("battleship", {"opponent": "computer", "placement": "random", "level": 1}),
    "battleship by hand": ("battleship", {"opponent": "human", "placement": "manual", "level": 1}),
    "arkade strategy": ("arkade", {"mode": "strategy", "alien": "human", "defence": "computer", "level": 1}),
    "arkade defence": ("arkade", {"mode": "strategy", "alien": "computer", "defence": "human", "level": 1}),
}
ESCAPES = ["\x1b[A", "\x1b[D", "\x1bOP", "\x1b[3~", "\x00", "\ufeff", "\x7f", "\x08", "\r", "\x1b", "\u200b",
           "\u202e", "\ud800", "\xa0", "\u3000", "\x85"]
SAFE_COMMANDS = {"quit", "new game", "voice check", "hint",
                 "push to talk", "always listen", "always listening", "menu", "main menu"}   # menu: leaves the game


def fuzz_lines(rng: random.Random, phrases: list[str]):
    for _ in range(LINES):
        kind = rng.random()
        phrase = rng.choice(phrases)
        if kind < 0.2:     # raw bytes, decoded as the console decodes standard input
            yield bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).decode("utf-8", "replace")
        elif kind < 0.4:   # escape sequences and invisible characters around or inside a command
            where = rng.randrange(len(phrase) + 1)
            yield phrase[:where] + rng.choice(ESCAPES) + phrase[where:]
        elif kind < 0.5:   # a held-down key
            yield rng.choice("D9x ") * rng.randrange(MAX_LINE - 5, 6000)
        elif kind < 0.7:   # any unicode
            yield "".join(chr(rng.randrange(1, 0x2FFFF)) for _ in range(rng.randrange(1, 12)))
        else:              # what a player types: a command, its case, spaces and punctuation mangled
            chars = []
            for c in phrase:
                r = rng.random()
                chars.append(c.upper() if r < 0.2 else c + rng.choice("-'.,?! ") if r < 0.25 else
                             "" if r < 0.28 else c)
            yield " " * rng.randrange(3) + "".join(chars) + rng.choice(["", " ", "\t", "?", "."])


def state(session, save_path):
    return (list(session.saved.actions), session.console.prompt(), save_path.read_bytes(),
            session.pending is not None, session.running)


@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_fuzzed_lines_never_raise_and_refused_lines_change_nothing(tmp_path, setup):
    game, options = SETUPS[setup]
    session, out, sink = make_session(tmp_path)
    console = start(session, game, seed=7, **options)
    rng = random.Random(f"issue 12 {setup}")
    phrases = [p for p in (console.grammar() + session.common).phrases() if p not in SAFE_COMMANDS]
    save_path = tmp_path / "game.json"
    refused = accepted = 0
    for line in fuzz_lines(rng, phrases):
        before = state(session, save_path)
        session.type(line)
        text = line.strip(" \t\r\n")
        if refusal(text) is not None:
            refused += 1
            assert state(session, save_path) == before, repr(line)
            continue
        command = session.parse(text) if text else None
        if command is None:
            continue
        accepted += 1
        # a command a player could have meant: a player's characters only, short, and its
        # words alone (the punctuation dropped) say the same command
        assert all(c in HARMLESS for c in text) and len(text) <= MAX_LINE
        assert session.parse(" ".join(normalize(text))) == command, (line, command)
    assert refused > LINES // 3 and accepted > LINES // 40, (refused, accepted)
    assert "Traceback" not in out.getvalue()
