"""Negamax alpha-beta search for two-player Tron under a real clock
(techniques H1, H2, H3, H4, H5, A5, A6).

The game tree
-------------
Tron turns are simultaneous.  Following zenzike's Haskell bot, a turn is
searched as two plies: I pick a move, then the opponent picks one *knowing
mine* (a pessimistic model: the opponent is granted perfect reactions).  Only
positions after whole turns are evaluated (even plies), so both players have
moved the same number of times.  If the opponent picks the square I picked,
both crash: a draw, worth ``draw`` to me (0 unless asked otherwise).  A
player with no free neighbour loses; if both have none, it is a draw.  A
loss found ``k`` plies from the root is worth ``-WIN + k`` to the loser (a win
``WIN - k`` to the winner): a lost bot holds out as long as it can, a winning
one finishes quickly.  The transposition table stores such values counted
from the node, not the root, so they stay right when reached at another ply.

Seeing my move lets the opponent choose the crash whenever a draw suits it,
which is what the pessimistic model (``crash="pessimistic"``, the default)
assumes.  In the real game it moves without knowing mine, so it cannot aim at
my square: ``crash="blind"`` drops the crash from its choices unless it is its
only move.  Neither model is the simultaneous game itself (a payoff table per
turn, solved for mixed strategies); each is a one-sided simplification that
alpha-beta can search.

Negamax (H1) writes minimax with one rule: a node's value is the best of the
*negated* values of its children, each value seen from the side to move.
Alpha-beta keeps a window ``(alpha, beta)`` of values that can still matter
and stops at a child whose value reaches ``beta`` (a cut-off): the parent will
never allow this line.  Values are fail-soft (a node may return a bound outside
the window).

Separation (H3, A5): once the heads are in different components the players
can no longer touch; the node is scored from fillable space
(:func:`tronlab.tron.evaluate.separated_value_kernel`) and not searched further.

Time (A6, H5)
-------------
:class:`Searcher` deepens one turn at a time against an *absolute* deadline.
The kernel reads the clock every :data:`CLOCK_EVERY` nodes (see
:mod:`tronlab.jit.clock`); when time is up it restores the board and reports the
iteration unfinished, which is thrown away: the move of the last *completed*
depth is played.  On a big board (more than :data:`TIMED_SIZE` squares) one
node's work - a separation test and an evaluation, each a walk over the whole
board - can take milliseconds (a chamber-tree evaluation of a 300x300 map takes
~10 ms on an idle core), so there the kernel reads the clock at every node,
times each node's work, and stops as soon as the most expensive node seen so
far (this move, or the previous move: ``stats[S_COST]``) would not fit before
the deadline.  When not even depth 1 finishes, :meth:`Searcher.search` answers
with the legal move into the square with the most free neighbours
(``benchmarks/lateness.py`` measures how late the bots answer per map size).

Ordering and reuse (H4)
-----------------------
Alpha-beta cuts more when good moves come first.  Three sources, tried in this
order: the principal variation of the previous iteration, the move stored in
the transposition table for this position, and the *killer* move that last
caused a cut-off at the same ply.  The transposition table is keyed by Zobrist
hashing (a random 64-bit number per filled square and per head square, XORed
together, updated incrementally) and kept by the :class:`Searcher` between
turns, so the positions searched for the last move give cut-offs for the next.

The compiled search is :func:`tronlab.tron.alphabeta.negamax_kernel`, a loop
over an explicit stack of frames made of named steps; its arrays are named in
:mod:`tronlab.tron.search_state`.  This module holds the rules above and the
Python side: :class:`Searcher` (state kept between moves, iterative deepening)
and :func:`negamax` (one fixed-depth search).  ref.c's simpler search, for the
benchmark against C, is :mod:`tronlab.tron.c_reference`.

Late move reductions (an option, ``reduce``)
--------------------------------------------
Not in a1k0n's bot; a standard trick of chess programs.  When the ordering is
good, the first move of a node is usually its best, so the later ones are
searched one turn short: with ``reduce=1`` every move after the first, with
``reduce=2`` every move after the second (``reduce=0``, the default: none),
at nodes with at least five plies still to go.  A reduced move whose short
search comes back above alpha may be better than it looked: it is searched
again in full.  The tree shrinks a lot; the price is that a late move which
only shows its worth in the last turn is missed.

Measured (``benchmarks/strength.py``, 0.1 s a move, both seats, the machine
otherwise idle; games in ``benchmarks/results/chamber_lmr_2010_random.jsonl``),
W-D-L of ``chamber+reduce=1`` against ``chamber``: first looks on 20x20
random maps, ``rand0-59`` 33-69-18 and ``rand60-179`` 65-125-50 (59% of the
decided games together, sign p 0.015); then a run of a size fixed before it
started, on maps neither had seen, the 27 2010 maps and ``rand200-449``::

    pair                          maps         W    D    L   score    sign p  verdict  depth
    chamber+reduce=1 v chamber    20x20      106  301   93   51% +-3  0.4     unclear  11.7 / 8.7
                                  google2010   6   43    5   51% +-7  1       unclear  18.4 / 13.4
                                  all        112  344   98   51% +-3  0.37    unclear  12.3 / 9.1

Level: three turns of nominal depth buy nothing measurable, where three
turns of real depth do (chamber with three times its time wins 66%,
``benchmarks/nash_strength.py``): what the reduced lines miss costs as much as
the depth gains.  The first looks' 59% was luck, which is why the verdict
comes from a fresh run.  Prototypes that reduced the third move two turns
(``lmr257`` in the file: 26-69-25 in 120 games) or never within four steps of
the other head (``lmr65``: 30-66-24) were no better, nor the ``hybrid`` bot
with ``reduce=1`` (``hyb1``: 31-60-29).
"""

from __future__ import annotations

import time as _time

import numpy as np

from ..jit.clock import NO_DEADLINE, check_deadline, now_ns, search_deadline
from . import alphabeta as _alphabeta
from .alphabeta import negamax_kernel, update_kernel  # noqa: F401 - shown by notebook 04
from .board import Board  # noqa: F401 - the doctests use it
from .chambers import new_scratch
from .evaluate import (K1_DEFAULT, K2_DEFAULT, SEP_WEIGHT_DEFAULT, check_max_depth,
                       check_two_players, check_weights, eval_code)
from .search_state import (BLIND, CLOCK_EVERY, CRASH_MODELS, EXACT, INF, LOWER,  # noqa: F401
                           MAX_DEPTH, MAX_PLY, N_STATS, PESSIMISTIC, S_ABORTED, S_COST,
                           S_COST_SEEN, S_EVALS, S_NODES, S_SEPARATED, S_TT_CUTS, S_TT_HITS,
                           TIMED_SIZE, UPPER, WIN, new_frames, new_lines, new_table)
from .zobrist import zobrist_keys
from .values import check_flag, check_whole, is_whole


# ---------------------------------------------------------------------------
# Python side: the searcher object (state kept between moves) and wrappers
# ---------------------------------------------------------------------------
def _zobrist(size: int) -> np.ndarray:
    """64-bit keys, fixed per board size (so tables survive between moves)."""
    return zobrist_keys(0x7E0E + size, size)


class Searcher:
    """Negamax alpha-beta with iterative deepening, for one player of a 2-player game.

    Keeps its transposition table, killers and scratch between calls, so
    consecutive moves of one game reuse each other's work (H4); call
    :meth:`reset` for a new game.  After each :meth:`search`, ``last_stats``
    holds what happened (depth reached, nodes, evaluations, time, ...).

    Options (keyword-only): ``evaluation`` ('territory', 'edges', 'linear';
    see :mod:`tronlab.tron.evaluate`), ``k1``/``k2`` (linear weights),
    ``sep_weight``, ``draw`` (value of a draw to me: a small negative number
    makes the bot avoid head-on crashes in even positions), ``crash``
    ('pessimistic' or 'blind': may the opponent aim at my square; see the
    module doc), ``tt`` and
    ``ordering`` (True or False: switch the table and move ordering),
    ``tt_bits`` (table size 2**tt_bits entries), ``reduce`` (late move
    reductions from the move at this index on, 1-3; 0: none; module doc).
    """

    def __init__(self, *, evaluation="linear", k1=K1_DEFAULT, k2=K2_DEFAULT,
                 sep_weight=SEP_WEIGHT_DEFAULT, draw=0, crash="pessimistic", tt=True,
                 ordering=True, tt_bits=20, reduce=0):
        self.code = eval_code(evaluation)
        if crash not in CRASH_MODELS:
            raise ValueError(f"crash must be one of {sorted(CRASH_MODELS)}, got {crash!r}")
        self.crash = CRASH_MODELS[crash]
        self.k1, self.k2, self.sep_weight = check_weights(k1, k2, sep_weight)
        self.tt, self.ordering = check_flag(tt, "tt"), check_flag(ordering, "ordering")
        self.reduce = check_whole(reduce, "reduce", 0, 3, "0: no late move reductions")
        self._draw = None
        self.draw = draw
        self.table = new_table(check_whole(tt_bits, "tt_bits", 4, 26))
        self.lines = new_lines()
        self.frames = new_frames()
        self.scratch = None
        self.zobrist = None
        self.node_cost = 0          # ns: the most one node's work took last move (big boards)
        self.last_stats: dict = {}

    def reset(self) -> None:
        """Forget everything learned (call between games)."""
        self.table.key[:] = 0
        self.lines.killers[:] = -1
        self.node_cost = 0

    @property
    def draw(self) -> int:
        """The value of a draw to the searching player."""
        return self._draw

    @draw.setter
    def draw(self, value) -> None:
        # Table entries hold values scored with the draw value of their search: a new
        # draw value (a bot with contempt sets one every move) empties the table.
        if not is_whole(value) \
                or abs(value) >= WIN:
            raise ValueError(f"draw must be an int value (0 = neutral), got {value!r}")
        if self._draw is not None and int(value) != self._draw:
            self.table.key[:] = 0
        self._draw = int(value)

    def _prepare(self, board):
        size = board.flat.size
        if self.scratch is None or self.scratch.dist.size != size:
            self.scratch = new_scratch(size)
            self.zobrist = _zobrist(size)
            self.reset()

    def search_depth(self, board, player, depth, *, deadline=NO_DEADLINE, prev_pv=None,
                     stats=None, _checked=True):
        """One depth-limited search (``depth`` turns): ``(value, move, completed)``.
        The kernel's arguments are checked (types and values) unless ``_checked`` is
        false: :meth:`search`'s later depths, whose arguments the first depth checked."""
        me, opp = check_two_players(board, player)
        depth = check_whole(depth, "depth", 1, MAX_DEPTH, "turns")
        self._prepare(board)
        s = self.scratch
        stats = np.zeros(N_STATS, np.int64) if stats is None else stats
        prev = self.lines.prev_pv
        n_prev = 0
        if prev_pv is not None and self.ordering:
            n_prev = min(len(prev_pv), MAX_PLY)
            prev[:n_prev] = prev_pv[:n_prev]
        flat = board.flat.copy()
        kernel = negamax_kernel if _checked else _alphabeta._kernels.fast("negamax_kernel")
        v, m, done = kernel(
            flat, board.heads[me], board.heads[opp], np.int64(board.stride), np.int64(depth),
            np.int64(self.code), self.k1, self.k2, np.int64(self.sep_weight), np.int64(self.draw),
            np.int64(self.crash), self.tt, self.ordering, np.int64(self.reduce),
            np.int64(check_deadline(deadline)), self.zobrist,
            self.table, self.lines, np.int64(n_prev), self.frames, s, stats)
        return int(v), int(m), bool(done)

    def search(self, board, player, *, time=None, deadline=None, max_depth=MAX_DEPTH):
        """Iterative deepening, one turn deeper each round, until ``max_depth``
        turns, a decided game, or the deadline (an absolute time from
        :func:`tronlab.jit.clock.deadline_after`; or ``time`` seconds from now).
        The last *completed* depth's move is returned: ``(value, move)``;
        ``move`` is -1 only when the player has no legal move.  With fewer than
        two legal moves there is nothing to choose and nothing is searched:
        ``value`` is ``None`` and ``last_stats["forced"]`` is true."""
        t0 = _time.perf_counter()
        deadline = search_deadline(time, deadline)
        me, opp = check_two_players(board, player)
        max_depth = min(check_max_depth(max_depth), MAX_DEPTH)
        legal = board.legal_moves(me)
        stats = np.zeros(N_STATS, np.int64)
        stats[S_COST] = self.node_cost
        value, move, depth, pv = None, (legal[0] if legal else -1), 0, None
        if len(legal) > 1:
            move = roomiest_move(board, me)
            for d in range(1, max_depth + 1):
                before = stats.copy()
                v, m, done = self.search_depth(board, me, d, deadline=deadline, prev_pv=pv,
                                               stats=stats, _checked=d == 1)
                if not done:
                    break
                value, move, depth = v, m, d
                pv = self.lines.pv[0, :self.lines.pv_len[0]].copy()
                if abs(v) >= WIN - MAX_PLY or now_ns() >= deadline:
                    break
                if stats[S_EVALS] == before[S_EVALS] and stats[S_TT_CUTS] == before[S_TT_CUTS]:
                    # every line ended (crash or separation) before the depth limit:
                    # deeper searches would find the same
                    break
        if stats[S_COST_SEEN]:
            self.node_cost = int(stats[S_COST_SEEN])
        elapsed = _time.perf_counter() - t0
        nodes = int(stats[S_NODES])
        self.last_stats = {
            "depth": depth, "value": value, "move": move, "nodes": nodes,
            "forced": len(legal) <= 1,
            "evals": int(stats[S_EVALS]), "separated_leaves": int(stats[S_SEPARATED]),
            "tt_hits": int(stats[S_TT_HITS]), "tt_cuts": int(stats[S_TT_CUTS]),
            "node_ms": int(stats[S_COST_SEEN]) / 1e6,
            "time": elapsed, "nodes_per_s": nodes / elapsed if elapsed > 0 else 0.0,
            "evals_per_s": int(stats[S_EVALS]) / elapsed if elapsed > 0 else 0.0,
            "pv": [] if pv is None else [int(x) for x in pv],
        }
        return value, move


def roomiest_move(board, player) -> int:
    """The move played when not even a one-turn search fits in the time (a huge
    board): into the free square with the most free neighbours, away from squares
    the opponent can enter this turn; ties to the lower move number; -1 with no
    legal move.

    >>> roomiest_move(Board.from_ascii('''
    ...     #######
    ...     #.#....
    ...     #1.....
    ...     #.#..2.
    ...     #######
    ... '''), 0)
    1
    """
    flat, offs = board.flat, board.offsets
    near = {int(board.heads[q] + o) for q in range(board.n_players)
            if q != player and board.alive[q] for o in offs}
    best, best_move = None, -1
    for m in board.legal_moves(player):
        t = int(board.heads[player] + offs[m])
        score = (t not in near, sum(flat[t + o] == 0 for o in offs))
        if best is None or score > best:
            best, best_move = score, m
    return best_move


def negamax(board, player=0, *, depth=2, evaluation="linear", k1=K1_DEFAULT, k2=K2_DEFAULT,
            sep_weight=SEP_WEIGHT_DEFAULT, draw=0, crash="pessimistic", tt=True, ordering=True):
    """Fixed-depth negamax alpha-beta (``depth`` whole turns, 1-60) for ``player`` of a
    2-player board with both players alive: ``(value, move)``, ``move`` 0-3 (-1 with no
    legal move).  ``value`` is an int from ``player``'s side on the evaluation's scale
    (:mod:`tronlab.tron.evaluate`: thousandths of a predicted move for 'linear' and
    'chamber', squares for 'territory' and 'edges'; ``sep_weight`` per move of fill once
    separated); a forced win or loss found ``k`` plies down is ``WIN - k`` or
    ``-WIN + k`` (``WIN`` = 2**40).  The options are :class:`Searcher`'s.

    >>> b = Board.from_ascii('''
    ...     #####
    ...     #1..#
    ...     ##.##
    ...     #..2#
    ...     #####
    ... ''')
    >>> negamax(b, 0, depth=1, evaluation="territory")[1]   # right: down is a dead end
    1
    """
    s = Searcher(evaluation=evaluation, k1=k1, k2=k2, sep_weight=sep_weight, draw=draw,
                 crash=crash, tt=tt, ordering=ordering, tt_bits=16)
    v, m, _ = s.search_depth(board, player, depth)
    return v, m
