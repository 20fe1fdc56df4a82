"""Time the analysis kernels inside compiled loops, and their plain-Python twins.

    python benchmarks/kernels.py [--board B.txt ...] [--budget S] [--json]

Boards are Google 2010 map files with heads 1 and 2 (default: the copies of
ref.c's boards in ``benchmarks/boards/``).  For each board: microseconds per
call of the voronoi territory, flood fill (from head 1) and articulation point
kernels, each measured as a ``@njit`` loop calling the kernel ``reps`` times (so
the Python-to-numba call cost is not counted), then the same for the
plain-Python twins in ``tronlab.grid.reference``, and the ratio python / numba.
Before timing a board, each kernel's answer is checked against its twin's
(territory and edges, flood size, the set of articulation points): if they
differ the script names the kernel and both answers and exits with status 1.
Each figure is the fastest of the batches run for about ``--budget`` seconds
(twice that for the twins; ``benchmarks/timing.py``): other jobs on a shared
machine only ever add time to a batch, so the fastest holds still from run to
run where a median of a few batches swung threefold; the JSON keeps the medians
too (``*_median_us``).  ``--json`` prints one JSON object per board instead.
Results are printed as ref.c prints them: territory and edges of the two heads,
flood from head 1, articulation count and the sum of their indices y * W + x in
the map file's grid.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np
from numba import njit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from timing import per_call  # noqa: E402
from tronlab import load_map  # noqa: E402
from tronlab.grid import reference  # noqa: E402
from tronlab.grid.articulation import articulation_points_kernel  # noqa: E402
from tronlab.grid.articulation import new_scratch as art_scratch  # noqa: E402
from tronlab.grid.flood import flood_fill_kernel  # noqa: E402
from tronlab.grid.voronoi import new_scratch as vor_scratch, territory_kernel  # noqa: E402


# ---- compiled loops: the kernel called reps times from numba ------------------
@njit(cache=True)
def voronoi_loop(flat, h0, h1, stride, dist, owner, queue, reps):
    acc = 0
    for _ in range(reps):
        acc += territory_kernel(flat, h0, h1, stride, dist, owner, queue)[0]
    return acc


@njit(cache=True)
def flood_loop(flat, start, stride, seen, stack, reps):
    acc = 0
    for _ in range(reps):
        acc += flood_fill_kernel(flat, start, stride, seen, stack)
    return acc


@njit(cache=True)
def articulation_loop(flat, stride, disc, low, parent, it, stack, is_cut, reps):
    acc = 0
    for _ in range(reps):
        acc += articulation_points_kernel(flat, stride, disc, low, parent, it, stack, is_cut)
    return acc


class Disagreement(AssertionError):
    """A compiled kernel and its twin (or the C reference) compute different things."""


class Prepared:
    """A board with its scratch arrays and one zero-argument timer per kernel."""

    def __init__(self, path):
        self.path = path
        self.board = b = load_map(path)
        self.flat, self.stride = b.flat, np.int64(b.stride)
        self.h0, self.h1 = np.int64(b.heads[0]), np.int64(b.heads[1])
        self.vs = vor_scratch(b.flat.size)
        self.seen = np.empty(b.flat.size, np.uint8)
        self.stack = np.empty(b.flat.size, np.int32)
        self.arts = art_scratch(b.flat.size)

    def numba_batch(self, kernel, reps):
        """Seconds per call over one batch of ``reps`` calls inside numba."""
        t0 = time.perf_counter()
        if kernel == "voronoi":
            voronoi_loop(self.flat, self.h0, self.h1, self.stride, *self.vs, reps)
        elif kernel == "flood":
            flood_loop(self.flat, self.h0, self.stride, self.seen, self.stack, reps)
        else:
            articulation_loop(self.flat, self.stride, *self.arts, reps)
        return (time.perf_counter() - t0) / reps

    def python_batch(self, kernel, reps):
        t0 = time.perf_counter()
        for _ in range(reps):
            if kernel == "voronoi":
                reference.territory(self.flat, int(self.h0), int(self.h1), int(self.stride))
            elif kernel == "flood":
                reference.flood_fill(self.flat, int(self.h0), int(self.stride))
            else:
                reference.articulation_points(self.flat, int(self.stride))
        return (time.perf_counter() - t0) / reps

    def check(self):
        """Raise :class:`Disagreement` unless each compiled kernel computes what its
        plain-Python twin in ``tronlab.grid.reference`` does on this board."""
        flat, h0, h1, stride = self.flat, int(self.h0), int(self.h1), int(self.stride)
        got = territory_kernel(self.flat, self.h0, self.h1, self.stride, *self.vs)
        pairs = [("voronoi", tuple(int(v) for v in got),
                  tuple(reference.territory(flat, h0, h1, stride))),
                 ("flood", int(flood_fill_kernel(self.flat, self.h0, self.stride, self.seen,
                                                 self.stack)),
                  reference.flood_fill(flat, h0, stride))]
        count = articulation_points_kernel(self.flat, self.stride, *self.arts)
        cuts = set(np.flatnonzero(self.arts.is_cut).tolist())
        pairs.append(("articulation", (int(count), cuts),
                      (len(want := reference.articulation_points(flat, stride)), want)))
        for kernel, numba_says, python_says in pairs:
            if numba_says != python_says:
                raise Disagreement(f"{os.path.basename(self.path)}: the {kernel} kernel gives "
                                   f"{numba_says!r}, its plain-Python twin {python_says!r}; "
                                   "nothing timed")

    def results(self):
        b = self.board
        n0, n1, e0, e1 = territory_kernel(self.flat, self.h0, self.h1, self.stride, *self.vs)
        flood = flood_fill_kernel(self.flat, self.h0, self.stride, self.seen, self.stack)
        count = articulation_points_kernel(self.flat, self.stride, *self.arts)
        # ref.c numbers squares of the map file's grid, y * W + x (no padding)
        cuts = (b.xy(i) for i in np.flatnonzero(self.arts.is_cut))
        index_sum = sum(y * b.width + x for x, y in cuts)
        return {"territory": [int(n0), int(n1)], "edges": [int(e0), int(e1)],
                "flood": int(flood), "articulation_count": int(count),
                "articulation_index_sum": int(index_sum), "size": f"{b.width}x{b.height}"}


KERNELS = ("voronoi", "flood", "articulation")
REPS = {"voronoi": 1000, "flood": 1000, "articulation": 500}   # vs_c.py's batches
DEFAULT_BOARDS = [os.path.join(HERE, "boards", f"{n}.txt")
                  for n in ("empty15", "empty30x20", "rand30x20")]


def measure(path, *, budget=0.3, min_batches=3):
    p = Prepared(path)
    p.check()                                   # what is timed is right, or nothing is
    out = {"board": os.path.basename(path)}
    for k in KERNELS:
        t = per_call(lambda reps: p.numba_batch(k, reps), budget=budget, min_batches=min_batches)
        out[f"{k}_us"], out[f"{k}_median_us"] = round(t.best * 1e6, 4), round(t.median * 1e6, 4)
    for k in KERNELS:
        t = per_call(lambda reps: p.python_batch(k, reps), budget=2 * budget,
                     min_batches=min_batches)
        out[f"python_{k}_us"] = round(t.best * 1e6, 2)
        out[f"python_{k}_median_us"] = round(t.median * 1e6, 2)
    out.update(p.results())
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", action="append",
                    help="Google 2010 map file (default: benchmarks/boards/*.txt)")
    ap.add_argument("--json", action="store_true", help="one JSON object per board")
    ap.add_argument("--budget", type=float, default=0.3,
                    help="seconds of batches per compiled kernel (twice that per twin)")
    ap.add_argument("--batches", type=int, default=3, help="at least this many batches")
    args = ap.parse_args(argv)
    for path in args.board or DEFAULT_BOARDS:
        try:
            r = measure(path, budget=args.budget, min_batches=args.batches)
        except Disagreement as exc:
            print(f"kernels.py: {exc}", file=sys.stderr)
            return 1
        if args.json:
            print(json.dumps(r))
            continue
        print(f"{r['board']} ({r['size']}): territory {r['territory']} edges {r['edges']} "
              f"flood {r['flood']} articulation points {r['articulation_count']} "
              f"(index sum {r['articulation_index_sum']})")
        print("  us per call, fastest batch")
        for k in KERNELS:
            nb, py = r[f"{k}_us"], r[f"python_{k}_us"]
            print(f"  {k:13s} numba {nb:9.3f} us   python {py:10.1f} us"
                  f"   python/numba {py / nb:7.0f}x")


if __name__ == "__main__":
    sys.exit(main())
