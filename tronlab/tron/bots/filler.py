"""The ``filler`` bot: a1k0n's greedy space filler (A1) on its own.

Every turn it takes the move of :func:`tronlab.tron.spacefill.greedy_move`: keep the
region in one piece, take the bigger side when it must split, and hug walls.
It ignores the opponent completely, so it is a fine endgame player and a weak
fighter - a baseline for the search bots.  It only enters free squares, so it
plays under every rule set; boxed in, it goes straight on (and loses).
"""

from __future__ import annotations

import numpy as np

from ..board import Board
from ...runner.registry import register


class FillerBot:
    """Greedy space filler; keeps its scratch arrays between moves."""

    name = "filler"

    def __init__(self):
        # imported here so that importing the bot registry does not load numba
        from ..spacefill import greedy_move_kernel, new_scratch
        from ...grid.ring import POTENTIAL_ARTICULATION
        self._kernel = greedy_move_kernel
        self._new_scratch = new_scratch
        self._table = POTENTIAL_ARTICULATION
        self._scratch = None

    def __call__(self, board: Board, player: int) -> int:
        size = board.flat.size
        if self._scratch is None or self._scratch.mark.size != size:
            self._scratch = self._new_scratch(size)
        flat = board.flat.copy()
        move = int(self._kernel(flat, np.int64(board.heads[player]), np.int64(board.stride),
                                self._table, *self._scratch[:-1]))
        if move < 0:
            facing = int(board.facing[player])
            return facing if facing >= 0 else 0
        return move


@register("filler", description="greedy space filler (A1): hugs walls, avoids cut vertices")
def make_filler(*, rng=None, time=None):
    return FillerBot()
