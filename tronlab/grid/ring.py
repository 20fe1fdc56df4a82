"""Potential articulation points from the 3x3 neighbourhood (technique A2).

Finding true cut vertices needs a search over the whole board
(:mod:`tronlab.grid.articulation`).  A much cheaper local test looks only at the
eight squares around a square ``c`` - its *ring* - and asks: if ``c`` were
filled, could its free orthogonal neighbours still reach each other *inside
the 3x3 window*?  If yes, ``c`` is certainly not a cut vertex: any path
through ``c`` can step around it.  If not, ``c`` *might* be one (the
neighbours might still meet far away), so we call it a *potential*
articulation point.

The ring code
-------------
Bit ``i`` of an 8-bit code is set when ring square ``i`` is free, walking
clockwise from north::

    7 0 1        NW N  NE
    6 c 2   =    W  c  E
    5 4 3        SW S  SE

Around the ring, consecutive squares are orthogonally adjacent (N-NE, NE-E,
...), and inside the window with ``c`` removed those are the only adjacencies:
the 3x3 window minus its centre is an 8-cycle.  So the free ring squares form
*runs* of consecutive free squares, and two orthogonal neighbours are locally
connected exactly when they lie in the same run.

Definition used here: ``c`` is a potential articulation point when its free
orthogonal neighbours (N, E, S, W) lie in two or more different runs.  A
corner alone in a run does not count: it touches ``c`` only diagonally.
``POTENTIAL_ARTICULATION[code]`` is 1 for those 256 codes, built by
:func:`make_table` from this definition and checked in the tests against
brute-force connectivity of the 3x3 graph with and without its centre.
"""

from __future__ import annotations

import numpy as np

from ..jit.kernels import KernelTable, kernel
from ..tron.board import check_board, check_xy
from . import guards

RING_ORDER = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
RING_DXDY = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def runs(code: int) -> list[list[int]]:
    """The runs of consecutive free ring positions (wrapping round), each a list
    of positions 0-7 in clockwise order."""
    free = [(code >> i) & 1 == 1 for i in range(8)]
    if all(free):
        return [list(range(8))]
    start = free.index(False)       # begin just after a blocked square
    out, current = [], []
    for step in range(1, 9):
        pos = (start + step) % 8
        if free[pos]:
            current.append(pos)
        elif current:
            out.append(current)
            current = []
    return out


def is_potential_articulation(code: int) -> bool:
    """The definition: free orthogonal neighbours lie in 2+ runs of the ring."""
    if not 0 <= code <= 255:
        raise ValueError(f"a ring code is 0-255, got {code}")
    with_orthogonal = [run for run in runs(code) if any(pos % 2 == 0 for pos in run)]
    return len(with_orthogonal) >= 2


def make_table() -> np.ndarray:
    """The 256-entry uint8 table of :func:`is_potential_articulation`."""
    return np.array([is_potential_articulation(code) for code in range(256)], np.uint8)


POTENTIAL_ARTICULATION = make_table()


def _ring_guard(flat, square, stride):
    guards.on_grid(flat, stride, {"square": square})


@kernel(sig="i8(u1[::1], i8, i8)", inline="always", guard=_ring_guard)
def ring_code_kernel(flat, square, stride):
    """The 8-bit ring code of ``square`` (bit i set = ring square i is free)."""
    s = np.int64(square)
    w = np.int64(stride)
    code = 0
    if flat[s - w] == 0:
        code |= 1
    if flat[s - w + 1] == 0:
        code |= 2
    if flat[s + 1] == 0:
        code |= 4
    if flat[s + w + 1] == 0:
        code |= 8
    if flat[s + w] == 0:
        code |= 16
    if flat[s + w - 1] == 0:
        code |= 32
    if flat[s - 1] == 0:
        code |= 64
    if flat[s - w - 1] == 0:
        code |= 128
    return code


# the kernels compile on first use; wrappers prefer ahead-of-time twins (tronlab.jit.kernels)
_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir


def ring_code(board, x: int, y: int) -> int:
    """Ring code of playing square (x, y) of a Board."""
    check_board(board)
    x, y = check_xy(x, y)
    if not board.inside(x, y):
        raise ValueError(f"({x}, {y}) is off the {board.width}x{board.height} board")
    code = _kernels.fast("ring_code_kernel")
    return int(code(board.flat, np.int64(board.index(x, y)), np.int64(board.stride)))


def potential_articulation(board, x: int, y: int) -> bool:
    """Might filling (x, y) split the free squares around it?  (A2 table look-up.)"""
    return bool(POTENTIAL_ARTICULATION[ring_code(board, x, y)])
