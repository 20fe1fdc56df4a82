"""Enclosure capture: 8-connected neutral regions and who may take them (B1).

After a player moves, each neutral square among the 8 around it seeds a
region: every neutral square reachable by king steps (diagonals too).  The
player takes the whole region when it is *closed* for that player:

* no square of the region lies on the grid's outer ring (so the grid edge
  is not a wall for the region), and
* no square touching the region, diagonals included, is owned by another
  player (an eliminated player's squares block too).

A region is a maximal 8-connected set of neutral squares, so every square
touching it from outside is owned by somebody; "closed" means all of them
are the player's own.  Where players stand does not matter.

Kernels take the flat ``int8`` owner array (``owner.reshape(-1)``, ``-1``
neutral), ``width`` and ``height`` as int64, and scratch arrays of the grid's
size (``region`` int32; ``seen`` uint8 for the flood, ``stamp`` int64 for
the enclosure, see :func:`new_stamps`); they never allocate.  Their plain
Python twins are ``_kernels.plain(name)`` (plain down to the helpers they call).
"""

from __future__ import annotations

import numpy as np

from ..jit.kernels import KernelTable, kernel
from . import kernel_guards
from .checks import check_owner, check_player, check_square


@kernel(sig="i8(i1[::1], i8, i8, i8, u1[::1], i4[::1])", guard=kernel_guards.neutral_region)
def neutral_region_kernel(owner, width, height, seed, seen, region):
    """Flood the 8-connected neutral region of flat square ``seed``.

    Squares of the region go into ``region[:count]`` in breadth-first order
    and are marked in ``seen`` (which the caller clears); returns ``count``,
    0 when ``seed`` is owned or already seen.
    """
    if owner[seed] != -1 or seen[seed] != 0:
        return 0
    seen[seed] = 1
    region[0] = seed
    count = 1
    head = 0
    while head < count:
        c = region[head]
        head += 1
        cx = c % width
        cy = c // width
        for ny in range(max(cy - 1, 0), min(cy + 2, height)):
            for nx in range(max(cx - 1, 0), min(cx + 2, width)):
                n = ny * width + nx
                if owner[n] == -1 and seen[n] == 0:
                    seen[n] = 1
                    region[count] = n
                    count += 1
    return count


@kernel(sig="i8(i1[::1], i8, i8, i8, i8, i8, b1, i8[::1], i8[::1], i4[::1])",
        guard=kernel_guards.enclose)
def enclose_kernel(owner, width, height, player, x, y, write, stamp, next_stamp, region):
    """How many squares ``player`` takes standing on ``(x, y)``: every closed
    neutral region among the 8 squares around it.  Its own square seeds no
    region (left neutral when shared, it is taken only as part of a region
    seeded next to it).  With ``write`` they become
    the player's in ``owner``; without, ``owner`` is left as it was (what a
    move *would* take, for the bots' scans).

    Instead of clearing a ``seen`` array each call, squares are marked in
    ``stamp`` with numbers from ``next_stamp[0]`` up (every stamp below it on
    entry; it grows by one a flood).  A flood stops at the first sign that its
    region is open, and a later flood that meets a square an earlier one of
    this call marked has met that open region: it is open too.
    """
    base = next_stamp[0]
    taken = 0
    for sy in range(max(y - 1, 0), min(y + 2, height)):
        for sx in range(max(x - 1, 0), min(x + 2, width)):
            seed = sy * width + sx
            if (sx == x and sy == y) or owner[seed] != -1 or stamp[seed] >= base:
                continue        # the 8 squares around only: not the player's own square
            mark = next_stamp[0]
            next_stamp[0] += 1
            stamp[seed] = mark
            region[0] = seed
            count = 1
            head = 0
            closed = True
            while head < count and closed:
                c = region[head]
                head += 1
                cx = c % width
                cy = c // width
                if cx == 0 or cy == 0 or cx == width - 1 or cy == height - 1:
                    closed = False
                for ny in range(max(cy - 1, 0), min(cy + 2, height)):
                    for nx in range(max(cx - 1, 0), min(cx + 2, width)):
                        n = ny * width + nx
                        v = owner[n]
                        if v == -1:
                            if stamp[n] < base:
                                stamp[n] = mark
                                region[count] = n
                                count += 1
                            elif stamp[n] != mark:
                                closed = False      # an earlier flood found this region open
                        elif v != player:
                            closed = False
            if closed:
                if write:
                    for i in range(count):
                        owner[region[i]] = player
                taken += count
    return taken


# the kernels compile on first use (tronlab.jit.kernels)
_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir


# ---------------------------------------------------------------------------
# friendly wrappers
# ---------------------------------------------------------------------------
def _kernel(name: str, jit: bool):
    return _kernels.fast(name) if jit else _kernels.plain(name)


def neutral_region(owner, x: int, y: int, *, jit: bool = True) -> set:
    """The 8-connected region of neutral squares around ``(x, y)`` as a set of
    ``(x, y)`` pairs (empty when the square is owned).

    >>> from tronlab.capture.ascii import parse_grid
    >>> owner = parse_grid('''
    ...     .0.
    ...     0.0
    ...     .00
    ... ''').owner
    >>> sorted(neutral_region(owner, 0, 0, jit=False))   # diagonal steps connect
    [(0, 0), (0, 2), (1, 1), (2, 0)]
    """
    owner = check_owner(owner)
    h, w = owner.shape
    check_square((x, y), owner.shape, "square")
    flat = owner.reshape(-1)
    region = np.empty(flat.size, np.int32)
    flood = _kernel("neutral_region_kernel", jit)
    count = flood(flat, np.int64(w), np.int64(h), np.int64(y * w + x),
                  np.zeros(flat.size, np.uint8), region)
    return {(int(s) % w, int(s) // w) for s in region[:count]}


def enclose(owner, player: int, x: int, y: int, *, jit: bool = True):
    """``(new_owner, taken)``: a copy of ``owner`` after ``player``, standing on
    ``(x, y)``, took every closed neutral region next to it.  ``player`` is only
    checked as 0-3 (the grid has no player count).

    >>> from tronlab.capture.ascii import format_grid, parse_grid
    >>> owner = parse_grid('''
    ...     .....
    ...     .000.
    ...     .0.0.
    ...     .000.
    ...     .....
    ... ''').owner
    >>> new, taken = enclose(owner, 0, 3, 3, jit=False)
    >>> taken, int(new[2, 2])
    (1, 0)
    """
    owner = check_owner(owner)
    h, w = owner.shape
    check_player(player)
    check_square((x, y), owner.shape, "square")
    out = owner.copy()                   # the kernel writes the taken regions into it
    flat = out.reshape(-1)
    take = _kernel("enclose_kernel", jit)
    taken = take(flat, np.int64(w), np.int64(h), np.int64(player), np.int64(x), np.int64(y),
                 True, *new_stamps(flat.size), np.empty(flat.size, np.int32))
    return out, int(taken)


def new_stamps(size: int) -> tuple:
    """``(stamp, next_stamp)`` for :func:`enclose_kernel` on a grid of ``size``
    squares: all stamps 0, the next one 1."""
    return np.zeros(size, np.int64), np.ones(1, np.int64)
