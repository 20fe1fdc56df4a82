"""The greedy space filler (technique A1).

When a bot is alone in its region it only has to last: make as many moves as
the region allows.  Finding the longest path is hard, but a1k0n (Google AI
Challenge 2010) found a greedy rule that fills most regions almost perfectly:

1. **Go where the fewest edges are lost.**  Entering a square removes its
   links to its free neighbours; the square with the fewest free neighbours
   (the most walls round it) costs least.  This makes the bot hug walls and
   its own trail and leave the open space in one piece.
2. **Do not cut the region in two.**  A square whose filling splits the
   remaining space (a cut vertex, A11) strands whatever lies on the far side.
   The 3x3 ring test (A2, :mod:`tronlab.grid.ring`) says in O(1) when a square
   *cannot* be one; only when it fires do we flood the sides to be sure.
3. **When forced through one, take the bigger side**, measured as the
   checkerboard-parity bound on a path into it (A10): a side with many
   squares of one colour is worth less than its size.

Concretely each free neighbour ``t`` of the head gets the key

* ``space`` - parity-bounded moves available after entering ``t``: one plus
  the bound of its region (when ``t`` is a cut vertex, of its best side);
* then prefer a ``t`` that is not a cut vertex;
* then the fewest free neighbours of ``t``;
* then the first in move order (up, right, down, left).

and the move with the best key is taken.

Keeping the counts cheap.  The filler remembers, for each neighbour of its
head, the colour counts of the region behind it.  Entering a square the ring
test clears just takes that square off its region's count: O(1).  When the
test fires, :func:`sides_kernel` grows the sides around the square
breadth-first *together* and stops as soon as only one side is still growing:
the finished sides are exact and the last one is the region's total minus
them, so the work is set by the small sides (a dead end, a pocket), not by the
region.  Only the first move of a fill floods the whole region.  (A full
relabelling with :func:`tronlab.grid.flood.fill_square_kernel` after every ring hit
was 5-10 times slower on random boards.)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .board import start_square
from ..grid import guards
from . import search_guards
from ..grid.ring import POTENTIAL_ARTICULATION, ring_code_kernel
from ..jit.kernels import KernelTable, kernel, sig_type


class FillerScratch(NamedTuple):
    """Scratch arrays for the kernels here; make with :func:`new_scratch`."""
    mark: np.ndarray     # uint8[size], all zero between calls
    queue: np.ndarray    # int32[size]
    groups: np.ndarray   # int32[4, 2], colour counts of the growing sides
    gpar: np.ndarray     # int32[4], union-find over the sides
    gpend: np.ndarray    # int32[4], squares of a side still queued
    cur: np.ndarray      # int32[4, 2], colour counts behind each neighbour of the head
    cand: np.ndarray     # int32[4, 2], the same for the candidate being scored
    best: np.ndarray     # int32[4, 2], the same for the best candidate so far
    trail: np.ndarray    # int64[size], the squares a fill entered


def new_scratch(size: int) -> FillerScratch:
    """Scratch for a flat grid of ``size`` squares (``board.flat.size``)."""
    return FillerScratch(np.zeros(size, np.uint8), np.empty(size, np.int32),
                         np.empty((4, 2), np.int32), np.empty(4, np.int32),
                         np.empty(4, np.int32), np.empty((4, 2), np.int32),
                         np.empty((4, 2), np.int32), np.empty((4, 2), np.int32),
                         np.empty(size, np.int64))


sig_type("FillerScratch", lambda: new_scratch(1))   # for kernel signatures


# ---------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------
@kernel(inline="always")
def _colour(square, stride):
    return (square // stride + square % stride) & 1


@kernel(inline="always")
def _path_bound(other, same):
    """Longest path from a square into a region with ``other`` squares of the
    other colour and ``same`` of its own (the start not counted): A10."""
    if other > same:
        return 2 * same + 1
    return 2 * other


@kernel(inline="always")
def _find(gpar, g):
    while gpar[g] != g:
        g = gpar[g]
    return g


@kernel
def sides_kernel(flat, square, stride, full, total0, total1, mark, queue, groups, gpar, gpend,
                 out):
    """How the free squares next to blocked ``square`` fall apart: returns the
    number of *sides* (connected pieces they belong to) and writes, for each
    direction ``k`` with a free neighbour, the colour counts ``out[k] =
    (colour-0 squares, colour-1 squares)`` of that neighbour's side.

    The sides grow breadth-first *together*, one shared queue, merging when
    they meet (a 4-entry union-find).  With ``full`` nonzero the search runs
    to the end.  Otherwise it stops as soon as all sides have met (one side) or at
    most one is still growing: the others are then complete, and the growing
    one is what is left of ``(total0, total1)`` - the counts of the region
    round ``square`` before the split, ``square`` excluded.  So the cost is set
    by the *smaller* sides, not by the region.  ``mark`` must be all zero and
    is left so; scratch ``queue`` int32[n], ``groups`` int32[4, 2], ``gpar``
    and ``gpend`` int32[4].
    """
    # Why one long kernel: the sides grow together from one shared queue with a union-find
    # over them, and the stopping rule reads both at every step.
    offs = (-np.int64(stride), np.int64(1), np.int64(stride), np.int64(-1))
    t = np.int64(square)
    n = 0
    qt = 0
    for k in range(4):
        u = t + offs[k]
        if flat[u] == 0:
            mark[u] = n + 1
            gpar[n] = n
            groups[n, 0] = 0
            groups[n, 1] = 0
            groups[n, _colour(u, stride)] = 1
            gpend[n] = 1
            queue[qt] = u
            qt += 1
            n += 1
    roots = n
    active = n
    qh = 0
    while qh < qt and (full != 0 or (roots > 1 and active > 1)):
        sq = np.int64(queue[qh])
        qh += 1
        g = _find(gpar, mark[sq] - 1)
        gpend[g] -= 1
        col = 1 - _colour(sq, stride)
        for j in range(4):
            v = sq + offs[j]
            if flat[v] != 0:
                continue
            m = mark[v]
            if m == 0:
                mark[v] = g + 1
                groups[g, col] += 1
                gpend[g] += 1
                queue[qt] = v
                qt += 1
            else:
                h = _find(gpar, m - 1)
                if h != g:
                    gpar[h] = g
                    groups[g, 0] += groups[h, 0]
                    groups[g, 1] += groups[h, 1]
                    gpend[g] += gpend[h]
        roots = 0
        active = 0
        for i in range(n):
            if gpar[i] == i:
                roots += 1
                if gpend[i] > 0:
                    active += 1
    if full == 0:
        # complete what the early stop left unfinished
        if roots == 1:
            for i in range(n):
                if gpar[i] == i:
                    groups[i, 0] = total0
                    groups[i, 1] = total1
        elif active == 1:
            rest0 = total0
            rest1 = total1
            growing = 0
            for i in range(n):
                if gpar[i] == i:
                    if gpend[i] > 0:
                        growing = i
                    else:
                        rest0 -= groups[i, 0]
                        rest1 -= groups[i, 1]
            groups[growing, 0] = rest0
            groups[growing, 1] = rest1
    for k in range(4):
        u = t + offs[k]
        if flat[u] == 0:
            r = _find(gpar, mark[u] - 1)
            out[k, 0] = groups[r, 0]
            out[k, 1] = groups[r, 1]
    for i in range(qt):
        mark[queue[i]] = 0
    return roots


@kernel
def choose_move_kernel(flat, head, stride, table, mark, queue, groups, gpar, gpend, cur, cand,
                       best):
    """The greedy move from ``head`` (see the module docstring); -1 when every
    neighbour is blocked.  ``cur[k]`` must hold the colour counts of the region
    behind neighbour ``k`` of the head; on return ``best`` holds the same for
    the square moved to (the next ``cur``).

    Each free neighbour ``t`` is scored: if the A2 ring test says it cannot be
    a cut vertex, its region is ``cur[k]`` less ``t`` itself; otherwise
    :func:`sides_kernel` finds its sides.  ``space`` is one plus the parity
    bound of the best side.
    """
    offs = (-np.int64(stride), np.int64(1), np.int64(stride), np.int64(-1))
    c = np.int64(head)
    best_move = -1
    best_space = -1
    best_cut = True
    best_free = 5
    for k in range(4):
        t = c + offs[k]
        if flat[t] != 0:
            continue
        col = _colour(t, stride)
        total0 = cur[k, 0] - (1 if col == 0 else 0)
        total1 = cur[k, 1] - (1 if col == 1 else 0)
        free = 0
        for j in range(4):
            if flat[t + offs[j]] == 0:
                free += 1
        if table[ring_code_kernel(flat, t, stride)] == 0:
            cut = False
            for j in range(4):
                cand[j, 0] = total0
                cand[j, 1] = total1
        else:
            flat[t] = 1
            sides = sides_kernel(flat, t, stride, np.int64(0), np.int64(total0),
                                 np.int64(total1), mark, queue, groups,
                                 gpar, gpend, cand)
            flat[t] = 0
            cut = sides >= 2
        space = 1
        for j in range(4):
            if flat[t + offs[j]] == 0:
                same = cand[j, col]
                other = cand[j, 1 - col]
                here = 1 + _path_bound(other, same)
                if here > space:
                    space = here
        if space != best_space:
            better = space > best_space
        elif cut != best_cut:
            better = not cut
        else:
            better = free < best_free
        if better:
            best_move = k
            best_space = space
            best_cut = cut
            best_free = free
            for j in range(4):
                best[j, 0] = cand[j, 0]
                best[j, 1] = cand[j, 1]
    return best_move


@kernel(sig=("i8(u1[::1], i8, i8, u1[::1], u1[::1], i4[::1], i4[:, ::1], i4[::1], i4[::1], i4[:, "
             "::1], i4[:, ::1], i4[:, ::1])"), guard=search_guards.filler)
def greedy_move_kernel(flat, head, stride, table, mark, queue, groups, gpar, gpend, cur, cand,
                       best):
    """The greedy filler's move (0-3) from ``head``, or -1 when boxed in.

    ``flat`` uint8[n] (nonzero blocked; the head must be blocked), ``head``
    and ``stride`` int64, ``table`` the A2 table
    (:data:`tronlab.grid.ring.POTENTIAL_ARTICULATION`); scratch as
    :class:`FillerScratch`.  ``flat`` is left as it was.
    """
    zero = np.int64(0)
    sides_kernel(flat, np.int64(head), stride, np.int64(1), zero, zero, mark, queue, groups, gpar,
                 gpend, cur)
    return choose_move_kernel(flat, head, stride, table, mark, queue, groups, gpar, gpend, cur,
                              cand, best)


@kernel(sig=("i8(u1[::1], i8, i8, u1[::1], u1[::1], i4[::1], i4[:, ::1], i4[::1], i4[::1], i4[:, "
             "::1], i4[:, ::1], i4[:, ::1], i8[::1])"), guard=search_guards.filler)
def fill_length_kernel(flat, head, stride, table, mark, queue, groups, gpar, gpend, cur, cand,
                       best, trail):
    """Run the greedy filler from ``head`` until it is boxed in; return the
    number of moves.  The squares entered are left in ``trail[:moves]``;
    ``flat`` is restored.  Arguments as :func:`greedy_move_kernel` plus
    ``trail`` int64[n].  One full flood at the start; after that a move costs
    O(1) unless the ring test fires, and then only the smaller sides are
    flooded."""
    offs = (-np.int64(stride), np.int64(1), np.int64(stride), np.int64(-1))
    zero = np.int64(0)
    sides_kernel(flat, np.int64(head), stride, np.int64(1), zero, zero, mark, queue, groups, gpar,
                 gpend, cur)
    c = np.int64(head)
    moves = 0
    while True:
        k = choose_move_kernel(flat, c, stride, table, mark, queue, groups, gpar, gpend, cur,
                               cand, best)
        if k < 0:
            break
        c = c + offs[k]
        flat[c] = 1
        trail[moves] = c
        moves += 1
        for j in range(4):
            cur[j, 0] = best[j, 0]
            cur[j, 1] = best[j, 1]
    for i in range(moves):
        flat[trail[i]] = 0
    return moves


# ---------------------------------------------------------------------------
# friendly wrappers
# ---------------------------------------------------------------------------
def _scratch(board, scratch):
    return guards.scratch(scratch, board.flat.size, new_scratch, "spacefill.new_scratch")


def greedy_move(board, player=0, *, start=None, scratch=None) -> int:
    """The greedy filler's move for ``player`` (or from flat square ``start``,
    treated as blocked like a head): 0-3, or -1 when every neighbour is blocked.
    The board's ``alive`` flags are not read: a dead player's move is the one it
    would make from the square its head stands on (as for :func:`fill_path` and
    :func:`fill_length`).

    >>> from tronlab import Board
    >>> greedy_move(Board.from_ascii('''
    ...     .1...
    ...     ##.##
    ...     ...2.
    ... '''))        # left is a dead end of 1; right leads on
    1
    """
    sq = start_square(board, player, start)
    s = _scratch(board, scratch)
    flat = board.flat.copy()
    flat[sq] = 1                   # the start square is where a head stands
    return int(greedy_move_kernel(flat, np.int64(sq), np.int64(board.stride),
                                  POTENTIAL_ARTICULATION, *s[:-1]))


def fill_path(board, player=0, *, start=None, scratch=None) -> list:
    """The moves (0-3) the greedy filler makes from ``player``'s head (or flat
    square ``start``) until it is boxed in, ignoring every other player."""
    sq = start_square(board, player, start)
    s = _scratch(board, scratch)
    flat = board.flat.copy()
    flat[sq] = 1                   # the start square is where a head stands
    n = int(fill_length_kernel(flat, np.int64(sq), np.int64(board.stride), POTENTIAL_ARTICULATION,
                               *s))
    steps = {int(off): m for m, off in enumerate(board.offsets)}
    squares = [sq] + [int(v) for v in s.trail[:n]]
    return [steps[b - a] for a, b in zip(squares, squares[1:])]


def fill_length(board, player=0, *, start=None, scratch=None) -> int:
    """How many moves the greedy filler lasts from ``player``'s head (or flat
    square ``start``), ignoring every other player.

    >>> from tronlab import Board
    >>> fill_length(Board.from_ascii('''
    ...     1....
    ...     .....
    ...     ###2#
    ... '''))
    9
    """
    sq = start_square(board, player, start)
    s = _scratch(board, scratch)
    flat = board.flat.copy()
    flat[sq] = 1                   # the start square is where a head stands
    return int(fill_length_kernel(flat, np.int64(sq), np.int64(board.stride),
                                  POTENTIAL_ARTICULATION, *s))


# the kernels compile on first use; Python calls prefer ahead-of-time twins
_kernels = KernelTable(globals())
