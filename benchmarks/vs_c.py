"""numba kernels against the C reference (../shared/bench/ref.c), same process, alternating.

    python benchmarks/vs_c.py [BOARD.txt ...] [--ref PATH/ref.c] [--batches N]

Builds ref.c as a shared library (gcc -O2 -march=native -DLIB -shared -fPIC, in a
temp dir), loads it with ctypes, then for each board and kernel alternates one
C batch (``lib_bench(kernel, reps)``) and one numba batch (the compiled loops of
``benchmarks/kernels.py``), so both see the same machine noise.  Prints the
median microseconds per call of each and the ratio numba / C: the median over
the batch pairs of (numba batch / C batch), which shrugs off load that drifts
during the run better than a ratio of medians.
Targets: voronoi and flood <= 1.2x, articulation <= 1.3x.  Before timing a
board, the numba kernels' answers are checked against what the standalone
``ref`` (built beside the library) prints for it: a difference names the kernel
and both answers and exits with status 1.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from kernels import KERNELS, REPS, Disagreement, Prepared  # noqa: E402
from refc import DEFAULT_REF, build_library, build_program, missing  # noqa: E402

C_KERNEL = {"voronoi": 0, "flood": 1, "articulation": 2}
TARGET = {"voronoi": 1.2, "flood": 1.2, "articulation": 1.3}


def c_answers(ref_exe, path):
    """What the standalone ``ref`` prints for ``path``, by kernel (its search at
    depth 1: not compared here)."""
    out = subprocess.run([ref_exe, path], capture_output=True, text=True, check=True,
                         env={**os.environ, "DEPTH": "1"}).stdout
    words = {line.split()[0]: [int(w) for w in line.split()[1:] if w.lstrip("-").isdigit()]
             for line in out.splitlines() if line.strip()}
    return {"voronoi": words["voronoi"], "flood": words["flood"], "articulation": words["artic"]}


def check_against_c(ref_exe, path, p):
    """Raise :class:`kernels.Disagreement` unless the numba kernels give what the C
    reference gives on ``path`` (territory and edges; flood size; articulation
    count and index sum)."""
    r = p.results()
    ours = {"voronoi": r["territory"] + r["edges"], "flood": [r["flood"]],
            "articulation": [r["articulation_count"], r["articulation_index_sum"]]}
    theirs = c_answers(ref_exe, path)
    for k in KERNELS:
        if ours[k] != theirs[k]:
            raise Disagreement(f"{os.path.basename(path)}: the numba {k} kernel gives "
                               f"{ours[k]}, the C reference {theirs[k]}; nothing timed")


def compare(c, ref_exe, path, batches):
    c.lib_load(os.fsencode(path))
    p = Prepared(path)
    check_against_c(ref_exe, path, p)
    rows = []
    for k in KERNELS:
        reps = REPS[k]
        p.numba_batch(k, reps)                 # compile / warm up
        c.lib_bench(C_KERNEL[k], reps, 0)
        tc, tn = [], []
        for _ in range(batches):
            tc.append(c.lib_bench(C_KERNEL[k], reps, 0))
            tn.append(p.numba_batch(k, reps))
        mc, mn = statistics.median(tc) * 1e6, statistics.median(tn) * 1e6
        paired = statistics.median(n / c for n, c in zip(tn, tc))
        rows.append((k, mc, mn, paired))
    return rows


def main(argv=None):
    boards_dir = os.path.join(HERE, "boards")      # copies of ref.c's boards
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("boards", nargs="*",
                    help="Google 2010 map files (default: copies of ref.c's boards)")
    ap.add_argument("--ref", default=DEFAULT_REF, help="path of ref.c")
    ap.add_argument("--batches", type=int, default=101)
    args = ap.parse_args(argv)
    boards = args.boards or [os.path.join(boards_dir, f) for f in
                             ("empty15.txt", "empty30x20.txt", "rand30x20.txt")]
    why = missing(args.ref)
    if why:
        print(f"vs_c.py: {why}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        c, ref_exe = build_library(args.ref, tmp), build_program(args.ref, tmp)
        print(f"{'board':16s} {'kernel':13s} {'C us':>8s} {'numba us':>9s} {'numba/C':>8s}"
              "   (medians; ratio = median of paired batch ratios)")
        worst = {}
        for path in boards:
            try:
                rows = compare(c, ref_exe, path, args.batches)
            except Disagreement as exc:
                print(f"vs_c.py: {exc}", file=sys.stderr)
                return 1
            for k, mc, mn, ratio in rows:
                ok = "ok" if ratio <= TARGET[k] else f"over {TARGET[k]}x"
                name = os.path.basename(path)
                print(f"{name:16s} {k:13s} {mc:8.3f} {mn:9.3f} {ratio:8.2f}  {ok}")
                worst[k] = max(worst.get(k, 0), ratio)
        print("worst ratio: " + ", ".join(f"{k} {v:.2f}x" for k, v in worst.items()))


if __name__ == "__main__":
    sys.exit(main())
