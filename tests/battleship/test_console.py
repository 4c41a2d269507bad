"""Battleship at the console: placing by voice, shooting the computer, passing the console,
the board memory, cues on the shooter's side, and exact replay of saved games."""
import pytest

from audio_console.battleship.commands import full_grammar
from audio_console.battleship.console import BattleshipConsole
from audio_console.battleship.footprints import SHIP_NAMES
from audio_console.battleship.board import fleet_cells
from audio_console.contract.base import LEFT, RIGHT, InputError
from audio_console.commands.vocabulary import common_grammar

GRAMMAR = full_grammar() + common_grammar()


def say(console, text):
    command = console.grammar().parse(text) or common_grammar().parse(text)
    assert command is not None, f"not understood: {text}"
    return console.handle(command, 0.0)


def texts(reply):
    return [m.text for m in reply.messages]


def test_placing_ship_by_ship_describes_and_explains():
    console = BattleshipConsole(placement="manual", seed=1)
    reply = say(console, "quadron sector one H8 across")
    assert "stick out" in texts(reply)[0] and "past column 10" in texts(reply)[0]
    assert reply.messages[0].signal == "error" and not reply.record
    with pytest.raises(InputError, match="stick out"):
        say(console, "place")                                # an illegal ship is not placed
    reply = say(console, "turn it")                          # down from H8: 4 rows, sticks out below
    assert "past row J" in texts(reply)[0]
    reply = say(console, "move to B3")
    assert texts(reply) == ["Quadron in sector 1, down, box from B3: holes B3, B4, then C3, C4, then D3, D4, "
                            "then E3, E4."]
    reply = say(console, "place")
    assert reply.record == ["place quadron 1 B3 down"]
    assert "Next: the Rocket Raider" in texts(reply)[-1]
    reply = say(console, "dueler sector one C4 across")
    assert "overlap the Quadron at C4" in texts(reply)[0]
    reply = say(console, "random")
    assert len(reply.record) == 4 and all(r.startswith("place ") for r in reply.record)
    assert texts(reply)[-1].startswith("Placed: ") and "All five" not in " ".join(texts(reply))
    assert console.prompt().startswith("All five ships placed: say done")     # said once, by the prompt
    assert any("Quadron" in line for line in texts(say(console, "my fleet")))
    reply = say(console, "undo")
    assert reply.record == ["remove dueler"]
    say(console, "random")
    reply = say(console, "done")
    assert reply.record == ["done"] and "Battle begins. You shoot first." in texts(reply)
    assert console.grammar().parse("sector two row delta") is not None


def test_a_shot_is_answered_then_the_computer_shoots_back_on_its_side():
    console = BattleshipConsole(level=1, seed=4)
    target = console.core.fleets[2]
    row = min(target["Quadron"].cells())
    reply = say(console, f"sector {row.sector} row {'ABCDEFGHIJ'[row.row]}")
    assert reply.events[0] == {"event": "shot", "player": 1, "sector": row.sector,
                               "line": f"row {'ABCDEFGHIJ'[row.row]}", "result": "hit"}
    assert [m.signal for m in reply.messages[:2]] == ["laser", "hit"]
    assert {m.side for m in reply.messages[:2]} == {LEFT}
    computer = [m for m in reply.messages if m.text.startswith("The computer fires")]
    assert computer and computer[0].side == RIGHT and computer[0].signal == "laser"
    assert reply.events[1]["player"] == 2 and len(reply.record) == 2
    # Calling the same line again costs nothing and changes nothing.
    before = console.core.snapshot()
    reply = say(console, f"shoot {row.sector} row {'ABCDEFGHIJ'[row.row]}")
    assert not reply.record and console.core.snapshot() == before
    assert texts(reply)[0].startswith("Already called")


def test_a_sector_can_be_chosen_first_and_left_out():
    console = BattleshipConsole(seed=2)
    with pytest.raises(InputError, match="Which sector"):
        say(console, "row delta")
    say(console, "sector two")
    reply = say(console, "row delta")
    assert reply.record[0] == "shoot 2 row D"
    assert say(console, "what about row delta").messages[0].text.startswith("Sector 2 row D: ")


def play_out(console, lines):
    """Shoot `lines` in order (skipping ones already called) until the game ends."""
    replies = []
    for line in lines:
        if console.finished():
            break
        if console.phase() == "passing":
            replies.append(say(console, "ready"))
        replies.append(say(console, line))
    return replies


ALL_ROWS = [f"shoot {s} row {r}" for s in (1, 2, 3) for r in "ABCDEFGHIJ"]


def test_victory_is_announced_logged_and_the_fleets_revealed():
    console = BattleshipConsole(level=1, seed=9)
    rows = sorted({(c.sector, c.row) for c in console.core.occupied(2)})
    replies = play_out(console, [f"shoot {s} row {'ABCDEFGHIJ'[r]}" for s, r in rows] + ALL_ROWS)
    events = [e for r in replies for e in r.events]
    over = [e for e in events if e["event"] == "game_over"]
    assert len(over) == 1 and set(over[0]["shots"]) == {"1", "2"}
    reveal = [e for e in events if e["event"] == "reveal"][0]
    assert reveal["fleets"]["2"] == fleet_cells(console.core.fleets[2])
    assert len(reveal["fleets"]["1"]["Quadron"]) == 8
    vaporized = [e for e in events if e["event"] == "vaporized"]
    assert sorted(e["ship"] for e in vaporized if e["player"] == over[0]["winner"] % 2 + 1) == sorted(SHIP_NAMES)
    last = [m for r in replies for m in r.messages if m.signal == "fleet_destroyed"]
    assert len(last) == 1 and last[0].text.startswith("Fleet destroyed:")
    assert console.finished() and console.prompt().startswith("Game over")


def test_two_players_pass_the_console_and_nothing_secret_is_said_before_ready():
    console = BattleshipConsole(opponent="human", placement="manual", seed=3)
    say(console, "random")
    reply = say(console, "done")
    assert "Player 1: fleet ready." in texts(reply)
    assert console.prompt() == "Pass the console to player 2. Player 2: say ready."
    assert console.grammar().parse("my fleet") is None   # not heard while passing...
    with pytest.raises(InputError, match="say ready"):
        console.handle(GRAMMAR.parse("my fleet"), 0.0)  # ...nor done if it arrives anyway
    say(console, "ready")
    say(console, "place the rest at random")
    say(console, "done")
    say(console, "ready")                            # back to player 1, who shoots first
    p2 = console.core.fleets[2]
    cell = min(p2["Quadron"].cells())
    reply = say(console, f"shoot {cell.sector} row {cell.name[0]}")
    spoken = " ".join(m.spoken for m in reply.messages)
    assert "Hit" in spoken and "Quadron" not in spoken     # the hit is public, which ship is not
    assert console.prompt() == "Pass the console to player 2. Player 2: say ready."
    with pytest.raises(InputError):
        console.handle(GRAMMAR.parse("status"), 0.0)
    reply = say(console, "ready")
    lines = texts(reply)
    assert lines[0] == "Player 2: your turn."
    assert any(line.startswith("Damage in sector") and "Quadron" in line for line in lines)
    assert all(m.side == RIGHT for m in reply.messages[:1])


def test_a_saved_game_replays_exactly():
    console = BattleshipConsole(placement="manual", level=3, seed=12)
    record = []
    for text in ["quadron sector 2 A1 across", "place", "remove quadron", "random", "done",
                 "sector 1 row E", "sector 2 column 5", "shoot 3 row C"]:
        record += say(console, text).record
    assert say(console, "sector 1 row E").record == []    # the repeat was free, and not recorded
    again = BattleshipConsole(placement="manual", level=3, seed=12)
    for action in record:
        again.apply_recorded(action)
    assert again.core.snapshot() == console.core.snapshot()
    assert again.memory[1].my_fleet() == console.memory[1].my_fleet()
    # The game goes on identically: the computer's next move is the same.
    assert say(again, "shoot 3 row D").record == say(console, "shoot 3 row D").record
    with pytest.raises(InputError):
        again.apply_recorded("shoot 9 row Z")


def test_board_memory_readouts():
    console = BattleshipConsole(level=1, seed=6)
    say(console, "sector 2 row D")
    say(console, "sector 2 column 3")
    result_d = console.core.called[1][next(l for l in console.core.called[1] if l.kind == "row")]
    read = texts(say(console, "read sector 2"))[0]
    assert read.startswith("Sector 2: ") and "row" in read and "column" in read
    assert f"Sector 2 row D: {result_d}." == texts(say(console, "what about sector 2 row D"))[0]
    assert texts(say(console, "what about sector 3 row A"))[0] == "Sector 3 row A: unknown, not called yet."
    status = texts(say(console, "status"))
    assert status[0] == "Your shot." and status[1].startswith("Shots: 2 called")
    fleet = texts(say(console, "my fleet"))
    assert len(fleet) == 5 and all(any(s in line for s in SHIP_NAMES) for line in fleet)


@pytest.mark.parametrize("opponent, placement", [("computer", "manual"), ("human", "manual"), ("human", "random")])
def test_any_sequence_of_commands_is_done_or_refused_without_a_change(opponent, placement):
    """Bad input never crashes: every phrase of the grammar, in a random order, is either
    carried out or refused with InputError, and a refusal changes nothing."""
    import random
    rng = random.Random(f"{opponent}{placement}")
    console = BattleshipConsole(opponent=opponent, placement=placement, level=2, seed=5)
    phrases = {}
    for step in range(400):
        grammar = console.grammar() + common_grammar()
        key = console.phase()
        if key not in phrases:
            phrases[key] = [p for p in grammar.phrases() if p not in ("quit", "new game")]
        # Mostly moves that advance the game, sometimes anything at all.
        text = rng.choice(phrases[key])
        if rng.random() < 0.3:
            text = rng.choice(["random", "done", "ready", "sector two row delta"] +
                              [f"shoot {rng.randint(1, 3)} row {rng.choice('ABCDEFGHIJ')}"])
        command = grammar.parse(text)
        if command is None:
            continue
        before = (console.core.snapshot(), console.hot_seat.to)
        try:
            console.handle(command, 0.0)
        except InputError as error:
            assert str(error)
            assert (console.core.snapshot(), console.hot_seat.to) == before, text
        if console.finished():
            break


def test_a_command_of_another_phase_is_explained():
    console = BattleshipConsole(opponent="human", placement="manual", seed=3)
    assert "place your fleet first" in console.explain("sector 2 row D")
    say(console, "random")
    say(console, "done")
    assert console.explain("sector 2 row D") == "The console is passing to player 2: player 2, say ready first."
    assert console.explain("row K") == "There is no row K: rows go from A to J."
    assert console.explain("sector 4 column 2") == "There is no sector 4: sectors go from 1 to 3."


def test_a_hit_or_miss_line_says_whose_shot_it_was():
    """Issue 13 item 7: "Hit: sector 1 row D." read the same for both shooters."""
    console = BattleshipConsole(level=1, seed=4)
    reply = say(console, "sector 1 row A")
    results = [m.text for m in reply.messages if m.signal in ("hit", "miss")]
    assert len(results) == 2
    assert results[0].startswith(("Your hit: sector 1 row A", "Your miss: sector 1 row A"))
    assert results[1].startswith(("The computer's hit: sector", "The computer's miss: sector"))
    humans = BattleshipConsole(opponent="human", seed=4)
    shot = [m.text for m in say(humans, "sector 2 column 3").messages if m.signal in ("hit", "miss")]
    assert shot[0].startswith(("Player 1's hit: sector 2 column 3", "Player 1's miss: sector 2 column 3"))


def test_placing_lines_start_with_a_capital_and_say_plainly_what_cannot_be_done():
    """Issue 13 item 17: 'place your fleet...', 'fleet ready.' began in lower case; an
    out-of-phase command was named by its canonical form ('position quadron 1 B3 across
    cannot be done now'); 'Removed: the Dueler, from Dueler in...' named the ship twice."""
    console = BattleshipConsole(placement="manual", seed=1)
    opening = texts(console.start())
    assert "Place your fleet of five, secretly. Say help for how." in opening
    assert console.status()[0] == "Placing: 0 of 5 ships placed."
    say(console, "random")
    removed = texts(say(console, "remove dueler"))[0]
    assert removed.startswith("Removed: Dueler in sector ") and removed.count("Dueler") == 1
    say(console, "random")
    assert "Fleet ready." in texts(say(console, "done"))
    said = console.explain("position quadron 1 B3 across")
    assert said.startswith("Trying a ship cannot be done now: the fleets are placed.")
    assert "position quadron" not in said
    assert console.explain("place quadron sector 1 B3 across").startswith("Placing a ship cannot be done now")
