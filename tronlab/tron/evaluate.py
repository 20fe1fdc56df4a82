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
    a1k0n's linear model ``K1*(N1-N2) + K2*(E1-E2)``, which predicts the
    difference in moves the two players will make; in thousandths of a move so
    it stays an integer.  The defaults ``K1=0.055``, ``K2=0.194`` are the
    weights a1k0n published (notebook 06, A9, fits them again from our games).
``CHAMBER`` (A12) and ``CHAMBER_A13``
    The same linear model on the space each player can really use: the chamber
    tree with battlefronts of :mod:`tronlab.tron.chambers`; ``CHAMBER_A13`` also
    counts the space given up at a battlefront against us (a1k0n's untried idea).
    In general ``CHAMBER + flags`` (up to ``CHAMBER_LAST``) is the chamber
    evaluation with :func:`tronlab.tron.chambers.chamber_flags` ``flags``
    (A13 and the write-up's literal readings).

When the heads are in different components (*separated*, H3 / A5) nothing the
players do affects each other: the game is decided by who can fill more.  Then
the score is ``sep_weight * (fill_me - fill_opp)`` where ``fill`` is the
checkerboard-parity bound on the longest fill (A10,
:func:`tronlab.grid.parity.fill_bound_kernel`).  ``"chamber-fill"`` (the code
``CHAMBER + SEP_CHAMBER``) is the chamber evaluation whose separated fills are
the smaller of that bound and the squares on the player's best route through
its chamber tree, which leaves a dead-end room out
(:func:`separated_value_kernel`; notebook 05 measures both).  LINEAR and CHAMBER are in
thousandths of a predicted move, TERRITORY and EDGES in squares, so with the
default ``sep_weight`` of 1000 a separated position sits on the LINEAR scale
exactly, and far above any guess on the count scales.

Scratch: the kernels take a :class:`tronlab.tron.chambers.ChamberScratch`
(``chambers.new_scratch(board.flat.size)``), which also holds the ``dist``,
``owner`` and ``queue`` arrays the Voronoi and parity kernels need.

All values are from the point of view of player ``me`` and are int64.

For 2-4 players (CodinGame Tron) :func:`multi_score_kernel` is kootenpv's
one-move score (K2): ``1e7 * mine - 1e5 * theirs + enemy distance`` on the
turn-order territory of :mod:`tronlab.grid.multivoronoi` (K1).
"""

from __future__ import annotations

import numpy as np

from .board import Board, check_board, check_two_player_board  # noqa: F401 - doctests use Board
from .chamber_build import _F_N_ONLY
from .chambers import chamber_counts_kernel, new_scratch
from ..grid import guards
from . import search_guards
from ..grid.multivoronoi import turn_order_territory_kernel
from ..grid.parity import fill_bound_kernel
from ..grid.voronoi import _pair, bfs_distances_kernel, territory_kernel
from ..jit.kernels import KernelTable, kernel
from .values import check_number, check_positive, is_whole

TERRITORY, EDGES, LINEAR, CHAMBER, CHAMBER_A13 = 0, 1, 2, 3, 4
CHAMBER_LAST = CHAMBER + 31              # CHAMBER + every chamber_flags word
SEP_CHAMBER = 64                         # added to a code: separated fills by chamber tree
EVAL_NAMES = {"territory": TERRITORY, "voronoi": TERRITORY, "edges": EDGES,
              "linear": LINEAR, "chamber": CHAMBER, "chamber-a13": CHAMBER_A13,
              "chamber-fill": CHAMBER + SEP_CHAMBER}
K1_DEFAULT = 0.055
K2_DEFAULT = 0.194
SEP_WEIGHT_DEFAULT = 1000


# ---------------------------------------------------------------------------
# separation and fillable space
# ---------------------------------------------------------------------------
@kernel(sig="b1(u1[::1], i8, i8, i8, i4[::1], i4[::1])", guard=search_guards.touching)
def touching_kernel(flat, head, other, stride, dist, queue):
    """Can the two heads still meet?  A breadth-first search over free squares
    from ``head`` that stops as soon as it reaches a neighbour of ``other``
    (true at once when the heads share a free neighbour).  Scratch ``dist``
    int32[n] and ``queue`` int32[n] are overwritten."""
    dist[:] = -1
    up = np.uint64(0) - np.uint64(stride)
    offs = (up, np.uint64(1), np.uint64(stride), np.uint64(0) - np.uint64(1))
    o = np.uint64(other)
    dist[head] = 0
    queue[0] = head
    qh = 0
    qt = 1
    while qh < qt:
        c = np.uint64(queue[qh])
        qh += 1
        for k in range(4):
            n = c + offs[k]
            if qh > 1 and n == o:       # a free square next to the other head
                return True
            if flat[n] == 0 and dist[n] < 0:
                dist[n] = 0
                queue[qt] = n
                qt += 1
    return False


@kernel
def separated_value_kernel(flat, me, opp, stride, sep_weight, code, cs):
    """``(separated, score)``: when the heads cannot meet, ``score`` is
    ``sep_weight * (fill_me - fill_opp)`` with the parity bounds of the two
    fills, or, when evaluation ``code`` has the ``SEP_CHAMBER`` bit, the
    smaller of each bound and the squares on the player's best route through
    its chamber tree (A12 with nobody to fight: a dead-end room off the route
    is not counted); otherwise ``(False, 0)``.  ``cs`` a ChamberScratch."""
    if touching_kernel(flat, me, opp, stride, cs.dist, cs.queue):
        return False, np.int64(0)
    mine, _, _ = fill_bound_kernel(flat, me, stride, cs.owner, cs.queue)
    theirs, _, _ = fill_bound_kernel(flat, opp, stride, cs.owner, cs.queue)
    if (code & SEP_CHAMBER) != 0:
        # np.int64: a bare global is a literal to numba, a second type for the kernel
        n0, n1, _, _ = chamber_counts_kernel(flat, me, opp, stride, 1.0, 0.0,
                                               np.int64(_F_N_ONLY), cs)
        mine = min(mine, n0)
        theirs = min(theirs, n1)
    return True, np.int64(sep_weight) * np.int64(mine - theirs)


# ---------------------------------------------------------------------------
# heuristic evaluations of a position where the heads can still meet
# ---------------------------------------------------------------------------
@kernel
def heuristic_kernel(flat, me, opp, stride, code, k1, k2, cs):
    """Heuristic value (int64) for ``me`` of a position where the heads can meet.

    ``code`` picks the function (TERRITORY, EDGES, LINEAR, CHAMBER,
    CHAMBER_A13, CHAMBER + flags); ``k1``/``k2`` are the weights of the linear forms; ``cs`` a
    :class:`~tronlab.tron.chambers.ChamberScratch` for this board size.
    """
    code = code & (SEP_CHAMBER - 1)
    if code >= CHAMBER:
        n0, n1, e0, e1 = chamber_counts_kernel(flat, me, opp, stride, k1, k2,
                                               code - CHAMBER, cs)
    else:
        n0, n1, e0, e1 = territory_kernel(flat, me, opp, stride, cs.dist, cs.owner, cs.queue)
    if code == TERRITORY:
        return np.int64(n0 - n1)
    if code == EDGES:
        return np.int64((n0 + e0) - (n1 + e1))
    return np.int64(np.round(1000.0 * (k1 * (n0 - n1) + k2 * (e0 - e1))))


@kernel(sig="i8(u1[::1], i8, i8, i8, i8, f8, f8, i8, ChamberScratch)",
        guard=search_guards.evaluate)
def evaluate_kernel(flat, me, opp, stride, code, k1, k2, sep_weight, cs):
    """Full value for ``me``: the separated score when the heads cannot meet
    (H3), else the heuristic ``code``."""
    sep, score = separated_value_kernel(flat, me, opp, stride, sep_weight, code, cs)
    if sep:
        return score
    return heuristic_kernel(flat, me, opp, stride, code, k1, k2, cs)


def _multi_score_guard(flat, heads, alive, me, stride, owner, queue, counts, dist):
    """What multi_score_kernel needs beyond its types (notebook 03 calls it directly)."""
    guards.padded_grid(flat, stride)
    guards.living_heads(flat, stride, heads, alive, me)
    guards.long_enough(flat.size, owner=owner, queue=queue, dist=dist)
    if counts.size < heads.size:
        raise ValueError(f"counts holds {counts.size} items, one per player ({heads.size}) needed")


@kernel(sig="i8(u1[::1], i8[::1], b1[::1], i8, i8, u1[::1], i4[::1], i8[::1], i4[::1])",
        guard=_multi_score_guard)
def multi_score_kernel(flat, heads, alive, me, stride, owner, queue, counts, dist):
    """kootenpv's score (K2) for player ``me`` with 2-4 players: squares it
    claims by turn-order expansion (the player after ``me`` expands first, as it
    moves next), minus the squares all living enemies claim, plus the summed
    BFS distance from every living enemy to every square it can reach (far
    apart enemies are good), weighted ``1e7``, ``-1e5`` and ``1``.  Scratch:
    ``owner`` uint8[n], ``queue``/``dist`` int32[n], ``counts`` int64[players]."""
    n = heads.size
    turn_order_territory_kernel(flat, heads, alive, (me + 1) % n, stride, owner, queue, counts)
    mine = counts[me]
    theirs = np.int64(0)
    far = np.int64(0)
    for p in range(n):
        if p == me or not alive[p]:
            continue
        theirs += counts[p]
        bfs_distances_kernel(flat, heads[p], stride, dist, queue)
        for i in range(flat.size):
            if dist[i] > 0:
                far += dist[i]
    return np.int64(10_000_000) * mine - np.int64(100_000) * theirs + far


# ---------------------------------------------------------------------------
# friendly wrappers
# ---------------------------------------------------------------------------
def eval_code(kind) -> int:
    """An evaluation name (see :data:`EVAL_NAMES`) or code -> code."""
    if isinstance(kind, str):
        key = kind.strip().lower()
        if key in EVAL_NAMES:
            return EVAL_NAMES[key]
        raise ValueError(f"unknown evaluation {kind!r}; use one of {sorted(EVAL_NAMES)}")
    if is_whole(kind) and 0 <= kind < 2 * SEP_CHAMBER and kind % SEP_CHAMBER <= CHAMBER_LAST:
        return int(kind)
    raise ValueError(f"an evaluation is a name or a code 0-{CHAMBER_LAST}, plus {SEP_CHAMBER} "
                     f"for chamber-tree fills when separated, got {kind!r}")


def check_two_players(board, player):
    """Validate ``board`` and ``player`` for two-player search; returns (me, opp)."""
    check_board(board)
    check_two_player_board(board, "a two-player search")
    if not is_whole(player):
        raise TypeError(f"player must be an int, got {type(player).__name__}")
    if not 0 <= player < 2:
        raise ValueError(f"player {player} does not exist: use 0 or 1")
    if not board.alive.all():
        raise ValueError(f"player {int(np.flatnonzero(~board.alive)[0])} is dead: the game is "
                         f"over, a two-player search needs both players alive")
    return int(player), 1 - int(player)


def check_max_depth(max_depth) -> int:
    """Validate a search's ``max_depth`` (a whole number of turns, at least 1;
    the deepening stops at its own limit whatever the value); returns it as an int."""
    return check_positive(max_depth, "max_depth", " (turns)")


#: the largest linear weight, either sign: 1000 * (k1*dn + k2*de) stays an exact int64 far
#: below a search's won-game value (2**40) on any board up to 100x100; 1e20 overflowed
#: silently (every position worth the same), and fitted weights are below 1
WEIGHT_MAX = 100.0


def check_weights(k1, k2, sep_weight):
    """Validate the linear weights and the separation weight; returns them typed."""
    k1 = check_number(k1, "k1", -WEIGHT_MAX, high=WEIGHT_MAX)
    k2 = check_number(k2, "k2", -WEIGHT_MAX, high=WEIGHT_MAX)
    return k1, k2, check_positive(sep_weight, "sep_weight")


def is_separated(board, players=(0, 1)) -> bool:
    """True when the two heads can never meet again (different components).

    >>> is_separated(Board.from_ascii('1.#.2'))
    True
    """
    check_board(board)
    p, q = _pair(board, players)
    s = new_scratch(board.flat.size)
    return not touching_kernel(board.flat, board.heads[p], board.heads[q],
                               np.int64(board.stride), s.dist, s.queue)


def evaluate(board, player=0, *, kind="linear", k1=K1_DEFAULT, k2=K2_DEFAULT,
             sep_weight=SEP_WEIGHT_DEFAULT, scratch=None) -> int:
    """Value of ``board`` for ``player`` (two players) under evaluation ``kind``.

    >>> evaluate(Board.from_ascii('''
    ...     1..#...
    ...     ...#..2
    ... '''), 0, kind="territory")     # separated: 5 moves against 5
    0
    >>> evaluate(Board.from_ascii('''
    ...     1....
    ...     .....
    ...     ....2
    ... '''), 0, kind="territory")     # as many squares nearer each head
    0
    """
    me, opp = check_two_players(board, player)
    code = eval_code(kind)
    k1, k2, sep_weight = check_weights(k1, k2, sep_weight)
    if scratch is None or scratch.dist.size != board.flat.size:
        scratch = new_scratch(board.flat.size)
    return int(evaluate_kernel(board.flat, board.heads[me], board.heads[opp],
                               np.int64(board.stride), np.int64(code), k1, k2,
                               np.int64(sep_weight), scratch))


# the kernels compile on first use; Python calls prefer ahead-of-time twins
_kernels = KernelTable(globals())
