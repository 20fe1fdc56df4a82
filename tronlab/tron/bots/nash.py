"""The ``nash`` bot: simultaneous-move search valued by Nash equilibria (L1-L6).

After the Light Riders write-up (seed 004, "Lightriders-AI"): while the heads
can still meet, every turn is a payoff matrix over both players' moves, solved
as a zero-sum game, searched with saddle-point pruning and iterative deepening
under the clock, territory at the cutoff (:mod:`tronlab.tron.nash_search`).
The move is the most likely one of the root equilibrium, or with
``sample=True`` a draw from it with the seat's seeded Generator (L5).

Separated players (L4): the opponent no longer matters and the game is a
longest-path problem.  The bot reuses the endgame solver of
:mod:`tronlab.tron.endgame` (a1k0n's A8): iteratively deepened exhaustive search of
its own moves, each line finished by the greedy filler, stopping at the
checkerboard-parity bound - the write-up's longest-path search with an
estimate of the remaining length at the cutoff.

The cutoff evaluation is Voronoi territory, as in the write-up; any of
:mod:`tronlab.evaluate`'s works (``evaluation="chamber"``: a1k0n's chamber
trees, slower per node but in a small Light Riders check at 50 ms a move the
stronger choice against the ``minimax`` and ``chamber`` bots; see
``benchmarks/nash_strength.py``).

Works under the google2010 and lightriders rules (2 players); in 3-4 player
games it falls back to the shared one-move multi-player score.  Clock handling
is the other search bots' (:class:`tronlab.bots.search_bots._Bot`).
"""

from __future__ import annotations

import numpy as np

from ...runner.registry import register
from ..nash_search import MAX_DEPTH
from ..nash_searcher import NashSearcher
from .search import _EndgameBot, _warm


class NashBot(_EndgameBot):
    """Nash-equilibrium search while the players can meet; the endgame solver after."""

    name = "nash"

    def __init__(self, *, evaluation="territory", draw=-1, sample=False, prune=True,
                 ordering=True, depth=None, endgame_depth=None, time=None, verbose=False,
                 rng=None):
        super().__init__(endgame_depth=endgame_depth, time=time, verbose=verbose, rng=rng)
        if depth is not None and (not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH):
            raise ValueError(f"depth must be an int from 1 to {MAX_DEPTH} (turns) or None, "
                             f"got {depth!r}")
        self.depth = depth
        self.sample = bool(sample)
        self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        self.searcher = NashSearcher(evaluation=evaluation, draw=draw, prune=prune,
                                     ordering=ordering)

    def start_game(self, board, player, *, rules=None, time_limit=None, rng=None):
        super().start_game(board, player, rules=rules, time_limit=time_limit, rng=rng)
        if rng is not None:
            self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        self.searcher.reset()

    def choose(self, board, player, deadline):
        move = self.endgame_move(board, player, deadline)
        if move is not None:
            return move
        kw = {} if self.depth is None else {"max_depth": self.depth}
        _, move = self.searcher.search(board, player, deadline=deadline,
                                       rng=self.rng if self.sample else None, **kw)
        self.last_stats.update({"mode": "nash", **self.searcher.last_stats})
        return move


@register("nash", description="simultaneous-move search valued by Nash equilibria (L1-L6)")
def make_nash(*, rng=None, time=None, **options):
    return _warm(NashBot(time=time, rng=rng, **options))
