"""The ``hybrid`` bot: both search models, with the chamber evaluation.

Where the two heads can still collide within ``near`` turns (3 by default),
the root turn is what it really is, a simultaneous choice: a payoff matrix over
both players' moves, the crash a draw the opponent cannot aim at, every other
cell valued by the course's two-ply alpha-beta search with a1k0n's chamber
evaluation, solved as a zero-sum game (L1)
(:mod:`tronlab.tron.root_matrix`).  Elsewhere it is the ``chamber`` bot's own
search.  Once separated, the endgame solver (A8).

It uses the move's time: 95% of it less 2 ms (``chamber`` stops at 80% less
5 ms), and under the Light Riders protocol the time bank as ``nash`` does.

A first version put the two models in one compiled tree
(:class:`~tronlab.tron.nash_searcher.NashSearcher` with ``hybrid=True``:
matrix nodes where the heads can meet before the horizon, max-min nodes
elsewhere); without alpha-beta's transposition table it searched about three
turns less deep than ``chamber`` on the 2010 maps and lost to it (1-37-16
there).  Since then that tree has its own table of bounds and killer moves
(:mod:`tronlab.tron.nash_table`): 12 turns into six 2010 maps, 75 ms a move,
it reaches 7.5 turns to chamber's 7.8 (7.0 without the table); not yet
replayed against ``chamber``.  Measurements: ``benchmarks/hybrid_strength.py``.
"""

from __future__ import annotations

from ...nash.zero_sum import solve_zero_sum
from ...runner.registry import register
from ..root_matrix import RootMatrixSearcher
from .nash import ClockedBot
from .base import _warm


class HybridBot(ClockedBot):
    """The root matrix game where the heads can collide soon, two plies elsewhere."""

    name = "hybrid"

    def __init__(self, *, evaluation="chamber", draw=-1, near=3, reduce=0, endgame_depth=None,
                 time=None, verbose=False, rng=None):
        super().__init__(endgame_depth=endgame_depth, time=time, verbose=verbose, rng=rng)
        self.searcher = RootMatrixSearcher(evaluation=evaluation, draw=draw, near=near,
                                           reduce=reduce)

    def warm_up(self):
        super().warm_up()
        solve_zero_sum([[1.0, -1.0], [-1.0, 1.0]])   # the root matrix's solver, called from Python



@register("hybrid", description="a matrix game at the root where the heads can collide soon, "
                                "chamber's alpha-beta elsewhere, the whole move's time")
def make_hybrid(*, rng=None, time=None, **options):
    return _warm(HybridBot(time=time, rng=rng, **options))
