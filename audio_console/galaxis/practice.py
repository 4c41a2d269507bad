"""Practising Galaxis by ear: an ear-training drill and a guided tutorial.

The drill and the tutorial are small console adapters (GameAdapter) (the session runs them
like a game); the answers' explanations they say come from galaxis.explain, which the
review of a finished game (galaxis.review) uses too. Everything here is deterministic:
the drill's order comes from a random.Random seeded with the session's seed.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from audio_console.commands import Command, Grammar
from audio_console.commands.grammar import Rule, Slot, SlotOption
from audio_console.contract.adapter import GameAdapter, plain_lines
from audio_console.contract.base import InputError, Message, Reply
from audio_console.galaxis.board import answer, parse_point
from audio_console.galaxis.deduction import Deduction
from audio_console.galaxis.explain import answer_signal, explain_answer, ruled_out_sentence
from audio_console.galaxis.rules_summary import rules_lines
from audio_console.base.wording import NUMBER_WORDS, counted

# --- the signals of the drill --------------------------------------------------------

# What each signal of the drill is, said plainly (docs/signals.md).
SIGNAL_NAMES = {
    "answer_0": "answer 0, one long low tone",
    "answer_1": "answer 1, one beep",
    "answer_2": "answer 2, two beeps",
    "answer_3": "answer 3, three beeps",
    "answer_4": "answer 4, four beeps",
    "discovered": "discovered, two low-high pairs",
    "search": "the search signal, two rising sweeps",
    "stored": "position stored, two quick mid tones",
    "own_ship": "own ship revealed, a long very low tone",
    "time_warning": "time warning, ticks left and right",
}
ANSWER_SIGNALS = ["answer_0", "answer_1", "answer_2", "answer_3", "answer_4", "discovered"]
ALL_SIGNALS = list(SIGNAL_NAMES)


# --- ear training ---------------------------------------------------------------------

@dataclass
class EarDrill:
    """The scoring of an ear-training drill, apart from any console.

    A first pass through `items`; then each missed one is played again, and again
    at the end of the queue while it is named wrong, at most `retries` times. The
    score is what was named right the first time.
    """
    items: list[str]
    retries: int = 3
    position: int = 0
    first_pass_right: int = 0
    missed: list[str] = field(default_factory=list)
    queue: list[tuple[str, int]] = field(default_factory=list)   # (signal, times replayed)
    confusions: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def replaying(self) -> bool:
        return self.position >= len(self.items)

    @property
    def current(self) -> str | None:
        if not self.replaying:
            return self.items[self.position]
        return self.queue[0][0] if self.queue else None

    def finished(self) -> bool:
        return self.current is None

    def name(self, guess: str | None) -> bool:
        """The player names the current signal (None: skipped). Returns right or not."""
        signal = self.current
        if signal is None:
            raise InputError("The drill is over.")
        right = guess == signal
        if not right:
            key = (signal, guess or "skipped")
            self.confusions[key] = self.confusions.get(key, 0) + 1
        if not self.replaying:
            if right:
                self.first_pass_right += 1
            else:
                self.missed.append(signal)
            self.position += 1
            if self.replaying:
                self.queue = [(s, 0) for s in self.missed]
        else:
            _, times = self.queue.pop(0)
            if not right and times + 1 < self.retries:
                self.queue.append((signal, times + 1))
        return right

    def score(self) -> tuple[int, int]:
        return self.first_pass_right, len(self.items)


DRILLS = {"short": (ANSWER_SIGNALS, 8), "long": (ALL_SIGNALS, 24)}


def drill_items(kind: str, rng: random.Random) -> list[str]:
    """A shuffled drill: every signal of the kind at least once, then random ones."""
    if kind not in DRILLS:
        raise ValueError(f"no {kind!r} drill; choose short or long")
    signals, length = DRILLS[kind]
    items = list(signals)
    items += [rng.choice(signals) for _ in range(length - len(items))]
    rng.shuffle(items)
    return items


def _drill_grammar(signals: list[str]) -> Grammar:
    numbers = Slot("count", [SlotOption((w,), str(i)) for i, w in enumerate(NUMBER_WORDS[:5])]
                   + [SlotOption((str(i),), str(i), spoken=False) for i in range(5)])
    rules = [
        Rule("name answer", "answer {count}", ["[answer] <count>", "<count> beeps", "<count> beep"]),
        Rule("name discovered", "discovered", ["discovered", "ship", "found", "ship discovered"]),
        Rule("play again", "play again", ["play again", "again please", "play it again", "replay"]),
        Rule("skip", "skip", ["skip", "pass", "i do not know", "dont know"]),
    ]
    if "search" in signals:
        rules += [
            Rule("name search", "search", ["search", "search signal"]),
            Rule("name stored", "stored", ["stored", "position stored"]),
            Rule("name own ship", "own ship", ["own ship", "deep tone", "long deep tone"]),
            Rule("name time warning", "time warning", ["time warning", "warning", "ticks"]),
        ]
    return Grammar(rules, [numbers])


_GUESS_SIGNAL = {"discovered": "discovered", "search": "search", "stored": "stored",
                 "own ship": "own_ship", "time warning": "time_warning"}


class EarTraining(GameAdapter):
    """A console that plays signals and asks the player to name them."""
    game = "galaxis"
    title = "ear-training"
    needs_signals = True        # nothing to name without the console's sounds
    practice = True             # not saved: a drill never takes the game's save slot

    def __init__(self, kind: str = "short", seed: int = 0):
        self.kind = kind
        self.items = drill_items(kind, random.Random(f"ear:{kind}:{seed}"))
        self.drill = EarDrill(self.items)
        self.signals = DRILLS[kind][0]
        self._grammar = _drill_grammar(self.signals)

    # -- the protocol --------------------------------------------------------------
    def start(self) -> Reply:
        reply = Reply()
        reply.say(f"Ear training, {self.kind} drill: {len(self.items)} sounds. "
                  f"Name each one: {self._choices()}. Say play again to hear it again, skip to pass.")
        return reply.extend(self._ask())

    def grammar(self) -> Grammar:
        return self._grammar

    def prompt(self) -> str:
        if self.drill.finished():
            return "Drill over: say new game for another drill, or quit."
        return f"Name the sound: {self._choices()}."

    def status(self, now: float | None = None) -> list[str]:
        right, total = self.drill.score()
        if self.drill.finished():
            return [f"Drill over: {right} of {total} right the first time."]
        return [f"{self._where()}; {counted(right, 'sound')} named right so far."]

    def _choices(self) -> str:
        return "0 to 4, or discovered" if self.kind == "short" else \
            "0 to 4, discovered, search, stored, own ship or time warning"

    def rules_summary(self) -> list[str]:
        return rules_lines()

    def help(self) -> list[str]:
        lines = ["zero to four (or answer 3, three beeps): name a buoy answer",
                 "discovered: the ship-found signal"]
        if self.kind == "long":
            lines += ["search, stored, own ship, time warning: the other signals"]
        return lines + ["play again: hear the sound again", "skip: pass this one"]

    def act(self, command: Command, now: float = 0.0) -> Reply:
        if command.name in ("status", "summary"):
            return plain_lines(*self.status())
        if command.name == "undo":
            raise InputError("Nothing to undo: each sound is named once. Say skip to pass one.")
        if command.name == "hint":
            raise InputError("No hints in the drill: say play again to hear the sound again, or skip.")
        signal = self.drill.current
        if signal is None:
            raise InputError("The drill is over; say quit, or new game for another drill.")
        if command.name == "play again":
            return self._ask(again=True)
        guess = self._guess(command)
        right = self.drill.name(guess)
        reply = Reply(record=[command.text])
        if right:
            reply.say(f"Right: {SIGNAL_NAMES[signal]}.")
        elif guess is None:
            reply.say(f"Skipped: that was {SIGNAL_NAMES[signal]}.", signal=signal)
        else:
            reply.say(f"No: that was {SIGNAL_NAMES[signal]}, not {SIGNAL_NAMES[guess].split(',')[0]}.",
                      signal=signal)
        if self.drill.finished():
            return reply.extend(self._summary())
        return reply.extend(self._ask())

    def finished(self) -> bool:
        return self.drill.finished()

    # -- the drill --------------------------------------------------------------------
    def _guess(self, command: Command) -> str | None:
        if command.name == "skip":
            return None
        if command.name == "name answer":
            return f"answer_{command.get('count')}"
        signal = _GUESS_SIGNAL.get(command.text)
        if signal is None:
            raise InputError(f"Not a sound name: {command.text}. Name it {self._choices()}.")
        if signal not in self.signals:
            raise InputError(f"Not in the {self.kind} drill: {command.text}. Name it {self._choices()}.")
        return signal

    def _ask(self, again: bool = False) -> Reply:
        text = f"{self._where()}{' again' if again else ''}: what is it?"
        return Reply().say(text, signal=self.drill.current)

    def _where(self) -> str:
        drill = self.drill
        if not drill.replaying:
            return f"Sound {drill.position + 1} of {len(self.items)}"
        return f"Missed sound, {len(drill.queue)} to go"

    def _summary(self) -> Reply:
        right, total = self.drill.score()
        reply = Reply()
        reply.say(f"Drill over: {right} of {total} right the first time.")
        if self.drill.missed:
            counts: dict[str, int] = {}
            for s in self.drill.missed:
                counts[s] = counts.get(s, 0) + 1
            worst = ", ".join(f"{SIGNAL_NAMES[s].split(',')[0]} ({n})" for s, n in
                              sorted(counts.items(), key=lambda kv: -kv[1]))
            reply.say(f"Missed: {worst}.")
        return reply


# --- the guided tutorial ---------------------------------------------------------------

@dataclass(frozen=True)
class Lesson:
    title: str
    intro: str
    ships: tuple[str, ...]
    queries: tuple[str, ...]


LESSONS = [
    Lesson("The rulebook's example",
           "Four ships hide at F3, E5, D6 and B5. Row A is nearest you, G farthest; "
           "column 1 is on the left. We query six buoys and hear each answer.",
           ("F3", "E5", "D6", "B5"), ("C2", "C4", "E7", "C6", "D5", "F3")),
    Lesson("Radio shadow",
           "Ships at D3, D6, B2 and G9. A ship hides whatever lies behind it on the same "
           "beam, so a beam counts once however many ships it crosses.",
           ("D3", "D6", "B2", "G9"), ("D1", "D8", "C4", "D3")),
    Lesson("Ruling points out",
           "Ships at A1, C8, F5 and G2. When a buoy that answered 1 leads you to its ship, "
           "its other seven beams are empty; a 0 answer empties all eight beams.",
           ("A1", "C8", "F5", "G2"), ("D4", "A1", "E3", "B7", "C8")),
]


def lesson_steps(lesson: Lesson) -> list[list[Message]]:
    """Each step of a lesson: the query, its signal, the explanation, what it rules out."""
    ships = [parse_point(s) for s in lesson.ships]
    deduction = Deduction()
    steps = [[Message(f"Lesson: {lesson.title}. {lesson.intro}")]]
    for name in lesson.queries:
        point = parse_point(name)
        heard = answer(point, ships)
        before = set(deduction.ruled_out())
        deduction.observe(point, heard)
        newly = [p for p in deduction.ruled_out() if p not in before]
        step = [Message(f"Query {name}: answer {heard}.", signal=answer_signal(heard))]
        step += [Message(line) for line in explain_answer(point, ships)]
        step.append(Message(ruled_out_sentence(newly) + f" {deduction.count:,} placements left."))
        steps.append(step)
    return steps


class Tutorial(GameAdapter):
    """A console that walks through the lessons one step at a time."""
    game = "galaxis"
    title = "tutorial"
    practice = True             # not saved: a drill never takes the game's save slot

    def __init__(self, seed: int = 0):
        self.steps = [step for lesson in LESSONS for step in lesson_steps(lesson)]
        self.position = 0
        self._grammar = Grammar([
            Rule("next", "next", ["next", "go on", "continue", "ok"]),
            Rule("back", "back", ["back", "previous", "go back"]),
            Rule("play again", "play again", ["play again", "again please", "replay"]),
        ])

    def start(self) -> Reply:
        reply = Reply().say(f"Galaxis tutorial: {len(LESSONS)} lessons, "
                            f"{len(self.steps)} steps. Say next to go on, back, or play again.")
        return reply.extend(self._show())

    def grammar(self) -> Grammar:
        return self._grammar

    def prompt(self) -> str:
        if self.finished():
            return "Tutorial over: say quit, or new game."
        return f"Step {self.position + 1} of {len(self.steps)}: say next, back, or play again."

    def rules_summary(self) -> list[str]:
        return rules_lines()

    def help(self) -> list[str]:
        return ["next: the next step", "back: the step before", "play again: this step again"]

    def act(self, command: Command, now: float = 0.0) -> Reply:
        if command.name == "next":
            if self.finished():
                raise InputError("The tutorial is over; say quit, or new game.")
            self.position += 1
            if self.finished():
                return Reply(record=["next"]).say("Tutorial over. Try the ear training, "
                                                  "or a game of option 2.")
            return Reply(record=["next"]).extend(self._show())
        if command.name == "back":
            if self.position == 0:
                raise InputError("This is the first step; say next, or play again.")
            self.position -= 1
            return Reply(record=["back"]).extend(self._show())
        if command.name == "play again":
            if self.finished():
                raise InputError("The tutorial is over; say quit, or new game.")
            return self._show()
        if command.name in ("status", "summary"):
            return Reply().say(self.prompt())
        raise InputError(f"Not a tutorial command: {command.text}. Say next, back, or play again.")

    def finished(self) -> bool:
        return self.position >= len(self.steps)

    def _show(self) -> Reply:
        return Reply(messages=list(self.steps[self.position]))


PRACTICE_MODES = ("ear", "ear-long", "tutorial")


def create_practice(mode: str, seed: int):
    """The practice console for --practice MODE."""
    if mode == "ear":
        return EarTraining("short", seed)
    if mode == "ear-long":
        return EarTraining("long", seed)
    if mode == "tutorial":
        return Tutorial(seed)
    raise ValueError(f"no practice mode {mode!r}; choose ear, ear-long or tutorial")
