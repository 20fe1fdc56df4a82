"""What the argument check adds to a kernel called from Python, in microseconds a call.

    python benchmarks/argcheck.py [--budget S] [--tiny] [--json]

A kernel called from Python (``tronlab.grid.flood.flood_fill_kernel(...)``) first
has its arguments checked against its signature (:mod:`tronlab.jit.argcheck`) and,
for the kernels the course calls directly, by its ``guard``
(:mod:`tronlab.grid.guards`); compiled callers and the wrappers' ``_kernels.fast()``
skip both.  For a few kernels this times the checked call against the unchecked
compiled one on the same arguments, once with numba's dispatchers
(``TRONLAB_AOT=0``) and once with the ahead-of-time twins when a build is
installed (``tronlab warmup``): the extra is the check's cost.  The unchecked
side must be compiled code - the dispatcher or the twin, never the kernel's plain
Python function, which would make the extra negative - and the report names
what it timed.  Times are the fastest of batches under ``--budget`` seconds each
(``benchmarks/timing.py``).  ``--tiny`` uses tiny budgets (what
``tests/test_benchmarks.py`` runs: the report, not the speed).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from timing import per_call  # noqa: E402
from tronlab import load_builtin  # noqa: E402
from tronlab.grid import flood, voronoi  # noqa: E402
from tronlab.jit import aot  # noqa: E402


def _entries():
    """``[(label, module, kernel name, arguments)]`` on the built-in arena map."""
    b = load_builtin("arena")
    n, s, h = b.flat.size, np.int64(b.stride), np.int64(b.heads[0])
    return [
        ("flood_fill (type check + guard)", flood, "flood_fill_kernel",
         (b.flat, h, s, np.zeros(n, np.uint8), np.zeros(n, np.int32))),
        ("components (type check + guard)", flood, "components_kernel",
         (b.flat, s, np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(n, np.int32))),
        ("bfs_distances (type check)", voronoi, "bfs_distances_kernel",
         (b.flat, h, s, np.zeros(n, np.int32), np.zeros(n, np.int32))),
    ]


def _kind(f) -> str:
    """What a callable is: the thing timed as the unchecked call."""
    if type(f).__name__.endswith("Dispatcher"):
        return "numba dispatcher"
    if type(f).__name__ == "function":
        return "python function"
    return "aot twin"


def _timer(f, args):
    def batch(reps):
        t = time.perf_counter()
        for _ in range(reps):
            f(*args)
        return (time.perf_counter() - t) / reps
    return batch


def measure(mode: str, budget: float) -> list[dict]:
    """Rows for ``mode`` ("jit" or "aot"); none for "aot" without a build."""
    if mode == "jit":
        os.environ["TRONLAB_AOT"] = "0"
    else:
        os.environ.pop("TRONLAB_AOT", None)
    aot.unload()
    if mode == "aot" and aot.twin("flood_fill_kernel") is None:
        return []
    rows = []
    for label, module, name, args in _entries():
        checked, raw = getattr(module, name), module._kernels.fast(name)
        checked(*args)
        t_checked = per_call(_timer(checked, args), budget=budget).best
        t_raw = per_call(_timer(raw, args), budget=budget).best
        rows.append({"kernel": name, "label": label, "mode": mode, "unchecked": _kind(raw),
                     "checked_us": t_checked * 1e6, "unchecked_us": t_raw * 1e6,
                     "extra_us": (t_checked - t_raw) * 1e6})
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--budget", type=float, default=0.5, help="seconds of batches a side")
    ap.add_argument("--tiny", action="store_true", help="tiny budgets: the report, not speed")
    ap.add_argument("--json", action="store_true", help="a JSON line a row")
    args = ap.parse_args(argv)
    budget = 0.01 if args.tiny else args.budget
    rows = measure("jit", budget) + measure("aot", budget)
    if args.json:
        for r in rows:
            print(json.dumps(r))
        return 0
    print(f"{'kernel':<34}{'mode':<6}{'unchecked is':<18}{'checked us':>11}{'unchecked us':>13}"
          f"{'extra us':>10}")
    for r in rows:
        print(f"{r['label']:<34}{r['mode']:<6}{r['unchecked']:<18}{r['checked_us']:>11.2f}"
              f"{r['unchecked_us']:>13.2f}{r['extra_us']:>10.2f}")
    if not any(r["mode"] == "aot" for r in rows):
        print(f"no ahead-of-time build to time ({aot.status()}): run `tronlab warmup`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
