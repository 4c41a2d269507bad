"""Issue 30 item 4: Arcade Mode followed by ear. The introduction offers the slower
pace for a first game; status says whether the clock runs, is paused or has not
started; "Paused. Say go to go on." is not followed by the start-of-game line; and
the computer does not act while the player hears a long answer (what can I do)."""
from audio_console.app.games import GAMES
from tests.robust.helpers import CapturingSink, make_session

ARCADE = {"mode": "arcade", "alien": "human", "defence": "computer", "level": 2}


class Speaking(CapturingSink):
    """Busy while `talking` (the engine is busy until its queue has played out)."""
    talking = False

    def busy(self):
        return self.talking

    def stop(self):
        self.talking = False


def arcade(tmp_path, pace=None, sink=None):
    session, out, capturing = make_session(tmp_path)
    if sink is not None:
        session.presenter.sink = capturing = sink
    now = [0.0]
    session.clock = lambda: now[0]
    session.open_game(GAMES["arkade"], {**ARCADE, "pace": pace}, 4)
    return session, out, capturing, now


def run_to(session, now, until):
    while now[0] < until:
        now[0] = round(now[0] + 0.1, 1)
        session._tick()


def started(tmp_path, **kwargs):
    session, out, sink, now = arcade(tmp_path, **kwargs)
    session.type("go")
    run_to(session, now, 3.0)
    assert "Start!" in out.getvalue()
    return session, out, sink, now


def speaking(tmp_path):
    """Started, with a sink that is still saying something."""
    session, out, sink, now = started(tmp_path, sink=Speaking())
    sink.talking = True
    return session, out, sink, now


def defence_lines(text):
    return [line for line in text.splitlines() if line.startswith("Defence")]


def test_the_introduction_offers_the_slower_pace_and_it_is_understood(tmp_path):
    session, out, sink, now = arcade(tmp_path)
    intro = out.getvalue()
    assert ("the computer rolls every 3 seconds. First game? Say computer pace 5 seconds for a slower pace, "
            "now or at any time.") in intro
    assert any("First game? Say computer pace 5 seconds" in s for s in sink.spoken)
    session.type("computer pace 5 seconds")
    assert "The computer now rolls every 5 seconds." in out.getvalue()
    slower, out2, _, _ = arcade(tmp_path, pace=6)
    assert "First game?" not in out2.getvalue()      # already slower: nothing to offer


def test_status_says_whether_the_clock_runs(tmp_path):
    session, out, sink, now = arcade(tmp_path)
    session.type("status")
    assert "Not started: say go to start the countdown." in out.getvalue().splitlines()
    session.type("go")
    run_to(session, now, 3.0)
    mark = len(out.getvalue())
    session.type("status")
    assert out.getvalue()[mark:].startswith("Running: the computer rolls every 3 seconds.\n")
    session.type("pause")
    mark = len(out.getvalue())
    session.type("status")
    assert out.getvalue()[mark:].startswith("Paused: the computer waits. Say go to go on.\n")


def test_pause_is_said_once_and_not_followed_by_the_start_of_game_line(tmp_path):
    session, out, sink, now = started(tmp_path)
    mark, said = len(out.getvalue()), len(sink.spoken)
    session.type("pause")
    run_to(session, now, 20.0)
    after = out.getvalue()[mark:]
    assert after == "Paused. Say go to go on.\n"
    assert sink.spoken[said:] == ["Paused. Say go to go on."]
    session.type("")                                    # Enter: the prompt again, the paused line
    assert out.getvalue()[mark:].endswith("Paused. Say go to go on.\nPaused. Say go to go on.\n")
    assert "say go to start the countdown" not in out.getvalue()[mark:]


def test_the_computer_waits_while_what_can_i_do_is_heard(tmp_path):
    session, out, sink, now = speaking(tmp_path)
    session.type("roll")
    mark = len(out.getvalue())
    session.type("what can I do")
    assert "You can:" in out.getvalue()[mark:]
    run_to(session, now, 30.0)                         # 27 s of listening: nine paces
    assert defence_lines(out.getvalue()[mark:]) == []
    sink.talking = False                               # the list has been said
    run_to(session, now, 32.9)
    assert defence_lines(out.getvalue()[mark:]) == []  # a whole pace from the end of the list
    run_to(session, now, 33.2)
    assert defence_lines(out.getvalue()[mark:])


def test_typing_cuts_the_list_and_the_clock_goes_on(tmp_path):
    session, out, sink, now = speaking(tmp_path)
    session.type("what can I do")
    run_to(session, now, 10.0)
    mark = len(out.getvalue())
    session.type("stop")                               # cuts the speech (as typing does: barge-in)
    run_to(session, now, 13.2)
    assert defence_lines(out.getvalue()[mark:])


def test_short_answers_do_not_hold_the_clock(tmp_path):
    session, out, sink, now = speaking(tmp_path)
    mark = len(out.getvalue())
    session.type("dice")
    run_to(session, now, 6.2)
    assert defence_lines(out.getvalue()[mark:])


def test_the_rest_of_the_list_holds_the_clock_too_and_is_dropped_once_the_defence_moves(tmp_path):
    session, out, sink, now = speaking(tmp_path)
    session.type("roll")
    session.type("what can I do")
    assert "Say more for the other" in out.getvalue()   # seed 4: more flights than the first three
    sink.talking = False
    run_to(session, now, 7.0)                           # heard; the Defence moves
    mark = len(out.getvalue())
    session.type("more")                                # what it named may be gone: not said
    assert out.getvalue()[mark:].startswith("The rest of that list is out of date: the game has moved on.")
    session.type("what can I do")
    assert out.getvalue()[mark:].count("Say more for the other") == 1
    mark = len(out.getvalue())
    sink.talking = True
    session.type("more")                                # the next page is a long answer too
    assert out.getvalue()[mark:].startswith("Fly the ")
    run_to(session, now, 30.0)
    assert defence_lines(out.getvalue()[mark:]) == []
    sink.talking = False
    run_to(session, now, 34.0)                          # heard: a pace later the Defence moves
    assert defence_lines(out.getvalue()[mark:])
