"""Distances and two-player Voronoi territory (techniques A4, A7, H6).

Who gets where first?  A breadth-first search from a head gives the number of
moves to every reachable square.  Seeding one BFS with *both* heads splits the
board into the squares strictly nearer player 0, strictly nearer player 1, and
a neutral no-man's-land of squares both reach in the same number of moves
(A4).  Counting, for every owned square, how many free neighbours it has gives
the *edge* score (A7): with equal areas it prefers the side whose space is more
open, which makes a bot hug walls.  H6 gets the same split from two separate
distance maps, square by square, from the sign of ``d1 - d0``.

Conventions (shared with :mod:`tronlab.grid.flood` and the other kernels):

* ``flat`` is the padded grid as ``uint8``; any nonzero square is blocked.
  Heads are blocked too (a head is part of its trail).
* ``dist`` holds moves from the start: ``0`` at the start itself, ``-1`` where
  the start cannot reach (``UNREACHED``).
* Territory counts leave the heads out.  An owned square's edges are its free
  orthogonal neighbours, whoever owns them.

Kernels take the flat grid, head indices, ``stride`` and scratch arrays of the
grid's size (see :func:`new_scratch`); they never allocate, so search code can
call them millions of times from compiled loops.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import guards
from ..jit.kernels import KernelTable, kernel
from ..tron.board import check_board, check_head, start_square, whole_numbers

UNREACHED = -1
NEUTRAL = 2     # owner code of squares both players reach at the same time
#               (the capture game's tronlab.capture.NEUTRAL, an unowned square, is -1)
NOBODY = 255    # owner code of blocked or unreachable squares
_INF = 1 << 30


class Territory(NamedTuple):
    """Squares strictly nearer each player (heads excluded) and their edge counts."""
    n0: int
    n1: int
    e0: int
    e1: int


class VoronoiScratch(NamedTuple):
    """Scratch arrays for the kernels of this module; make with :func:`new_scratch`."""
    dist: np.ndarray    # int32[size]
    owner: np.ndarray   # uint8[size]
    queue: np.ndarray   # int32[size]


def new_scratch(size: int) -> VoronoiScratch:
    """Scratch for a flat grid of ``size`` squares (``board.flat.size``)."""
    return VoronoiScratch(np.empty(size, np.int32), np.empty(size, np.uint8),
                          np.empty(size, np.int32))


# ---------------------------------------------------------------------------
# kernels, each with the value checks of a call from Python (tronlab.grid.guards)
# ---------------------------------------------------------------------------
def _bfs_guard(flat, start, stride, dist, queue):
    guards.on_grid(flat, stride, {"start": start}, dist=dist, queue=queue)


def _bucket_guard(flat, start, stride, cost, dist, bucket_top, pool_node, pool_next):
    guards.on_grid(flat, stride, {"start": start}, cost=cost, dist=dist)
    guards.long_enough(256, bucket_top=bucket_top)
    guards.long_enough(4 * flat.size + 1, pool_node=pool_node, pool_next=pool_next)


def _territory_guard(flat, head0, head1, stride, dist, owner, queue):
    guards.on_grid(flat, stride, {"head0": head0, "head1": head1}, dist=dist, owner=owner,
                   queue=queue)


def _from_distances_guard(flat, dist0, dist1, stride):
    guards.on_grid(flat, stride, dist0=dist0, dist1=dist1)


@kernel(sig="i8(u1[::1], i8, i8, i4[::1], i4[::1])", guard=_bfs_guard)
def bfs_distances_kernel(flat, start, stride, dist, queue):
    """Moves from ``start`` to every square (``-1`` unreachable); returns how many
    squares were reached, the start included.

    ``flat`` uint8[n], ``start`` int64, ``stride`` int64, ``dist`` int32[n],
    ``queue`` int32[n].  The start may be blocked (a head): the search leaves it
    through its free neighbours.
    """
    dist[:] = -1
    up = np.uint64(0) - np.uint64(stride)
    offs = (up, np.uint64(1), np.uint64(stride), np.uint64(0) - np.uint64(1))
    dist[start] = 0
    queue[0] = start
    qh = 0
    qt = 1
    while qh < qt:
        c = np.uint64(queue[qh])
        qh += 1
        d = dist[c] + 1
        for k in range(4):
            n = c + offs[k]
            if flat[n] == 0 and dist[n] < 0:
                dist[n] = d
                queue[qt] = n
                qt += 1
    return qt


@kernel(sig="i8(u1[::1], i8, i8, u1[::1], i4[::1], i4[::1], i4[::1], i4[::1])",
        guard=_bucket_guard)
def bucket_distances_kernel(flat, start, stride, cost, dist, bucket_top, pool_node, pool_next):
    """Dijkstra with a bucket ("radix") queue: cheapest cost from ``start`` to each
    square, entering square ``s`` costs ``cost[s]`` (1 to 255).  ``-1`` unreachable.

    With every cost 1 this is exactly :func:`bfs_distances_kernel`.  The queue is
    Dial's: a ring of 256 buckets, bucket ``d % 256`` a stack (linked list in
    ``pool_node``/``pool_next``) of squares whose tentative cost is ``d``; stale
    entries are skipped when popped.  Scratch: ``dist`` int32[n], ``bucket_top``
    int32[256], ``pool_node`` and ``pool_next`` int32[4 * n + 1].  Returns the
    number of squares settled, the start included.
    """
    dist[:] = -1
    bucket_top[:] = -1
    up = np.uint64(0) - np.uint64(stride)
    offs = (up, np.uint64(1), np.uint64(stride), np.uint64(0) - np.uint64(1))
    dist[start] = 0
    pool_node[0] = start
    pool_next[0] = -1
    bucket_top[0] = 0
    used = 1
    pending = 1
    settled = 0
    d = 0
    while pending > 0:
        b = d & 255
        e = bucket_top[b]
        if e < 0:
            d += 1
            continue
        bucket_top[b] = pool_next[e]
        pending -= 1
        c = np.uint64(pool_node[e])
        if dist[c] != d:        # a stale entry: c was settled cheaper already
            continue
        settled += 1
        for k in range(4):
            n = c + offs[k]
            if flat[n] != 0:
                continue
            nd = d + np.int32(cost[n])
            if dist[n] < 0 or nd < dist[n]:
                dist[n] = nd
                nb = nd & 255
                pool_node[used] = n
                pool_next[used] = bucket_top[nb]
                bucket_top[nb] = used
                used += 1
                pending += 1
    return settled


@kernel(sig="UniTuple(i8, 4)(u1[::1], i8, i8, i8, i4[::1], u1[::1], i4[::1])",
        guard=_territory_guard)
def territory_kernel(flat, head0, head1, stride, dist, owner, queue):
    """Two-player Voronoi counts from one BFS seeded with both heads.

    Returns ``(n0, n1, e0, e1)``: squares strictly nearer player 0 / player 1
    (heads left out) and, summed over those squares, their free neighbours.
    A square first reached by both at the same distance is neutral.
    Scratch ``dist`` int32[n], ``owner`` uint8[n], ``queue`` int32[n] (left holding
    the BFS: ``owner`` 0, 1 or 2 is valid where ``dist >= 0``).
    """
    dist[:] = -1
    up = np.uint64(0) - np.uint64(stride)
    offs = (up, np.uint64(1), np.uint64(stride), np.uint64(0) - np.uint64(1))
    dist[head0] = 0
    owner[head0] = 0
    dist[head1] = 0
    owner[head1] = 1
    queue[0] = head0
    queue[1] = head1
    qh = 0
    qt = 2
    n0 = 0
    n1 = 0
    e0 = 0
    e1 = 0
    while qh < qt:
        c = np.uint64(queue[qh])
        qh += 1
        dc = dist[c]
        d = dc + 1
        o = owner[c]
        free = 0
        for k in range(4):
            n = c + offs[k]
            if flat[n] != 0:
                continue
            free += 1
            dn = dist[n]
            if dn < 0:
                dist[n] = d
                owner[n] = o
                queue[qt] = n
                qt += 1
            elif dn == d and owner[n] != o:
                owner[n] = 2
        if dc > 0:
            if o == 0:
                n0 += 1
                e0 += free
            elif o == 1:
                n1 += 1
                e1 += free
    return n0, n1, e0, e1


@kernel(sig="UniTuple(i8, 4)(u1[::1], i8, i8, i8, i4[::1], u1[::1], i4[::1])",
        guard=_territory_guard)
def owner_map_kernel(flat, head0, head1, stride, dist, owner, queue):
    """Like :func:`territory_kernel` but leaves a clean picture in ``owner``:
    0 or 1 for a player's squares, 2 neutral, 255 for blocked or unreachable
    squares (heads: their player).  ``dist`` is the BFS distance to the nearer
    head.  Returns the same counts.
    """
    res = territory_kernel(flat, head0, head1, stride, dist, owner, queue)
    for i in range(flat.size):
        if dist[i] < 0:
            owner[i] = 255
    return res


@kernel(sig="UniTuple(i8, 4)(u1[::1], i4[::1], i4[::1], i8)", guard=_from_distances_guard)
def territory_from_distances_kernel(flat, dist0, dist1, stride):
    """H6: Voronoi counts from two distance maps: a free square belongs to player 0
    where ``sign(d1 - d0) > 0`` (unreachable counts as infinitely far), to player 1
    where it is negative, to nobody on ties or where neither reaches.  Returns
    ``(n0, n1, e0, e1)`` as :func:`territory_kernel` (only free squares count, so
    heads are left out).
    """
    n0 = 0
    n1 = 0
    e0 = 0
    e1 = 0
    for i in range(stride, flat.size - stride):
        if flat[i] != 0:
            continue
        a = dist0[i] if dist0[i] >= 0 else _INF
        b = dist1[i] if dist1[i] >= 0 else _INF
        s = np.sign(b - a)
        if s == 0:
            continue
        free = ((flat[i - stride] == 0) + (flat[i + 1] == 0)
                + (flat[i + stride] == 0) + (flat[i - 1] == 0))
        if s > 0:
            n0 += 1
            e0 += free
        else:
            n1 += 1
            e1 += free
    return n0, n1, e0, e1


# the kernels compile on first use; wrappers prefer ahead-of-time twins (tronlab.jit.kernels)
_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir


# ---------------------------------------------------------------------------
# friendly wrappers
# ---------------------------------------------------------------------------
def _scratch(board, scratch):
    return guards.scratch(scratch, board.flat.size, new_scratch, "voronoi.new_scratch")


def _pair(board, players):
    if isinstance(players, np.ndarray) and players.ndim == 1:
        players = list(players)         # np.array([0, 1]) or argsort's answer
    if not isinstance(players, (tuple, list)):
        raise TypeError(f"players must be two player numbers (a tuple or list), got "
                        f"{type(players).__name__} {players!r}")
    if len(players) != 2:
        raise ValueError(f"players must be two player numbers, got {players!r}")
    p, q = (check_head(board, x) for x in players)
    if p == q:
        raise ValueError(f"players must differ, got {p} twice")
    return p, q


def bfs_distances(board, player=0, *, start=None, scratch=None) -> np.ndarray:
    """Moves from a player's head (or a flat index ``start``) to every square,
    shaped like ``board.cells``; ``-1`` where it cannot reach."""
    start = start_square(board, player, start)
    s = _scratch(board, scratch)
    bfs = _kernels.fast("bfs_distances_kernel")
    bfs(board.flat, np.int64(start), np.int64(board.stride), s.dist, s.queue)
    return s.dist.reshape(board.cells.shape).copy()


def bucket_distances(board, player=0, *, cost=None, start=None) -> np.ndarray:
    """Cheapest cost from a head to every square by bucket-queue Dijkstra, where
    entering a square costs ``cost`` there (uint8 1-255 shaped like ``board.cells``;
    default all 1, which gives :func:`bfs_distances`).  ``-1`` unreachable."""
    start = start_square(board, player, start)
    size = board.flat.size
    if cost is None:
        cost = np.ones(size, np.uint8)
    else:
        cost = np.asarray(cost)
        if cost.shape != board.cells.shape:
            raise ValueError(f"cost must have the board's shape {board.cells.shape}, "
                             f"got {cost.shape}")
        cost = whole_numbers(cost, "cost", 1, 255, np.uint8).reshape(-1)
    dist = np.empty(size, np.int32)
    dijkstra = _kernels.fast("bucket_distances_kernel")
    dijkstra(board.flat, np.int64(start), np.int64(board.stride), cost, dist,
             np.empty(256, np.int32), np.empty(4 * size + 1, np.int32),
             np.empty(4 * size + 1, np.int32))
    return dist.reshape(board.cells.shape)


def territory(board, players=(0, 1), *, scratch=None) -> Territory:
    """Two-player Voronoi territory (A4) and edge counts (A7) of ``players``:
    ``n0``/``n1`` the free squares strictly nearer ``players[0]``'s/``players[1]``'s
    head (ties and the heads left out), ``e0``/``e1`` the free orthogonal neighbours
    of those squares, summed.  Alive flags are not read: a dead player's head on the
    board counts as a head (on a board of 3-4 players, :func:`turn_order_territory`
    leaves the dead out); one whose head is not on the playing area is refused.

    >>> from tronlab import Board
    >>> territory(Board.from_ascii('''
    ...     1...
    ...     ...2
    ... '''))
    Territory(n0=2, n1=2, e0=3, e1=3)
    """
    check_board(board)
    p, q = _pair(board, players)
    s = _scratch(board, scratch)
    count = _kernels.fast("territory_kernel")
    r = count(board.flat, board.heads[p], board.heads[q], np.int64(board.stride),
              s.dist, s.owner, s.queue)
    return Territory(*(int(v) for v in r))


def owner_map(board, players=(0, 1), *, scratch=None) -> np.ndarray:
    """Who is nearer each square, shaped like ``board.cells``: 0 or 1 for
    ``players[0]``/``players[1]`` (their heads included), ``NEUTRAL`` (2) for ties,
    ``NOBODY`` (255) for blocked or unreachable squares."""
    check_board(board)
    p, q = _pair(board, players)
    s = _scratch(board, scratch)
    paint = _kernels.fast("owner_map_kernel")
    paint(board.flat, board.heads[p], board.heads[q], np.int64(board.stride),
          s.dist, s.owner, s.queue)
    return s.owner.reshape(board.cells.shape).copy()


def territory_from_distances(board, dist0, dist1) -> Territory:
    """H6: territory from two distance maps (as :func:`bfs_distances` returns):
    whole numbers below 2**30, negative for unreachable."""
    check_board(board)
    maps = []
    for name, d in (("dist0", dist0), ("dist1", dist1)):
        d = np.asarray(d)
        if d.dtype.kind == "b":
            raise TypeError(f"{name} must hold distances (whole numbers), got a bool array")
        if d.shape != board.cells.shape:
            raise ValueError(f"{name} must have the board's shape {board.cells.shape}, "
                             f"got {d.shape}")
        # below the kernel's "unreachable" (2**30); any negative number is unreachable
        maps.append(whole_numbers(d, name, -2**31, _INF - 1, np.int32).reshape(-1))
    count = _kernels.fast("territory_from_distances_kernel")
    r = count(board.flat, maps[0], maps[1], np.int64(board.stride))
    return Territory(*(int(v) for v in r))
