"""Galaxis option 3, storing (issue 30, item 6): help says only what applies, the
fourth position is read back with the others and can be changed before the console
passes, and a plain query of one's own position asks once. Typed into the real console."""
import json

from tests.conftest import run_console

ARGS = ["--game", "galaxis", "--option", "3", "--seed", "3", "--text"]


def test_storing_help_lists_only_what_applies(tmp_path):
    result = run_console(ARGS, ["help", "quit"], tmp_path)
    help_lines = result.stdout.split("Team 1: store position 1 of 4.\n", 1)[1].split("Always:")[0]
    assert "store it secretly" in help_lines and "Change A1, then the new point" in help_lines
    for word in ("Hint", "hint", "Review", "review", "Auto mark", "auto mark", "Mark D5"):
        assert word not in help_lines


def test_the_fourth_position_is_read_back_and_can_be_changed_before_passing(tmp_path):
    log = tmp_path / "game.jsonl"
    result = run_console(ARGS + ["--log", str(log)],
                         ["a1", "b2", "c3", "d4", "e5", "change A1 to E5", "change D4", "C3", "cancel",
                          "change D4", "F6", "done",
                          "ready", "g1", "g2", "g3", "g4", "done", "ready", "status", "quit"], tmp_path)
    lines = result.stdout.splitlines()
    assert ("Team 1: your positions: A1, B2, C3, D4. Say done to pass the console, or change one, "
            "like change A1.") in lines
    assert not any(l.startswith("Pass the console") for l in lines[:lines.index("Changed: E5 instead of A1.")])
    assert "Your four positions are chosen: say done, or change one, like change D4." in lines
    assert "Changed: E5 instead of A1." in lines and "Changed: F6 instead of D4." in lines
    asked = lines.index("Team 1: say the new position for D4.")        # "change D4", then the point
    assert lines[asked + 1:asked + 3] == ["C3 is already one of your positions.", "D4 stays where it is."]
    assert lines.count("Team 1: say the new position for D4.") == 2
    assert lines.count("Team 1: your positions: E5, B2, C3, F6. Say done to pass the console, or change "
                       "one, like change E5.") == 1
    done = lines.index("Team 1: position 4 of 4 stored.")
    assert lines[done + 2] == "Pass the console to team 2. Team 2: say ready."
    events = [json.loads(l) for l in log.read_text().splitlines()]
    assert [e["event"] for e in events[:3]] == ["stored", "stored", "stored"]
    assert {"event": "store_changed", "team": 1, "game": "galaxis"} in events
    assert all("point" not in e for e in events if e["event"].startswith("store"))
    # The game saved and resumes with the changed positions.
    resumed = run_console(["--resume", "--text", "--log", str(log)], ["summary", "quit"], tmp_path)
    assert "Resumed Galaxis" in resumed.stdout
    save = json.loads((tmp_path / "home" / "game.json").read_text())
    assert "change A1 E5" in save["actions"] and "store F6" in save["actions"]


def test_done_agrees_only_to_a_finished_read_back_and_ready_still_does(tmp_path):
    result = run_console(ARGS, ["a1", "b2", "c3", "done", "d4", "change D4", "done", "cancel", "ready",
                                "status", "quit"], tmp_path)
    lines = result.stdout.splitlines()
    # before the fourth, done is explained; while changing, the new point comes first
    assert "Done comes after all four positions: store position 4 of 4 first, like D5." in lines
    assert not any(l.startswith("Team 1: position 4 of 4 stored.") for l in lines[:lines.index("D4 stays where it is.")])
    assert "Say the new position for D4 first, or cancel." in lines
    # ready, the word used before done, still agrees to the read-back (it then passes the console)
    assert lines[lines.index("Team 1: position 4 of 4 stored.") + 2] == "Pass the console to team 2. Team 2: say ready."
    assert "Storing positions: team 2's turn." in lines


def test_a_plain_query_of_an_own_position_asks_once(tmp_path):
    log = tmp_path / "game.jsonl"
    result = run_console(ARGS + ["--log", str(log)],
                         ["a1", "b2", "c3", "d4", "done", "ready", "g1", "g2", "g3", "g4", "done", "ready",
                          "d4", "status", "d4", "quit"], tmp_path)
    lines = result.stdout.splitlines()
    asked = ("D4 is one of your own positions: say caution D4 to query it on purpose, "
             "or D4 again to give it away.")
    assert lines.count(asked) == 1
    status = lines[lines.index(asked) + 1:][:3]                           # nothing given away yet
    assert status == ["Team 1's turn.", "Team 1: found 0 of 4 in 0 queries.", "Team 2: found 0 of 4 in 0 queries."]
    assert "Team 1: D4 was your own ship: the long deep tone. Team 2 gets it, 1 of 4." in lines
    own = [json.loads(l) for l in log.read_text().splitlines() if '"own_ship"' in l]
    assert len(own) == 1 and own[0]["point"] == "D4"
