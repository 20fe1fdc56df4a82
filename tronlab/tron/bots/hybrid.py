"""The ``hybrid`` bot: both search models in one tree, with the chamber evaluation.

Where the two heads can still enter one square on the same turn before the
search's horizon, a turn is what it really is, a simultaneous choice: the
payoff matrix over both players' moves valued as a zero-sum game (L1), with
saddle-point pruning (L2) and head-on crashes scored as the draws they are.
Elsewhere the heads cannot collide before the horizon and the node is valued
by zenzike's two plies, the max-min of the same matrix with alpha-beta cuts,
which needs far fewer cells (:mod:`tronlab.nash.maximin`).  Both in one
compiled search (:func:`tronlab.tron.nash_search.nash_search_kernel` with
``hybrid=True``), deepened under the clock with a1k0n's chamber-tree
evaluation at the cutoff (A12) and, once separated, the endgame solver (A8).

It uses the move's time: 95% of it less 2 ms (``chamber`` stops at 80% less
5 ms), and under the Light Riders protocol the time bank as ``nash`` does.
The move is the most likely one of the root's equilibrium (a pure move where
the root is two-ply).  Measured against ``chamber`` in
``benchmarks/hybrid_strength.py``.
"""

from __future__ import annotations

from ...runner.registry import register
from ..nash_searcher import NashSearcher
from .nash import ClockedBot
from .search import _warm


class HybridBot(ClockedBot):
    """Matrix games where the heads can meet before the horizon, two plies elsewhere."""

    name = "hybrid"

    def __init__(self, *, evaluation="chamber", draw=-1, endgame_depth=None, time=None,
                 verbose=False, rng=None):
        super().__init__(endgame_depth=endgame_depth, time=time, verbose=verbose, rng=rng)
        self.searcher = NashSearcher(evaluation=evaluation, draw=draw, hybrid=True)

    def start_game(self, board, player, *, rules=None, time_limit=None, rng=None):
        super().start_game(board, player, rules=rules, time_limit=time_limit, rng=rng)
        self.searcher.reset()

    def choose(self, board, player, deadline):
        move = self.endgame_move(board, player, deadline)
        if move is not None:
            return move
        _, move = self.searcher.search(board, player, deadline=deadline)
        self.last_stats.update({"mode": "hybrid", **self.searcher.last_stats})
        return move


@register("hybrid", description="matrix games where the heads can meet, two plies elsewhere, "
                                "chamber evaluation, the whole move's time")
def make_hybrid(*, rng=None, time=None, **options):
    return _warm(HybridBot(time=time, rng=rng, **options))
