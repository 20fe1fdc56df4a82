"""The Nash search's table: move hints and value bounds by Zobrist key (L6).

One slot per key (``key & mask``; the full 64-bit key is kept to tell
positions apart, a new position simply takes the slot over).  A slot holds:

* the most likely pair of moves found there last time (``hint_move``, -1:
  none), tried first when the position comes up again - in the next, deeper
  iteration or in the next move's search;
* the bounds ``lo <= value <= hi`` a search of it proved, and ``left``, how
  many turns deep that search went (``-1``: no bounds).  A later visit that
  needs at most that depth takes the bounds instead of searching, when they
  settle it: exact, at least its ``beta`` or at most its ``alpha``.  A leaf
  (depth 0) is also stored, so a cell searched twice (a null-window proof,
  then exactly) evaluates its leaves once; a separated position is final at
  any depth.

A won game is worth ``WIN - t`` (``t`` turns from the root); the table counts
such values from the node itself (:func:`to_table_kernel`), so they stay right
when the position comes up at another distance from the root (the next move).
Like alpha-beta's table, bounds from a deeper earlier search can make a node
worth more than a fresh search of the asked depth would say; within one
fixed-depth search a position always sits at the same depth (both heads have
moved as often), so a single search is unchanged.
"""

from __future__ import annotations

import numpy as np

from ..jit.kernels import KernelTable, kernel
from ..nash.saddle import LOWER, SADDLE, UPPER

WIN = float(1 << 24)        # a won game: far above any evaluation
MAX_DEPTH = 48              # turns
FINAL = 1 << 20             # ``left`` of a value no deeper search changes (separated)


@kernel(inline="always")
def to_table_kernel(v, ply):
    """A won or lost value counted from the root, as counted from this node."""
    if v >= WIN - 2 * MAX_DEPTH:
        return v + ply
    if v <= -WIN + 2 * MAX_DEPTH:
        return v - ply
    return v


@kernel(inline="always")
def from_table_kernel(v, ply):
    """The inverse of :func:`to_table_kernel` at ``ply``."""
    if v >= WIN - 2 * MAX_DEPTH:
        return v - ply
    if v <= -WIN + 2 * MAX_DEPTH:
        return v + ply
    return v


@kernel
def probe_kernel(hint_key, bounds, left, key, slot, ply, need, alpha, beta):
    """``(settled, value, kind, final)`` for the position ``key`` at ``ply`` that
    needs a ``need``-turn search with window ``(alpha, beta)``: ``kind`` is
    SADDLE (exact), LOWER or UPPER, like a searched node's answer; ``final``:
    a separated position's score, true at any depth (read it only when ``settled``:
    on a miss it describes whatever the slot holds)."""
    final = left[slot] >= FINAL
    if hint_key[slot] != key or left[slot] < need:
        return False, 0.0, np.int64(SADDLE), final
    lo = from_table_kernel(bounds[slot, 0], ply)
    hi = from_table_kernel(bounds[slot, 1], ply)
    if lo == hi:
        return True, lo, np.int64(SADDLE), final
    if lo >= beta:
        return True, lo, np.int64(LOWER), final
    if hi <= alpha:
        return True, hi, np.int64(UPPER), final
    return False, 0.0, np.int64(SADDLE), final


@kernel
def store_kernel(hint_key, hint_move, bounds, left, key, slot, ply, depth_left, val, kind):
    """Keep what a ``depth_left``-turn search of ``key`` at ``ply`` proved: the
    value ``val``, exact or a LOWER / UPPER bound.  Bounds of the same position
    and depth are combined; the hint moves of the same position are kept."""
    v = to_table_kernel(val, ply)
    lo = v if kind != UPPER else -np.inf
    hi = v if kind != LOWER else np.inf
    if hint_key[slot] == key:
        if left[slot] > depth_left:     # a deeper search's bounds are worth more
            return
        if left[slot] == depth_left:
            lo = max(lo, bounds[slot, 0])
            hi = min(hi, bounds[slot, 1])
            if lo > hi:             # cannot happen with consistent searches; trust the new one
                lo = v if kind != UPPER else -np.inf
                hi = v if kind != LOWER else np.inf
    else:
        hint_key[slot] = key
        hint_move[slot, 0] = -1
        hint_move[slot, 1] = -1
    bounds[slot, 0] = lo
    bounds[slot, 1] = hi
    left[slot] = depth_left


@kernel
def hint_cell_kernel(lo, hi, m, n, what, i, j):
    """The pair of moves to try first next time at a node that settled as
    ``what`` on cell ``(i, j)`` (L6).  A saddle point or a solved matrix: that
    cell.  A lower bound proved by row ``i``: that row, with its weakest column
    (the reply most likely to refute it after a deeper search); an upper bound
    proved by column ``j``: that column with its strongest row."""
    if what == LOWER:
        for k in range(n):
            if lo[i, k] < lo[i, j]:
                j = k
    elif what == UPPER:
        for k in range(m):
            if hi[k, j] > hi[i, j]:
                i = k
    return i, j


# the kernels compile on first use (tronlab.jit.kernels)
_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir
