"""Item 1 of issue 12: listening to any row or column of any game's board plays it,
whatever the board's size (Arkade's boards have more rows than Galaxis)."""
import pytest

from audio_console.arkade.board import LETTERS as ARKADE_LETTERS
from audio_console.galaxis.board import COLUMNS, ROWS

from .helpers import make_session, start

ARKADE_SETUPS = [{"board": side, "alien": "human", "defence": "computer", "mode": "strategy", "level": 2}
                 for side in ("classic", "expert")]


@pytest.mark.parametrize("options", ARKADE_SETUPS, ids=["classic", "expert"])
def test_arkade_every_row_and_column_is_heard(tmp_path, options):
    session, out, sink = make_session(tmp_path)
    console = start(session, "arkade", **options)
    rows = console.core.rows
    lines = [f"listen to row {ARKADE_LETTERS[r]}" for r in range(rows)]
    lines += [f"listen to column {c}" for c in range(1, 7)]
    lines += ["listen to column three", f"listen to row {ARKADE_LETTERS[rows - 1].lower()}"]
    for line in lines:
        session.type(line)
    assert len(sink.samples) == len(lines)
    assert "Traceback" not in out.getvalue()


def test_galaxis_every_row_and_column_is_heard(tmp_path):
    session, out, sink = make_session(tmp_path)
    start(session, "galaxis", option=2)
    lines = [f"listen to row {r}" for r in ROWS] + [f"listen to column {c}" for c in range(1, COLUMNS + 1)]
    for line in lines:
        session.type(line)
    assert len(sink.samples) == len(lines)


def test_battleship_has_no_board_sonification(tmp_path):
    # Battleship has no "listen to" command: it is refused with a line, never played.
    session, out, sink = make_session(tmp_path)
    start(session, "battleship")
    session.type("listen to row A")
    assert not sink.samples and out.getvalue().strip()
