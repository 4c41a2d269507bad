"""Galaxis cues: each event in words and sound, in one table (docs/architecture.md).

A cue is the printed line, the spoken line and the signal. Team 1 sounds on the
left and team 2 on the right, like the lamps of the console. In option 1 the
queried coordinate is kept from the other team: the signal is public and the
coordinate goes to the text line only, never to the speakers.
"""
from __future__ import annotations

from audio_console.galaxis.board import DISCOVERED, format_point
from audio_console.galaxis.events import (
    Answered, GameOver, OwnShipRevealed, Reveal, Stored, TimedOut, TimeWarning, TurnPassed,
)
from audio_console.output.message import CENTRE, Message
from audio_console.base.wording import counted, number_word

# The words: {who} is "Team 1: " with two teams, "" alone; {point} the coordinate.
WORDS = {
    "answer_0": ("{who}{point} answered 0: no ship in sight.", "{who}{spoken_point}zero, no ship in sight."),
    "answer_n": ("{who}{point} answered {n}: {ships} sighted.", "{who}{spoken_point}{n_words}."),
    "discovered": ("{who}{point}: spaceship discovered! {found} of 4 found.{again}",
                   "{who}{spoken_point}spaceship discovered! {found} of 4.{again}"),
    "caution": ("Caution! Spaceship! ", "Caution, spaceship! "),
    "own_ship": ("{who}{point} was your own ship: the long deep tone. Team {rival} gets it, {rival_found} of 4.",
                 "{who}{spoken_point}your own ship! Team {rival} gets it."),
    "stored": ("Team {team}: position {count} of 4 stored.", "Stored, {count_words}."),
    "store_next": ("Team {team}: store your four positions, secret from team {rival}.",
                   "Team {team}, store your four positions."),
    "store_computer": ("Team {team}: the computer stores its four positions.", "The computer stores."),
    "search_begins": ("All positions stored. Team {team} begins the search.",
                      "All stored. Team {team} begins the search."),
    "turn": ("Team {team}: your query.", "Team {team}."),
    "turn_computer": ("Team {team}: the computer's query.", "The computer."),
    # Option 1: another team's answer, its point kept from you.
    "hidden_0": ("{who}answered 0: no ship in sight.", "{who}zero."),
    "hidden_n": ("{who}answered {n}: {ships} sighted.", "{who}{n_words}."),
    "hidden_discovered": ("{who}spaceship discovered! {found} of 4 found.",
                          "{who}spaceship discovered! {found} of 4."),
    "time_warning": ("Team {team}: {seconds} left!", "{seconds}!"),
    "time_out": ("Team {team}: time is up; the turn passes.", "Time is up."),
    "win_alone": ("All four ships found in {queries} queries{best}.", "All four ships found, in {queries} queries{best}."),
    "win_team": ("Team {winner} wins! All four ships found. Queries: {tally}.",
                 "Team {winner} wins!"),
    "reveal": ("The ships were at {ships}.", "The ships were at {ships}."),
    "reveal_teams": ("Team 1's positions were {ships1}; team 2's were {ships2}.",
                     "Team 1's positions were {ships1}; team 2's were {ships2}."),
}


def _fill(key: str, side: int, signal: str | None = None, **values) -> Message:
    text, speech = WORDS[key]
    return Message(text.format(**values), speech.format(**values), signal, side)


def _points(points) -> str:
    names = [format_point(p) for p in points]
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


class GalaxisCues:
    def __init__(self, option: int, best: int = 0):
        self.option = option
        self.best = best      # option 2: fewest queries so far, 0 if none
        self.computer_team: int | None = None   # its points are kept from the player in option 1
        self.private = False     # option 1, two human teams: no point printed either

    def who(self, team: int) -> str:
        return f"Team {team}: " if self.option != 2 else ""

    def side(self, team: int) -> int:
        return CENTRE if self.option == 2 else team

    def messages(self, event) -> list[Message]:
        if isinstance(event, Answered):
            return self._answered(event)
        if isinstance(event, OwnShipRevealed):
            return [Message("", None, "search", self.side(event.team)),
                    _fill("own_ship", self.side(event.team), "own_ship", who=self.who(event.team),
                          point=format_point(event.point), spoken_point=format_point(event.point) + ", ",
                          rival=2 if event.team == 1 else 1, rival_found=event.opponent_found)]
        if isinstance(event, Stored):
            return [_fill("stored", self.side(event.team), "stored", team=event.team,
                          count=event.count, count_words=number_word(event.count))]
        if isinstance(event, TurnPassed):
            key = ("store_computer" if event.phase == "storing" and event.team == self.computer_team
                   else "store_next" if event.phase == "storing"
                   else "search_begins" if event.phase_begins
                   else "turn_computer" if event.team == self.computer_team else "turn")
            return [_fill(key, event.team, "turn", team=event.team, rival=2 if event.team == 1 else 1)]
        if isinstance(event, TimeWarning):
            return [_fill("time_warning", event.team, "time_warning", team=event.team,
                          seconds=counted(round(event.seconds_left), "second"))]
        if isinstance(event, TimedOut):
            return [_fill("time_out", event.team, "time_out", team=event.team)]
        if isinstance(event, GameOver):
            return [self._game_over(event)]
        if isinstance(event, Reveal):
            if self.option == 3:
                return [_fill("reveal_teams", CENTRE, ships1=_points(event.ships[2]),
                              ships2=_points(event.ships[1]))]
            return [_fill("reveal", CENTRE, ships=_points(next(iter(event.ships.values()))))]
        return []

    def _answered(self, event: Answered) -> list[Message]:
        side, point = self.side(event.team), format_point(event.point)
        # Option 1: the coordinate stays off the speakers (the other team listens too).
        spoken_point = "" if self.option == 1 else point + ", "
        values = dict(who=self.who(event.team), point=point, spoken_point=spoken_point)
        hidden = self.option == 1 and event.team == self.computer_team
        if hidden and event.answer == DISCOVERED:
            message = _fill("hidden_discovered", side, "discovered", found=event.found, **values)
        elif hidden and event.answer == 0:
            message = _fill("hidden_0", side, "answer_0", **values)
        elif hidden:
            n = event.answer
            assert isinstance(n, int)    # the only word, DISCOVERED, was taken above
            message = _fill("hidden_n", side, f"answer_{n}", n=n, n_words=number_word(n), ships=counted(n, "ship", words=True), **values)
        elif event.answer == DISCOVERED:
            again = " Query again." if event.found < 4 else ""
            message = _fill("discovered", side, "discovered", found=event.found, again=again, **values)
        elif event.answer == 0:
            message = _fill("answer_0", side, "answer_0", **values)
        else:
            n = event.answer
            assert isinstance(n, int)    # the only word, DISCOVERED, was taken above
            message = _fill("answer_n", side, f"answer_{n}", n=n, n_words=number_word(n), ships=counted(n, "ship", words=True), **values)
        if self.option == 1 and self.private and not hidden:
            # Two human teams: the printed line keeps the point off the screen too.
            key = {DISCOVERED: "hidden_discovered", 0: "hidden_0"}.get(event.answer, "hidden_n")
            n = event.answer if isinstance(event.answer, int) else 0
            message.text = WORDS[key][0].format(found=event.found, n=n, n_words=number_word(n), ships=counted(n, "ship", words=True), **values)
        if event.caution:
            text, speech = WORDS["caution"]
            message = Message(text + message.text, speech + message.spoken, message.signal, side)
        return [Message("", None, "search", side), message]

    def _game_over(self, event: GameOver) -> Message:
        if self.option == 2:
            queries = event.queries[1]
            if self.best and queries < self.best:
                best = f"; a new best, beating {self.best}"
            elif self.best:
                best = f"; your best is {self.best}"
            else:
                best = ""
            return _fill("win_alone", CENTRE, "victory", queries=queries, best=best)
        tally = ", ".join(f"team {t} {n}" for t, n in sorted(event.queries.items()))
        return _fill("win_team", event.winner, "victory", winner=event.winner, tally=tally)
