"""The review of a finished Galaxis game: each query of one team in order, what it
answered, what it ruled out, the placements left and what the hint would have been
(option 3: what the other team's announced queries gave away or closed)."""
from __future__ import annotations

from dataclasses import dataclass

from audio_console.contract.base import Message
from audio_console.galaxis.board import DISCOVERED, Point, format_point
from audio_console.galaxis.deduction import Deduction
from audio_console.galaxis.explain import answer_signal, ruled_out_sentence
from audio_console.base.wording import counted


@dataclass(frozen=True)
class ReviewStep:
    """One moment of a finished game, as the reviewed team lived it: its own query
    ("query", with the answer or None), its own ship given away by that query
    ("own ship"), a ship the other team gave away ("given"), or a point the other
    team announced and so is empty for this team ("closed", option 3)."""
    kind: str
    point: Point
    heard: int | str | None = None


def review_steps(log, team: int, stored_by_other=()) -> list[ReviewStep]:
    """A game's query log (GalaxisGame.log) as the steps `team` can review, in order."""
    steps = []
    for who, point, heard, gave_away in log:
        if who == team:
            if gave_away:
                steps.append(ReviewStep("own ship", point))
            if heard is not None or not gave_away:
                steps.append(ReviewStep("query", point, heard))
        elif gave_away:
            steps.append(ReviewStep("given", point))
        elif point not in stored_by_other:
            steps.append(ReviewStep("closed", point))
    return steps


def review(history, team: int | None = None, exclude=()) -> list[Message]:
    """Each query of a finished game, in order: what it answered, what it ruled out,
    placements left, and what the hint would have been. `history` is (point, answer)
    pairs, or ReviewStep items when another team's queries told this team something
    (option 3). `team` names the team when there were two; `exclude` are points the
    hint leaves out (the team's own stored positions)."""
    steps = [s if isinstance(s, ReviewStep) else ReviewStep("query", Point(*s[0]), s[1])
             for s in history]
    deduction = Deduction()
    queries = 0
    asked: set[Point] = set()
    lines = []
    for step in steps:
        name = format_point(step.point)
        if step.kind == "closed":
            deduction.mark_empty(step.point)
            continue
        if step.kind == "given":
            deduction.observe(step.point, DISCOVERED)
            lines.append(Message(f"{name} was given away by the other team: a ship for you.",
                                 signal="discovered"))
            continue
        queries += 1
        again = step.point in asked      # option 3: the caution query after an own ship
        asked.add(step.point)
        if step.kind == "own ship" or step.heard is None:   # no answer: an own ship, queried
            lines.append(Message(f"Query {queries}: {name} was your own ship, given to the other "

                                 "team.", signal="own_ship"))
            continue
        hint = deduction.best_query(exclude=exclude)
        before_count = deduction.count
        before = set(deduction.ruled_out())
        deduction.observe(step.point, step.heard)
        newly = [p for p in deduction.ruled_out() if p not in before]
        text = f"Query {queries}{', caution' if again else ''}: {name} answered {step.heard}."
        if step.heard != DISCOVERED:
            text += " " + ruled_out_sentence(newly)
        text += f" Placements left: {deduction.count:,} of {before_count:,}."
        if hint is not None and hint.point != step.point and not hint.certain_ship:
            text += f" The hint would have been {format_point(hint.point)}."
        elif hint is not None and hint.point != step.point:
            text += f" {format_point(hint.point)} was already a certain ship."
        lines.append(Message(text, signal=answer_signal(step.heard)))
    who = f"Team {team}: r" if team is not None else "R"
    found = len(deduction.found)
    end = "team {t} found".format(t=team) if team is not None else ""
    summary = (f"End of review: {end + ' ' if end else ''}{found} of 4 ships"
               f"{'' if end else ' found'} in {counted(queries, 'query', 'queries')}.")
    return [Message(f"{who}eview of {counted(queries, 'query', 'queries')}.")] + lines + [Message(summary)]
