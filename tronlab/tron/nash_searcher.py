"""The simultaneous-move Nash search under a clock, from Python (L3, L5, L6).

:class:`NashSearcher` deepens :func:`tronlab.tron.nash_search.nash_search_kernel`
one turn at a time against an absolute deadline (L3): an iteration the clock
cuts short is thrown away and the last completed one's answer stands.  Each
iteration tries the root moves in the order of the previous one's equilibrium
probabilities, and the hint table it keeps between iterations and moves puts
the last known best pair of moves first deeper in the tree (L6).

The answer at the root is a mixed strategy.  :func:`choose_move` turns it into
one move (L5): the most likely move, or, given a ``numpy.random.Generator``, a
move drawn with the equilibrium's probabilities (an opponent who knew our
deterministic choice could exploit it; one who only knows the strategy cannot).
"""

from __future__ import annotations

import time as _time

import numpy as np

from ..jit.clock import NO_DEADLINE, check_deadline, now_ns, search_deadline
from .chambers import new_scratch as new_eval_scratch
from .evaluate import (K1_DEFAULT, K2_DEFAULT, SEP_WEIGHT_DEFAULT, check_max_depth,
                        check_two_players, check_weights, eval_code)
from . import nash_search as ts
from .search import roomiest_move
from .zobrist import zobrist_keys
from .values import check_flag, check_whole, is_real


def _zobrist(size: int) -> np.ndarray:
    """64-bit keys for filled squares, my head and the opponent's head."""
    return zobrist_keys(0x4A5E + size, size)


def choose_move(strategy, *, rng=None) -> int:
    """One move from a strategy (probabilities by move code 0-3): the most likely
    (the lowest code on ties), or a draw from ``rng`` when given (L5).

    >>> choose_move([0.0, 0.25, 0.75, 0.0])
    2
    >>> choose_move([0.5, 0.5, 0.0, 0.0], rng=np.random.default_rng(1)) in (0, 1)
    True
    """
    p = np.asarray(strategy, float)
    if p.shape != (4,) or (p < 0).any() or not p.sum() > 0:
        raise ValueError(f"a strategy is 4 probabilities (by move code), got {strategy!r}")
    if rng is None:
        return int(np.argmax(p))
    return int(rng.choice(4, p=p / p.sum()))


def stats_by_name(stats) -> dict[str, int]:
    """The counts of a search's ``stats`` array (int64[N_STATS]) by their names
    (:data:`tronlab.tron.nash_search.STAT_NAMES`: ``"nodes"``, ``"matrices"``, ``"saddle"``,
    ``"cuts"``, ``"solved"``, ...)."""
    if not (isinstance(stats, np.ndarray) and stats.shape == (ts.N_STATS,)):
        raise ValueError(f"stats must be an array of {ts.N_STATS} counts (N_STATS)")
    return {name: int(stats[k]) for k, name in enumerate(ts.STAT_NAMES)}


def check_prior(prior) -> np.ndarray:
    """``prior`` as the kernel reads it, a C-contiguous float64[2, 4]: finite weights
    by move code (the root's moves are tried from the largest down), a row for me and
    one for the opponent, a row starting below 0 meaning none; else a ValueError.

    >>> check_prior([[0.5, 0.5, 0, 0], [-1, -1, -1, -1]]).shape
    (2, 4)
    >>> check_prior([0.5, 0.5, 0, 0])      # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: prior must be None or 2 rows of 4 numbers (...), got shape (4,)
    """
    what = ("prior must be None or 2 rows of 4 numbers (move weights by move code for me "
            "and the opponent, a row starting below 0: none)")
    try:
        a = np.asarray(prior)
    except (TypeError, ValueError):
        raise ValueError(f"{what}, got {type(prior).__name__}") from None
    if a.dtype.kind not in "iuf":
        raise ValueError(f"{what}, got an array of {a.dtype}")
    if a.shape != (2, 4):
        raise ValueError(f"{what}, got shape {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"{what}, got {a.tolist()}")
    return np.ascontiguousarray(a, np.float64)


class NashSearcher:
    """Iteratively deepened simultaneous-move search for one player of a 2-player
    game.  Options: ``evaluation`` (see :mod:`tronlab.tron.evaluate`; territory by
    default), ``k1``/``k2``/``sep_weight`` (its weights), ``draw`` (value of a
    draw to me); switched on or off with True or False: ``prune`` (L2 saddle-point
    pruning), ``ordering`` (L6),
    ``hybrid`` (the two-ply model where the heads cannot meet before the
    depth limit), ``table`` (keep proved value bounds by position, reused by
    later iterations and moves: :mod:`tronlab.tron.nash_table`), ``killers``
    (without a hint, first the moves that last settled a node as deep), ``hint_bits``
    (table size 2**hint_bits).  ``last_stats`` tells what the
    last :meth:`search` did."""

    def __init__(self, *, evaluation="territory", k1=K1_DEFAULT, k2=K2_DEFAULT,
                 sep_weight=SEP_WEIGHT_DEFAULT, draw=0.0, prune=True, ordering=True,
                 hybrid=False, table=True, killers=True, hint_bits=16):
        self.code = eval_code(evaluation)
        self.k1, self.k2, self.sep_weight = check_weights(k1, k2, sep_weight)
        if not is_real(draw):
            raise TypeError(f"draw must be a number well inside +-WIN, got "
                            f"{type(draw).__name__} {draw!r}")
        if not abs(draw) < ts.WIN:
            raise ValueError(f"draw must be a number well inside +-WIN, got {draw!r}")
        hint_bits = check_whole(hint_bits, "hint_bits", 4, 24)
        self.draw = float(draw)
        self.prune, self.ordering, self.hybrid, self.table, self.killers = (
            check_flag(v, name) for v, name in ((prune, "prune"), (ordering, "ordering"),
                                                (hybrid, "hybrid"), (table, "table"),
                                                (killers, "killers")))
        self.hint_key = np.zeros(1 << hint_bits, np.uint64)
        self.hint_move = np.zeros((1 << hint_bits, 2), np.int64)
        self.bounds = np.zeros((1 << hint_bits, 2))
        self.left = np.full(1 << hint_bits, -1, np.int64)
        self.ns = ts.new_scratch()
        self.cs = self.zobrist = None
        self.strategy = np.zeros((2, 4))
        self.node_cost = 0          # ns: the most one node's work took last move (big boards)
        self.last_stats: dict = {}

    def reset(self) -> None:
        """Forget the hints and the killer moves (call between games)."""
        self.hint_key[:] = 0
        self.left[:] = -1
        self.ns.killers[:] = -1
        self.node_cost = 0

    def search_depth(self, board, player, depth, *, deadline=NO_DEADLINE, prior=None,
                     stats=None, _checked=True):
        """One search ``depth`` turns deep: ``(value, strategies, completed)`` where
        ``strategies`` is float64[2, 4], the root equilibrium of me and the
        opponent by move code; ``prior`` the same shape (:func:`check_prior`), or None.
        The kernel's arguments are checked unless ``_checked`` is false (:meth:`search`'s
        later depths, whose arguments the first depth checked)."""
        me, opp = check_two_players(board, player)
        depth = check_whole(depth, "depth", 1, ts.MAX_DEPTH, "turns")
        size = board.flat.size
        if self.cs is None or self.cs.dist.size != size:
            self.cs, self.zobrist = new_eval_scratch(size), _zobrist(size)
            self.reset()
        stats = np.zeros(ts.N_STATS, np.int64) if stats is None else stats
        if not (isinstance(stats, np.ndarray) and stats.dtype == np.int64
                and stats.shape == (ts.N_STATS,)):
            raise ValueError(f"stats must be an int64 array of {ts.N_STATS} counts (N_STATS)")
        prior = np.full((2, 4), -1.0) if prior is None else check_prior(prior)
        kernel = ts.nash_search_kernel if _checked else ts._kernels.fast("nash_search_kernel")
        v, done = kernel(board.flat.copy(), np.int64(board.heads[me]), np.int64(board.heads[opp]),
                         np.int64(board.stride), np.int64(depth), np.int64(self.code), self.k1,
                         self.k2, np.int64(self.sep_weight), self.draw, self.prune, self.ordering,
                         self.hybrid, self.table, self.killers and self.ordering,
                         np.int64(check_deadline(deadline)), prior, self.zobrist,
                         self.hint_key, self.hint_move, self.bounds, self.left, self.strategy,
                         self.ns, self.cs, stats)
        return float(v), self.strategy.copy(), bool(done)

    def search(self, board, player, *, time=None, deadline=None, max_depth=ts.MAX_DEPTH,
               rng=None):
        """Deepen until ``max_depth``, a decided game, or the deadline; ``(value,
        move)`` of the last completed depth (move -1: no legal move).  The move is
        the strategy's most likely, or drawn with ``rng`` (L5)."""
        t0 = _time.perf_counter()
        deadline = search_deadline(time, deadline)
        me, _ = check_two_players(board, player)
        max_depth = min(check_max_depth(max_depth), ts.MAX_DEPTH)
        legal = board.legal_moves(me)
        stats = np.zeros(ts.N_STATS, np.int64)
        stats[ts.S_COST] = self.node_cost
        value, depth, strategy = 0.0, 0, None
        for d in range(1, max_depth + 1 if len(legal) > 1 else 1):
            evals = stats[ts.S_EVALS] + stats[ts.S_TABLE]
            v, s, done = self.search_depth(board, me, d, deadline=deadline, prior=strategy,
                                           stats=stats, _checked=d == 1)
            if not done:
                break
            value, depth, strategy = v, d, s
            if (abs(v) >= ts.WIN - ts.MAX_DEPTH - 1
                    or stats[ts.S_EVALS] + stats[ts.S_TABLE] == evals):
                break       # decided, or every line ended before the depth limit
            if now_ns() >= deadline:
                break
        if stats[ts.S_COST_SEEN]:
            self.node_cost = int(stats[ts.S_COST_SEEN])
        if strategy is None:       # not even depth 1 fitted (a huge board): a roomy move
            move = roomiest_move(board, me) if legal else -1
        else:
            move = choose_move(strategy[0], rng=rng)
        self._record(stats, depth, value, move, strategy, _time.perf_counter() - t0)
        return value, move

    def _record(self, stats, depth, value, move, strategy, elapsed):
        st = stats_by_name(stats)
        mats = max(1, st["matrices"])
        st.update({"depth": depth, "value": value, "move": move, "time": elapsed,
                   "saddle_share": st["saddle"] / mats, "cut_share": st["cuts"] / mats,
                   "solve_share": st["solved"] / mats,
                   "strategy": None if strategy is None else strategy[0].round(4).tolist()})
        self.last_stats = st


def nash_search(board, player=0, *, depth=2, evaluation="territory", draw=0.0, prune=True,
                ordering=True, table=True):
    """Fixed-depth simultaneous-move search (``depth`` turns): ``(value, move)``
    with the most likely move of my equilibrium strategy.

    >>> from tronlab import Board
    >>> nash_search(Board.from_ascii('''
    ...     #.####
    ...     #1...2
    ...     ######
    ... '''), 0, depth=3)      # up is a dead end; right ends in a head-on crash, a draw
    (0.0, 1)
    """
    s = NashSearcher(evaluation=evaluation, draw=draw, prune=prune, ordering=ordering,
                     table=table, hint_bits=10)
    v, strategy, _ = s.search_depth(board, player, depth)
    legal = board.legal_moves(player)
    return v, (choose_move(strategy[0]) if legal else -1)
