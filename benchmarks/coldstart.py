"""Seconds from a fresh interpreter to a computed territory: empty JIT cache, warm JIT cache, AOT.

    python benchmarks/coldstart.py [--board FILE] [--runs 5] [--aot-dir DIR] [--json]

Each run is a new ``python -c`` that imports tronlab, loads a board and computes
its Voronoi territory with ``tronlab.grid.voronoi.territory``.  Three set-ups, each
the median of ``--runs`` fresh processes:

* **cold JIT**: ``NUMBA_CACHE_DIR`` a fresh empty directory and ``TRONLAB_AOT=0``,
  so every kernel the call needs compiles;
* **warm JIT**: the same cache directory again, so numba loads the kernels
  from its cache (still importing numba and building its registries);
* **AOT**: the ahead-of-time module of :mod:`tronlab.jit.aot` (built into a temp
  dir first, or taken from ``--aot-dir``): no numba at all.

Also printed: ``import tronlab`` alone (inside the AOT runs), an empty
interpreter (``python -c pass``: the machine's own start-up cost), and the
"numba floor" - a one-line cached ``@njit`` function outside tronlab, which is
what any warm JIT path pays at least.  Wall-clock seconds include waiting for a
CPU on a busy machine, so the CPU seconds (user + system) of the child are
shown too.  Target: AOT < 0.5 s to the first territory result.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_BOARD = os.path.join(HERE, "boards", "rand30x20.txt")
TARGET_S = 0.5

CHILD = """
import sys, time, json
t0 = time.perf_counter()
import tronlab
t1 = time.perf_counter()
from tronlab.grid.voronoi import territory
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


def _timed(cmd, env, cwd):
    """Run ``cmd``; return (completed process, wall seconds, child CPU seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise RuntimeError(f"{cmd[:3]} failed:\n{out.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, wall, cpu


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRONLAB_AOT", "NUMBA_"))}
    env.update(extra)
    return env


def run(board, env):
    """One fresh interpreter computing territory; its timings and result."""
    out, wall, cpu = _timed([sys.executable, "-c", CHILD, board], env, ROOT)
    info = json.loads(out.stdout.strip().splitlines()[-1])
    info.update(total=wall, cpu=cpu)
    return info


def run_floor(tmp):
    """Fresh interpreter: import numba, call a cached one-line function (warm)."""
    with open(os.path.join(tmp, "floor_mod.py"), "w") as f:
        f.write(FLOOR)
    env = _env(NUMBA_CACHE_DIR=os.path.join(tmp, "cache"), PYTHONPATH=tmp)
    cmd = [sys.executable, "-c", "import floor_mod; floor_mod.plus_one(1)"]
    _timed(cmd, env, tmp)                 # compile into the cache
    return _timed(cmd, env, tmp)[1]


def run_empty():
    return _timed([sys.executable, "-c", "pass"], _env(), ROOT)[1]


def build_aot(directory):
    """Build the AOT module into ``directory`` in a child process; seconds taken."""
    _, wall, _ = _timed([sys.executable, "-m", "tronlab.jit.aot", "build", "--dir", directory],
                        _env(), ROOT)
    return wall


def _median(runs, key):
    return statistics.median(r[key] for r in runs)


def measure(board, runs, aot_dir=None):
    cold, warm, fast, floor, empty = [], [], [], [], []
    built_s = None
    with tempfile.TemporaryDirectory() as tmp:
        if aot_dir is None:
            aot_dir = os.path.join(tmp, "aot")
            built_s = build_aot(aot_dir)
        for i in range(runs):
            cache = os.path.join(tmp, f"numba-cache-{i}")
            jit = _env(NUMBA_CACHE_DIR=cache, TRONLAB_AOT="0")
            cold.append(run(board, jit))
            warm.append(run(board, jit))
            fast.append(run(board, _env(NUMBA_CACHE_DIR=cache, TRONLAB_AOT_DIR=aot_dir)))
            floor_dir = os.path.join(tmp, f"floor-{i}")
            os.makedirs(floor_dir)
            floor.append(run_floor(floor_dir))
            empty.append(run_empty())
    results = {tuple(r["result"]) for r in cold + warm + fast}
    if len(results) != 1:
        raise RuntimeError(f"the set-ups disagree: {results}")
    return {
        "board": os.path.basename(board),
        "runs": runs,
        "result": fast[0]["result"],
        "cold_jit_s": _median(cold, "total"),
        "warm_jit_s": _median(warm, "total"),
        "aot_s": _median(fast, "total"),
        "cold_jit_cpu_s": _median(cold, "cpu"),
        "warm_jit_cpu_s": _median(warm, "cpu"),
        "aot_cpu_s": _median(fast, "cpu"),
        "import_tronlab_s": _median(fast, "import"),
        "aot_territory_s": _median(fast, "territory"),
        "warm_territory_s": _median(warm, "territory"),
        "empty_interpreter_s": statistics.median(empty),
        "numba_floor_s": statistics.median(floor),
        "aot_build_s": built_s,
        "heavy_modules_jit": warm[0]["heavy"],
        "heavy_modules_aot": fast[0]["heavy"],
        "target_s": TARGET_S,
        "aot_meets_target": _median(fast, "total") < TARGET_S,
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", default=DEFAULT_BOARD)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--aot-dir", default=None,
                    help="use the AOT build under this base dir instead of building one")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    r = measure(os.path.abspath(args.board), args.runs, args.aot_dir)
    if args.json:
        print(json.dumps(r))
        return
    print(f"board {r['board']}: territory {r['result']}; medians of {r['runs']} fresh processes"
          f" (wall s, CPU s)")
    print(f"  cold JIT (empty numba cache): {r['cold_jit_s']:6.2f}  {r['cold_jit_cpu_s']:6.2f}")
    print(f"  warm JIT (numba cache):       {r['warm_jit_s']:6.2f}  {r['warm_jit_cpu_s']:6.2f}"
          f"   (load + territory {r['warm_territory_s']:.2f})")
    print(f"  AOT module:                   {r['aot_s']:6.2f}  {r['aot_cpu_s']:6.2f}"
          f"   (load + territory {r['aot_territory_s']:.3f})"
          f"   target < {TARGET_S} s: {'ok' if r['aot_meets_target'] else 'MISSED'}")
    print(f"  import tronlab alone:         {r['import_tronlab_s']:6.2f}")
    print(f"  empty interpreter:            {r['empty_interpreter_s']:6.2f}")
    print(f"  numba floor (one-line cached @njit, warm): {r['numba_floor_s']:.2f}")
    if r["aot_build_s"] is not None:
        print(f"  (AOT build: {r['aot_build_s']:.1f} s)")
    print(f"  heavy modules at the end: JIT {', '.join(r['heavy_modules_jit']) or 'none'};"
          f" AOT {', '.join(r['heavy_modules_aot']) or 'none'}")


if __name__ == "__main__":
    main()
