"""Search speed: numba against C (ref.c) and plain Python; table reuse; the deadline.

    python benchmarks/search.py [BOARD.txt ...] [--ref PATH/ref.c] [--maps DIR] [--batches N]
                                [--quick]

Boards default to the copies of ref.c's boards in ``benchmarks/boards/``.  Without
ref.c (``--ref``; by default ``../shared/bench/ref.c`` beside the checkout) part 1
says so in one line and the table compares numba with the plain-Python twin only.

1. **ref.c's search, same process, alternating.**  ref.c is built as a shared
   library (gcc -O2 -march=native -DLIB -shared -fPIC, in a temp dir) and
   ``lib_bench(3, reps, 6)`` (depth-6 fail-soft alpha-beta, Voronoi leaves) is
   timed batch for batch against a compiled loop calling
   :func:`tronlab.tron.c_reference.reference_search_kernel` ``reps`` times.  Value and
   node count must equal C's (``lib_nodes()``); printed: nodes/s of each and
   the ratio numba / C speed (median of paired batches).  TARGET >= 0.85.
2. **The plain-Python twin** of the same search
   (:func:`tronlab.grid.reference.refc_search`), for scale: python / numba time.
3. **The real search** (:class:`tronlab.tron.search.Searcher`, whole turns,
   collisions, separation) at a fixed depth with each evaluation: nodes/s and
   evaluations/s.
4. **H4**: nodes over several turns of a game with the transposition table
   kept between turns against a fresh table every turn (same depth, same
   values), on the 2010 maps keyhole, joust and big-room (``--maps DIR``: the
   folder of the 2010 maps, by default ``../shared/maps/google2010``); where
   they are missing, on the package's built-in two-rooms, ring and cross, and
   a line says so.
5. **A6**: how late :meth:`Searcher.search` returns against its deadline on a
   25x25 map at several budgets (median and worst overshoot): big-room, or a
   25x25 random map from :func:`tronlab.tron.mapgen.random_map` without it.
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
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "shared"))
DEFAULT_BOARDS = [os.path.join(HERE, "boards", f"{n}.txt")      # copies of ref.c's boards
                  for n in ("empty15", "empty30x20", "rand30x20")]
MAPS = os.path.join(SHARED, "maps", "google2010")
REUSE_MAPS, REUSE_BUILTIN = ("keyhole", "joust", "big-room"), ("two-rooms", "ring", "cross")

from refc import DEFAULT_REF, build_library, build_program, missing  # noqa: E402
from tronlab.tron.chambers import new_scratch  # noqa: E402
from tronlab.tron.maps import load_map  # noqa: E402
from tronlab.tron.mapgen import load_builtin, random_map  # noqa: E402
from tronlab.grid.reference import refc_search  # noqa: E402
from tronlab.tron.c_reference import (new_ref_frames, reference_search,  # noqa: E402
                                      reference_search_kernel)
from tronlab.tron.search import N_STATS, S_EVALS, S_NODES, Searcher  # noqa: E402
from timing import per_call  # noqa: E402


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


def numba_only(path, batches, depth=6):
    """Without ref.c: the numba kernel's nodes/s alone, from the fastest of batches under a
    budget of 30 ms a batch asked for (:func:`timing.per_call`, as ``kernels.py`` and
    ``twins.py`` time theirs: other jobs on the machine only ever slow a batch down)."""
    board = load_map(path)
    value, _, nodes = reference_search(board, depth=depth)
    s = new_scratch(board.flat.size)
    frames = new_ref_frames(depth)
    t = per_call(lambda reps: numba_seconds(board, depth, reps, s, frames),
                 budget=0.03 * batches)
    return {"board": os.path.basename(path), "value": value, "nodes": nodes,
            "numba_nps": nodes / t.best}


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


def maps_for_reuse(maps_dir):
    """``([(name, board)], note)``: the 2010 maps of part 4 from ``maps_dir``, or
    the built-in maps with a one-line note saying why."""
    paths = [os.path.join(maps_dir, f"{n}.txt") for n in REUSE_MAPS]
    if all(os.path.isfile(p) for p in paths):
        return [(n, load_map(p)) for n, p in zip(REUSE_MAPS, paths)], None
    note = (f"   (the 2010 maps {', '.join(REUSE_MAPS)} are not in {maps_dir}: the built-in "
            f"{', '.join(REUSE_BUILTIN)} instead; pass --maps DIR for them)")
    return [(n, load_builtin(n)) for n in REUSE_BUILTIN], note


def map_for_lateness(maps_dir):
    """``(name, board, note)``: big-room (25x25), or a random 25x25 map and a note."""
    path = os.path.join(maps_dir, "big-room.txt")
    if os.path.isfile(path):
        return "big-room (25x25)", load_map(path), None
    note = (f"   (big-room is not in {maps_dir}: a random 25x25 map, random_map(25, 25, rng=0), "
            f"instead; pass --maps DIR for it)")
    return "a random 25x25 map", random_map(25, 25, rng=0), note


def reuse(board, depth, turns, evaluation="linear"):
    """Nodes over ``turns`` turns with the table kept vs a fresh table each turn."""
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


def overshoot(board, budgets, tries):
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


def compare_all(args, batches):
    """Parts 1-2 with ref.c: C, numba and the plain-Python twin."""
    print("1-2. ref.c's search (depth 6): C vs numba (alternating batches) vs plain Python")
    print("   speed ratio = numba nodes/s / C nodes/s (>= 0.85 is the target); 'C alone' is the")
    print("   standalone `ref BOARD --bench` figure, measured just before, for a second opinion")
    print(f"{'board':<16}{'value':>6}{'nodes':>7}{'C nodes':>8}{'C lib n/s':>11}"
          f"{'numba n/s':>11}{'ratio':>7}{'C alone n/s':>13}{'ratio':>7}{'python n/s':>12}"
          f"{'py/numba':>9}")
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
                  f"{alone:>13.0f}{r['numba_nps'] / alone:>7.2f}{pnps:>12.0f}"
                  f"{r['numba_nps'] / pnps:>8.0f}x{flag}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("boards", nargs="*", default=DEFAULT_BOARDS)
    ap.add_argument("--ref", default=DEFAULT_REF, help="path of ref.c (the C reference)")
    ap.add_argument("--maps", default=MAPS, help="folder of the Google 2010 maps (parts 4-5)")
    ap.add_argument("--batches", type=int, default=31)
    ap.add_argument("--quick", action="store_true", help="fewer batches and turns")
    args = ap.parse_args(argv)
    batches = 7 if args.quick else args.batches

    why = missing(args.ref)
    if why:
        print("1-2. ref.c's search (depth 6): numba vs its plain-Python twin")
        print(f"   no C column: {why}")
        print(f"{'board':<16}{'value':>6}{'nodes':>7}{'numba n/s':>11}{'python n/s':>12}"
              f"{'python/numba':>14}")
        for path in args.boards:
            r = numba_only(path, batches)
            pv, pn, pnps = python_nps(path)
            assert (pv, pn) == (r["value"], r["nodes"]), "plain-Python twin disagrees"
            print(f"{r['board']:<16}{r['value']:>6}{r['nodes']:>7}{r['numba_nps']:>11.0f}"
                  f"{pnps:>12.0f}{r['numba_nps'] / pnps:>13.0f}x")
    else:
        compare_all(args, batches)

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
    boards, note = maps_for_reuse(args.maps)
    if note:
        print(note)
    for name, board in boards:
        t = reuse(board, 4, turns)
        saved = 1 - t["kept"] / t["fresh"] if t["fresh"] else 0
        print(f"{name:<12} fresh {t['fresh']:>8} nodes   kept {t['kept']:>8} nodes   "
              f"saved {saved:6.1%}")

    name, board, note = map_for_lateness(args.maps)
    print(f"\n5. A6: lateness of Searcher.search against its deadline on {name}")
    if note:
        print(note)
    for b, (med, worst, depth) in overshoot(board, (0.05, 0.2, 1.0),
                                            3 if args.quick else 7).items():
        print(f"budget {b:>5} s: late by median {med:6.2f} ms, worst {worst:6.2f} ms "
              f"(depth {depth})")


if __name__ == "__main__":
    sys.exit(main())
