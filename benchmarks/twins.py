"""Each hot kernel against its plain-Python twin: microseconds per call and the ratio.

    python benchmarks/twins.py [--only NAME,NAME] [--budget S] [--tiny] [--json]

The twin of a kernel is ``<module>._kernels.plain(name)``
(:func:`tronlab.jit.kernels.plain`): the kernel's own Python function with every
kernel it calls swapped for its plain copy too, so no compiled code runs.  For
each entry below the script calls the compiled kernel and its twin once each,
each on its own deep copy of the same arguments (so neither sees an array the
other wrote), checks that they agree (the return value, the outputs the entry
names, and every array of the arguments after the call), and times both:

* **compiled**: a ``@njit`` loop calls the numba dispatcher ``reps`` times (the
  Python-to-numba call, ~0.3-0.5 us, is not counted: hot kernels are called
  from compiled code) -- except the three searches, below;
* **python**: a Python loop calls the twin.

Both are the fastest of batches run for about ``--budget`` seconds each (the
batch least disturbed by other jobs; see ``benchmarks/timing.py``), and the
ratio is python / compiled.  Kernels that change their inputs (the opponent
model) restore them from a copy before every call, on both sides alike.  The
two searches (``negamax_kernel``, ``nash_search_kernel``) run a fixed-depth
search on a small board from a cleared table each call, so every call visits
the same nodes: the node counts of kernel and twin are asserted equal, and
the table is cleared outside the timed call.  These three (``negamax``,
``nash_search``, ``endgame``) are timed one call at a time from Python, so
their compiled figure *does* include the Python-to-numba call with its 14-26
arguments: a compiled no-op taking the same arguments cost 6 us (endgame),
17 us (nash_search) and 22 us (negamax) a call on the 2-core machine of
session 50 (load about 2), some 7-9% of the measured times; the text report
marks them ``incl. call``.  Every board comes from the
package (built-in maps, :mod:`tronlab.tron.mapgen`, ASCII), so nothing beside
the checkout is needed.  ``--tiny`` runs everything on small boards with
tiny budgets (what ``tests/test_benchmarks.py`` does: agreement, not speed).

Each compiled kernel must also allocate nothing when it runs (scratch arrays
are made once and passed in): the script counts numba's heap allocations
(``NUMBA_NRT_STATS``, switched on here) of three calls from a compiled loop
against one call, so the arguments' unboxing cancels out, and flags a kernel
that allocates (``allocs_per_call`` in the JSON; the exit status is then 1).

The twins' numpy-scalar arithmetic wraps around on purpose (unsigned steps of
``-stride``); its overflow warnings are silenced here.  The searches' twins
read the clock through ``tronlab.jit.clock.clock_ns``, which from Python reads
the compiled code's clock with ``now_ns``.  A twin that raises is
reported in one line (where it failed) instead of a time, and the script
exits with status 1 then, as when a twin disagrees.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time
import warnings
from typing import Callable, NamedTuple

import numpy as np

os.environ.setdefault("NUMBA_NRT_STATS", "1")   # before numba loads: count its allocations
from numba import njit  # noqa: E402
from numba.core.runtime import rtsys  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, ROOT)

from timing import per_call  # noqa: E402
from tronlab import Board, codingame_board, load_builtin  # noqa: E402
from tronlab.capture import enclosure, lshapes, opponent, rects  # noqa: E402
from tronlab.grid import flood, multivoronoi, parity  # noqa: E402
from tronlab.grid.ring import POTENTIAL_ARTICULATION  # noqa: E402
from tronlab.jit.clock import NO_DEADLINE  # noqa: E402
from tronlab.tron import (alphabeta, chambers, endgame, evaluate, nash_search,  # noqa: E402
                          spacefill)
from tronlab.tron.chamber_build import chamber_flags  # noqa: E402
from tronlab.tron.nash_searcher import NashSearcher  # noqa: E402
from tronlab.tron.search import N_STATS, S_NODES, Searcher  # noqa: E402


# ---------------------------------------------------------------------------
# compiled loops
# ---------------------------------------------------------------------------
@njit
def repeat(f, reps, args):
    """``f(*args)`` ``reps`` times from compiled code; the last result."""
    r = f(*args)
    for _ in range(reps - 1):
        r = f(*args)
    return r


@njit
def repeat_restoring(f, reps, args, work, saved):
    """As :func:`repeat`, copying ``saved[i]`` into ``work[i]`` (int8 and int64
    arrays, the inputs ``f`` changes) before every call."""
    r = f(*args)
    for _ in range(reps - 1):
        work[0][:] = saved[0]
        for i in range(len(saved[1])):
            work[1][i][:] = saved[1][i]
        r = f(*args)
    return r


def restore_py(work, saved):
    work[0][:] = saved[0]
    for w, s in zip(work[1], saved[1]):
        w[:] = s


# ---------------------------------------------------------------------------
# entries: arguments, what to compare, how to call
# ---------------------------------------------------------------------------
class Case(NamedTuple):
    args: tuple
    outputs: Callable       # (args, result) -> a comparable summary
    work: tuple = ()        # (int8 array, [int64 arrays]) the kernel changes, else ()
    fresh: Callable = None  # searches: () -> args with the table cleared (untimed)
    nodes: Callable = None  # searches: args -> nodes visited by the last call


class Entry(NamedTuple):
    name: str
    module: object          # the module whose KernelTable holds the kernel
    kernel: str
    case: Callable          # (tiny: bool) -> Case
    what: str               # one line: the board and the call


def _i(v):
    return np.int64(v)


def _room(side):
    """An empty square room with the heads in opposite corners."""
    rows = ["." * side for _ in range(side)]
    rows[0] = "1" + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "2"
    return Board.from_ascii("\n".join(rows))


def _grid_board(tiny):
    return _room(6) if tiny else load_builtin("arena")


def chamber_case(tiny):
    b = _grid_board(tiny)
    cs = chambers.new_scratch(b.flat.size)
    args = (b.flat, _i(b.heads[0]), _i(b.heads[1]), _i(b.stride), float(chambers.K1_DEFAULT),
            float(chambers.K2_DEFAULT), _i(chamber_flags()), cs)
    return Case(args, lambda a, r: (tuple(int(v) for v in r), a[-1].chamber_of.tolist()))


def _filler_args(b, with_trail):
    s = spacefill.new_scratch(b.flat.size)
    flat = b.flat.copy()
    head = int(b.heads[0])
    flat[head] = 1
    return (flat, _i(head), _i(b.stride), POTENTIAL_ARTICULATION,
            *(s if with_trail else s[:-1]))


def fill_length_case(tiny):
    args = _filler_args(_grid_board(tiny), True)
    return Case(args, lambda a, r: (int(r), a[-1][:int(r)].tolist(), a[0].tolist()))


def greedy_move_case(tiny):
    args = _filler_args(_grid_board(tiny), False)
    return Case(args, lambda a, r: (int(r), a[0].tolist()))


def endgame_case(tiny):
    """Alone in a walled-off room: every line of ``depth`` own moves, each finished
    by the greedy filler.  The target (where a line ends the search at once) is
    more squares than the room has, so the whole fixed-depth tree is searched."""
    b = Board.from_ascii("1...#2\n....##\n....#.\n####..") if tiny else Board.from_ascii(
        "1.....#2\n.#..#.##\n......#.\n.#..#.#.\n......#.\n#######.")
    n = b.flat.size
    fs = spacefill.new_scratch(n)
    seen, stack = np.empty(n, np.uint8), np.empty(n, np.int32)
    depth = 3 if tiny else 12
    stats = np.zeros(endgame.N_STATS, np.int64)
    pos, idx, first = (np.zeros(endgame.MAX_ENDGAME_DEPTH + 1, np.int64) for _ in range(3))
    args = (b.flat.copy(), _i(b.heads[0]), _i(b.stride), _i(depth), _i(n), _i(NO_DEADLINE), pos,
            idx, first, seen, stack, POTENTIAL_ARTICULATION, fs, stats)

    def fresh():
        stats[:] = 0
        return args
    return Case(args, lambda a, r: tuple(int(v) for v in r), fresh=fresh,
                nodes=lambda a: int(a[-1][endgame.E_NODES]))


def turn_order_case(tiny):
    b = codingame_board(4, rng=0)
    if tiny:
        b = Board.from_ascii("1...2\n.....\n.....\n3...4")
    n = b.flat.size
    args = (b.flat, np.ascontiguousarray(b.heads, np.int64),
            np.ascontiguousarray(b.alive, np.bool_), _i(0), _i(b.stride),
            np.empty(n, np.uint8), np.empty(n, np.int32), np.zeros(b.n_players, np.int64))
    return Case(args, lambda a, r: (int(r), a[5].tolist(), a[7].tolist()))


def multi_score_case(tiny):
    args = turn_order_case(tiny).args          # player 0's score; scratch dist added
    args = (*args, np.empty(args[0].size, np.int32))
    return Case(args, lambda a, r: (int(r), a[7].tolist(), a[8].tolist()))


def fill_bound_case(tiny):
    b = _grid_board(tiny)
    n = b.flat.size
    args = (b.flat, _i(b.heads[0]), _i(b.stride), np.empty(n, np.uint8), np.empty(n, np.int32))
    return Case(args, lambda a, r: tuple(int(v) for v in r))


def components_case(tiny):
    b = _grid_board(tiny)
    n = b.flat.size
    args = (b.flat, _i(b.stride), np.empty(n, np.int32), np.zeros(n, np.int32),
            np.empty(n, np.int32))
    return Case(args, lambda a, r: (int(r), a[2].tolist(), a[3][:int(r) + 1].tolist()))


def touching_case(tiny):
    b = _grid_board(tiny)
    n = b.flat.size
    args = (b.flat, _i(b.heads[0]), _i(b.heads[1]), _i(b.stride), np.empty(n, np.int32),
            np.empty(n, np.int32))
    return Case(args, lambda a, r: (bool(r), a[4].tolist()))


def _capture_owner(tiny):
    """A 35x20 grid (8x6 tiny): player 0 has walled in a room of neutral squares
    and stands on its wall; player 1 owns a strip."""
    w, h = (8, 6) if tiny else (35, 20)
    owner = np.full((h, w), -1, np.int8)
    x0, y0, x1, y1 = (1, 1, 5, 4) if tiny else (4, 3, 20, 14)
    owner[y0, x0:x1 + 1] = owner[y1, x0:x1 + 1] = 0
    owner[y0:y1 + 1, x0] = owner[y0:y1 + 1, x1] = 0
    owner[h - 1, :w // 2] = 1
    return owner, (x1, (y0 + y1) // 2)


def enclose_case(tiny):
    owner, (x, y) = _capture_owner(tiny)
    h, w = owner.shape
    stamp, next_stamp = enclosure.new_stamps(w * h)
    args = (owner.reshape(-1).copy(), _i(w), _i(h), _i(0), _i(x), _i(y), False, stamp,
            next_stamp, np.empty(w * h, np.int32))
    return Case(args, lambda a, r: (int(r), a[0].tolist()))


def opponent_case(tiny):
    owner, _ = _capture_owner(tiny)
    h, w = owner.shape
    rounds = 8 if tiny else 40
    xs, ys = np.array([w - 2, 1], np.int64), np.array([1, h - 2], np.int64)
    hx, hy, turns = np.array([-1, 1], np.int64), np.array([0, 0], np.int64), np.zeros(2, np.int64)
    flat = owner.reshape(-1).copy()
    work = (flat, (xs, ys, hx, hy, turns))
    saved = (flat.copy(), tuple(a.copy() for a in work[1]))
    args = (flat, _i(w), _i(h), xs, ys, hx, hy, turns, _i(opponent.ORDERS["writeup"]),
            _i(rounds), np.empty(2 * rounds, np.int64), np.empty(2 * rounds, np.int64),
            np.empty(w * h, np.int64), _i(opponent.NEVER))
    return Case(args, lambda a, r: (int(r), a[10].tolist(), a[11].tolist(), a[12].tolist()),
                work=(work, saved))


def rect_scan_case(tiny):
    owner, (x, y) = _capture_owner(tiny)
    h, w = owner.shape
    args = rects.scan_arguments(owner, 0, (x, y), n_players=4,
                                opponents=[(w - 2, 1), (1, h - 2)])
    return Case(args, lambda a, r: (float(r), a[-1].tolist()))


def l_scan_case(tiny):
    owner, (x, y) = _capture_owner(tiny)
    h, w = owner.shape
    s = rects.new_scratch(w, h, 2)
    args = (owner.reshape(-1).copy(), _i(w), _i(h), _i(0), _i(x), _i(y), _i(20), 0.0, s["work"],
            s["stamp"], s["stamp_next"], s["region"], s["best"])
    return Case(args, lambda a, r: (float(r), a[-1][:7].tolist(), a[0].tolist()))


_SEARCH_BOARD = "1......\n.......\n...#...\n.......\n......2"


def negamax_case(tiny):
    b = Board.from_ascii("1...\n.#..\n...2" if tiny else _SEARCH_BOARD)
    depth = 2 if tiny else 4
    s = Searcher(evaluation="territory", tt_bits=12)
    s._prepare(b)
    stats = np.zeros(N_STATS, np.int64)
    flat = b.flat.copy()
    args = (flat, b.heads[0], b.heads[1], _i(b.stride), _i(depth), _i(s.code), s.k1, s.k2,
            _i(s.sep_weight), _i(s.draw), _i(s.crash), s.tt, s.ordering, _i(s.reduce),
            _i(NO_DEADLINE), s.zobrist, s.table, s.lines, _i(0), s.frames, s.scratch, stats)

    def fresh():
        s.reset()
        stats[:] = 0
        return args
    return Case(args, lambda a, r: (int(r[0]), int(r[1]), bool(r[2])), fresh=fresh,
                nodes=lambda a: int(a[-1][S_NODES]))


def nash_case(tiny):
    b = Board.from_ascii("1...\n.#..\n...2" if tiny else _SEARCH_BOARD)
    depth = 2 if tiny else 4
    s = NashSearcher(evaluation="territory", hint_bits=10)
    s.search_depth(b, 0, 1)             # sizes its scratch for this board
    stats = np.zeros(nash_search.N_STATS, np.int64)
    prior = np.full((2, 4), -1.0)
    args = (b.flat.copy(), _i(b.heads[0]), _i(b.heads[1]), _i(b.stride), _i(depth), _i(s.code),
            s.k1, s.k2, _i(s.sep_weight), s.draw, s.prune, s.ordering, s.hybrid, s.table,
            s.killers and s.ordering, _i(NO_DEADLINE), prior, s.zobrist, s.hint_key,
            s.hint_move, s.bounds, s.left, s.strategy, s.ns, s.cs, stats)

    def fresh():
        s.reset()
        stats[:] = 0
        return args
    return Case(args, lambda a, r: (round(float(r[0]), 9), bool(r[1]),
                                    a[22].round(9).tolist()),
                fresh=fresh, nodes=lambda a: int(a[-1][nash_search.S_NODES]))


ENTRIES = [
    Entry("chamber_counts", chambers, "chamber_counts_kernel", chamber_case,
          "chamber tree values of both heads (A12), arena 17x17"),
    Entry("fill_length", spacefill, "fill_length_kernel", fill_length_case,
          "greedy fill from head 1 until boxed in, arena 17x17"),
    Entry("greedy_move", spacefill, "greedy_move_kernel", greedy_move_case,
          "one greedy filler move from head 1, arena 17x17"),
    Entry("endgame", endgame, "endgame_kernel", endgame_case,
          "lines of up to 12 own moves + greedy fill, a 6x5 room with 4 pillars"),
    Entry("turn_order_territory", multivoronoi, "turn_order_territory_kernel", turn_order_case,
          "4 players, CodinGame 30x20"),
    Entry("multi_score", evaluate, "multi_score_kernel", multi_score_case,
          "kootenpv's score of one 4-player move (territory + enemy distances), CodinGame 30x20"),
    Entry("fill_bound", parity, "fill_bound_kernel", fill_bound_case,
          "parity bound from head 1, arena 17x17"),
    Entry("components", flood, "components_kernel", components_case,
          "region labels and sizes, arena 17x17"),
    Entry("touching", evaluate, "touching_kernel", touching_case,
          "can the heads still meet (every search node's separation test), arena 17x17"),
    Entry("enclose", enclosure, "enclose_kernel", enclose_case,
          "what a move on a wall takes (a 15x10 room), 35x20"),
    Entry("opponent_paths", opponent, "opponent_paths_kernel", opponent_case,
          "2 opponents, 40 rounds, 35x20"),
    Entry("rect_scan", rects, "rect_scan_kernel", rect_scan_case,
          "every rectangle for player 0 on its wall (the rectangles bot's turn), 35x20"),
    Entry("l_scan", lshapes, "l_scan_kernel", l_scan_case,
          "every L-shaped walk from player 0's square, 35x20"),
    Entry("negamax", alphabeta, "negamax_kernel", negamax_case,
          "alpha-beta, 4 turns, territory leaves, 7x5 room"),
    Entry("nash_search", nash_search, "nash_search_kernel", nash_case,
          "simultaneous moves, 4 turns, territory leaves, 7x5 room"),
]


def twin_of(entry):
    """The plain-Python twin of ``entry``'s kernel."""
    return entry.module._kernels.plain(entry.kernel)


# ---------------------------------------------------------------------------
# measuring
# ---------------------------------------------------------------------------
def _batch(f, case, compiled):
    """``batch(reps)`` for :func:`timing.per_call`: seconds per call of ``f``."""
    if case.fresh is not None:              # a search: clear the table, time one call
        def batch(reps):
            total = 0.0
            for _ in range(reps):
                args = case.fresh()
                t0 = time.perf_counter()
                f(*args)
                total += time.perf_counter() - t0
            return total / reps
    elif compiled:
        def batch(reps):
            t0 = time.perf_counter()
            if case.work:
                repeat_restoring(f, reps, case.args, *case.work)
            else:
                repeat(f, reps, case.args)
            return (time.perf_counter() - t0) / reps
    else:
        def batch(reps):
            t0 = time.perf_counter()
            for _ in range(reps):
                if case.work:
                    restore_py(*case.work)
                f(*case.args)
            return (time.perf_counter() - t0) / reps
    return batch


def allocations_per_call(f, case):
    """Numba heap allocations one compiled call of ``f`` makes: those of a
    compiled loop of three calls less those of one (the arguments are unboxed
    once in both), halved."""
    def count(reps):
        if case.work:
            restore_py(*case.work)
        args = case.fresh() if case.fresh is not None else case.args
        before = rtsys.get_allocation_stats().alloc
        if case.work:
            repeat_restoring(f, reps, args, *case.work)
        else:
            repeat(f, reps, args)
        return rtsys.get_allocation_stats().alloc - before
    return (count(3) - count(1)) / 2


def _run_once(f, case):
    """One call on ``case.args`` from a clean start (the changed inputs restored, a
    search's table cleared): (summary of the outputs, nodes or None)."""
    if case.work:
        restore_py(*case.work)
    args = case.fresh() if case.fresh is not None else case.args
    r = f(*args)
    return case.outputs(args, r), (case.nodes(args) if case.nodes else None)


def pristine_args(case):
    """A deep copy of the case's arguments before any call: the inputs, the
    scratch and output arrays as the case made them."""
    if case.work:
        restore_py(*case.work)
    return copy.deepcopy(case.fresh() if case.fresh is not None else case.args)


def arrays_of(value):
    """Every numpy array in ``value`` (tuples and named tuples searched), in order."""
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in arrays_of(v)]
    return []


def run_alone(f, pristine, case):
    """One call of ``f`` on its own deep copy of ``pristine``: (summary of the
    outputs, nodes or None, every array of the arguments after the call).  Kernel
    and twin never share an array, so a twin is judged by what it writes itself,
    not by what the kernel left behind in a shared output."""
    args = copy.deepcopy(pristine)
    r = f(*args)
    return (case.outputs(args, r), (case.nodes(args) if case.nodes else None),
            arrays_of(args))


def same_arrays(a, b):
    return len(a) == len(b) and all(
        x.dtype == y.dtype and np.array_equal(x, y, equal_nan=x.dtype.kind in "fc")
        for x, y in zip(a, b))


def _twin_error(exc):
    tb = exc.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    where = f"{os.path.relpath(tb.tb_frame.f_code.co_filename, ROOT)}:{tb.tb_lineno}"
    return f"{type(exc).__name__} at {where}: {exc}"


def measure(entry, *, tiny=False, budget=0.5):
    case = entry.case(tiny)
    compiled = entry.module._kernels.jit(entry.kernel)
    twin = twin_of(entry)
    pristine = pristine_args(case)
    want, nodes, arrays = run_alone(compiled, pristine, case)
    out = {"kernel": entry.name, "function": f"{entry.module.__name__}.{entry.kernel}",
           "what": entry.what}
    try:
        got, twin_nodes, twin_arrays = run_alone(twin, pristine, case)
    except Exception as exc:    # noqa: BLE001 - reported: the twin is broken, not the script
        out.update(agree=False, twin_error=_twin_error(exc))
        return out
    t_nb = per_call(_batch(compiled, case, True), budget=budget)
    t_py = per_call(_batch(twin, case, False), budget=budget * 2, min_batches=1)
    again, _ = _run_once(compiled, case)       # the timing loops left the result as it was
    out["allocs_per_call"] = allocations_per_call(compiled, case)
    same = same_arrays(arrays, twin_arrays)
    out.update(numba_us=round(t_nb.best * 1e6, 4), python_us=round(t_py.best * 1e6, 2),
               ratio=round(t_py.best / t_nb.best, 1),
               agree=bool(got == want and twin_nodes == nodes and again == want and same),
               same_arrays=same,
               numba_median_us=round(t_nb.median * 1e6, 4),
               python_median_us=round(t_py.median * 1e6, 2),
               batches=[t_nb.batches, t_py.batches])
    if nodes is not None:
        out.update(nodes=nodes, twin_nodes=twin_nodes)
    return out


def line(r) -> str:
    if "twin_error" in r:
        return f"  {r['kernel']:21s} NO WORKING PLAIN TWIN: {r['twin_error']}"
    nodes = f"   {r['nodes']} nodes, incl. call" if "nodes" in r else ""
    flag = "" if r["agree"] else "   TWIN DISAGREES"
    if r["allocs_per_call"]:
        flag += f"   ALLOCATES {r['allocs_per_call']:g} A CALL"
    return (f"  {r['kernel']:21s} numba {r['numba_us']:11.3f} us   python {r['python_us']:12.1f} us"
            f"   python/numba {r['ratio']:7.0f}x{nodes}{flag}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="comma-separated entry names (default: all): "
                    + ", ".join(e.name for e in ENTRIES))
    ap.add_argument("--budget", type=float, default=0.5,
                    help="seconds of batches for each compiled kernel (twice that for its twin)")
    ap.add_argument("--tiny", action="store_true", help="tiny boards and budgets: agreement only")
    ap.add_argument("--json", action="store_true", help="one JSON object per kernel")
    args = ap.parse_args(argv)
    entries = ENTRIES
    if args.only:
        names = args.only.split(",")
        unknown = sorted(set(names) - {e.name for e in ENTRIES})
        if unknown:
            ap.error(f"no entry {', '.join(unknown)}; entries: "
                     + ", ".join(e.name for e in ENTRIES))
        entries = [e for e in ENTRIES if e.name in names]
    budget = 0.01 if args.tiny else args.budget
    if not args.json:
        print("kernel vs its plain-Python twin: us per call (fastest batch), python / numba")
    bad = 0
    with warnings.catch_warnings(), np.errstate(over="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        for e in entries:
            r = measure(e, tiny=args.tiny, budget=budget)
            bad += not r["agree"] or bool(r.get("allocs_per_call"))
            what = "tiny board" if args.tiny else r["what"]
            print(json.dumps(r) if args.json else f"{line(r)}   ({what})", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
