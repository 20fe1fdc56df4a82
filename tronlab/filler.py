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
   The 3x3 ring test (A2, :mod:`tronlab.ring`) says in O(1) when a square
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

and the move with the best key is taken.  Region labels come from
:func:`tronlab.fill.components_kernel` and are kept up to date while
:func:`fill_length_kernel` runs (:func:`tronlab.fill.fill_square_kernel`:
cheap unless the filled square may be a cut vertex), colour counts per region
from :func:`tronlab.parity.region_colours_kernel`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .board import Board
from .fill import components_kernel, fill_square_kernel
from .parity import fill_bound_kernel, region_colours_kernel
from .ring import POTENTIAL_ARTICULATION, ring_code_kernel


class FillerScratch(NamedTuple):
    """Scratch arrays for the kernels here; make with :func:`new_scratch`."""
    labels: np.ndarray   # int32[size]
    sizes: np.ndarray    # int32[size]
    equiv: np.ndarray    # int32[size]
    counts: np.ndarray   # int32[size, 2]
    seen: np.ndarray     # uint8[size]
    stack: np.ndarray    # int32[size]
    trail: np.ndarray    # int64[size]


def new_scratch(size: int) -> FillerScratch:
    """Scratch for a flat grid of ``size`` squares (``board.flat.size``)."""
    return FillerScratch(np.empty(size, np.int32), np.empty(size, np.int32),
                         np.empty(size, np.int32), np.empty((size, 2), np.int32),
                         np.empty(size, np.uint8), np.empty(size, np.int32),
                         np.empty(size, np.int64))


# ---------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _colour(square, stride):
    return (square // stride + square % stride) & 1


@njit(cache=True, inline="always")
def _path_bound(other, same):
    """Longest path from a square into a region with ``other`` squares of the
    other colour and ``same`` of its own (the start not counted): A10."""
    if other > same:
        return 2 * same + 1
    return 2 * other


@njit(cache=True)
def candidate_kernel(flat, target, stride, table, labels, counts, seen, stack):
    """``(space, cut)`` of entering free square ``target`` (the head already
    blocked): ``space`` = 1 + the parity bound of the region behind it (its
    best side when ``cut``).  ``labels``/``counts`` must describe ``flat``.
    ``flat[target]`` is blocked for a moment and restored."""
    t = np.int64(target)
    col = _colour(t, stride)
    if table[ring_code_kernel(flat, t, stride)] == 0:
        lab = labels[t]
        same = counts[lab, col] - 1
        other = counts[lab, 1 - col]
        return 1 + _path_bound(other, same), False
    # the ring test fired: flood each side with the target blocked
    offs = (-np.int64(stride), np.int64(1), np.int64(stride), np.int64(-1))
    flat[t] = 1
    covered = 0
    sides = 0
    best = 0
    for k in range(4):
        u = t + offs[k]
        if flat[u] != 0 or (covered >> k) & 1:
            continue
        _, other_u, same_u = fill_bound_kernel(flat, u, stride, seen, stack)
        sides += 1
        # colours relative to the target: u and its colour-mates are "other"
        space = 1 + _path_bound(same_u + 1, other_u)
        if space > best:
            best = space
        for j in range(k + 1, 4):
            if seen[t + offs[j]] != 0:
                covered |= 1 << j
    flat[t] = 0
    if sides == 0:
        return 1, False
    return best, sides >= 2


@njit(cache=True)
def choose_move_kernel(flat, head, stride, table, labels, counts, seen, stack):
    """The greedy move from ``head`` (see the module docstring) given current
    region ``labels`` and colour ``counts``; -1 when every neighbour is blocked."""
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
        space, cut = candidate_kernel(flat, t, stride, table, labels, counts, seen, stack)
        free = ((flat[t - stride] == 0) + (flat[t + 1] == 0) + (flat[t + stride] == 0)
                + (flat[t - 1] == 0))
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
    return best_move


@njit(cache=True)
def greedy_move_kernel(flat, head, stride, table, labels, sizes, equiv, counts, seen, stack):
    """The greedy filler's move (0-3) from ``head``, or -1 when boxed in.

    ``flat`` uint8[n] (nonzero blocked; the head is blocked), ``head`` and
    ``stride`` int64, ``table`` the A2 table (uint8[256]); scratch as
    :class:`FillerScratch`.  ``flat`` is left as it was.
    """
    k = components_kernel(flat, stride, labels, sizes, equiv)
    region_colours_kernel(stride, labels, k, counts)
    return choose_move_kernel(flat, head, stride, table, labels, counts, seen, stack)


@njit(cache=True)
def fill_length_kernel(flat, head, stride, table, labels, sizes, equiv, counts, seen, stack,
                       trail):
    """Run the greedy filler from ``head`` until it is boxed in; return the
    number of moves.  The squares entered are left in ``trail[:moves]``;
    ``flat`` is restored.  Arguments as :func:`greedy_move_kernel` plus
    ``trail`` int64[n].  Region labels are updated square by square and only
    recomputed when a filled square may be a cut vertex."""
    offs = (-np.int64(stride), np.int64(1), np.int64(stride), np.int64(-1))
    n_labels = components_kernel(flat, stride, labels, sizes, equiv)
    region_colours_kernel(stride, labels, n_labels, counts)
    c = np.int64(head)
    moves = 0
    while True:
        k = choose_move_kernel(flat, c, stride, table, labels, counts, seen, stack)
        if k < 0:
            break
        c = c + offs[k]
        lab = labels[c]
        flat[c] = 1
        trail[moves] = c
        moves += 1
        recomputed, n_labels = fill_square_kernel(flat, stride, c, table, labels, sizes, equiv,
                                                  n_labels)
        if recomputed:
            region_colours_kernel(stride, labels, n_labels, counts)
        else:
            counts[lab, _colour(c, stride)] -= 1
    for i in range(moves):
        flat[trail[i]] = 0
    return moves


# ---------------------------------------------------------------------------
# friendly wrappers
# ---------------------------------------------------------------------------
def _start(board, player, start):
    if not isinstance(board, Board):
        raise TypeError(f"expected a tronlab Board, got {type(board).__name__}")
    if start is not None:
        if isinstance(start, bool) or not isinstance(start, (int, np.integer)):
            raise TypeError(f"start must be a flat index (int), got {type(start).__name__}")
        if not board.stride <= int(start) < board.flat.size - board.stride:
            raise ValueError(f"start {start} is not a flat index inside this board")
        return int(start)
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
        raise TypeError(f"player must be an int, got {type(player).__name__}")
    if not 0 <= player < board.n_players:
        raise ValueError(f"player {player} does not exist: the board has players "
                         f"0..{board.n_players - 1}")
    return int(board.heads[player])


def _scratch(board, scratch):
    if scratch is None:
        return new_scratch(board.flat.size)
    if not isinstance(scratch, FillerScratch) or scratch.labels.size != board.flat.size:
        raise ValueError("scratch must be filler.new_scratch(board.flat.size) for this board")
    return scratch


def greedy_move(board, player=0, *, start=None, scratch=None) -> int:
    """The greedy filler's move for ``player`` (or from flat square ``start``,
    treated as blocked like a head): 0-3, or -1 when every neighbour is blocked.

    >>> from tronlab import Board
    >>> greedy_move(Board.from_ascii('''
    ...     .1...
    ...     ##.##
    ...     ...2.
    ... '''))        # left is a dead end of 1; right leads on
    1
    """
    sq = _start(board, player, start)
    s = _scratch(board, scratch)
    flat = board.flat.copy()
    flat[sq] = 1                   # the start square is where a head stands
    return int(greedy_move_kernel(flat, np.int64(sq), np.int64(board.stride),
                                  POTENTIAL_ARTICULATION, s.labels, s.sizes, s.equiv, s.counts,
                                  s.seen, s.stack))


def fill_path(board, player=0, *, start=None, scratch=None) -> list:
    """The moves (0-3) the greedy filler makes from ``player``'s head (or flat
    square ``start``) until it is boxed in, ignoring every other player."""
    sq = _start(board, player, start)
    s = _scratch(board, scratch)
    flat = board.flat.copy()
    flat[sq] = 1                   # the start square is where a head stands
    n = int(fill_length_kernel(flat, np.int64(sq), np.int64(board.stride), POTENTIAL_ARTICULATION,
                               s.labels, s.sizes, s.equiv, s.counts, s.seen, s.stack, s.trail))
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
    sq = _start(board, player, start)
    s = _scratch(board, scratch)
    flat = board.flat.copy()
    flat[sq] = 1                   # the start square is where a head stands
    return int(fill_length_kernel(flat, np.int64(sq), np.int64(board.stride),
                                  POTENTIAL_ARTICULATION, s.labels, s.sizes, s.equiv, s.counts,
                                  s.seen, s.stack, s.trail))
