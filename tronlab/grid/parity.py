"""Checkerboard parity: an upper bound on how long a fill can last (technique A10).

Colour the board like a checkerboard, square (x, y) having colour
``(x + y) % 2``.  Every move changes the colour, so a path leaving a head
enters squares of the *other* colour than the head, then the same colour,
then the other, and so on.

The bound.  Let ``other`` and ``same`` be the numbers of free squares the head
can reach that have the other colour and the same colour as the head.  A path
of ``L`` moves enters ``ceil(L / 2)`` other-coloured squares and
``floor(L / 2)`` same-coloured ones, so ``ceil(L / 2) <= other`` and
``floor(L / 2) <= same``.  The largest such ``L`` is::

    L = 2 * same + 1   if other > same
    L = 2 * other      if other <= same

that is ``2 * min(other, same) + (other > same)``.  Surplus squares of the
majority colour are wasted whatever the bot does.  The bound is never below
the real longest path (tests check it against exhaustive search) and is
exact on corridors entered from an end, on 2xN rooms entered at a corner and
on the empty rooms listed in ``tests/test_parity.py``; it is not exact where
the shape forces waste, e.g. a corridor entered in the middle.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import flood, guards
from ..jit.kernels import KernelTable, kernel
from ..tron.board import check_board, start_square


class FillBound(NamedTuple):
    bound: int   # most moves any path from the start can make
    other: int   # reachable free squares of the other colour than the start
    same: int    # reachable free squares of the start's colour (start not counted)


def _colours_guard(stride, labels, n_labels, counts):
    guards.between("stride", stride, 3, max(3, labels.size))
    guards.between("n_labels", n_labels, 0, counts.shape[0] - 1)
    guards.shaped("counts", counts, 1, 2)
    if labels.size and not 0 <= labels.min() <= labels.max() < counts.shape[0]:
        raise ValueError(f"labels hold {labels.min()}..{labels.max()}, counts has rows "
                         f"0..{counts.shape[0] - 1}")


@kernel(sig="UniTuple(i8, 3)(u1[::1], i8, i8, u1[::1], i4[::1])", guard=flood.fill_guard)
def fill_bound_kernel(flat, start, stride, seen, stack):
    """``(bound, other, same)`` for the region reachable from ``start``; see the
    module docstring.  ``flat`` uint8[n], ``start`` int64, ``stride`` int64;
    scratch ``seen`` uint8[n] (left holding 1 on the start's colour, 2 on the
    other, 0 unreached) and ``stack`` int32[n].  Colours come from the fill
    itself: a neighbour always has the other colour."""
    seen[:] = 0
    offs = (np.uint64(0) - np.uint64(stride), np.uint64(1), np.uint64(stride),
            np.uint64(0) - np.uint64(1))
    seen[start] = 1
    stack[0] = start
    sp = 1
    same = 0
    other = 0
    while sp > 0:
        sp -= 1
        c = np.uint64(stack[sp])
        colour = 3 - seen[c]
        for k in range(4):
            n = c + offs[k]
            if flat[n] == 0 and seen[n] == 0:
                seen[n] = colour
                if colour == 1:
                    same += 1
                else:
                    other += 1
                stack[sp] = n
                sp += 1
    bound = 2 * min(other, same) + (1 if other > same else 0)
    return bound, other, same


@kernel(sig="void(i8, i4[::1], i8, i4[:, ::1])", guard=_colours_guard)
def region_colours_kernel(stride, labels, n_labels, counts):
    """Count, for each region label 1..``n_labels`` of ``labels`` (int32[n], as
    :func:`tronlab.grid.flood.components_kernel` leaves it), its squares of colour 0
    and colour 1 into ``counts`` int32[n_labels + 1, 2]."""
    counts[:n_labels + 1, :] = 0
    rows = labels.size // stride
    for y in range(1, rows - 1):
        base = y * stride
        for x in range(1, stride - 1):
            lab = labels[base + x]
            if lab != 0:
                counts[lab, (x + y) & 1] += 1


# the kernels compile on first use; wrappers prefer ahead-of-time twins (tronlab.jit.kernels)
_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir


def fill_bound(board, player=0, *, start=None) -> FillBound:
    """Parity bound on the moves a player (or a path from flat index ``start``)
    can still make.

    >>> from tronlab import Board
    >>> fill_bound(Board.from_ascii('''
    ...     1...
    ...     ##.#
    ...     2...
    ... '''))
    FillBound(bound=5, other=5, same=2)
    """
    start = start_square(board, player, start)
    size = board.flat.size
    bound = _kernels.fast("fill_bound_kernel")
    r = bound(board.flat, np.int64(start), np.int64(board.stride),
              np.empty(size, np.uint8), np.empty(size, np.int32))
    return FillBound(*(int(v) for v in r))


def region_colours(board):
    """``(labels, counts)``: region labels as :func:`tronlab.grid.flood.components` and
    ``counts[j] = [colour-0 squares, colour-1 squares]`` of region j (row 0 unused);
    colour of (x, y) is ``(x + y) % 2``."""
    check_board(board)
    size = board.flat.size
    labels = np.empty(size, np.int32)
    label = flood._kernels.fast("components_kernel")
    k = label(board.flat, np.int64(board.stride), labels,
              np.zeros(size, np.int32), np.empty(size, np.int32))
    counts = np.empty((k + 1, 2), np.int32)
    colours = _kernels.fast("region_colours_kernel")
    colours(np.int64(board.stride), labels, np.int64(k), counts)
    return labels.reshape(board.cells.shape), counts
