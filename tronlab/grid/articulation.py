"""Articulation points (cut vertices) of the free squares (technique A11).

A free square is an articulation point when filling it splits the free squares
around it into more pieces: entering one commits a bot to one side.  Hopcroft
and Tarjan find all of them in one depth-first search.  Each square gets a
discovery number ``disc`` and a ``low`` number, the smallest discovery number
its DFS subtree reaches by one back edge.  A non-root square ``p`` is a cut
vertex when some DFS child ``v`` has ``low[v] >= disc[p]`` (nothing below ``v``
climbs above ``p``); a root is one when it has two or more DFS children.

The DFS runs on an explicit stack (no recursion): ``it[v]`` remembers which of
the four neighbours of ``v`` to try next; a visit to the top of the stack scans
neighbours until it finds an undiscovered one to descend into, or runs out and
pops ``v``, handing ``low[v]`` to its parent.  Every free square is covered, all
components, heads excluded (they are blocked).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import guards
from ..jit.kernels import KernelTable, kernel
from ..tron.board import check_board


class ArticulationScratch(NamedTuple):
    """Scratch arrays for :func:`articulation_points_kernel`; see :func:`new_scratch`."""
    disc: np.ndarray    # int32[size]
    low: np.ndarray     # int32[size]
    parent: np.ndarray  # int32[size]
    it: np.ndarray      # uint8[size]
    stack: np.ndarray   # int32[size]
    is_cut: np.ndarray  # uint8[size], the answer


def new_scratch(size: int) -> ArticulationScratch:
    """Scratch for a flat grid of ``size`` squares (``board.flat.size``)."""
    return ArticulationScratch(np.empty(size, np.int32), np.empty(size, np.int32),
                               np.empty(size, np.int32), np.empty(size, np.uint8),
                               np.empty(size, np.int32), np.empty(size, np.uint8))


def _articulation_guard(flat, stride, disc, low, parent, it, stack, is_cut):
    guards.on_grid(flat, stride, disc=disc, low=low, parent=parent, it=it, stack=stack,
                   is_cut=is_cut)


@kernel(sig="i8(u1[::1], i8, i4[::1], i4[::1], i4[::1], u1[::1], i4[::1], u1[::1])",
        guard=_articulation_guard)
def articulation_points_kernel(flat, stride, disc, low, parent, it, stack, is_cut):
    """Mark every articulation point of the free-square graph in ``is_cut``
    (1 = cut vertex, 0 otherwise) and return how many there are.

    ``flat`` uint8[n] (nonzero blocked, with a blocked border), ``stride`` int64;
    scratch ``disc``, ``low``, ``parent``, ``stack`` int32[n], ``it`` uint8[n];
    output ``is_cut`` uint8[n].
    """
    size = flat.size
    disc[:] = 0
    is_cut[:] = 0
    offs = (np.uint64(0) - np.uint64(stride), np.uint64(1), np.uint64(stride),
            np.uint64(0) - np.uint64(1))
    timer = 0
    count = 0
    for r in range(stride, size - stride):
        root = np.uint64(r)
        if flat[root] != 0 or disc[root] != 0:
            continue
        timer += 1
        disc[root] = timer
        low[root] = timer
        it[root] = 0
        parent[root] = -1
        stack[0] = root
        sp = 1
        root_children = 0
        while sp > 0:
            v = np.uint64(stack[sp - 1])
            k = it[v]
            lv = low[v]
            pv = np.uint64(parent[v])
            descended = False
            while k < 4:
                n = v + offs[k]
                k += 1
                if flat[n] != 0:
                    continue
                dn = disc[n]
                if dn == 0:
                    timer += 1
                    disc[n] = timer
                    low[n] = timer
                    it[n] = 0
                    parent[n] = v
                    stack[sp] = n
                    sp += 1
                    if v == root:
                        root_children += 1
                    descended = True
                    break
                if n != pv and dn < lv:
                    lv = dn
            low[v] = lv
            it[v] = k
            if descended:
                continue
            sp -= 1
            if sp > 0:
                p = np.uint64(stack[sp - 1])
                if lv < low[p]:
                    low[p] = lv
                if p != root and lv >= disc[p] and is_cut[p] == 0:
                    is_cut[p] = 1
                    count += 1
        if root_children > 1:
            is_cut[root] = 1
            count += 1
    return count


# the kernels compile on first use; wrappers prefer ahead-of-time twins (tronlab.jit.kernels)
_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir


def articulation_points(board, *, scratch=None):
    """``(count, mask)``: the number of articulation points of the free squares and
    a boolean mask shaped like ``board.cells`` marking them.

    >>> from tronlab import Board
    >>> board = Board.from_ascii('''
    ...     1..#..
    ...     ##....
    ...     2.#...
    ... ''')
    >>> count, mask = articulation_points(board)
    >>> count, [board.xy(i) for i in np.flatnonzero(mask)]
    (3, [(2, 0), (2, 1), (3, 1)])
    """
    check_board(board)
    scratch = guards.scratch(scratch, board.flat.size, new_scratch, "articulation.new_scratch")
    find = _kernels.fast("articulation_points_kernel")
    count = find(board.flat, np.int64(board.stride), *scratch)
    return int(count), scratch.is_cut.reshape(board.cells.shape).astype(bool)
