"""The Arkade console: cues for every event, board readouts, replays, Arcade pacing."""
import random

import pytest

from audio_console.arkade import cues
from audio_console.arkade.actions import parse_action
from audio_console.arkade.computer import next_action
from audio_console.arkade.console import ArkadeConsole
from audio_console.arkade.events import ShotFired
from audio_console.arkade.rules import Game, Options
from audio_console.contract.base import InputError
from tests.arkade.helpers import snapshot
from tests.arkade.typist import phrase

ARKADE_SIGNALS = {"dice", "saucer_yellow", "saucer_pink", "saucer_purple", "spaceship_flight", "booster",
                  "shot", "peng", "shield", "saucer_destroyed", "chip", "alarm", "ready", "error", None}


def watch(options: dict, seed: int) -> ArkadeConsole:
    console = ArkadeConsole({**options, "alien": "computer", "defence": "computer"}, seed)
    reply = console.tick(0.0)
    console.collected = reply
    return console


def test_every_event_has_words_and_a_known_signal():
    kinds = set()
    for seed in range(40):
        console = watch({}, seed)
        again = Game(console.options, random.Random(seed))      # the watched game's events, typed
        for action in console.collected.record:
            side, _, rest = action.partition(" ")
            for event in again.act(side, parse_action(rest)):      # saved text, read as a saved game is
                kinds.add(event.log()["event"])
                assert event.logged == (event.log() in console.collected.events)
                for message in cues.messages(event):
                    assert message.signal in ARKADE_SIGNALS
                    assert message.text or message.signal in ("shot", "peng")
        assert console.finished()
    assert {"roll", "flight", "shot", "chip", "spaceship_flight", "game_over"} <= kinds


def test_peng_variant_shouts_every_shot():
    event = ShotFired("ship", "shot", (3, 2), "pink", "destroyed")
    assert [m.signal for m in cues.messages(event, peng=True)] == ["peng", "saucer_destroyed"]
    assert cues.messages(event, peng=True)[0].text == "Peng!"


def test_a_watched_game_replays_from_its_record():
    console = watch({"board": "expert", "formation": "pairs"}, 8)
    again = ArkadeConsole({"board": "expert", "formation": "pairs", "alien": "computer",
                           "defence": "computer"}, 8)
    for action in console.collected.record:
        again.apply_recorded(action)
    assert snapshot(again.core) == snapshot(console.core)
    assert console.collected.record[0].startswith("alien ")


def test_bad_commands_are_refused_and_change_nothing():
    console = ArkadeConsole({"alien": "human", "defence": "computer"}, 1)
    grammar = console.grammar()
    before = snapshot(console.core)
    for line in ["shoot", "fly the yellow saucer at B3 forward", "fly the pink saucer at B3 forward",
                 "ship to four", "choose C4", "reroll the shot die"]:
        with pytest.raises(InputError):
            console.handle(grammar.parse(line), 0.0)
    assert snapshot(console.core) == before
    console.handle(grammar.parse("roll"), 0.0)
    saucer = console.core.saucer_at((1, 2))
    wrong = "pink" if saucer.colour != "pink" else "yellow"
    with pytest.raises(InputError, match="not " + wrong):
        console.handle(grammar.parse(f"fly the {wrong} saucer at B3 forward"), 0.0)


def test_board_readouts_say_what_is_where():
    console = ArkadeConsole({"alien": "human"}, 2)
    g = console.grammar()
    ask = lambda text: " ".join(m.text for m in console.handle(g.parse(text), 0.0).messages)
    assert "12 saucers" in ask("where are my saucers")
    row_b = ask("read row B")
    assert row_b.startswith("Row B: 1 orange") and row_b.count("saucer") == 6
    column = ask("column three")
    assert column.startswith("Column 3") and "H blue" in column
    assert "column 1 (spaceship)" in ask("nearest saucers")
    assert "You can: done" in ask("what can I do") or "roll" in ask("what can I do")
    listen = console.handle(g.parse("listen to column two"), 0.0)
    cells = listen.messages[0].cells
    assert len(cells) == console.core.rows and cells[0][3] in ("answer_1", "answer_2", "answer_3")
    assert not listen.record


def started(console, at=0.0):
    """Arcade Mode: say go and let the three-second countdown run out; the clock starts at `at`."""
    console.handle(console.grammar().parse("go"), at - 3)
    console.tick(at)
    return console


def test_arcade_computer_acts_at_the_pace_set_and_the_game_replays():
    console = started(ArkadeConsole({"mode": "arcade", "alien": "human", "defence": "computer", "pace": 2.0}, 4))
    g = console.grammar()
    now, records, computer_times = 0.0, [], []
    human_rng = random.Random(1)
    while not console.finished() and now < 3000:
        now += 0.5
        reply = console.tick(now)
        if reply.record:
            computer_times.append(now)
            records += reply.record
        if console.finished():
            break
        if int(now * 2) % 3 == 0:        # the player acts every 1.5 s
            action = next_action(console.core, "alien", "normal", human_rng)
            reply = console.handle(g.parse(phrase(action, console)), now)
            records += reply.record
    assert console.finished()
    gaps = [b - a for a, b in zip(computer_times, computer_times[1:])]
    assert min(gaps) >= 2.0
    again = ArkadeConsole({"mode": "arcade", "alien": "human", "defence": "computer", "pace": 2.0}, 4)
    for action in records:
        again.apply_recorded(action)
    assert snapshot(again.core) == snapshot(console.core)


def test_arcade_needs_the_computer_on_one_side():
    with pytest.raises(InputError):
        ArkadeConsole({"mode": "arcade", "alien": "human", "defence": "human"}, 1)


def test_menu_presets_follow_the_last_page_of_the_rulebook():
    from audio_console.arkade.console import options_from
    assert options_from({"difficulty": "pro alien"}).side == "expert"
    assert options_from({"difficulty": "beginner alien"}).formation == "pairs"
    assert options_from({"difficulty": "pro defence"}).boosters == 4
    assert options_from({"difficulty": "beginner defence"}).boosters == 8
    assert options_from({"difficulty": "easy start"}).with_chips is False
    assert options_from({"difficulty": "experts"}).max_rolls == 2
    assert options_from({"difficulty": "experts", "mode": "arcade"}).with_chips is True
    assert options_from({"difficulty": "pro defence", "boosters": 5}).boosters == 5   # the CLI wins
    assert options_from({"mode": "arcade"}).with_chips is False


def test_two_players_share_the_keyboard_in_strategy_mode():
    console = ArkadeConsole({"alien": "human", "defence": "human"}, 3)
    g = console.grammar()
    assert console.prompt().startswith("Alien")
    console.handle(g.parse("done"), 0.0)
    assert console.prompt().startswith("Defence")
    reply = console.handle(g.parse("roll"), 0.0)
    assert reply.record == ["defence roll"]


def test_the_player_sets_the_computers_pace_in_arcade_mode():
    console = started(ArkadeConsole({"mode": "arcade", "alien": "human", "defence": "computer", "pace": 5}, 2))
    assert not console.tick(4.0).record
    reply = console.handle(console.grammar().parse("computer pace two seconds"), 4.0)
    assert not reply.record and "every 2 seconds" in reply.messages[0].text
    assert console.tick(5.0).record[0] == "defence roll"
    assert not console.tick(6.0).record
    assert console.tick(7.0).record


def test_a_space_off_the_board_is_explained():
    console = ArkadeConsole({}, 1)
    assert "no row J" in console.explain("fly the saucer at J3 forward")
    assert "no column 7" in console.explain("what is at C7")
    assert console.explain("dance") is None


def test_arcade_computer_speaks_only_what_happens_to_the_saucers():
    console = started(ArkadeConsole({"mode": "arcade", "alien": "human", "defence": "computer", "pace": 1}, 4))
    spoken, printed = [], []
    for step in range(1, 40):
        for message in console.tick(float(step)).messages:
            printed.append(message.text)
            if message.spoken:
                spoken.append(message.text)
    assert any(t.startswith("Defence rolls") for t in printed)
    assert not any(t.startswith("Defence rolls") or t.startswith("Booster") for t in spoken)


QUESTIONS = ["where are my saucers", "nearest saucers", "what can I do", "read row C", "column three", "dice",
             "where is the spaceship", "bonus chips", "read the board", "listen to row D", "what is at E4"]


@pytest.mark.parametrize("options", [
    {"alien": "human", "defence": "computer"}, {"alien": "computer", "defence": "human"},
    {"mode": "arcade", "alien": "human", "defence": "computer", "chips": True},
    {"mode": "arcade", "alien": "computer", "defence": "human", "chips": True, "board": "expert"}])
def test_whole_games_in_spoken_words_with_questions_between_every_action(options):
    for seed in range(10):
        console = ArkadeConsole(options, seed)
        if options.get("mode") == "arcade":
            started(console)
        g, rng, now = console.grammar(), random.Random(seed), 0.0
        while not console.finished() and now < 5000:
            now += 1
            console.tick(now)
            if console.finished():
                break
            assert console.prompt() and console.help() and console.status()
            for question in rng.sample(QUESTIONS, 2):
                reply = console.handle(g.parse(question), now)
                assert not reply.record and reply.messages
            side = console.human_side()
            core = console.core
            if console.options.mode == "strategy" and (core.pending.side if core.pending else core.turn) != side:
                continue
            action = next_action(core, side, rng.choice(["easy", "normal", "hard"]), rng)
            command = g.parse(phrase(action, console))
            assert command is not None and command.text == action.text()
            record = console.handle(command, now).record      # then the computer's actions, if any
            assert record[0] == f"{side} {action.text()}"
        assert console.finished(), seed


# --- issue 13 item 2: Arcade Mode starts on the signal, and the player pauses it --------------

def test_arcade_waits_for_go_then_counts_down_and_gives_the_start_signal():
    console = ArkadeConsole({"mode": "arcade", "alien": "human", "defence": "computer", "pace": 1}, 5)
    g = console.grammar()
    intro = [m.text for m in console.start().messages]
    assert intro[-1] == ("Both sides play at once; the computer rolls every 1 second. "
                         "First game? Say computer pace 5 seconds for a slower pace, now or at any time. "
                         "Say go to start the countdown; say pause at any time.")
    for now in range(0, 60, 5):                         # a long introduction: nothing happens
        assert not console.tick(float(now)).messages
    with pytest.raises(InputError, match="The game has not started: say go."):
        console.handle(g.parse("roll"), 60.0)
    assert console.handle(g.parse("go"), 60.0).messages[0].text == "Countdown."
    heard = [(t, m.text, m.signal) for t in (60.0, 60.5, 61.0, 62.0, 62.9)
             for m in console.tick(t).messages]
    assert [text for _, text, _ in heard] == ["Three.", "Two.", "One."]
    with pytest.raises(InputError, match="Wait for the start signal."):
        console.handle(g.parse("roll"), 62.9)
    start = console.tick(63.0).messages
    assert [(m.text, m.signal) for m in start] == [("Start!", "ready")]
    assert not console.tick(63.5).record                  # the computer's first roll: a pace after it
    assert console.tick(64.0).record[0] == "defence roll"
    assert console.handle(g.parse("roll"), 64.1).record == ["alien roll"]


def test_pause_stops_the_clock_until_go():
    console = started(ArkadeConsole({"mode": "arcade", "alien": "human", "defence": "computer", "pace": 1}, 5))
    g = console.grammar()
    assert console.handle(g.parse("pause"), 0.5).messages[0].text == "Paused. Say go to go on."
    assert all(not console.tick(t).record for t in (2.0, 10.0, 100.0))
    with pytest.raises(InputError):
        console.handle(g.parse("roll"), 100.0)
    assert console.handle(g.parse("where are my saucers"), 100.0).messages    # questions still answered
    console.handle(g.parse("go"), 100.0)
    assert not console.tick(102.5).record
    console.tick(103.0)
    assert console.tick(104.0).record


def test_a_resumed_arcade_game_waits_for_go():
    console = started(ArkadeConsole({"mode": "arcade", "alien": "human", "defence": "computer", "pace": 1}, 5))
    records = console.tick(1.0).record + console.tick(2.0).record
    again = ArkadeConsole({"mode": "arcade", "alien": "human", "defence": "computer", "pace": 1}, 5)
    for action in records:
        again.apply_recorded(action)
    again.restart_clock(50.0)
    assert again.prompt() == "Paused. Say go to go on."     # resumed: paused, not "not started"
    assert not again.tick(60.0).record
