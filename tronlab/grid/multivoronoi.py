"""Voronoi territory for 2-4 players by turn-order expansion (technique K1).

With more than two players, "who gets there first" depends on who moves
first.  The expansion plays it out: in every round each living player, in turn
order, claims every still-unclaimed free square next to the squares it claimed
in the previous round (round 0: its head).  A square belongs to whoever claims
it first, so when two players reach a square in the same round the one earlier
in the turn order gets it.

Choices (documented here, tested in ``tests/test_multivoronoi.py``):

* **Turn order** starts at ``first`` and goes up cyclically:
  ``first, first + 1, ..., n - 1, 0, ..., first - 1``.  Pass the player about to
  move next as ``first`` (in CodinGame Tron, the lowest-numbered player still to
  move this turn), so it wins the ties it would win on the real board.
* **First layer**: round 1 claims the free squares next to the heads; heads
  are never counted (they are trail already).
* **Dead players** (``alive`` false) are not seeded and claim nothing.  Their
  trail stays blocked: remove it from the grid first if the rules do
  (CodinGame's do).

Since every player grows one layer per round and players move in a fixed
order inside a round, this equals one breadth-first search seeded with the
living heads in turn order: inside each layer of the FIFO queue the squares
stay sorted by turn position, and a square goes to the player with the
smallest ``(distance, turn position)``.  The kernel runs that BFS.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit.kernels import KernelTable, kernel
from ..tron.board import check_board
from . import guards
from ..tron.values import is_whole

NOBODY = 255


class MultiTerritory(NamedTuple):
    counts: np.ndarray   # int64[n_players]: squares claimed (heads not counted)
    owner: np.ndarray    # uint8, shaped like board.cells: player, or NOBODY (255)


def _turn_order_guard(flat, heads, alive, first, stride, owner, queue, counts):
    guards.on_grid(flat, stride, owner=owner, queue=queue)
    guards.living_heads(flat, stride, heads, alive)
    guards.long_enough(heads.size, counts=counts)


@kernel(sig="i8(u1[::1], i8[::1], b1[::1], i8, i8, u1[::1], i4[::1], i8[::1])",
        guard=_turn_order_guard)
def turn_order_territory_kernel(flat, heads, alive, first, stride, owner, queue, counts):
    """Turn-order expansion; see the module docstring.

    ``flat`` uint8[n]; ``heads`` int64[p] and ``alive`` bool[p] (p = 1..4 players);
    ``first`` int64 in 0..p-1; ``stride`` int64.  Scratch ``queue`` int32[n].
    Outputs: ``owner`` uint8[n] (claiming player; living heads their player;
    255 elsewhere) and ``counts`` int64[p] (squares claimed per player).
    Returns the number of squares claimed in all.
    """
    owner[:] = 255
    offs = (np.uint64(0) - np.uint64(stride), np.uint64(1), np.uint64(stride),
            np.uint64(0) - np.uint64(1))
    n_players = heads.size
    qt = 0
    for j in range(n_players):
        p = (first + j) % n_players
        counts[p] = 0
        if alive[p]:
            owner[heads[p]] = p
            queue[qt] = heads[p]
            qt += 1
    seeds = qt
    qh = 0
    while qh < qt:
        c = np.uint64(queue[qh])
        qh += 1
        o = owner[c]
        for k in range(4):
            n = c + offs[k]
            if flat[n] == 0 and owner[n] == 255:
                owner[n] = o
                counts[o] += 1
                queue[qt] = n
                qt += 1
    return qt - seeds


# the kernels compile on first use; wrappers prefer ahead-of-time twins (tronlab.jit.kernels)
_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir


def turn_order_territory(board, *, first=0) -> MultiTerritory:
    """Squares each player claims by turn-order expansion starting with player
    ``first``; dead players claim nothing.

    >>> from tronlab import Board
    >>> b = Board.from_ascii('''
    ...     1.2
    ...     ...
    ...     3..
    ... ''')
    >>> turn_order_territory(b).counts.tolist()          # player 0 expands first
    [3, 2, 1]
    >>> turn_order_territory(b, first=1).counts.tolist()  # player 1 first, player 0 last
    [0, 4, 2]
    """
    check_board(board)
    if not is_whole(first):
        raise TypeError(f"first must be an int, got {type(first).__name__}")
    if not 0 <= first < board.n_players:
        raise ValueError(f"first must be a player 0..{board.n_players - 1}, got {first}")
    size = board.flat.size
    owner = np.empty(size, np.uint8)
    counts = np.zeros(board.n_players, np.int64)
    expand = _kernels.fast("turn_order_territory_kernel")
    expand(board.flat, np.ascontiguousarray(board.heads, np.int64),
           np.ascontiguousarray(board.alive, np.bool_), np.int64(first),
           np.int64(board.stride), owner, np.empty(size, np.int32), counts)
    return MultiTerritory(counts, owner.reshape(board.cells.shape))
