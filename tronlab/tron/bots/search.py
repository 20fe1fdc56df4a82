"""Territory and search bots: ``voronoi``, ``multivoronoi``, ``minimax``, ``chamber``.

From the simplest to the contest winner's recipe:

``voronoi``       one move of lookahead: the move after which I am nearer the
                  most squares (A4); a square the opponent can also enter this
                  turn is worth at most a draw; once separated, the greedy
                  filler's move (A1).
``multivoronoi``  kootenpv's 78-line CodinGame bot (K2): one move of lookahead
                  on the 2-4 player turn-order territory (K1).
``minimax``       negamax alpha-beta over whole turns (H1, H2, A5) with the
                  Voronoi count at the leaves, iterative deepening under the
                  clock (A6); once separated, one move of lookahead finished
                  by the greedy filler (A1).
``chamber``       a1k0n's bot: the same search with the chamber-tree evaluation
                  (A12; ``penalize_battlefront=True`` for A13, ``literal=F``
                  for the write-up's literal readings, see
                  :mod:`tronlab.tron.chambers`) and, once separated, the
                  endgame solver (A8).

The search bots value a draw (a head-on crash) at ``draw=-1``, a hair below
an even position: between a crash and an equal game they keep playing (they
still take the crash when every other line looks worse).  ``contempt=c`` (0 to
1) also takes ``c`` times the static evaluation off the draw value, so a bot
that is ahead avoids crashes more and one that is behind seeks them;
``crash="blind"`` searches with an opponent that cannot aim at my square (see
:mod:`tronlab.tron.search`).  Both are options: on the 2010 maps neither changed the
results measurably (``benchmarks/strength.py``).  Nor did ``reduce=1`` (late
move reductions, see :mod:`tronlab.tron.search`): three turns deeper, and level
with ``chamber`` over 554 games.

How long a bot thinks (``time=``, a time bank, the first move), what it reports
(``last_stats``, ``verbose=True``), how it plays 3-4 player games and its
warm-up are the bots' shared base's (:mod:`tronlab.tron.bots.base`).
"""

from __future__ import annotations

from abc import abstractmethod

import numpy as np

from ..board import Board
from ..chambers import chamber_flags
from ...jit.clock import now_ns
from ..endgame import Endgame
from ..evaluate import (CHAMBER, K1_DEFAULT, K2_DEFAULT, SEP_WEIGHT_DEFAULT, TERRITORY,
                        evaluate_kernel, is_separated)
from ..search import Searcher
from ..values import check_number, check_positive, is_whole
from ...runner.registry import register
from .base import _WARMUP, _Bot, _warm


def positive_or_none(value, name: str, unit: str = ""):
    """``value`` as an int >= 1, or None; else a TypeError (not a whole number: 2.5,
    '2', True) or a ValueError (0 or less) naming the option."""
    return None if value is None else check_positive(value, name, f"{unit} or None")


class _EndgameBot(_Bot):
    """A two-player bot that, once the players are separated, plays the endgame
    solver's move (A8), searching at most ``endgame_depth`` moves deep (None: until
    the parity bound or the deadline; 1: the greedy filler's best first move, A1).
    At a fixed :attr:`depth` a capped endgame keeps the search's deadline
    (:meth:`depth_deadline`: none when no engine limit can time the bot out), so it
    searches its whole cap on any machine; an uncapped one keeps the move's time."""

    def __init__(self, *, endgame_depth=None, time=None, verbose=False, rng=None):
        super().__init__(time=time, verbose=verbose, rng=rng)
        self.endgame_depth = positive_or_none(endgame_depth, "endgame_depth")
        self.endgame = Endgame()

    def warm_up(self):
        super().warm_up()
        apart = Board.from_ascii(_WARMUP.replace("....", ".##.").replace("...2", ".#.2"))
        self.endgame.solve(apart, 0, max_depth=2)

    def endgame_move(self, board, player, deadline):
        """The endgame solver's move when the players are separated, else None."""
        if not is_separated(board):
            return None
        if self.endgame_depth is None:
            kw = {}
        else:   # a capped endgame at a fixed depth is as exact as the search before it
            kw = {"max_depth": self.endgame_depth}
            deadline = self.depth_deadline(deadline)
        _, move = self.endgame.solve(board, player, deadline=deadline, **kw)
        self.last_stats.update({"mode": "endgame", **self.endgame.last_stats})
        return move

    def choose(self, board, player, deadline):
        """The endgame solver's move once the players are apart, else :meth:`contested_move`'s."""
        move = self.endgame_move(board, player, deadline)
        return move if move is not None else self.contested_move(board, player, deadline)

    @abstractmethod
    def contested_move(self, board, player, deadline) -> int:
        """The move (0-3) while the heads can still meet."""


class VoronoiBot(_EndgameBot):
    """One move of lookahead on Voronoi territory (A4).

    Two guards a bare territory count lacks: a move into a square the opponent
    can also enter this turn risks a head-on crash, so it is worth at most
    ``draw`` (a draw is bad for the side ahead, which then keeps clear); and
    once the players are separated territory says nothing about how to fill,
    so the bot plays the greedy filler's best first move (A1, as ``minimax``).
    """

    name = "voronoi"

    def __init__(self, *, draw=-1, time=None, verbose=False, rng=None):
        super().__init__(endgame_depth=1, time=time, verbose=verbose, rng=rng)
        if not is_whole(draw):
            raise TypeError(f"draw must be an int (squares; 0 = neutral), got "
                            f"{type(draw).__name__} {draw!r}")
        self.draw = int(draw)

    def contested_move(self, board, player, deadline):
        s = self._scratch(board)
        flat = board.flat.copy()
        me, opp = board.heads[player], board.heads[1 - player]
        contested = {opp + off for off in board.offsets}
        best, best_move = None, None
        for m in board.legal_moves(player):
            if best is not None and now_ns() >= deadline:    # a huge board, a loaded machine
                break
            t = me + board.offsets[m]
            flat[t] = 2 + player
            v = int(evaluate_kernel(flat, t, opp, np.int64(board.stride), np.int64(TERRITORY),
                                    K1_DEFAULT, K2_DEFAULT, np.int64(SEP_WEIGHT_DEFAULT), s))
            flat[t] = 0
            if t in contested:
                v = min(v, self.draw)
            if best is None or v > best:
                best, best_move = v, m
        self.last_stats.update({"mode": "territory", "depth": 1, "value": best})
        return best_move


class MultiVoronoiBot(_Bot):
    """kootenpv's bot (K2): one move of lookahead on turn-order territory."""

    name = "multivoronoi"

    def choose(self, board, player, deadline):
        return self._multi(board, player)


class SearchBot(_EndgameBot):
    """Negamax alpha-beta under the clock, with an evaluation and an endgame."""

    name = "search"

    def __init__(self, *, evaluation="territory", time=None, depth=None, endgame_depth=None,
                 k1=K1_DEFAULT, k2=K2_DEFAULT, sep_weight=SEP_WEIGHT_DEFAULT, draw=-1, contempt=0.0,
                 crash="pessimistic", tt=True, ordering=True, reduce=0, verbose=False, rng=None):
        super().__init__(endgame_depth=endgame_depth, time=time, verbose=verbose, rng=rng)
        self.contempt = check_number(contempt, "contempt", 0, high=1)
        self.draw = draw
        self.searcher = Searcher(evaluation=evaluation, k1=k1, k2=k2, sep_weight=sep_weight,
                                 draw=draw, crash=crash, tt=tt, ordering=ordering, reduce=reduce)
        self.depth = positive_or_none(depth, "depth", " (turns)")

    def contested_move(self, board, player, deadline):
        kw = {} if self.depth is None else {"max_depth": self.depth}
        self.searcher.draw = self.draw_value(board, player)
        value, move = self.searcher.search(board, player, deadline=self.depth_deadline(deadline),
                                           **kw)
        self.last_stats.update({"mode": "search", **self.searcher.last_stats})
        return move

    def draw_value(self, board, player):
        """The value of a draw in this move's search: ``draw``, less ``contempt``
        times the static evaluation of the position (a draw throws a lead away
        and rescues a deficit)."""
        if not self.contempt:
            return self.draw
        s = self._scratch(board)
        me, opp = board.heads[player], board.heads[1 - player]
        static = int(evaluate_kernel(board.flat, me, opp, np.int64(board.stride),
                                     np.int64(self.searcher.code), self.searcher.k1,
                                     self.searcher.k2, np.int64(self.searcher.sep_weight), s))
        return self.draw - int(round(self.contempt * static))


class MinimaxBot(SearchBot):
    """Alpha-beta with the Voronoi count (A5); a greedy one-move filler when separated."""

    name = "minimax"

    def __init__(self, *, evaluation="territory", endgame_depth=1, **options):
        super().__init__(evaluation=evaluation, endgame_depth=endgame_depth, **options)


class ChamberBot(SearchBot):
    """a1k0n's recipe: alpha-beta + chamber-tree evaluation (A12) + endgame solver (A8)."""

    name = "chamber"

    def __init__(self, *, penalize_battlefront=False, literal=0, **options):
        flags = chamber_flags(penalize_battlefront, literal)
        options.setdefault("evaluation", CHAMBER + flags)
        super().__init__(**options)




@register("voronoi", description="one move of lookahead on Voronoi territory (A4)")
def make_voronoi(*, rng=None, time=None, verbose=False, draw=-1):
    return _warm(VoronoiBot(draw=draw, time=time, verbose=verbose, rng=rng))


@register("multivoronoi",
          description="kootenpv's 2-4 player bot: one move on turn-order territory (K1, K2)")
def make_multivoronoi(*, rng=None, time=None, verbose=False):
    return _warm(MultiVoronoiBot(time=time, verbose=verbose, rng=rng))


@register("minimax", description="alpha-beta + Voronoi evaluation under the clock (A5, A6, H1-H5)")
def make_minimax(*, rng=None, time=None, **options):
    return _warm(MinimaxBot(time=time, rng=rng, **options))


@register("chamber", description="a1k0n's bot: alpha-beta + chamber trees + endgame (A8, A12)")
def make_chamber(*, rng=None, time=None, **options):
    return _warm(ChamberBot(time=time, rng=rng, **options))
