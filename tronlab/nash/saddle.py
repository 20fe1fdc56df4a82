"""Saddle-point pruning of a payoff matrix searched cell by cell (technique L2).

A simultaneous-move search (:mod:`tronlab.tron.nash_search`) fills a node's
payoff matrix one cell at a time, each cell a whole sub-search.  The kernels
here decide which cell to search next and with which window, and when the
cells known so far already settle the node; they know nothing about the game.

A cell ``(i, j)`` holds bounds ``lo[i, j] <= value <= hi[i, j]`` (equal when
exact; ``-inf``/``inf`` when not searched).  Whatever the unknown cells hold,
the node's value lies between the best row's smallest lower bound and the best
column's largest upper bound (the row player can guarantee the first with that
row, the column player the second).  When the two meet, the matrix has a
saddle point and that is its value; the Light Riders write-up
("Lightriders-AI") stops filling its matrices there.  A node searched with a
window ``(alpha, beta)`` may also stop once the first bound reaches ``beta`` or
the second falls to ``alpha``, answering with a bound (fail-soft).

Which cell next: of the cells that could still settle the node (an exact
value ``a`` with nothing smaller known in its row and nothing larger in its
column; or a cell known beyond the window), the one with the fewest cells left
to check; a row cell only has to be shown ``>= a`` (a null window just below
``a``), a column cell ``<= a``.  Without a candidate, the next cell in move
order (anti-diagonals from the top left: both players' first moves first) is
searched with the node's window.  If nothing settles the node, every cell gets
searched exactly and the matrix goes to the solver.

>>> import numpy as np
>>> lo = np.array([[3.0, 5.0], [1.0, -np.inf]]); hi = np.array([[3.0, 5.0], [1.0, np.inf]])
>>> next_cell_kernel(lo, hi, 2, 2, -np.inf, np.inf, True)[0] == SADDLE   # row 0 >= 3 >= column 0
True
"""

from __future__ import annotations

import numpy as np

from ..jit.kernels import KernelTable, kernel

# what next_cell_kernel asks for; SADDLE, LOWER, UPPER also say what a value is
FILL, SADDLE, LOWER, UPPER, SOLVE = 0, 1, 2, 3, 4
PROOF_EPS = 1e-7    # width of the null windows that show a cell is above or below a value


def _bounds_guard(lo, hi, m, n):
    """pure_bounds_kernel reads ``lo[:m, :n]`` and ``hi[:m, :n]`` without bounds checks
    (notebook 09 calls it directly); arguments that are not 2-d arrays are left to
    numba's typing, which refuses them."""
    for name, a in (("lo", lo), ("hi", hi)):
        shape = getattr(a, "shape", None)
        if shape is None or len(shape) != 2:
            continue
        for what, k, have in (("m", m, shape[0]), ("n", n, shape[1])):
            if isinstance(k, (int, np.integer)) and not 0 <= k <= have:
                raise ValueError(f"{what} = {k} is outside {name}, a {shape[0]}x{shape[1]} "
                                 f"array")


@kernel(guard=_bounds_guard)
def pure_bounds_kernel(lo, hi, m, n):
    """``(low, i, high, j)``: the best row's worst lower bound (the value is at
    least ``low``: row ``i`` guarantees it) and the best column's worst upper
    bound (at most ``high``, column ``j``)."""
    low = -np.inf
    bi = 0
    for i in range(m):
        r = np.inf
        for j in range(n):
            r = min(r, lo[i, j])
        if r > low:
            low = r
            bi = i
    high = np.inf
    bj = 0
    for j in range(n):
        c = -np.inf
        for i in range(m):
            c = max(c, hi[i, j])
        if c < high:
            high = c
            bj = j
    return low, bi, high, bj


@kernel
def targets_kernel(lo, hi, i, j, alpha, beta):
    """``(candidate, row_t, col_t)``: can cell (i, j) still settle the node, and
    what must hold for that: every cell of its row ``>= row_t`` and of its column
    ``<= col_t`` (``-inf``/``inf``: no condition).  A cell known ``>= beta``
    needs only its row (the node is then worth at least beta), one known
    ``<= alpha`` only its column; an exact value ``a`` in between needs both."""
    if lo[i, j] >= beta:
        return True, beta, np.inf
    if hi[i, j] <= alpha:
        return True, -np.inf, alpha
    if lo[i, j] == hi[i, j]:
        return True, lo[i, j], lo[i, j]
    return False, 0.0, 0.0


@kernel
def next_cell_kernel(lo, hi, m, n, alpha, beta, prune):
    """What to do next at a node with window ``(alpha, beta)``:
    ``(what, i, j, a, b)``: ``FILL`` = search cell (i, j) with window (a, b);
    ``SADDLE``, ``LOWER``, ``UPPER`` = the node is worth exactly / at least / at
    most ``a`` (row i, column j); ``SOLVE`` = every cell is exact, solve."""
    if not prune:                   # the plain search: every cell exactly, then look
        for s in range(m * n):
            if lo[s // n, s % n] != hi[s // n, s % n]:
                return FILL, s // n, s % n, -np.inf, np.inf
    low, bi, high, bj = pure_bounds_kernel(lo, hi, m, n)
    if low == high:
        return SADDLE, bi, bj, low, low
    if prune and low >= beta:
        return LOWER, bi, bj, low, low
    if prune and high <= alpha:
        return UPPER, bi, bj, high, high
    best = 1 << 20
    ci = np.int64(-1)      # np.int64: a bare -1 is a literal to numba, a second signature
    cj = np.int64(-1)
    for i in range(m):
        for j in range(n):
            ok, rt, ct = targets_kernel(lo, hi, i, j, alpha, beta)
            if not ok:
                continue
            need = 0
            for k in range(n):
                if hi[i, k] < rt:
                    need = 1 << 20          # the row holds something smaller: dead
                elif lo[i, k] < rt:
                    need += 1
            for k in range(m):
                if lo[k, j] > ct:
                    need = 1 << 20
                elif hi[k, j] > ct:
                    need += 1
            if need < best:
                best = need
                ci = i
                cj = j
    if ci >= 0:
        _, rt, ct = targets_kernel(lo, hi, ci, cj, alpha, beta)
        for k in range(n):
            if lo[ci, k] < rt:
                return FILL, ci, k, rt - PROOF_EPS, rt
        for k in range(m):
            if hi[k, cj] > ct:
                return FILL, k, cj, ct, ct + PROOF_EPS
    for exact in range(2):          # cells not known well enough for the window, then exactly
        for s in range(m + n - 1):  # anti-diagonals: the first moves of both first
            for i in range(max(0, s - n + 1), min(m, s + 1)):
                j = s - i
                if lo[i, j] != hi[i, j] and (exact or (lo[i, j] < beta and hi[i, j] > alpha)):
                    if exact:
                        return FILL, i, j, -np.inf, np.inf
                    return FILL, i, j, alpha, beta
    return SOLVE, 0, 0, 0.0, 0.0


@kernel
def record_child_kernel(lo, hi, i, j, val, what):
    """A child returned ``val``, exact (SADDLE) or a LOWER or UPPER bound."""
    if what == LOWER:
        lo[i, j] = max(lo[i, j], val)
    elif what == UPPER:
        hi[i, j] = min(hi[i, j], val)
    if what == SADDLE or lo[i, j] >= hi[i, j]:
        lo[i, j] = val
        hi[i, j] = val


# the kernels compile on first use (tronlab.jit.kernels)
_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir
