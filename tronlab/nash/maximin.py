"""The two-ply model of a payoff matrix searched cell by cell, with alpha-beta cuts.

zenzike's two plies (the course's alpha-beta search) value a turn as if the
opponent saw my move: the node is worth ``max_i min_j cell(i, j)``, the best
row's smallest cell, a lower bound of the matrix game's value.  Where the two
heads cannot meet before the search's horizon, the hybrid search
(:mod:`tronlab.tron.nash_search`, ``hybrid=True``) values nodes this way: a
row whose cells already fall to the best row found so far is dropped (an
alpha cut), a row that reaches ``beta`` settles the node (a beta cut).

:func:`maximin_next_cell_kernel` has the interface of
:func:`tronlab.nash.saddle.next_cell_kernel` (the cell bounds ``lo``/``hi``
and the node's window in, what to do next out), so one search loop can use
either at each node.

>>> import numpy as np
>>> inf = np.inf
>>> lo = np.array([[3.0, -inf], [1.0, 5.0]]); hi = np.array([[3.0, inf], [1.0, 5.0]])
>>> maximin_next_cell_kernel(lo, hi, 2, 2, -inf, inf)[:3]   # search (0, 1): is it below 3?
(0, 0, 1)
>>> lo[0, 1] = hi[0, 1] = 4.0
>>> maximin_next_cell_kernel(lo, hi, 2, 2, -inf, inf)       # row 0's min 3 beats row 1's 1
(1, 0, 0, 3.0, 3.0)
"""

from __future__ import annotations

import numpy as np

from ..jit.kernels import KernelTable, kernel
from .saddle import FILL, LOWER, SADDLE, UPPER


@kernel
def maximin_next_cell_kernel(lo, hi, m, n, alpha, beta):
    """``(what, i, j, a, b)`` for the max-min of the cells (see the module doc):
    ``FILL`` = search cell (i, j) with window (a, b); ``SADDLE`` = the node is
    worth exactly ``a`` (row i, its smallest cell j); ``LOWER``/``UPPER`` = at
    least / at most ``a``."""
    best = -np.inf          # the best exact row value so far
    bi = 0
    bj = 0
    top = -np.inf           # the largest upper bound of any row (for a fail-low answer)
    for i in range(m):
        cut = max(alpha, best)
        row_hi = np.inf
        row_lo = np.inf
        lj = 0
        for j in range(n):
            row_hi = min(row_hi, hi[i, j])
            if lo[i, j] < row_lo:
                row_lo = lo[i, j]
                lj = j
        if row_hi <= cut:           # this row cannot beat what we have: dropped
            top = max(top, row_hi)
            continue
        t = min(row_hi, beta)       # the row's value matters only below t
        for j in range(n):
            if lo[i, j] < t and lo[i, j] < hi[i, j]:
                return FILL, i, j, cut, t
        # every cell below t is exact: the row is worth row_lo if that is below t
        if row_lo < t or t == row_hi:
            v = row_lo if row_lo < t else row_hi
            top = max(top, v)
            if v > best:
                best = v
                bi = i
                bj = lj
            if best >= beta:
                return LOWER, bi, bj, best, best
        else:                       # at least beta: the node fails high
            return LOWER, i, lj, row_lo, row_lo
    if best > alpha:
        return SADDLE, bi, bj, best, best
    return UPPER, bi, bj, top, top


# the kernels compile on first use (tronlab.jit.kernels)
_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir
