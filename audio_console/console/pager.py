"""Long answers a page at a time: the first page is said, the rest waits for `more`.

A listener cannot skim. The rules in short and Arkade's list of moves are said a page
(a few sentences) at a time, each page ending with what `more` brings; `stop` or
typing still cuts a page off, and `repeat` says the page again. Pages that describe
the board (the moves the dice allow) are dropped when the game changes, so that `more`
never names a move that is no longer there."""
from __future__ import annotations

from audio_console.contract.base import Message, Reply

SHORT_LINE = 60    # characters: a last line this short joins the page before it
RULES_PAGE = 2      # lines of the rules in short on one page (each line a sentence or three)
NOTHING_MORE = "Nothing more to say: that was all of it. Say repeat to hear it again."
OUT_OF_DATE = "The rest of that list is out of date: the game has moved on. Ask again."


def paged(lines: list[str], what: str, size: int = RULES_PAGE) -> Reply:
    """`lines` in pages of `size`, each but the last ending with how to hear the next:
    "Rules, part 1 of 3. Say more for part 2." (`what`: "Rules")."""
    pages = [lines[at:at + size] for at in range(0, len(lines), size)]
    if len(pages) > 1 and len(pages[-1]) == 1 and len(pages[-1][0]) < SHORT_LINE:
        pages[-2:] = [pages[-2] + pages[-1]]     # "Say help ..." alone is not worth a `more`
    shown = []
    for number, page in enumerate(pages, 1):
        tail = [f"{what}, part {number} of {len(pages)}. Say more for part {number + 1}."] \
            if number < len(pages) else []
        shown.append([Message(line) for line in page + tail])
    return Reply(messages=shown[0] if shown else [], more=shown[1:])


class Pager:
    """The pages held back from the last long answer."""

    def __init__(self) -> None:
        self.pages: list[list[Message]] = []
        self.lasting = True
        self.stale = False         # pages dropped because the game moved on

    def hold(self, reply: Reply) -> None:
        if reply.more:
            self.pages, self.lasting, self.stale = list(reply.more), reply.more_lasts, False

    def moved(self) -> None:
        """The game changed: pages about the board are out of date."""
        if self.pages and not self.lasting:
            self.pages, self.stale = [], True

    def next(self) -> Reply:
        if not self.pages:
            return Reply().say(OUT_OF_DATE if self.stale else NOTHING_MORE)
        return Reply(messages=self.pages.pop(0))
