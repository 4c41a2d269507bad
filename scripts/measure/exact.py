"""A fast exact solver for Galaxis positions (exact_solver.c, through ctypes): a
measuring tool for scripts/exact_gap.py, not part of play (level 3 solves its small
end games with the Python endgame.ExactSolver).

The fewest expected queries to find every ship from a set of placements, with the
same meaning as endgame.ExactSolver (every query counts, a certain ship is taken
at once, a query is a point not yet queried that may be a ship; with `buoys` also a
known-empty point whose answer still varies). Branch and bound in C with a memo and
a Kraft lower bound: about a thousand times faster than the Python solver, so
positions of a few hundred placements are solved in well under a second.

The C file is compiled once with the system C compiler into a per-user cache
directory (named by the source's hash), with the library's own hash written beside
it; a cached library without that hash, or with another, is built again, never
loaded (issue 12). Without a compiler `available()` is False. Calls are
serialised by a lock (the memo is one per process) and deterministic: the memo is
cleared for every call, and a node budget, not a clock, bounds the work.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from functools import lru_cache
from pathlib import Path

import numpy as np

# candidates are tried in the order of level 3's one-step estimate
from audio_console.galaxis.endgame import OVERHEAD_BASE, OVERHEAD_SLOPE

SOURCE = Path(__file__).with_name("exact_solver.c")
MEMO_LOG2 = int(os.environ.get("GALAXIS_EXACT_MEMO_LOG2", "21"))  # 2^21 entries of 32 bytes: 64 MB
_LOCK = threading.Lock()


class SolverUnavailable(RuntimeError):
    """No C compiler, or the build failed."""


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "audio_console"


def find_compiler() -> str | None:
    """The C compiler the solver is built with ($CC, cc or gcc), or None."""
    return shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _built_by_us(target: Path) -> bool:
    """Whether target is the library this console built: its hash is recorded beside
    it, and neither is writable by other users. Anything else is built again, never loaded."""
    stamp = target.with_name(target.name + ".sha256")
    try:
        for path in (target, stamp):
            info = path.stat()
            if info.st_uid != os.getuid() or info.st_mode & 0o022:
                return False
        return stamp.read_text().strip() == _digest(target)
    except OSError:
        return False


def _build(target: Path) -> None:
    compiler = find_compiler()
    if compiler is None:
        raise SolverUnavailable("no C compiler found for the exact solver")
    target.parent.mkdir(parents=True, exist_ok=True)
    # build beside the target, then rename: another process may build at once
    fd, tmp = tempfile.mkstemp(suffix=".so", dir=target.parent)
    os.close(fd)
    fd, tmp_stamp = tempfile.mkstemp(suffix=".sha256", dir=target.parent)
    os.close(fd)
    try:
        result = subprocess.run([compiler, "-O3", "-shared", "-fPIC", "-o", tmp, str(SOURCE), "-lm"],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise SolverUnavailable(f"building the exact solver failed: {result.stderr.strip()}")
        os.chmod(tmp, 0o755)
        Path(tmp_stamp).write_text(_digest(Path(tmp)) + "\n")
        os.chmod(tmp_stamp, 0o644)
        os.replace(tmp, target)
        os.replace(tmp_stamp, target.with_name(target.name + ".sha256"))
    finally:
        for path in (tmp, tmp_stamp):
            if os.path.exists(path):
                os.unlink(path)


@lru_cache(maxsize=None)
def _library() -> ctypes.CDLL:
    source = SOURCE.read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:16]
    target = _cache_dir() / f"galaxis_exact_{digest}.so"
    if not _built_by_us(target):
        _build(target)
        if not _built_by_us(target):   # replaced again at once by someone else
            raise SolverUnavailable("the exact solver's cached library could not be verified")
    lib = ctypes.CDLL(str(target))
    lib.exact_init.argtypes = [ctypes.c_int, ctypes.c_double, ctypes.c_double]
    lib.exact_init.restype = ctypes.c_int
    lib.exact_solve.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int,
                                ctypes.c_uint64, ctypes.c_int, ctypes.c_int64,
                                ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int64)]
    lib.exact_solve.restype = ctypes.c_double
    if lib.exact_init(MEMO_LOG2, OVERHEAD_BASE, OVERHEAD_SLOPE) != 0:
        raise SolverUnavailable("no memory for the exact solver's memo")
    return lib


@lru_cache(maxsize=None)
def available() -> bool:
    """Whether the solver can be used (built on the first call: a few tenths of a
    second, once per machine)."""
    try:
        _library()
        return True
    except (SolverUnavailable, OSError):
        return False


class Solution:
    __slots__ = ("point", "cost", "nodes")

    def __init__(self, point: int, cost: float, nodes: int):
        self.point, self.cost, self.nodes = point, cost, nodes

    def __repr__(self) -> str:
        return f"Solution(point={self.point}, cost={self.cost:.6f}, nodes={self.nodes})"


def solve(table: np.ndarray, alive, queried, budget: int = 0, buoys: bool = False) -> Solution | None:
    """The best query (a point index) and the least expected number of queries to
    find every ship, for the placements `alive` (indices into `table`'s columns)
    after the points `queried` (indices). None if more than `budget` nodes would be
    expanded (0: no limit). The ships left follow from the placements and `queried`."""
    lib = _library()
    if table.dtype != np.int8 or not table.flags.c_contiguous:
        raise ValueError("the answer table must be C-contiguous int8")
    alive = np.ascontiguousarray(alive, dtype=np.int32)
    mask = 0
    for q in queried:
        mask |= 1 << int(q)
    best = ctypes.c_int(-1)
    nodes = ctypes.c_int64(0)
    with _LOCK:
        cost = lib.exact_solve(table.ctypes.data, table.shape[1], alive.ctypes.data, len(alive),
                               mask, int(buoys), int(budget), ctypes.byref(best), ctypes.byref(nodes))
    if cost < 0:
        return None
    return Solution(int(best.value), float(cost), int(nodes.value))
