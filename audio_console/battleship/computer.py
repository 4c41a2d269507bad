"""Computer players for Battleship: Outer Space, three levels.

All of them see only what a human shooter sees: their own shots, hit or miss, and
the ships announced vaporized after each shot (rules.Observation).

1 cadet     calls rows in a random order, skipping rows that can no longer hold
            an unhit hole (known empty or already hit).
2 pilot     weighs each ship's places on its own (ruled out by misses and by the
            vaporized announcements, favoured where they cross hit lines) and calls
            the line with the most unhit holes expected.
3 commander reasons over whole fleets: it samples fleet placements that agree with
            every hit, miss and announcement (no overlap, every hit line holds a
            hole, each vaporized ship fully hit exactly when announced, the others
            not) and calls the line with the most unhit holes expected over them.
            (A bonus for the information in the answer, or for clearing open
            cells with a miss, was tried and made it worse in the benchmark.)

Deterministic: the choice depends only on the observations and the random.Random
handed in (the console seeds it from the game seed and the move number). Work is
bounded by counts, never by the clock, so a replay makes the same moves.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from audio_console.battleship.board import ALL_LINES, COLUMN, SECTORS, SIZE, Line, placements_in_sector
from audio_console.battleship.events import Observation
from audio_console.battleship.footprints import SHIP_NAMES

LEVELS = {1: "cadet", 2: "pilot", 3: "commander"}
N_CELLS = len(SECTORS) * SIZE * SIZE      # 300
N_LINES = len(ALL_LINES)                  # 60

SAMPLES = 96            # fleets sampled per move by the commander
NODE_BUDGET = 4000      # search steps per move, a bound on the commander's time
CHAINS = 4              # independent starting fleets for the Gibbs sampler
BURN_IN = 2             # sweeps before a chain's fleets are used


def cell_index(cell) -> int:
    return (cell.sector - 1) * 100 + cell.row * SIZE + cell.column


def line_index(line: Line) -> int:
    return (line.sector - 1) * 20 + (SIZE if line.kind == COLUMN else 0) + line.position


@lru_cache(maxsize=None)
def _line_cells() -> np.ndarray:
    """(60, 300) bool: which cells lie on which line."""
    table = np.zeros((N_LINES, N_CELLS), dtype=bool)
    for line in ALL_LINES:
        for cell in line.cells():
            table[line_index(line), cell_index(cell)] = True
    return table


@dataclass(frozen=True)
class _Candidates:
    """Every distinct place of one ship in any sector."""
    cells: np.ndarray     # (K, 300) bool
    packed: np.ndarray    # (K, 5) uint64: the same cells as bit words, for overlap tests
    lines: np.ndarray     # (K,) uint64: bit i set when the ship has a hole on line i


@lru_cache(maxsize=None)
def _candidates(ship: str) -> _Candidates:
    seen: dict[frozenset[int], None] = {}   # an ordered set: the same cells once
    for sector in SECTORS:
        for placement in placements_in_sector(ship, sector):
            key = frozenset(cell_index(c) for c in placement.cells())
            seen.setdefault(key, None)
    cells = np.zeros((len(seen), N_CELLS), dtype=bool)
    for k, key in enumerate(seen):
        cells[k, list(key)] = True
    return _Candidates(cells, _pack(cells), _lines_of(cells))


def _pack(cells: np.ndarray) -> np.ndarray:
    padded = np.zeros((cells.shape[0], 320), dtype=bool)
    padded[:, :N_CELLS] = cells
    return np.packbits(padded, axis=1, bitorder="little").view(np.uint64)


def _lines_of(cells: np.ndarray) -> np.ndarray:
    touches = (cells.astype(np.uint8) @ _line_cells().T.astype(np.uint8)) > 0     # (K, 60)
    weights = (np.uint64(1) << np.arange(N_LINES, dtype=np.uint64))
    return np.bitwise_or.reduce(np.where(touches, weights, np.uint64(0)), axis=1)


@dataclass
class Knowledge:
    """What a shooter knows, in array form."""
    called: np.ndarray        # (60,) bool
    hit_lines: np.ndarray     # (60,) bool
    covered: np.ndarray       # (300,) bool: holes on a called line (hit if a ship is there)
    empty: np.ndarray         # (300,) bool: on a missed line, so certainly no ship
    vaporized: dict[str, tuple[np.ndarray, np.ndarray]]   # ship -> (covered before, covered after)

    @classmethod
    def from_observations(cls, observations: list[Observation]) -> "Knowledge":
        lines = _line_cells()
        called = np.zeros(N_LINES, dtype=bool)
        hit_lines = np.zeros(N_LINES, dtype=bool)
        covered = np.zeros(N_CELLS, dtype=bool)
        empty = np.zeros(N_CELLS, dtype=bool)
        vaporized = {}
        for obs in observations:
            i = line_index(obs.line)
            before = covered.copy()
            called[i] = True
            covered |= lines[i]
            if obs.hit:
                hit_lines[i] = True
            else:
                empty |= lines[i]
            for ship in obs.vaporized:
                vaporized[ship] = (before, covered.copy())
        return cls(called, hit_lines, covered, empty, vaporized)

    def possible(self, ship: str) -> np.ndarray:
        """(K,) bool: the places of `ship` that agree with the misses and with the
        vaporized announcements taken one ship at a time."""
        cells = _candidates(ship).cells
        ok = ~(cells & self.empty).any(axis=1)
        if ship in self.vaporized:
            before, after = self.vaporized[ship]
            ok &= ~(cells & ~after).any(axis=1)         # all its holes hit by then
            ok &= (cells & ~before).any(axis=1)         # ...but not one shot sooner
        else:
            ok &= (cells & ~self.covered).any(axis=1)   # still has an unhit hole
        return ok

    def useful_lines(self) -> np.ndarray:
        """(60,) bool: uncalled lines with a cell that is neither hit already nor known empty."""
        open_cells = ~self.covered & ~self.empty
        return ~self.called & (_line_cells() & open_cells).any(axis=1)


_LINES_BY_INDEX: list[Line] = sorted(ALL_LINES, key=line_index)


def _line_at(index: int) -> Line:
    return _LINES_BY_INDEX[index]


def _pick(scores: np.ndarray, allowed: np.ndarray, rng: random.Random) -> Line:
    """The allowed line with the best score; ties broken by rng."""
    indices = np.flatnonzero(allowed)
    best = scores[indices].max()
    ties = [int(i) for i in indices if scores[i] >= best - 1e-9]
    return _line_at(rng.choice(ties))


def _fallback(knowledge: Knowledge) -> np.ndarray:
    useful = knowledge.useful_lines()
    return useful if useful.any() else ~knowledge.called


# --- level 1 ------------------------------------------------------------------

def choose_cadet(knowledge: Knowledge, rng: random.Random) -> Line:
    """Rows in a random order, skipping any that can no longer hold an unhit hole;
    columns only when every row is called."""
    allowed = _fallback(knowledge)
    rows = allowed & np.array([line.kind != COLUMN for line in _LINES_BY_INDEX])
    pool = rows if rows.any() else allowed
    return _line_at(rng.choice([int(i) for i in np.flatnonzero(pool)]))


# --- level 2 ------------------------------------------------------------------

def choose_pilot(knowledge: Knowledge, rng: random.Random) -> Line:
    hit_bits = _bits(knowledge.hit_lines)
    expected = np.zeros(N_CELLS)
    for ship in SHIP_NAMES:
        if ship in knowledge.vaporized:
            continue
        candidates = _candidates(ship)
        ok = knowledge.possible(ship)
        if not ok.any():
            continue
        crossings = _popcount(candidates.lines[ok] & np.uint64(hit_bits))
        weights = 3.0 ** crossings
        expected += (weights[:, None] * candidates.cells[ok]).sum(axis=0) / weights.sum()
    gain = _line_cells() @ (expected * ~knowledge.covered)
    allowed = _fallback(knowledge)
    return _pick(gain, allowed, rng)


# --- level 3 ------------------------------------------------------------------

def sample_fleets(knowledge: Knowledge, rng: random.Random, samples: int | None = None,
                  budget: int | None = None) -> np.ndarray:
    """Up to `samples` fleets (as (n, 300) bool occupancy) that agree with everything
    known, found by a randomised search that is bounded by `budget` steps."""
    samples = samples or SAMPLES
    nprng = np.random.default_rng(rng.getrandbits(64))
    need_all = np.uint64(_bits(knowledge.hit_lines))
    ships = _Ships.of(knowledge)
    if ships is None:
        return np.zeros((0, N_CELLS), dtype=bool)
    # A few starting fleets from the search, then Gibbs sweeps: each ship in turn is
    # moved to a place drawn uniformly from those that keep the whole fleet agreeing
    # with the evidence. That samples the consistent fleets evenly, where the search
    # alone favours some.
    starts = _search_starts(ships, need_all, budget or NODE_BUDGET, nprng)
    if not starts:
        return np.zeros((0, N_CELLS), dtype=bool)
    found = _gibbs(ships, starts, need_all, -(-samples // len(starts)), nprng)
    return np.array(found[:samples], dtype=bool).reshape(-1, N_CELLS)


@dataclass
class _Ships:
    """The places each ship may still be, most constrained ship first."""
    cands: list[_Candidates]     # each ship's every place
    index: list[np.ndarray]      # the places still possible, into cands
    lines: list[np.ndarray]      # the lines each possible place lies in (bits)
    packed: list[np.ndarray]     # the cells each possible place covers (packed bits)
    rest: list[np.uint64]        # lines the ships after depth d could reach at all: a bound for pruning

    @classmethod
    def of(cls, knowledge: Knowledge) -> _Ships | None:
        ships = []
        for ship in SHIP_NAMES:
            ok = np.flatnonzero(knowledge.possible(ship))
            if len(ok) == 0:
                return None
            ships.append((ship, ok))
        ships.sort(key=lambda item: len(item[1]))          # most constrained first
        cands = [_candidates(ship) for ship, _ in ships]
        index = [ok for _, ok in ships]
        lines = [c.lines[ok] for c, ok in zip(cands, index)]
        rest = [np.uint64(0)] * (len(ships) + 1)
        for d in range(len(ships) - 1, -1, -1):
            rest[d] = rest[d + 1] | np.bitwise_or.reduce(lines[d])
        return cls(cands, index, lines, [c.packed[ok] for c, ok in zip(cands, index)], rest)


def _search_starts(ships: _Ships, need_all: np.uint64, budget: int, nprng) -> list[list[int]]:
    """Up to CHAINS fleets found by a depth-first search, in `budget` steps in all."""
    lines, packed, rest = ships.lines, ships.packed, ships.rest
    steps = 0

    def search(depth: int, occupied: np.ndarray, need: np.uint64, chosen: list[int]) -> bool:
        nonlocal steps
        if depth == len(lines):
            return True
        steps += 1
        free = ~(packed[depth] & occupied).any(axis=1)
        left = need & ~lines[depth]
        fits = free & ((left & ~rest[depth + 1]) == 0)
        options = np.flatnonzero(fits)
        if len(options) == 0:
            return False
        # Favour places that cover hit lines still unexplained (they are likelier).
        covers = _popcount(lines[depth][options] & need)
        keys = nprng.random(len(options)) ** (1.0 / (4.0 ** covers))
        for k in options[np.argsort(-keys)][:8]:
            if steps > budget:
                return False
            chosen.append(int(k))
            if search(depth + 1, occupied | packed[depth][k], left[k], chosen):
                return True
            chosen.pop()
        return False

    starts: list[list[int]] = []
    while len(starts) < CHAINS and steps < budget:
        chosen: list[int] = []
        if search(0, np.zeros(5, dtype=np.uint64), need_all, chosen):
            starts.append(chosen)
    return starts


def _gibbs(ships: _Ships, starts: list[list[int]], need_all: np.uint64, sweeps: int, nprng) -> list[np.ndarray]:
    """`sweeps` fleets from each start, after BURN_IN sweeps (the starts are moved on)."""
    lines, packed = ships.lines, ships.packed
    found: list[np.ndarray] = []
    for chosen in starts:
        for sweep in range(BURN_IN + sweeps):
            for depth in range(len(lines)):
                occupied = np.zeros(5, dtype=np.uint64)
                covered = np.uint64(0)
                for d, k in enumerate(chosen):
                    if d != depth:
                        occupied |= packed[d][k]
                        covered |= lines[d][k]
                need = need_all & ~covered
                ok = ~(packed[depth] & occupied).any(axis=1) & ((need & ~lines[depth]) == 0)
                options = np.flatnonzero(ok)
                chosen[depth] = int(options[nprng.integers(len(options))])
            if sweep >= BURN_IN:
                fleet = np.zeros(N_CELLS, dtype=bool)
                for depth, k in enumerate(chosen):
                    fleet |= ships.cands[depth].cells[ships.index[depth][k]]
                found.append(fleet)
    return found


def choose_commander(knowledge: Knowledge, rng: random.Random) -> Line:
    return _commander_pick(knowledge, sample_fleets(knowledge, rng), rng)


def _commander_pick(knowledge: Knowledge, fleets: np.ndarray, rng: random.Random) -> Line:
    allowed = ~knowledge.called
    if len(fleets) == 0:
        return choose_pilot(knowledge, rng)
    table = _line_cells().astype(np.float32)
    unhit = (fleets & ~knowledge.covered).astype(np.float32) @ table.T            # (n, 60)
    score = unhit.mean(axis=0)      # unhit holes the line is expected to hit
    if not (score[allowed] > 0).any():
        return choose_pilot(knowledge, rng)
    return _pick(score, allowed, rng)


def hint(observations: list[Observation], rng: random.Random) -> tuple[Line, str]:
    """The commander's line for a player's hint, and why, in one sentence (the same
    fleets as choose_commander draws from the same rng)."""
    knowledge = Knowledge.from_observations(observations)
    fleets = sample_fleets(knowledge, rng)
    line = _commander_pick(knowledge, fleets, rng)
    unhit = (fleets & ~knowledge.covered)[:, _line_cells()[line_index(line)]]
    if len(fleets) == 0 or not unhit.any():        # the pilot's choice: no sampled fleet there
        return line, "it can still hold a hole not yet hit."
    share = float(unhit.any(axis=1).mean())
    holes = float(unhit.sum(axis=1).mean())
    return line, (f"of {len(fleets)} fleets that agree with your shots, {share:.0%} have a hole "
                  f"not yet hit on it; it should hit about {holes:.1f} new holes, the most of any line.")


# --- helpers ------------------------------------------------------------------

def _bits(flags: np.ndarray) -> int:
    return sum(1 << int(i) for i in np.flatnonzero(flags))


_POP8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def _popcount(words: np.ndarray) -> np.ndarray:
    as_bytes = np.ascontiguousarray(words, dtype=np.uint64).view(np.uint8).reshape(-1, 8)
    return _POP8[as_bytes].sum(axis=1)


CHOOSERS = {1: choose_cadet, 2: choose_pilot, 3: choose_commander}


def choose_line(observations: list[Observation], level: int, rng: random.Random) -> Line:
    """The line the computer at `level` calls next, given its own observations."""
    if level not in CHOOSERS:
        raise ValueError(f"there is no computer level {level}; levels are 1, 2 and 3")
    return CHOOSERS[level](Knowledge.from_observations(observations), rng)


def move_rng(seed: int, player: int, move: int) -> random.Random:
    """The computer's random source for one move: from the game seed and move number."""
    return random.Random(f"battleship:{seed}:{player}:{move}")
