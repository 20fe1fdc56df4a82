"""Two-player zero-sum matrix games (technique L1).

A matrix game: the row player picks a row ``i``, the column player a column
``j``, both at once, and the column player pays ``payoff[i, j]`` to the row
player.  The row player maximises, the column player minimises.  With mixed
strategies (probabilities over rows and over columns) von Neumann's minimax
theorem gives one *value* ``v``: the row player has a strategy that earns at
least ``v`` against every column, the column player one that pays at most
``v`` against every row.  The Light Riders Nash bot ("Lightriders-AI")
values every node of its simultaneous-move search this way.

The matrices of a Tron search are tiny (at most 4x4) and usually degenerate, so
the solver tries the cheap exact answers first, in this order:

1. **Saddle point** (covers every 1xN and Nx1 game): if the best row minimum
   (maximin) equals the best column maximum (minimax), that row and column are
   pure optimal strategies.
2. **Dominance**: a row that is nowhere better than another row (a column
   nowhere smaller than another) can be dropped; repeated until nothing
   changes.  Dropping a *weakly* dominated line keeps the value, and optimal
   strategies of the smaller game stay optimal in the big one (padded with
   zeros).  Duplicate lines are dominated by their twins, so one copy stays.
3. **2x2 closed form**: with no saddle point each player mixes so that the
   other is indifferent between both lines.
4. **Simplex** for the rest: after an affine map of the entries into [1, 2]
   the game is the LP ``max sum(y) s.t. B y <= 1, y >= 0``; its optimum ``z``
   gives the value ``1/z``, ``y/z`` the column strategy, and the final
   reduced costs of the slack variables the row strategy (the dual).
   A dense tableau with Dantzig's entering rule (Bland's rule after a few
   pivots, so degenerate ties cannot cycle).  Simplex rather than support
   enumeration because it is exact (a finite sequence of pivots, only floating
   rounding), handles degenerate games (equal lines, singular supports) without
   special cases, and scales to any size without enumerating supports.

Kernel and wrapper: :func:`solve_zero_sum_kernel` works in caller-provided
scratch and allocates nothing, so other compiled code (the Tron search in
:mod:`tronlab.tron.nash_search`) can solve millions of games;
:func:`solve_zero_sum` checks its input and returns a :class:`ZeroSumSolution`.

>>> solve_zero_sum([[1, -1], [-1, 1]])           # matching pennies
ZeroSumSolution(value=0.0, row_strategy=array([0.5, 0.5]), column_strategy=array([0.5, 0.5]))
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..grid import guards
from ..jit.kernels import KernelTable, kernel

_PIVOT_EPS = 1e-12      # entries are mapped into [1, 2], so an absolute tolerance fits
_DANTZIG_PIVOTS = 32    # then Bland's rule, which cannot cycle
_MAX_PIVOTS = 10_000    # a safety net; Bland's rule always ends long before


class ZeroSumSolution(NamedTuple):
    """The value for the row player (maximiser) and an optimal strategy for each side."""
    value: float
    row_strategy: np.ndarray
    column_strategy: np.ndarray


class ZeroSumScratch(NamedTuple):
    """Scratch of :func:`solve_zero_sum_kernel`; make with :func:`new_scratch`."""
    tableau: np.ndarray     # float64[rows + 1, rows + cols + 1]
    index: np.ndarray       # int64[2 * (rows + cols)]


def new_scratch(n_rows: int, n_cols: int) -> ZeroSumScratch:
    """Scratch for games of up to ``n_rows`` x ``n_cols``."""
    return ZeroSumScratch(np.zeros((n_rows + 1, n_rows + n_cols + 1)),
                          np.zeros(2 * (n_rows + n_cols), np.int64))


# ---------------------------------------------------------------------------
# kernels (``rows``/``cols`` list the lines still in play, as original indices)
# ---------------------------------------------------------------------------
@kernel
def saddle_point_kernel(payoff, rows, n_rows, cols, n_cols):
    """``(found, i, j, value)``: the maximin row ``i`` and minimax column ``j``
    of the lines in play; ``found`` when both bounds meet (a pure equilibrium)."""
    low = -np.inf
    bi = rows[0]
    for a in range(n_rows):
        m = np.inf
        for b in range(n_cols):
            m = min(m, payoff[rows[a], cols[b]])
        if m > low:
            low = m
            bi = rows[a]
    high = np.inf
    bj = cols[0]
    for b in range(n_cols):
        m = -np.inf
        for a in range(n_rows):
            m = max(m, payoff[rows[a], cols[b]])
        if m < high:
            high = m
            bj = cols[b]
    return low == high, bi, bj, low


@kernel
def eliminate_dominated_kernel(payoff, rows, n_rows, cols, n_cols):
    """Drop weakly dominated rows and columns until none is left; returns the
    new ``(n_rows, n_cols)`` (``rows``/``cols`` are reordered in place)."""
    changed = True
    while changed:
        changed = False
        a = 0
        while a < n_rows and n_rows > 1:
            gone = False
            for b in range(n_rows):
                if b != a:
                    gone = True         # does row b do at least as well everywhere?
                    for c in range(n_cols):
                        if payoff[rows[b], cols[c]] < payoff[rows[a], cols[c]]:
                            gone = False
                            break
                    if gone:
                        break
            if gone:
                n_rows -= 1
                rows[a] = rows[n_rows]
                changed = True
            else:
                a += 1
        a = 0
        while a < n_cols and n_cols > 1:
            gone = False
            for b in range(n_cols):
                if b != a:
                    gone = True         # does column b pay at most as much everywhere?
                    for r in range(n_rows):
                        if payoff[rows[r], cols[b]] > payoff[rows[r], cols[a]]:
                            gone = False
                            break
                    if gone:
                        break
            if gone:
                n_cols -= 1
                cols[a] = cols[n_cols]
                changed = True
            else:
                a += 1
    return n_rows, n_cols


@kernel
def solve_2x2_kernel(payoff, r0, r1, c0, c1, row_out, col_out):
    """A 2x2 game without a saddle point: each side makes the other indifferent."""
    a = payoff[r0, c0]
    b = payoff[r0, c1]
    c = payoff[r1, c0]
    d = payoff[r1, c1]
    den = a - b - c + d
    p = (d - c) / den
    q = (d - b) / den
    row_out[r0] = p
    row_out[r1] = 1.0 - p
    col_out[c0] = q
    col_out[c1] = 1.0 - q
    return (a * d - b * c) / den


@kernel
def _pivot_kernel(tab, m, width, pr, pc):
    """Gauss-Jordan step on ``tab[:m + 1, :width]`` around ``tab[pr, pc]``."""
    inv = 1.0 / tab[pr, pc]
    for k in range(width):
        tab[pr, k] *= inv
    tab[pr, pc] = 1.0
    for i in range(m + 1):
        f = tab[i, pc]
        if i != pr and f != 0.0:
            for k in range(width):
                tab[i, k] -= f * tab[pr, k]
            tab[i, pc] = 0.0


@kernel
def simplex_game_kernel(payoff, rows, m, cols, n, row_out, col_out, tab, basis):
    """Solve the game on the lines in play by the simplex method (module doc,
    step 4); ``basis`` int64[m] scratch.  Returns the value."""
    lo = np.inf
    hi = -np.inf
    for a in range(m):
        for b in range(n):
            lo = min(lo, payoff[rows[a], cols[b]])
            hi = max(hi, payoff[rows[a], cols[b]])
    span = hi - lo if hi > lo else 1.0
    last = n + m
    width = last + 1
    for i in range(m + 1):
        for k in range(width):
            tab[i, k] = 0.0
    for a in range(m):
        for b in range(n):
            tab[a, b] = 1.0 + (payoff[rows[a], cols[b]] - lo) / span
        tab[a, n + a] = 1.0
        tab[a, last] = 1.0
        basis[a] = n + a
    for b in range(n):
        tab[m, b] = -1.0
    for it in range(_MAX_PIVOTS):
        pc = -1
        best = -_PIVOT_EPS
        for k in range(last):
            if tab[m, k] < best:
                pc = k
                if it >= _DANTZIG_PIVOTS:
                    break           # Bland: the first improving column
                best = tab[m, k]
        if pc < 0:
            break
        pr = np.int64(-1)      # np.int64: a bare -1 is a literal, a second signature
        ratio = np.inf
        for i in range(m):
            if tab[i, pc] > _PIVOT_EPS:
                r = tab[i, last] / tab[i, pc]
                if r < ratio - 1e-14 or (r <= ratio + 1e-14 and pr >= 0 and basis[i] < basis[pr]):
                    ratio = r
                    pr = i
        _pivot_kernel(tab, m, width, pr, pc)
        basis[pr] = pc
    z = tab[m, last]
    sx = 0.0
    sy = 0.0
    for a in range(m):
        x = max(tab[m, n + a], 0.0)
        row_out[rows[a]] = x
        sx += x
        if basis[a] < n:
            y = max(tab[a, last], 0.0)
            col_out[cols[basis[a]]] = y
            sy += y
    for a in range(m):
        row_out[rows[a]] /= sx
    for b in range(n):
        col_out[cols[b]] /= sy
    return lo + (1.0 / z - 1.0) * span


def _solve_guard(payoff, n_rows, n_cols, row_out, col_out, tab, idx):
    guards.between("n_rows", n_rows, 1, payoff.shape[0])
    guards.between("n_cols", n_cols, 1, payoff.shape[1])
    guards.long_enough(n_rows, row_out=row_out)
    guards.long_enough(n_cols, col_out=col_out)
    guards.shaped("tab", tab, n_rows + 1, n_rows + n_cols + 1)
    guards.long_enough(2 * (n_rows + n_cols), idx=idx)
    if not np.isfinite(payoff[:n_rows, :n_cols]).all():
        raise ValueError("payoff entries must be finite")


@kernel(sig="f8(f8[:, ::1], i8, i8, f8[::1], f8[::1], f8[:, ::1], i8[::1])", guard=_solve_guard)
def solve_zero_sum_kernel(payoff, n_rows, n_cols, row_out, col_out, tab, idx):
    """Value of the game ``payoff[:n_rows, :n_cols]`` (float64, 2-D, C order;
    the row player maximises) and optimal strategies in ``row_out[:n_rows]`` and
    ``col_out[:n_cols]`` (float64).  Scratch: ``tab`` float64 of at least
    ``[n_rows + 1, n_rows + n_cols + 1]``, ``idx`` int64[2 * (n_rows + n_cols)]
    (see :func:`new_scratch`).  Allocates nothing; entries must be finite.
    """
    rows = idx[:n_rows]
    cols = idx[n_rows:n_rows + n_cols]
    basis = idx[n_rows + n_cols:]
    for i in range(n_rows):
        rows[i] = i
        row_out[i] = 0.0
    for j in range(n_cols):
        cols[j] = j
        col_out[j] = 0.0
    found, i, j, v = saddle_point_kernel(payoff, rows, n_rows, cols, n_cols)
    if not found:
        m, n = eliminate_dominated_kernel(payoff, rows, n_rows, cols, n_cols)
        if m == 2 and n == 2:
            return solve_2x2_kernel(payoff, rows[0], rows[1], cols[0], cols[1], row_out, col_out)
        found, i, j, v = saddle_point_kernel(payoff, rows, m, cols, n)     # cannot happen
        if not found:
            return simplex_game_kernel(payoff, rows, m, cols, n, row_out, col_out, tab, basis)
    row_out[i] = 1.0
    col_out[j] = 1.0
    return v


# the kernels compile on first use (tronlab.jit.kernels)
_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir


# ---------------------------------------------------------------------------
# friendly wrapper
# ---------------------------------------------------------------------------
def check_payoff(payoff) -> np.ndarray:
    """``payoff`` as a C-ordered float64 matrix, or a clear TypeError/ValueError."""
    try:
        a = np.asarray(payoff)
    except ValueError as err:          # ragged nested lists
        raise ValueError(f"payoff must be a rectangular 2-D array of numbers: {err}") from None
    if a.dtype == object or a.dtype.kind not in "iuf":
        raise TypeError(f"payoff must hold real numbers, got dtype {a.dtype}")
    if a.ndim != 2:
        raise ValueError(f"payoff must be 2-D (rows x columns), got {a.ndim} dimension(s); "
                         f"write a single row as [[...]]")
    if a.size == 0:
        raise ValueError(f"payoff is empty (shape {a.shape}): each player needs a move")
    a = np.ascontiguousarray(a, dtype=np.float64)
    if not np.isfinite(a).all():
        raise ValueError("payoff has NaN or infinite entries")
    return a


#: payoffs larger than this are divided by the largest one before solving (see solve_zero_sum)
_HUGE = 1e150


def solve_zero_sum(payoff) -> ZeroSumSolution:
    """Value and optimal mixed strategies of a zero-sum matrix game (rows maximise).

    >>> s = solve_zero_sum([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])   # rock-paper-scissors
    >>> round(s.value, 12), s.row_strategy.round(6).tolist()
    (0.0, [0.333333, 0.333333, 0.333333])
    >>> solve_zero_sum([[3, 1], [4, 2]]).value                      # a saddle point
    2.0
    """
    a = check_payoff(payoff)
    m, n = a.shape
    # Huge entries overflow inside the solver (products in the 2x2 closed form, the
    # simplex's span): solve the game divided by its largest entry instead.  Exact in
    # principle (optimal strategies do not change when every payoff is scaled by the same
    # positive number, the value scales with them); ordinary games are solved as given.
    scale = float(np.abs(a).max())
    if scale > _HUGE:
        a = a / scale
    else:
        scale = 1.0
    s = new_scratch(m, n)
    row, col = np.zeros(m), np.zeros(n)
    solve = _kernels.fast("solve_zero_sum_kernel")     # the AOT twin when it is built
    v = float(solve(a, np.int64(m), np.int64(n), row, col, s.tableau, s.index)) * scale
    if not (np.isfinite(v) and np.isfinite(row).all() and np.isfinite(col).all()):
        raise ValueError(f"solving this {m}x{n} game gave a value or strategy that is not a "
                         f"finite number (value {v!r}): its entries are too far apart in size "
                         f"for float64 arithmetic; rescale the payoffs")
    return ZeroSumSolution(v, row, col)
