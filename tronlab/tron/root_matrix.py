"""A matrix game at the root over alpha-beta cells (the ``hybrid`` bot's search).

Where the two heads can still collide within a few turns, the root turn is
treated as the simultaneous choice it is: a payoff matrix over both players'
moves, the same square for both a head-on crash (a draw, as the rules say),
every other cell valued by the course's two-ply alpha-beta search
(:class:`tronlab.tron.search.Searcher`: transposition table, killers,
principal variation, the chamber evaluation) of the position after that pair
of moves.  The matrix is solved as a zero-sum game (L1) and the most likely
move of the equilibrium is played.  Deeper down the tree the two-ply model
stays: that is where alpha-beta's pruning and table pay for themselves.

The cells are deepened together, one turn at a time, against the deadline; an
iteration the clock cuts short is thrown away.  One Searcher serves all cells
(and keeps its table between moves), so cells that share positions share work.

Compared with ``chamber``'s own root (the best row minimum, the opponent
seeing my move), the matrix differs in two ways only: the crash is a cell the
opponent cannot aim at, and when no pure move is safe the equilibrium mixes.
"""

from __future__ import annotations

import time as _time

import numpy as np

from .board import TRAIL, Board
from ..jit.clock import now_ns
from ..nash.zero_sum import solve_zero_sum
from .search import MAX_DEPTH, WIN, Searcher
from .values import check_whole


def can_collide(board: Board, turns: int) -> bool:
    """Can the two heads enter one square on the same turn within ``turns`` turns?
    (Even grid distance, at most ``2 * turns``: each step changes a head's colour.)"""
    (x0, y0), (x1, y1) = board.head_xy(0), board.head_xy(1)
    d = abs(x0 - x1) + abs(y0 - y1)
    return d % 2 == 0 and d <= 2 * turns


def _child(board, me, x, y):
    opp = 1 - me
    tx, ty = board.target(me, x), board.target(opp, y)
    if tx == ty:
        return None
    child = board.copy()
    child.flat[tx], child.flat[ty] = TRAIL + me, TRAIL + opp
    child.heads[me], child.heads[opp] = tx, ty
    return child


def root_matrix_search(searcher: Searcher, board: Board, me: int, *, deadline: int,
                       max_depth: int = MAX_DEPTH - 1):
    """Deepen the root matrix until ``deadline`` (ns, :func:`~tronlab.jit.clock.now_ns`):
    returns ``(value, move, depth, strategy)`` of the last complete iteration
    (``depth`` turns below the root's joint move; 0 and move -1 when none finished),
    ``strategy`` the row player's probabilities by move code."""
    opp = 1 - me
    rows, cols = board.legal_moves(me), board.legal_moves(opp)
    children = [[_child(board, me, x, y) for y in cols] for x in rows]
    best = (0.0, -1, 0, np.zeros(4))
    for d in range(1, max_depth + 1):
        a = np.zeros((len(rows), len(cols)))
        decided = True
        for i in range(len(rows)):
            for j in range(len(cols)):
                c = children[i][j]
                if c is None:
                    a[i, j] = searcher.draw
                    continue
                if not c.legal_moves(me) or not c.legal_moves(opp):
                    v = (searcher.draw if not c.legal_moves(me) and not c.legal_moves(opp)
                         else -WIN + 1 if not c.legal_moves(me) else WIN - 1)
                else:
                    v, _, done = searcher.search_depth(c, me, d, deadline=deadline)
                    if not done:
                        return best
                    decided = decided and abs(v) >= WIN - 2 * MAX_DEPTH - 4
                a[i, j] = v
        game = solve_zero_sum(a)
        strategy = np.zeros(4)
        for i, m in enumerate(rows):
            strategy[m] = game.row_strategy[i]
        best = (float(game.value), rows[int(np.argmax(game.row_strategy))], d, strategy)
        if decided or now_ns() >= deadline:
            break
    return best


class RootMatrixSearcher:
    """The hybrid search for one player: the root matrix while the heads can collide
    within ``near`` turns, the Searcher's own alpha-beta otherwise."""

    def __init__(self, *, evaluation="chamber", draw=-1, near=3, reduce=0):
        self.near = check_whole(near, "near", 1, unit="turns")
        self.searcher = Searcher(evaluation=evaluation, draw=draw, reduce=reduce)
        self.last_stats: dict = {}

    def reset(self) -> None:
        self.searcher.reset()

    def search(self, board: Board, player: int, *, deadline: int):
        """``(value, move)`` for ``player`` by the deadline (see the class doc)."""
        t0 = _time.perf_counter()
        if can_collide(board, self.near) and len(board.legal_moves(player)) > 1:
            value, move, depth, strategy = root_matrix_search(self.searcher, board, player,
                                                              deadline=deadline)
            if move < 0:        # not even one iteration: the two-ply answer instead
                value, move = self.searcher.search(board, player, deadline=deadline)
                strategy = None
            self.last_stats = {"model": "matrix", "depth": depth + 1, "value": value,
                               "strategy": None if strategy is None
                               else strategy.round(4).tolist()}
        else:
            value, move = self.searcher.search(board, player, deadline=deadline)
            self.last_stats = {"model": "two-ply", **self.searcher.last_stats}
        self.last_stats["time"] = _time.perf_counter() - t0
        return value, move
