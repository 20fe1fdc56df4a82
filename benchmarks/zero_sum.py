"""Time the zero-sum matrix-game kernel (L1) inside compiled code.

    python benchmarks/zero_sum.py [--count 20000] [--seed 0]

For mixed 2x2, 3x3 and 4x4 games (normal entries, no saddle point) this prints
microseconds per solve of :func:`tronlab.nash.zero_sum.solve_zero_sum_kernel`
called from an ``@njit`` loop over pre-generated games (best of several runs,
so no Python-to-numba call is counted), the plain-Python twin (the kernels'
``.py_func`` with every kernel it calls also plain Python), and
``scipy.optimize.linprog(method="highs")`` per game, with the ratios.  The
``simplex`` column is the share of games that needed the simplex (the rest
were settled by dominance and the 2x2 closed form).  Before timing a size, the
kernel's values of its first 50 games are checked against the twin's (to 1e-9)
and linprog's (to 1e-6); a difference stops the script naming the game.  Times are this process's
CPU time (``numba us``, best of 15) with the wall time beside it.

Measured on 2 shared cores under a load of 11 (20,000 games a size)::

     game  numba us  wall us  python us  py/numba  linprog us  linprog/numba  simplex
    2x2       0.162    0.132       24.2       149      3263.2          20112       0%
    3x3       0.521    0.984      124.6       239      3053.7           5859      61%
    4x4       0.802    2.734      276.8       345      3850.9           4800      89%

(the same run's best of 15 by CPU time on another try: 3x3 0.39 us).  A 3x3
support enumeration (the adjugate for the full support, then the 2x2 supports,
each certified) was tried in front of the simplex: 0.21 us against the
simplex's 0.22 us on the 3x3 games left after dominance, not worth its code.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import types

import numpy as np
from numba import njit
from scipy.optimize import linprog

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tronlab.nash import zero_sum as zs  # noqa: E402

solve_kernel = zs.solve_zero_sum_kernel


@njit(cache=True)
def solve_all(games, n_rows, n_cols, row, col, tab, idx):
    t = 0.0
    for k in range(games.shape[0]):
        t += solve_kernel(games[k], n_rows, n_cols, row, col, tab, idx)
    return t


def mixed_games(count, size, rng):
    """``count`` normal ``size`` x ``size`` games with no saddle point."""
    out = np.empty((count, size, size))
    k = 0
    while k < count:
        a = rng.normal(size=(size, size))
        if a.min(axis=1).max() < a.max(axis=0).min():
            out[k] = a
            k += 1
    return out


def plain_python_solver():
    """``solve_zero_sum_kernel`` as plain Python all the way down: the ``.py_func``
    of each kernel, re-bound so the kernels it calls are plain Python too."""
    table = zs._kernels
    plain = dict(vars(zs))
    for name in table.names:
        f = table.py_func(name)
        plain[name] = types.FunctionType(f.__code__, plain, name, f.__defaults__)
    return plain["solve_zero_sum_kernel"]


def linprog_value(a):
    m, n = a.shape
    c = np.r_[np.zeros(m), -1.0]
    res = linprog(c, A_ub=np.hstack([-a.T, np.ones((n, 1))]), b_ub=np.zeros(n),
                  A_eq=np.r_[np.ones(m), 0.0][None], b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs")
    return res.x[-1]


def best_of(fn, runs=5, clock=time.process_time):
    """The least time of ``runs`` calls, by ``clock``: this process's CPU time by
    default, because on a shared machine the wall clock also counts the turns
    of everybody else's processes (measured under a load of 11 on 2 cores: a
    mixed 3x3 solve 0.4 us of CPU, 1-2.5 us of wall time, best of 5)."""
    best = np.inf
    for _ in range(runs):
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
    return best


CHECKED = 50        # games a size whose values are checked before timing


def check_values(games, args, py_solve):
    """Raise ``AssertionError`` unless the kernel's value of each game agrees with
    the plain-Python twin's (to 1e-9) and with linprog's (to 1e-6)."""
    for k, a in enumerate(games):
        v = solve_kernel(a, *args)
        for who, w, tol in (("its plain-Python twin", py_solve(a, *args), 1e-9),
                            ("linprog", linprog_value(a), 1e-6)):
            if not abs(v - w) <= tol:
                raise AssertionError(f"zero_sum.py: game {k} ({a.shape[0]}x{a.shape[1]}, "
                                     f"{a.tolist()}): the kernel's value is {v!r}, {who}'s "
                                     f"{w!r}; nothing timed")


def measure(size, count, rng, py_solve):
    games = mixed_games(count, size, rng)
    s = zs.new_scratch(size, size)
    row, col = np.zeros(size), np.zeros(size)
    n = np.int64(size)
    args = (n, n, row, col, s.tableau, s.index)
    check_values(games[:CHECKED], args, py_solve)
    solve_all(games[:2], *args)                       # compile / load outside the clock
    t_jit = best_of(lambda: solve_all(games, *args), runs=15) / count
    t_wall = best_of(lambda: solve_all(games, *args), runs=15, clock=time.perf_counter) / count
    few = games[:min(count, 2000)]
    t_py = best_of(lambda: [py_solve(a, *args) for a in few], runs=2) / len(few)
    few = games[:300]
    t_lp = best_of(lambda: [linprog_value(a) for a in few], runs=1) / len(few)
    simplex = 0
    for a in games[:2000]:
        idx = s.index
        rows, cols = idx[:size], idx[size:2 * size]
        rows[:] = np.arange(size)
        cols[:] = np.arange(size)
        m, k = zs.eliminate_dominated_kernel(a, rows, n, cols, n)
        simplex += not (m == 2 and k == 2)
    return t_jit, t_wall, t_py, t_lp, simplex / min(count, 2000)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=20000, help="games per size")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    py_solve = plain_python_solver()
    print(f"{'game':>5} {'numba us':>9} {'wall us':>8} {'python us':>10} {'py/numba':>9} "
          f"{'linprog us':>11} {'linprog/numba':>14} {'simplex':>8}")
    for size in (2, 3, 4):
        t_jit, t_wall, t_py, t_lp, simplex = measure(size, args.count, rng, py_solve)
        print(f"{size}x{size:<3} {t_jit * 1e6:9.3f} {t_wall * 1e6:8.3f} {t_py * 1e6:10.1f} "
              f"{t_py / t_jit:9.0f} "
              f"{t_lp * 1e6:11.1f} {t_lp / t_jit:14.0f} {simplex:8.0%}")


if __name__ == "__main__":
    main()
