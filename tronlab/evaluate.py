"""Evaluation functions for two-player Tron search (techniques A4, A5, A7, A9, A12, A13, H3).

A search looks a few turns ahead and then has to *guess* who is winning.  The
guesses here are interchangeable: each is selected by an int code, so one
compiled search kernel can use any of them.

``TERRITORY`` (A4)
    Voronoi territory: squares strictly nearer me minus squares strictly
    nearer the opponent.
``EDGES`` (A7)
    Territory plus its edges (free neighbours of owned squares): equal areas,
    but the more open one wins, so the bot keeps its own space uncluttered and
    hugs walls.
``LINEAR`` (A9)
    a1k0n's fitted model ``K1*(N1-N2) + K2*(E1-E2)``, which predicts the
    difference in moves the two players will make; in thousandths of a move so
    it stays an integer (defaults ``K1=0.055``, ``K2=0.194``).
``CHAMBER`` (A12, A13 as an option)
    The same linear model on the space each player can really use: the chamber
    tree with battlefronts of :mod:`tronlab.chambers`.

When the heads are in different components (*separated*, H3 / A5) nothing the
players do affects each other: the game is decided by who can fill more.  Then
the score is ``sep_weight * (fill_me - fill_opp)`` where ``fill`` is the
checkerboard-parity bound on the longest fill (A10), far above any heuristic
value (a real advantage beats a guessed one).

All values are from the point of view of player ``me`` and are int64.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import Board
from .voronoi import territory_kernel

TERRITORY, EDGES, LINEAR, CHAMBER = 0, 1, 2, 3
EVAL_NAMES = {"territory": TERRITORY, "voronoi": TERRITORY, "edges": EDGES,
              "linear": LINEAR, "chamber": CHAMBER}
K1_DEFAULT = 0.055
K2_DEFAULT = 0.194
SEP_WEIGHT_DEFAULT = 1000


# ---------------------------------------------------------------------------
# separation and fillable space
# ---------------------------------------------------------------------------
@njit(cache=True)
def fill_bound_kernel(n_other, n_same):
    """Longest fill through a region with ``n_other`` squares of the colour the
    head is *not* on and ``n_same`` of its own colour (head excluded).

    A path alternates colours starting with ``other``: after ``L`` moves it used
    ``ceil(L/2)`` other and ``floor(L/2)`` same squares (A10).
    """
    if n_other > n_same:
        return 2 * n_same + 1
    return 2 * n_other


@njit(cache=True)
def reach_kernel(flat, head, other, stride, dist, queue, stop_early):
    """Breadth-first search over free squares from ``head``.

    Returns ``(touches, n_other, n_same)``: whether a reached square (or the
    head itself) is next to ``other`` - the other head, so the two are not
    separated - and the squares reached at odd / even distance (the other
    colour / the head's colour; a BFS layer alternates colour).  With
    ``stop_early`` the search stops at the first touch (counts then partial).
    ``dist`` must hold -1 everywhere on entry; it is restored on exit.
    """
    up = np.uint64(0) - np.uint64(stride)
    offs = (up, np.uint64(1), np.uint64(stride), np.uint64(0) - np.uint64(1))
    o = np.uint64(other)
    dist[head] = 0
    queue[0] = head
    qh = 0
    qt = 1
    touches = False
    n_odd = 0
    n_even = 0
    while qh < qt:
        c = np.uint64(queue[qh])
        qh += 1
        d = dist[c] + 1
        for k in range(4):
            n = c + offs[k]
            if n == o:
                touches = True
            elif flat[n] == 0 and dist[n] < 0:
                dist[n] = d
                queue[qt] = n
                qt += 1
                if d & 1:
                    n_odd += 1
                else:
                    n_even += 1
        if touches and stop_early:
            break
    for i in range(qt):
        dist[queue[i]] = -1
    return touches, n_odd, n_even


@njit(cache=True)
def separated_score_kernel(flat, me, opp, stride, sep_weight, dist, queue):
    """``(separated, score)``: when the heads cannot meet, the score is
    ``sep_weight * (fill_me - fill_opp)`` with parity-bounded fills; otherwise
    ``(False, 0)``.  ``dist`` must be all -1 (restored on exit)."""
    touches, a, b = reach_kernel(flat, me, opp, stride, dist, queue, True)
    if touches:
        return False, np.int64(0)
    mine = fill_bound_kernel(a, b)
    _, a, b = reach_kernel(flat, opp, me, stride, dist, queue, False)
    theirs = fill_bound_kernel(a, b)
    return True, np.int64(sep_weight) * (mine - theirs)


# ---------------------------------------------------------------------------
# heuristic evaluations of a position where the heads can still meet
# ---------------------------------------------------------------------------
@njit(cache=True)
def heuristic_kernel(flat, me, opp, stride, code, k1, k2, dist, owner, queue):
    """Heuristic value for ``me`` of a position where the heads can meet.

    ``code`` picks the function (TERRITORY, EDGES, LINEAR; CHAMBER is computed
    by :func:`chamber_heuristic_kernel`); ``k1``/``k2`` are the LINEAR weights.
    Leaves ``dist`` all -1 (other kernels rely on it).
    """
    n0, n1, e0, e1 = territory_kernel(flat, me, opp, stride, dist, owner, queue)
    dist[:] = -1
    if code == TERRITORY:
        return np.int64(n0 - n1)
    if code == EDGES:
        return np.int64((n0 + e0) - (n1 + e1))
    return np.int64(np.round(1000.0 * (k1 * (n0 - n1) + k2 * (e0 - e1))))


@njit(cache=True)
def evaluate_kernel(flat, me, opp, stride, code, k1, k2, sep_weight, dist, owner, queue):
    """Full value for ``me``: separated score when the heads cannot meet (H3),
    else the heuristic ``code``.  ``dist`` all -1 on entry and exit."""
    sep, score = separated_score_kernel(flat, me, opp, stride, sep_weight, dist, queue)
    if sep:
        return score
    return heuristic_kernel(flat, me, opp, stride, code, k1, k2, dist, owner, queue)


# ---------------------------------------------------------------------------
# friendly wrappers
# ---------------------------------------------------------------------------
def eval_code(kind) -> int:
    """An evaluation name ('territory', 'edges', 'linear', 'chamber') or code -> code."""
    if isinstance(kind, str):
        key = kind.strip().lower()
        if key in EVAL_NAMES:
            return EVAL_NAMES[key]
        raise ValueError(f"unknown evaluation {kind!r}; use one of {sorted(set(EVAL_NAMES))}")
    if isinstance(kind, (int, np.integer)) and not isinstance(kind, bool) and 0 <= kind <= CHAMBER:
        return int(kind)
    raise ValueError(f"an evaluation is a name or a code 0-{CHAMBER}, got {kind!r}")


def check_two_players(board, player):
    """Validate ``board`` and ``player`` for two-player search; returns (me, opp)."""
    if not isinstance(board, Board):
        raise TypeError(f"expected a tronlab Board, got {type(board).__name__}")
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
        raise TypeError(f"player must be an int, got {type(player).__name__}")
    if board.n_players != 2:
        raise ValueError(f"two-player search needs a 2-player board, this one has {board.n_players}")
    if not 0 <= player < 2:
        raise ValueError(f"player {player} does not exist: use 0 or 1")
    return int(player), 1 - int(player)


class Scratch:
    """Scratch arrays for evaluation and search on one board size (allocated once)."""

    def __init__(self, size: int):
        self.size = int(size)
        self.dist = np.full(size, -1, np.int32)
        self.owner = np.zeros(size, np.uint8)
        self.queue = np.zeros(size, np.int32)

    def fits(self, board) -> bool:
        return self.size == board.flat.size


def is_separated(board, players=(0, 1)) -> bool:
    """True when the two heads can never meet again (different components)."""
    p, q = players
    s = Scratch(board.flat.size)
    touches, _, _ = reach_kernel(board.flat, board.heads[p], board.heads[q],
                                 np.int64(board.stride), s.dist, s.queue, True)
    return not touches


def fill_bound(board, player=0) -> int:
    """Parity bound (A10) on the moves ``player`` can still make in its component."""
    s = Scratch(board.flat.size)
    # flat index 0 (a corner of the padding) is next to no playing square
    _, a, b = reach_kernel(board.flat, board.heads[player], np.int64(0),
                           np.int64(board.stride), s.dist, s.queue, False)
    return int(fill_bound_kernel(a, b))


def evaluate(board, player=0, *, kind="linear", k1=K1_DEFAULT, k2=K2_DEFAULT,
             sep_weight=SEP_WEIGHT_DEFAULT, scratch=None) -> int:
    """Value of ``board`` for ``player`` (two players) under evaluation ``kind``.

    >>> evaluate(Board.from_ascii('''
    ...     1..#...
    ...     ...#..2
    ... '''), 0, kind="territory")     # separated: 5 squares against 5
    0
    """
    me, opp = check_two_players(board, player)
    code = eval_code(kind)
    s = scratch if scratch is not None and scratch.fits(board) else Scratch(board.flat.size)
    if code == CHAMBER:
        from .chambers_eval import chamber_evaluate
        return chamber_evaluate(board, me, k1=k1, k2=k2, sep_weight=sep_weight)
    return int(evaluate_kernel(board.flat, board.heads[me], board.heads[opp], np.int64(board.stride),
                               np.int64(code), float(k1), float(k2), np.int64(sep_weight),
                               s.dist, s.owner, s.queue))
