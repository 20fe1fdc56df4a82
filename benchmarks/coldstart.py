"""Seconds from a fresh interpreter to a computed territory, with an empty and a warm cache.

    python benchmarks/coldstart.py [--board FILE] [--runs 3]

Each run is a new ``python -c`` that imports tronlab, loads a board and computes
its Voronoi territory.  "cold": NUMBA_CACHE_DIR is a fresh empty directory, so
every kernel compiles.  "warm": the same directory again, so kernels load from
the cache.  Also prints the time of ``import tronlab`` alone and the heavy
modules it pulls in.  Target: warm < 0.5 s.

"floor" is the same fresh-interpreter measure for a one-line cached ``@njit``
function outside tronlab: the cost of numba itself (importing numba, and on
the first call of any cached function building numba's typing and target
registries, which imports scipy.linalg when scipy is installed).  tronlab's
own share is warm minus floor.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_BOARD = os.path.join(HERE, "boards", "rand30x20.txt")

CHILD = """
import sys, time, json
t0 = time.perf_counter()
import tronlab
t1 = time.perf_counter()
from tronlab.voronoi import territory
board = tronlab.load_map(sys.argv[1])
result = list(territory(board))
t2 = time.perf_counter()
heavy = sorted(m for m in ("numba", "matplotlib", "scipy", "networkx", "ipywidgets", "anywidget",
                           "IPython", "pandas") if m in sys.modules)
print(json.dumps({"import": t1 - t0, "territory": t2 - t1, "result": result, "heavy": heavy}))
"""


FLOOR = """
from numba import njit
@njit(cache=True)
def plus_one(x):
    return x + 1
"""


def run_floor(tmp):
    """Fresh interpreter: import numba, call a cached one-line function (warm)."""
    with open(os.path.join(tmp, "floor_mod.py"), "w") as f:
        f.write(FLOOR)
    env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "cache"), PYTHONPATH=tmp)
    cmd = [sys.executable, "-c", "import floor_mod; floor_mod.plus_one(1)"]
    subprocess.run(cmd, env=env, cwd=tmp, check=True)          # compile into the cache
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=tmp, check=True)
    return time.perf_counter() - t0


def run(board, cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD, board], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True)
    total = time.perf_counter() - t0
    info = json.loads(out.stdout.strip().splitlines()[-1])
    info["total"] = total
    return info


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", default=DEFAULT_BOARD)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    board = os.path.abspath(args.board)
    cold, warm, floor = [], [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as cache:
            cold.append(run(board, cache))
            warm.append(run(board, cache))
        with tempfile.TemporaryDirectory() as tmp:
            floor.append(run_floor(tmp))
    report = {
        "cold_s": statistics.median(r["total"] for r in cold),
        "warm_s": statistics.median(r["total"] for r in warm),
        "numba_floor_s": statistics.median(floor),
        "warm_import_s": statistics.median(r["import"] for r in warm),
        "warm_territory_s": statistics.median(r["territory"] for r in warm),
        "result": warm[0]["result"],
        "heavy_modules_after_import": warm[0]["heavy"],
    }
    if args.json:
        print(json.dumps(report))
        return
    print(f"board {os.path.basename(board)}: territory {report['result']}")
    print(f"cold (empty cache): {report['cold_s']:.2f} s")
    print(f"warm (cached):      {report['warm_s']:.2f} s   (import tronlab "
          f"{report['warm_import_s']:.2f} s, load + territory {report['warm_territory_s']:.2f} s)"
          f"   target < 0.5 s: {'ok' if report['warm_s'] < 0.5 else 'MISSED'}")
    print(f"numba floor (a one-line cached function, warm): {report['numba_floor_s']:.2f} s;"
          f" tronlab's own share of warm: {report['warm_s'] - report['numba_floor_s']:+.2f} s")
    heavy = ", ".join(report["heavy_modules_after_import"]) or "none"
    print(f"heavy modules loaded by the end: {heavy}")


if __name__ == "__main__":
    main()
