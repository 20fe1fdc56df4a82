"""Search speed: numba against C (ref.c) and plain Python; table reuse; the deadline.

    python benchmarks/search.py [BOARD.txt ...] [--ref PATH/ref.c] [--batches N] [--quick]

1. **ref.c's search, same process, alternating.**  ref.c is built as a shared
   library (gcc -O2 -march=native -DLIB -shared -fPIC, in a temp dir) and
   ``lib_bench(3, reps, 6)`` (depth-6 fail-soft alpha-beta, Voronoi leaves) is
   timed batch for batch against a compiled loop calling
   :func:`tronlab.tron.c_reference.reference_search_kernel` ``reps`` times.  Value and
   node count must equal C's (``lib_nodes()``); printed: nodes/s of each and
   the ratio numba / C speed (median of paired batches).  TARGET >= 0.85.
2. **The plain-Python twin** of the same search
   (:func:`tronlab.grid.reference.refc_search`), for scale.
3. **The real search** (:class:`tronlab.tron.search.Searcher`, whole turns,
   collisions, separation) at a fixed depth with each evaluation: nodes/s and
   evaluations/s.
4. **H4**: nodes over several turns of a game with the transposition table
   kept between turns against a fresh table every turn (same depth, same
   values), on the 25x25 maps.
5. **A6**: how late :meth:`Searcher.search` returns against its deadline on a
   25x25 map at several budgets (median and worst overshoot).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from numba import njit

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "shared"))
DEFAULT_BOARDS = [os.path.join(SHARED, "bench", "boards", f"{n}.txt")
                  for n in ("empty15", "empty30x20", "rand30x20")]
MAPS = os.path.join(SHARED, "maps", "google2010")

from refc import DEFAULT_REF, build_library, build_program  # noqa: E402
from tronlab.tron.chambers import new_scratch  # noqa: E402
from tronlab.tron.maps import load_map  # noqa: E402
from tronlab.grid.reference import refc_search  # noqa: E402
from tronlab.tron.c_reference import (new_ref_frames, reference_search,  # noqa: E402
                                      reference_search_kernel)
from tronlab.tron.search import N_STATS, S_EVALS, S_NODES, Searcher  # noqa: E402


# ---------------------------------------------------------------------------
# 1. ref.c against numba
# ---------------------------------------------------------------------------
def standalone_nps(exe, path):
    """ref.c's own figure (``ref BOARD --bench``: median of 201 searches)."""
    out = subprocess.run([exe, path, "--bench"], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("search_nps"):
            return float(line.split()[1])
    return float("nan")


@njit(cache=True)
def _numba_batch(flat, head0, head1, stride, depth, reps, dist, owner, queue, frames):
    acc = 0
    for _ in range(reps):
        v, m, _ = reference_search_kernel(flat, head0, head1, stride, depth, dist, owner, queue,
                                          frames)
        acc += v
    return acc


def numba_seconds(board, depth, reps, s, frames):
    t0 = time.perf_counter()
    _numba_batch(board.flat, board.heads[0], board.heads[1], np.int64(board.stride),
                 np.int64(depth), reps, s.dist, s.owner, s.queue, frames)
    return (time.perf_counter() - t0) / reps


def compare_c(c, path, batches, depth=6):
    c.lib_load(os.fsencode(path))
    board = load_map(path)
    value, move, nodes = reference_search(board, depth=depth)
    c.lib_bench(3, 1, depth)
    c_nodes = int(c.lib_nodes())
    s = new_scratch(board.flat.size)
    frames = new_ref_frames(depth)
    one = numba_seconds(board, depth, 3, s, frames)   # compile / warm up
    reps = max(3, int(0.03 / max(one, 1e-7)))
    tc, tn = [], []
    for _ in range(batches):
        tc.append(c.lib_bench(3, reps, depth))
        tn.append(numba_seconds(board, depth, reps, s, frames))
    speed = statistics.median(c_ / n_ for n_, c_ in zip(tn, tc))   # numba speed / C speed
    return {"board": os.path.basename(path), "value": value, "nodes": nodes, "c_nodes": c_nodes,
            "c_nps": nodes / statistics.median(tc), "numba_nps": nodes / statistics.median(tn),
            "ratio": speed}


# ---------------------------------------------------------------------------
# 2. the plain-Python twin
# ---------------------------------------------------------------------------
def python_nps(path, depth=6):
    """ref.c's search in plain Python (:func:`tronlab.grid.reference.refc_search`)."""
    board = load_map(path)
    t0 = time.perf_counter()
    value, _, nodes = refc_search(board.flat.tolist(), int(board.heads[0]), int(board.heads[1]),
                                  board.stride, depth)
    return value, nodes, nodes / (time.perf_counter() - t0)


# ---------------------------------------------------------------------------
# 3-5. the real search
# ---------------------------------------------------------------------------
def _play(board, m0, m1):
    nb = board.copy()
    for p, mv in ((0, m0), (1, m1)):
        nb.heads[p] = nb.heads[p] + nb.offsets[mv]
        nb.flat[nb.heads[p]] = 2 + p
    return nb


def reuse(path, depth, turns, evaluation="linear"):
    """Nodes over ``turns`` turns with the table kept vs a fresh table each turn."""
    board = load_map(path)
    kept, fresh = Searcher(evaluation=evaluation), Searcher(evaluation=evaluation)
    opp = Searcher(evaluation=evaluation)
    totals = {"kept": 0, "fresh": 0}
    for _ in range(turns):
        if not board.legal_moves(0) or not board.legal_moves(1):
            break
        kept.search(board, 0, max_depth=depth)
        totals["kept"] += kept.last_stats["nodes"]
        fresh.reset()
        fresh.search(board, 0, max_depth=depth)
        totals["fresh"] += fresh.last_stats["nodes"]
        m0 = kept.last_stats["move"]
        opp.reset()
        _, m1 = opp.search(board, 1, max_depth=2)
        if board.target(0, m0) == board.target(1, m1):
            break
        board = _play(board, m0, m1)
    return totals


def overshoot(path, budgets, tries):
    board = load_map(path)
    s = Searcher(evaluation="linear")
    s.search(board, 0, time=0.01)
    out = {}
    for b in budgets:
        late = []
        for _ in range(tries):
            s.reset()
            t0 = time.perf_counter()
            s.search(board, 0, time=b)
            late.append((time.perf_counter() - t0 - b) * 1000)
        out[b] = (statistics.median(late), max(late), s.last_stats["depth"])
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("boards", nargs="*", default=DEFAULT_BOARDS)
    ap.add_argument("--ref", default=DEFAULT_REF)
    ap.add_argument("--batches", type=int, default=31)
    ap.add_argument("--quick", action="store_true", help="fewer batches and turns")
    args = ap.parse_args(argv)
    batches = 7 if args.quick else args.batches

    print("1-2. ref.c's search (depth 6): C vs numba (alternating batches) vs plain Python")
    print("   speed ratio = numba nodes/s / C nodes/s (>= 0.85 is the target); 'C alone' is the")
    print("   standalone `ref BOARD --bench` figure, measured just before, for a second opinion")
    print(f"{'board':<16}{'value':>6}{'nodes':>7}{'C nodes':>8}{'C lib n/s':>11}"
          f"{'numba n/s':>11}{'ratio':>7}{'C alone n/s':>13}{'ratio':>7}{'python n/s':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        c, exe = build_library(args.ref, tmp), build_program(args.ref, tmp)
        for path in args.boards:
            alone = standalone_nps(exe, path)
            r = compare_c(c, path, batches)
            pv, pn, pnps = python_nps(path)
            assert (pv, pn) == (r["value"], r["nodes"]), "plain-Python twin disagrees"
            flag = "" if r["nodes"] == r["c_nodes"] else "  NODE COUNT DIFFERS FROM C"
            print(f"{r['board']:<16}{r['value']:>6}{r['nodes']:>7}{r['c_nodes']:>8}"
                  f"{r['c_nps']:>11.0f}{r['numba_nps']:>11.0f}{r['ratio']:>7.2f}"
                  f"{alone:>13.0f}{r['numba_nps'] / alone:>7.2f}{pnps:>12.0f}{flag}")

    print("\n3. the real search (whole turns, collisions, separation), 6 turns deep, player 0")
    print(f"{'board':<16}{'evaluation':<13}{'value':>9}{'nodes':>9}{'nodes/s':>10}{'evals/s':>10}")
    for path in args.boards:
        board = load_map(path)
        for ev in ("territory", "linear", "chamber"):
            s = Searcher(evaluation=ev)
            s.search_depth(board, 0, 1)                      # compile / warm up
            s.reset()
            stats = np.zeros(N_STATS, np.int64)
            t0 = time.perf_counter()
            v, _, _ = s.search_depth(board, 0, 6, stats=stats)
            t = time.perf_counter() - t0
            print(f"{os.path.basename(path):<16}{ev:<13}{v:>9}{int(stats[S_NODES]):>9}"
                  f"{stats[S_NODES] / t:>10.0f}{stats[S_EVALS] / t:>10.0f}")

    turns = 6 if args.quick else 12
    print(f"\n4. H4: table kept between turns vs fresh, {turns} turns at depth 4 (linear)")
    for name in ("keyhole", "joust", "big-room"):
        path = os.path.join(MAPS, f"{name}.txt")
        if os.path.exists(path):
            t = reuse(path, 4, turns)
            saved = 1 - t["kept"] / t["fresh"] if t["fresh"] else 0
            print(f"{name:<12} fresh {t['fresh']:>8} nodes   kept {t['kept']:>8} nodes   "
                  f"saved {saved:6.1%}")

    print("\n5. A6: lateness of Searcher.search against its deadline on big-room (25x25)")
    path = os.path.join(MAPS, "big-room.txt")
    if os.path.exists(path):
        for b, (med, worst, depth) in overshoot(path, (0.05, 0.2, 1.0),
                                                3 if args.quick else 7).items():
            print(f"budget {b:>5} s: late by median {med:6.2f} ms, worst {worst:6.2f} ms "
                  f"(depth {depth})")


if __name__ == "__main__":
    sys.exit(main())
