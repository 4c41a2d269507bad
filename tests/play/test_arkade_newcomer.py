"""Issue 30 items 4 and 5 through the real console (`python -m audio_console`, typed
input): what a newcomer to Arkade reads at the start, `what can I do` said short with
`more` for the rest, and Arcade Mode's pause and status on the real clock (a short
pace), asserting the lines the player reads (each printed line is also the spoken one;
the spoken side is tested in tests/play/test_rules_and_walkthrough.py and
tests/audio/test_arcade_listening.py)."""
import re
import time

from tests.conftest import run_console
from tests.play.lines import Running

STRATEGY = ["--game", "arkade", "--text", "--no-chips"]


def test_the_start_tells_a_newcomer_about_rules_the_walkthrough_and_how_to_move(tmp_path):
    done = run_console([*STRATEGY, "--seed", "3", "--save", str(tmp_path / "s.json")],
                       ["how to play", "more", "more"], tmp_path)
    lines = done.stdout.splitlines()
    assert lines[1].endswith("New to Arkade? Say how to play for the rules, or menu for the walkthrough. "
                             "Say help for commands.")
    assert lines[2] == ("To play: roll; each die shows a space colour; fly a saucer onto a free space of that "
                        "colour, forward or sideways, for example fly B1 forward.")
    assert "To win: the Alien flies a saucer to row H" in done.stdout                 # rules, page 1
    assert "Say more for part 2 of 5, or go on playing." in lines
    assert "the Alien's two flight dice show these same colours" in done.stdout      # page 2
    assert "To play the Alien: roll, then fly B1 forward or fly B1 left" in done.stdout   # page 3
    defence = run_console([*STRATEGY, "--alien", "computer", "--seed", "3", "--save", str(tmp_path / "d.json")],
                          [], tmp_path)
    assert ("To play: roll; ship to the column your flight die shows, or booster left or right; shoot when the "
            "nearest saucer in your column has the shot die's colour.") in defence.stdout.splitlines()


def flights_in(line: str) -> list[str]:
    return re.findall(r"fly the \w+ saucer at \w\d [a-z ]+?(?=[;.])", line)


def test_what_can_i_do_names_three_flights_and_more_gives_the_rest(tmp_path):
    typed = ["roll", "what can I do", "more", "more", "more", "what can I do", "roll again", "more"]
    done = run_console([*STRATEGY, "--seed", "3", "--save", str(tmp_path / "s.json")], typed, tmp_path)
    lines = done.stdout.splitlines()
    first = next(line for line in lines if " flights, nearest the defence line first: " in line)
    count, rest = int(first.split()[0]), first.split(": ", 1)[1]
    assert len(flights_in(rest)) == 3 and rest.endswith(f". Say more for the other {count - 3}.")
    at = lines.index(first)
    pages = lines[at + 1:at + 3]                          # more, more: five flights, then the last
    assert pages[0].startswith("Fly the ") and pages[0].endswith(". Say more for the rest.")
    assert "Say more" not in pages[1]
    named = flights_in(first) + [f for page in pages for f in flights_in(page.replace("Fly the", "fly the"))]
    assert len(named) == len(set(named)) == count         # every flight once
    assert lines[at + 3] == "Nothing more to say: that was all of it. Say repeat to hear it again."
    # after a new roll the rest of the list would name flights the dice no longer allow
    assert lines[-2] == "The rest of that list is out of date: the game has moved on. Ask again."


def test_arcade_pause_status_and_pace_on_the_real_clock(tmp_path):
    console = Running(tmp_path, ["--game", "arkade", "--mode", "arcade", "--pace", "0.5", "--seed", "4", "--text",
                                 "--save", str(tmp_path / "s.json")])
    lines = console.lines
    try:
        intro = lines.wait_for("Both sides play at once")
        assert ("First game? Say computer pace 5 seconds for a slower pace, now or at any time."
                in lines.seen[-1][1])
        lines.wait_for("Arcade Mode: say go to start the countdown")
        console.type("go")
        started = lines.wait_for("Start!")
        assert started - intro > 2.5                          # three, two, one: a second each
        lines.wait_for("Defence rolls")                       # the computer plays at its pace
        paused = console.type("pause")
        lines.wait_for("Paused. Say go to go on.")
        quiet = console.since(paused, time.monotonic() + 2.5)  # five paces
        assert not [line for line in quiet if line.startswith("Defence")], quiet
        assert quiet.count("Paused. Say go to go on.") == 1   # said once, not again as the prompt
        console.type("status")
        lines.wait_for("Paused: the computer waits. Say go to go on.", timeout=10.0)
        console.type("")                                      # Enter: the prompt again
        lines.wait_for("Paused. Say go to go on.", timeout=10.0)
        console.type("computer pace 1 second")                # changed while paused
        lines.wait_for("The computer now rolls every 1 second.", timeout=10.0)
        console.type("go")
        going = lines.wait_for("Start!")
        lines.wait_for("Defence rolls", timeout=10.0)
        assert not any(line.startswith("Arcade Mode: say go to start") for at, line in lines.seen if at > paused)
        assert not any(line.startswith("Defence") for at, line in lines.seen if paused < at < going)
    finally:
        console.quit()
