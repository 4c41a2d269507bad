"""One output line as every layer above output hands it down: its text, its speech,
its signal, its stereo side and, for "listen to row D", the board line to sonify."""
from __future__ import annotations

from dataclasses import dataclass

CENTRE, LEFT, RIGHT = 0, 1, 2   # stereo side: both, team/player 1, team/player 2


@dataclass
class Message:
    """One output line. `text` is printed; `speech` is spoken (None: speak the text,
    "": speak nothing, for a secret kept off the speakers); `signal` names a sound
    from the signal table, played before the speech, on `side`. A message with
    empty text only plays its signal (the search signal before an answer line)."""
    text: str
    speech: str | None = None
    signal: str | None = None
    side: int = CENTRE
    # A line of the board to sonify (docs/signals.md, "Listening to the board"): (position, of how many, row, kind).
    cells: list[tuple[int, int, int, str]] | None = None
    rows: int = 7   # how many rows that board has (sets the pitch range of `cells`)
    # Hot-seat play: the screen and its scrollback are cleared first, for this team or
    # player ("team 2"), when the console is passed (output/screen.py).
    clear_for: str = ""
    # What both sides may read (the last answer, the shot called): shown again after the
    # clear, so that the team that just played can still read its own result.
    public: tuple[str, ...] = ()

    @property
    def spoken(self) -> str:
        return self.text if self.speech is None else self.speech
