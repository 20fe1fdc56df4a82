"""The search of the C reference program ``bench/ref.c``, line for line, for
the speed benchmark against C (``benchmarks/search.py``).

Not the course's search (that is :mod:`tronlab.tron.search`): plain
fail-soft alpha-beta negamax where player 0 moves, then player 1 on the
changed board (no collisions, sequential plies), moves in the order up,
right, down, left, -10000 for a side with no move, leaves
``territory(side to move) - territory(other)``.  Its plain-Python twin is
:func:`tronlab.grid.reference.refc_search`.

>>> from tronlab import Board
>>> from tronlab.grid.reference import refc_search
>>> b = Board.from_ascii('''
...     1...
...     ...2
... ''')
>>> reference_search(b, depth=2)            # (value, move, nodes): right, an even game
(0, 1, 6)
>>> refc_search(list(b.flat), int(b.heads[0]), int(b.heads[1]), b.stride, 2)
(0, 1, 6)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..grid.voronoi import territory_kernel
from ..jit.kernels import KernelTable, kernel
from .board import check_two_player_board
from .chambers import new_scratch
from .values import check_whole


class RefFrames(NamedTuple):
    """ref.c's stack, one entry per ply (:func:`new_ref_frames`)."""
    alpha: np.ndarray       # int64[depth + 1]
    beta: np.ndarray        # int64[depth + 1]
    best: np.ndarray        # int64[depth + 1] the best child value so far
    best_move: np.ndarray   # int64[depth + 1]
    next_move: np.ndarray   # int64[depth + 1] the next direction to try (0-3)
    source: np.ndarray      # uint64[depth + 1] the head's square before the ply's move


def new_ref_frames(depth: int) -> RefFrames:
    return RefFrames(*(np.zeros(depth + 1, np.int64) for _ in range(5)),
                     np.zeros(depth + 1, np.uint64))


@kernel(inline="always")
def _keep_better(fr, ply, k, v):
    if v > fr.best[ply]:
        fr.best[ply] = v
        fr.best_move[ply] = k
    if v > fr.alpha[ply]:
        fr.alpha[ply] = v


@kernel
def reference_search_kernel(flat, head0, head1, stride, depth, dist, owner, queue, fr):
    """ref.c's search, ``depth`` plies from player 0 (see the module doc).

    ``flat`` is changed during the search and restored; ``fr`` is
    :func:`new_ref_frames` ``(depth)``.  Returns ``(value, move, nodes)``, the
    nodes counted as ref.c counts them.
    """
    loss = -10000
    inf = 1000000
    offs = (np.uint64(0) - np.uint64(stride), np.uint64(1), np.uint64(stride),
            np.uint64(0) - np.uint64(1))
    pos0 = np.uint64(head0)
    pos1 = np.uint64(head1)
    nodes = 1
    if depth == 0:
        n0, n1, _, _ = territory_kernel(flat, head0, head1, stride, dist, owner, queue)
        return n0 - n1, -1, nodes
    fr.alpha[0], fr.beta[0], fr.best[0], fr.best_move[0], fr.next_move[0] = -inf, inf, -inf, -1, 0
    ply = 0
    while True:
        k = fr.next_move[ply]
        if k < 4 and fr.alpha[ply] < fr.beta[ply]:
            fr.next_move[ply] = k + 1
            src = pos0 if (ply & 1) == 0 else pos1
            n = src + offs[k]
            if flat[n] != 0:
                continue
            flat[n] = 1
            fr.source[ply] = src
            if ply & 1:
                pos1 = n
            else:
                pos0 = n
            nodes += 1
            child = ply + 1
            if child == depth:                      # a leaf: evaluate for the side to move there
                a, b = (pos1, pos0) if child & 1 else (pos0, pos1)
                n0, n1, _, _ = territory_kernel(flat, np.int64(a), np.int64(b), stride,
                                                dist, owner, queue)
                flat[n] = 0
                if ply & 1:
                    pos1 = src
                else:
                    pos0 = src
                _keep_better(fr, ply, k, -(n0 - n1))
                continue
            fr.alpha[child], fr.beta[child] = -fr.beta[ply], -fr.alpha[ply]
            fr.best[child], fr.best_move[child], fr.next_move[child] = -inf, -1, 0
            ply = child
            continue
        val = fr.best[ply]                          # the node is finished
        if val == -inf:
            val = loss
        if ply == 0:
            return val, fr.best_move[0], nodes
        ply -= 1
        if ply & 1:
            flat[pos1] = 0
            pos1 = fr.source[ply]
        else:
            flat[pos0] = 0
            pos0 = fr.source[ply]
        _keep_better(fr, ply, fr.next_move[ply] - 1, -val)


def reference_search(board, *, depth=6):
    """ref.c's search from player 0 (see :func:`reference_search_kernel`):
    ``(value, move, nodes)``."""
    check_two_player_board(board, "reference_search")
    depth = check_whole(depth, "depth", 0, 40)
    flat = board.flat.copy()
    s = new_scratch(flat.size)
    v, m, nodes = reference_search_kernel(flat, board.heads[0], board.heads[1],
                                          np.int64(board.stride), np.int64(depth), s.dist,
                                          s.owner, s.queue, new_ref_frames(depth))
    return int(v), int(m), int(nodes)


# the kernels compile on first use
_kernels = KernelTable(globals())
