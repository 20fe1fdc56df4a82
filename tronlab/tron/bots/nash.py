"""The ``nash`` bot: simultaneous-move search valued by Nash equilibria (L1-L6).

After the Light Riders write-up ("Lightriders-AI", the README of a riddles.io bot): while the heads
can still meet, every turn is a payoff matrix over both players' moves, solved
as a zero-sum game, searched with saddle-point pruning and iterative deepening
under the clock, territory at the cutoff (:mod:`tronlab.tron.nash_search`).
The move is the most likely one of the root equilibrium, or with
``sample=True`` a draw from it with the seat's seeded Generator (L5).  The
search keeps a table of proved value bounds and move hints between iterations
and moves, and killer moves per turn (``table=True``, ``killers=True``; L6):
at the same depth they change no move and save a third to a half of the
evaluations (:mod:`tronlab.tron.nash_search`, "Reuse").

Separated players (L4): the opponent no longer matters and the game is a
longest-path problem.  The bot reuses the endgame solver of
:mod:`tronlab.tron.endgame` (a1k0n's A8): iteratively deepened exhaustive search of
its own moves, each line finished by the greedy filler, stopping at the
checkerboard-parity bound - the write-up's longest-path search with an
estimate of the remaining length at the cutoff.

The cutoff evaluation is a1k0n's chamber trees by default (A12; slower per
node than the write-up's Voronoi territory, but the stronger choice in the
Light Riders arena, ``benchmarks/nash_strength.py``); ``evaluation="territory"``
gives the write-up's bot, and ``k1``/``k2`` weigh the chamber (or linear) evaluation
(a1k0n's published 0.055 and 0.194 by default; notebook 06 fits others).

Time: the bot plans to answer within 95% of the move's time, less 2 ms (the
other search bots stop at 80% less 5 ms).  Under the Light Riders protocol the
server's time bank is the deadline: the program hears it before each move
(``set_clock``) and plans 95% of :func:`tronlab.tron.lightriders.move_time` - the
time added a move plus the bank's surplus shared over the rounds the game can
still last - so the bank never runs dry (the other search bots plan 80% of it).
A bank that cannot grow (the game's whole bank, ``settings timebank`` or
``start_game``'s ``time_bank``, no more than the time added a move: how the arena
tells a program its limit a move) is planned as a limit a move: four fifths of it,
less the margin.
As a contest program (``tronlab bot nash --protocol P``) it plans at most 85% less
5 ms, counted from the turn's first input line
(:data:`~tronlab.tron.bots.base.CONTEST_SHARE`): 95% was often late on a busy machine.

Time for important decisions (L6): under a bank, a move where the two heads
are within ``2 * NEAR`` squares (6, grid distance) is where the race for the
squares between them is decided (and in Tron a crash is possible; under the
Light Riders starts the distance stays odd, so the heads can never enter one
square and only the race is left), and gets ``urgent`` times (2 by default)
the planned time, never more than a third of the bank; a move with one legal
choice is answered at once.  The time those moves take comes out of the bank's
surplus that the later moves would have shared.  Measured in
``benchmarks/nash_time_rule.py`` and, against ``chamber`` at a quarter of the
contest's clock, in ``benchmarks/nash_strength.py``: 55% of the decided games
with the rule, 44% without it, on the same 400 starts.  Without a bank (a fixed
time a move), or with one that cannot grow, there is nothing to move between
decisions and the rule does nothing.
``focus=K`` (a trial, off by default) spends the bank on important moves
only: they plan the time added a move plus the bank's surplus shared over K
moves, every other move just the time added a move (a full bank cannot grow,
so nothing is lost while the heads are far apart).  With ``focus=8`` under the
contest's clock ``nash`` thinks two to three times as long as ``chamber`` where
the heads race, and is not stronger for it (``benchmarks/nash_strength.py``).

Works under the google2010 and lightriders rules (2 players); in 3-4 player
games it falls back to the shared one-move multi-player score.
"""

from __future__ import annotations

import numpy as np

from ...runner.registry import register
from ..evaluate import K1_DEFAULT, K2_DEFAULT
from ..lightriders import MOVE_MARGIN, move_time
from ..nash_search import MAX_DEPTH
from ..nash_searcher import NashSearcher
from ..values import check_flag, check_number, check_whole
from .base import _warm
from .search import _EndgameBot


SHARE = 0.95          # of the move's time the search may use
MARGIN = 0.002        # seconds kept back for Python and the protocol
URGENT = 2.0          # times the planned time for an important decision (L6)
NEAR = 3              # turns within which the heads can reach one square: important


class ClockedBot(_EndgameBot):
    """The time rules of ``nash`` and ``hybrid``: 95% of the move's time less 2 ms,
    and under a time bank (``set_clock``) that share of
    :func:`~tronlab.tron.lightriders.move_time`, ``urgent`` times it for an important
    decision (L6).  The first move of a game thinks a quarter of the per-move rule,
    bank or not: its clock may hold the program's start-up, and a contest program
    should answer it at once."""

    share, margin, floor = SHARE, MARGIN, 0.002
    _important = False
    urgent = URGENT
    focus = 0             # > 0: the bank's surplus goes to important moves only (L6, a trial)

    def urgency(self) -> float:
        return self.urgent if self._important else 1.0

    def budget(self) -> float:
        """With ``focus`` K and a bank: an important move plans the time added a
        move plus the bank's surplus shared over K moves, or over the rounds left
        if a turn limit leaves fewer (a third of the bank at most), any other move
        only the time added a move, so the bank is spent where the heads race (the
        first move as in :meth:`_Bot.budget`).  A bank that cannot grow (no larger
        than the time added a move) has nothing to move."""
        if not self.focus or self._clock is None or (
                self._full_bank is not None and self._full_bank <= self._clock[1]):
            return super().budget()
        bank, per = self._clock
        if self._important:
            moves = self.focus          # but no more than the game can last to its turn limit
            if self._max_rounds is not None:
                moves = min(moves, self._rounds_left)
            think = min(move_time(bank, per, moves), bank / 3 - MOVE_MARGIN)
        else:
            think = move_time(bank, per, 1 << 30)      # no surplus: the time a move alone
        plan = max(0.001, self.shares()[0] * think)
        return min(plan, super().budget()) if self._first else plan

    def important(self, board) -> bool:
        """An important decision (L6): two live heads within ``2 * NEAR`` squares."""
        if board.n_players != 2 or not board.alive.all():
            return False
        (x0, y0), (x1, y1) = board.head_xy(0), board.head_xy(1)
        return abs(x0 - x1) + abs(y0 - y1) <= 2 * NEAR

    def __call__(self, board, player):
        self._important = (self.urgent > 1 or self.focus > 0) and self.important(board)
        return super().__call__(board, player)

    def contested_move(self, board, player, deadline):
        """``self.searcher``'s move (with :meth:`search_options`); ``last_stats``
        say so under the bot's name as the mode."""
        _, move = self.searcher.search(board, player, deadline=self.depth_deadline(deadline),
                                       **self.search_options())
        self.last_stats.update({"mode": self.name, **self.searcher.last_stats})
        return move

    def search_options(self) -> dict:
        """Keyword options of this move's ``searcher.search`` (none here)."""
        return {}


class NashBot(ClockedBot):
    """Nash-equilibrium search while the players can meet; the endgame solver after."""

    name = "nash"

    def __init__(self, *, evaluation="chamber", draw=-1, sample=False, prune=True,
                 ordering=True, table=True, killers=True, depth=None, urgent=URGENT,
                 endgame_depth=None, time=None, verbose=False, rng=None, k1=K1_DEFAULT,
                 k2=K2_DEFAULT, focus=0):
        super().__init__(endgame_depth=endgame_depth, time=time, verbose=verbose, rng=rng)
        self.urgent = check_number(urgent, "urgent", 1, "1: no extra time")
        self.focus = check_whole(focus, "focus", 0, unit="0: off")
        self.depth = None if depth is None else check_whole(depth, "depth", 1, MAX_DEPTH,
                                                            "turns; or None")
        self.sample = check_flag(sample, "sample")
        self._rng_source, self._rng = rng, None
        self.searcher = NashSearcher(evaluation=evaluation, draw=draw, prune=prune,
                                     ordering=ordering, table=table, killers=killers,
                                     k1=k1, k2=k2)

    @property
    def rng(self):
        """The Generator that samples moves (``sample=True``), made on first use: a bot
        that never samples does not import ``numpy.random`` (start-up time)."""
        if self._rng is None:
            src = self._rng_source
            self._rng = src if hasattr(src, "bit_generator") else np.random.default_rng(src)
        return self._rng

    def start_game(self, board, player, *, rules=None, time_limit=None, rng=None,
                   time_bank=None, first_time_limit=None, max_turns=None):
        super().start_game(board, player, rules=rules, time_limit=time_limit, rng=rng,
                           time_bank=time_bank, first_time_limit=first_time_limit,
                           max_turns=max_turns)
        if rng is not None:
            self._rng_source, self._rng = rng, None

    def search_options(self) -> dict:
        kw = {} if self.depth is None else {"max_depth": self.depth}
        return {"rng": self.rng if self.sample else None, **kw}


@register("nash", description="simultaneous-move search valued by Nash equilibria (L1-L6)")
def make_nash(*, rng=None, time=None, **options):
    return _warm(NashBot(time=time, rng=rng, **options))
