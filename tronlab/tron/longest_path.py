"""The separated case as the Light Riders write-up searches it (technique L4).

Once the players cannot reach each other the opponent no longer matters: the
game is the longest path from one's head through one's own region.  The
write-up ("Lightriders-AI") searches it like its main search: every
sequence of the next ``d`` own moves, iteratively deepened, with an *estimate*
of the rest of the path at the cutoff.  Here the estimate is the
checkerboard-parity bound of what is left (A10,
:func:`tronlab.grid.parity.fill_bound_kernel`), an upper bound.

The course's own endgame (A8, :mod:`tronlab.tron.endgame`) differs in what it
puts at the cutoff: a1k0n finishes every line with the greedy filler, a real
path, where this search trusts an optimistic count.  Notebook 09 plays both
out on the same regions.  This is a teaching version: plain Python over the
board (explicit stack, the parity bound compiled), fine for the small regions
of the notebook; the bots use :class:`~tronlab.tron.endgame.Endgame`.

>>> from tronlab import Board
>>> longest_path(Board.from_ascii('''
...     1..#
...     .#.#
...     ...2
... '''), 0).length       # once around the pillar: all 7 free squares
7
"""

from __future__ import annotations

import time as _time
from typing import NamedTuple

import numpy as np

from .board import Board, check_board, check_head
from ..grid import parity
from .values import check_positive, is_real


class LongestPath(NamedTuple):
    """``length``: moves of the best line (exact when ``exact``, else path plus
    estimate); ``move``: its first move (-1: none); ``depth``: the last completed
    depth; ``nodes``: positions visited over all depths."""
    length: int
    move: int
    depth: int
    exact: bool
    nodes: int


def _search_depth(flat, head, stride, depth, seen, stack, deadline):
    """One depth: ``(value, move, cut, nodes)`` or None when ``deadline`` passed."""
    offs = (-stride, 1, stride, -1)
    # the board and scratch are checked once (longest_path): the bound is called unguarded
    fill_bound_kernel = parity._kernels.fast("fill_bound_kernel")
    best, best_move, cut, nodes, first = -1, -1, False, 0, -1
    path = [head]
    tries = [0]
    while tries:
        k = len(path) - 1
        if tries[-1] == 4:          # every move of this node tried: step back
            tries.pop()
            if k > 0:
                flat[path.pop()] = 0
            continue
        m = tries[-1]
        tries[-1] += 1
        t = path[-1] + offs[m]
        if flat[t] != 0:
            continue
        nodes += 1
        if nodes % 256 == 0 and _time.perf_counter() > deadline:
            for sq in path[1:]:
                flat[sq] = 0
            return None
        flat[t] = 1
        path.append(t)
        first = m if k == 0 else first
        if k + 1 == depth:          # the cutoff: moves so far plus the estimate of the rest
            value = depth + int(fill_bound_kernel(flat, np.int64(t), np.int64(stride), seen,
                                                  stack)[0])
            cut = True
        elif all(flat[t + o] != 0 for o in offs):
            value = k + 1           # a dead end: the line is over
        else:
            tries.append(0)
            continue
        if value > best:
            best, best_move = value, first
        flat[path.pop()] = 0
    return max(best, 0), best_move, cut, nodes


def longest_path(board: Board, player: int = 0, *, max_depth: int = 64, time=None) -> LongestPath:
    """Iteratively deepened longest-path search from ``player``'s head (module doc):
    deepen one move at a time until no line reaches the cutoff (exact), ``max_depth``
    or ``time`` seconds; the last completed depth's answer."""
    player = check_head(check_board(board), player)
    max_depth = check_positive(max_depth, "max_depth")
    if time is not None and not is_real(time):
        raise TypeError(f"time must be a number of seconds or None, got {type(time).__name__}")
    if time is not None and not time >= 0:
        raise ValueError(f"time must be >= 0 seconds, got {time!r}")
    flat = board.flat.copy()
    head, stride = int(board.heads[player]), board.stride
    seen = np.zeros(flat.size, np.uint8)
    stack = np.zeros(flat.size, np.int32)
    deadline = _time.perf_counter() + (time if time is not None else float("inf"))
    answer = LongestPath(0, -1, 0, True, 0)
    nodes = 0
    for d in range(1, max_depth + 1):
        out = _search_depth(flat, head, stride, d, seen, stack, deadline)
        if out is None:
            break
        value, move, cut, n = out
        nodes += n
        answer = LongestPath(value, move, d, not cut, nodes)
        if not cut:
            break
    return answer._replace(nodes=nodes)
