"""Long answers a page at a time: the first page is said, the rest waits for `more`.

A listener cannot skim, nor hold much more than 20 seconds of speech in mind before
the next choice. The rules in short are said a page (as many of their lines as fit in
PAGE_WORDS) at a time, each page ending with what to say next; `stop` or typing still
cuts a page off, `repeat` says the page again and `rules` starts over. Arkade's list
of moves uses the same `more` (Reply.more); pages that describe the board are dropped
when the game changes, so that `more` never names a move that is no longer there."""
from __future__ import annotations

from audio_console.contract.base import Message, Reply

# Words on one page, its last line included, counted as text.split() counts them ("B1"
# is one word): at the default rate espeak-ng says 2.7 to 3.6 of them a second in the
# rules (the slowest: numbers and short clauses), so a page lasts at most about 20 s
# (scripts/bench_rules_speech.py; docs/measurements/rules-speech.md).
PAGE_WORDS = 55
NOTHING_MORE = "Nothing more to say: that was all of it. Say repeat to hear it again."
OUT_OF_DATE = "The rest of that list is out of date: the game has moved on. Ask again."
# "how to play", not "rules": said alone, "rules" is often heard as "hint" (docs/commands.md)
LAST_PAGE = "Last part. Say how to play to start again, or help for commands."


def next_page(number: int, count: int, going_on: str = "playing") -> str:
    """The last line of every page but the last: what `more` brings, and that it can
    wait (going_on: "playing" in a game, "choosing" in the menu)."""
    return f"Say more for part {number + 1} of {count}, or go on {going_on}."


def words(lines: list[str]) -> int:
    return sum(len(line.split()) for line in lines)


def paged(lines: list[str], budget: int = PAGE_WORDS, going_on: str = "playing") -> Reply:
    """`lines` in pages of at most `budget` words, each page ending with what to say
    next; a line is never split (so keep each under the budget, less its last line)."""
    room = budget - words([next_page(9, 9, going_on)])
    pages: list[list[str]] = []
    for line in lines:
        if pages and words(pages[-1]) + words([line]) <= room:
            pages[-1].append(line)
        else:
            pages.append([line])
    if len(pages) > 1 and len(pages[-1]) > 1 and words(pages[-1] + [LAST_PAGE]) > budget:
        pages.append([pages[-1].pop()])          # the last page's own last line is longer
    if len(pages) > 1:
        for number, page in enumerate(pages, 1):
            page.append(next_page(number, len(pages), going_on) if number < len(pages) else LAST_PAGE)
    shown = [[Message(line) for line in page] for page in pages]
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

    def drop(self) -> None:
        """A new long answer is asked for: the old one's pages are not its."""
        self.pages, self.stale = [], False

    def moved(self) -> None:
        """The game changed: pages about the board are out of date."""
        if self.pages and not self.lasting:
            self.pages, self.stale = [], True

    def next(self) -> Reply:
        if not self.pages:
            return Reply().say(OUT_OF_DATE if self.stale else NOTHING_MORE)
        return Reply(messages=self.pages.pop(0))
