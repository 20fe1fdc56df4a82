"""L-shaped areas from the player's square (B5) and what a square would enclose.

Recar, after scoring rectangles, looked for "L-shaped" areas: walks from his
square, some squares one way and then some a quarter turn left or right,
that close an area against squares he already owns.  :func:`best_l_shape`
tries every such walk (``a`` squares in one of the four directions, then
``b`` squares turned left or right, ``1 <= a + b <= max_len``) and scores
it as the squares it would bring - the walk's neutral squares plus the
closed regions next to its last square - over ``a + b + 1 + constant`` turns
(the walk, the closing turn, the player constant of the rectangle score).

The scan asks :func:`tronlab.capture.enclosure.enclose_kernel` what the
enclosure rule would give at a walk's last square without writing it, so it
needs no copy of the grid per walk; the kernel's stamps (numbers that only
grow) spare it clearing a ``seen`` array per call.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit.kernels import KernelTable, kernel
from . import kernel_guards
from .checks import check_owner, check_player, check_square
from ..tron.values import is_whole
from . import enclosure
from .enclosure import enclose_kernel
from .rects import new_scratch

DIRS = ((1, 0), (0, 1), (-1, 0), (0, -1))      # east, south, west, north


@kernel(sig="f8(i1[::1], i8, i8, i8, i8, i8, i8, f8, i1[::1], i8[::1], i8[::1], i4[::1], "
            "i8[::1])", guard=kernel_guards.l_scan)
def l_scan_kernel(owner, width, height, player, px, py, max_len, constant, work, stamp,
                  next_stamp, region, best):
    """Try every L-shaped walk from ``(px, py)``; return the best score and
    fill ``best`` with ``first, turn, a, b, gain, end_x, end_y`` (``first``
    an index of :data:`DIRS`, ``turn`` +1 clockwise / -1 anticlockwise).
    Of equal scores the first walk tried wins: ``first`` 0..3, ``turn`` -1
    before +1, then ``a`` and ``b`` from short to long."""
    best_score = -1.0
    for k in range(width * height):
        work[k] = owner[k]
    for first in range(4):
        dx = 1 if first == 0 else (-1 if first == 2 else 0)
        dy = 1 if first == 1 else (-1 if first == 3 else 0)
        for turn in range(-1, 2, 2):
            second = (first + turn + 4) % 4
            ex = 1 if second == 0 else (-1 if second == 2 else 0)
            ey = 1 if second == 1 else (-1 if second == 3 else 0)
            leg = 0                          # neutral squares taken by the first leg
            for a in range(max_len + 1):
                cornx = px + a * dx
                corny = py + a * dy
                if cornx < 0 or corny < 0 or cornx >= width or corny >= height:
                    break
                if a > 0 and work[corny * width + cornx] == -1:
                    work[corny * width + cornx] = player
                    leg += 1
                if a == 0 and turn == 1:
                    continue                 # a straight walk: counted once, with turn -1
                gain = leg
                b = 0
                while a + b <= max_len:
                    endx = cornx + b * ex
                    endy = corny + b * ey
                    if endx < 0 or endy < 0 or endx >= width or endy >= height:
                        break
                    if b > 0 and work[endy * width + endx] == -1:
                        work[endy * width + endx] = player
                        gain += 1
                    if a + b > 0:
                        # np.bool_: a bare False is a literal to numba, a second signature
                        total = gain + enclose_kernel(work, width, height, player, endx, endy,
                                                      np.bool_(False), stamp, next_stamp, region)
                        score = total / (a + b + 1 + constant)
                        if score > best_score:
                            best_score = score
                            best[0] = first
                            best[1] = turn
                            best[2] = a
                            best[3] = b
                            best[4] = total
                            best[5] = endx
                            best[6] = endy
                    b += 1
                for k in range(1, b):        # undo the second leg
                    c = (corny + k * ey) * width + cornx + k * ex
                    work[c] = owner[c]
            for k in range(1, max_len + 1):  # undo the first leg
                sx = px + k * dx
                sy = py + k * dy
                if sx < 0 or sy < 0 or sx >= width or sy >= height:
                    break
                work[sy * width + sx] = owner[sy * width + sx]
    return best_score


_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir


class LShape(NamedTuple):
    score: float
    first: int      # index of DIRS
    turn: int       # +1 clockwise, -1 anticlockwise
    a: int
    b: int
    gain: int
    end: tuple


def _kernel(name, jit):
    return _kernels.fast(name) if jit else _kernels.plain(name)


def best_l_shape(owner, player: int, position, *, max_len: int = 20, constant: float = 0.0,
                 scratch=None, jit: bool = True) -> LShape:
    """The best L-shaped walk from ``position`` (see the module docstring).
    ``player`` is only checked as 0-3 (the grid has no player count).

    >>> from tronlab.capture.ascii import parse_grid
    >>> g = parse_grid('''
    ...     .....
    ...     .000.
    ...     .0..A
    ...     .000.
    ...     .....
    ... ''')
    >>> best_l_shape(g.owner, 0, (4, 2), jit=False)[1:]   # one step west closes the hole
    (2, -1, 1, 0, 2, (3, 2))
    """
    owner = check_owner(owner)
    h, w = owner.shape
    player = check_player(player)
    position = check_square(position, owner.shape)
    if not is_whole(max_len) or max_len < 1:
        raise ValueError(f"max_len must be an int of at least 1, got {max_len!r}")
    s = scratch or new_scratch(w, h, 2)
    if s["stamp_next"][0] > 2**62:
        s["stamp"][:] = 0
        s["stamp_next"][0] = 1
    scan = _kernel("l_scan_kernel", jit)
    score = scan(owner.reshape(-1), np.int64(w), np.int64(h), np.int64(player),
                 np.int64(position[0]), np.int64(position[1]), np.int64(max_len),
                 np.float64(constant), s["work"], s["stamp"], s["stamp_next"], s["region"],
                 s["best"])
    b = [int(v) for v in s["best"][:7]]
    return LShape(float(score), b[0], b[1], b[2], b[3], b[4], (b[5], b[6]))


def closed_gain(owner, player: int, x: int, y: int, *, jit: bool = True) -> int:
    """Squares ``player`` would take by enclosure standing on ``(x, y)``.
    ``player`` is only checked as 0-3 (the grid has no player count).

    >>> from tronlab.capture.ascii import parse_grid
    >>> closed_gain(parse_grid('''
    ...     000.
    ...     0.0.
    ...     000.
    ... ''').owner, 0, 2, 1, jit=False)
    1
    """
    owner = check_owner(owner)
    h, w = owner.shape
    player = check_player(player)
    x, y = check_square((x, y), owner.shape, "square")
    gain = enclosure._kernel("enclose_kernel", jit)
    return int(gain(owner.reshape(-1), np.int64(w), np.int64(h), np.int64(player), np.int64(x),
                    np.int64(y), False, *enclosure.new_stamps(w * h),
                    np.empty(w * h, np.int32)))
