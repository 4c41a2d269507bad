"""The pager (console/pager.py) as a listener meets it: no page longer than its
budget of words, every line said once and in order, never cut in two, each page
ending with what to say next; `more` after the last says there is nothing more, and
asking anew drops the old pages."""
from audio_console.console.pager import NOTHING_MORE, Pager, paged


def line(words: int, tag: str) -> str:
    return " ".join([tag] + ["word"] * (words - 1))


def texts(reply) -> list[list[str]]:
    return [[m.text for m in page] for page in [reply.messages] + reply.more]


def test_lines_are_packed_whole_into_pages_within_the_budget():
    lines = [line(20, "one"), line(20, "two"), line(25, "three"), line(10, "four"), line(37, "five")]
    pages = texts(paged(lines, budget=50))     # room for 39 words, "Say more ..." aside
    assert [page[:-1] for page in pages] == [lines[0:1], lines[1:2], lines[2:4], lines[4:5]]
    assert all(sum(len(text.split()) for text in page) <= 50 for page in pages)
    assert [page[-1] for page in pages] == [
        "Say more for part 2 of 4, or go on playing.", "Say more for part 3 of 4, or go on playing.",
        "Say more for part 4 of 4, or go on playing.", "Last part. Say how to play to start again, or help for commands."]


def test_the_last_page_keeps_room_for_its_longer_last_line():
    lines = [line(30, "one"), line(20, "two"), line(19, "three")]
    pages = texts(paged(lines, budget=50))     # two and three fit a page of 50 with "Say more ...", not with "Last part ..."
    assert [page[:-1] for page in pages] == [lines[0:1], lines[1:2], lines[2:3]]
    assert all(sum(len(text.split()) for text in page) <= 50 for page in pages)


def test_short_rules_are_one_page_without_a_tail_and_none_are_no_page():
    assert texts(paged(["Short rules.", "Two lines."])) == [["Short rules.", "Two lines."]]
    reply = paged([])
    assert reply.messages == [] and reply.more == []


def test_a_line_longer_than_a_page_is_a_page_of_its_own_never_cut():
    long = line(60, "long")
    pages = texts(paged([line(5, "a"), long, line(5, "b")], budget=50))
    assert [page[:-1] for page in pages] == [[line(5, "a")], [long], [line(5, "b")]]


def test_more_gives_each_page_once_then_nothing_more_and_drop_forgets_them():
    reply = paged([line(30, "one"), line(30, "two"), line(30, "three")], budget=50)
    pager = Pager()
    pager.hold(reply)
    assert [m.text for m in pager.next().messages] == [m.text for m in reply.more[0]]
    assert [m.text for m in pager.next().messages] == [m.text for m in reply.more[1]]
    assert [m.text for m in pager.next().messages] == [NOTHING_MORE]
    pager.hold(reply)
    pager.drop()                                  # `rules` again: the old pages are not its
    assert [m.text for m in pager.next().messages] == [NOTHING_MORE]
