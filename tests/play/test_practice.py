"""Issue 13 item 17 (practice lines are sentences; status in the ear drill) and a
practice drill never takes, or asks about, the Galaxis game's save slot."""
from tests.conftest import run_console

EAR = ["--game", "galaxis", "--practice", "ear", "--no-speech"]


def test_the_ear_drill_answers_status_undo_and_hint_with_a_reason(tmp_path):
    result = run_console(EAR + ["--seed", "3"], ["status", "hint", "undo", "skip", "status", "quit"], tmp_path)
    lines = result.stdout.splitlines()
    assert "Sound 1 of 8; 0 sounds named right so far." in lines
    assert "No hints in the drill: say play again to hear the sound again, or skip." in lines
    assert "Nothing to undo: each sound is named once. Say skip to pass one." in lines
    assert "Sound 2 of 8; 0 sounds named right so far." in lines
    assert "Name the sound: 0 to 4, or discovered." in lines
    assert not [line for line in lines if line[:1].islower()], "every line starts with a capital"


def test_a_drill_leaves_the_saved_game_alone(tmp_path):
    run_console(["--game", "galaxis", "--text", "--seed", "2"], ["D4", "quit"], tmp_path)
    drill = run_console(EAR, ["skip", "quit"], tmp_path)
    assert "in progress" not in drill.stdout and "Ear training" in drill.stdout
    assert drill.stdout.splitlines()[-1] == "Goodbye."
    tutorial = run_console(["--game", "galaxis", "--practice", "tutorial", "--text"], ["status", "quit"], tmp_path)
    assert "Step 1 of" in tutorial.stdout
    game = run_console(["--game", "galaxis", "--text"], ["resume", "summary", "quit"], tmp_path)
    assert "You have a Galaxis game in progress, 1 move saved" in game.stdout
    assert "Queried 1: D4 2." in game.stdout
