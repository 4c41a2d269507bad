"""Issue 30 item 4, with real speech: in Arcade Mode the computer Defence does not roll
while the player hears `what can I do` spoken by the real engine into PulseAudio, and
rolls again once the player cuts it off (typing stops the speech)."""
import time

import pytest

from tests.play.lines import Running


@pytest.mark.audio
@pytest.mark.slow
def test_the_defence_waits_while_what_can_i_do_is_spoken(tmp_path, pulse):
    console = Running(tmp_path, ["--game", "arkade", "--mode", "arcade", "--alien", "human", "--defence", "computer",
                                 "--pace", "0.5", "--seed", "4", "--no-signals", "--save", str(tmp_path / "s.json")])
    lines = console.lines
    try:
        lines.wait_for("Arcade Mode: say go")
        console.type("go")
        lines.wait_for("Start!")
        console.type("roll")
        lines.wait_for("Alien")
        lines.until(time.monotonic() + 1.5)
        console.type("what can I do")
        listed = lines.wait_for("You can:")
        during = console.since(listed, listed + 4.0)      # eight paces, while the list is spoken
        assert [line for line in during if line.startswith("Defence")] == [], during
        cut = console.type("stop")                        # cut off: the clock goes on
        assert [line for line in console.since(cut, cut + 3.0) if line.startswith("Defence")]
    finally:
        console.quit()
