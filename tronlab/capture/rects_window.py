"""The rectangle bot's scans on large grids: windows around the player, sized by cost models.

:func:`~tronlab.capture.rects.scan_rectangles` scores every rectangle of the grid
with sides of 2 to ``max_side`` squares, so its time grows with the grid: with the
number of rectangles it looks at (:func:`rectangles_examined`), 72,900 on the
contest's 35x20 grid and 1.9 million on 100x100.  The L-shaped walks of
:func:`~tronlab.capture.lshapes.best_l_shape` ask the enclosure rule at each
walk's end, a flood that runs until it meets the grid's edge: its time grows with
the square of the grid's shorter side.  The bot scans rectangles once for itself
and, with 2 players, once for the opponent, and the contest gives 100 ms a turn.

So on a large grid the bot scans *windows* centred on the player scored (moved to
stay on the grid): for rectangles the largest of at most :data:`SCAN_BUDGET`
rectangles (:func:`window_side`), for the walks one of at most :data:`L_WINDOW`
squares a side (:func:`l_window_side`).  The contest's 35x20 grid fits both, so it
is scanned whole, by the same calls as before: the same moves.

Measured (2026-12-01, 2 shared cores, load about 1; ``RectangleBot`` against
``PathBot``, 2 players, 60 rounds from seed 3, ms a turn)::

    grid       whole grid: median   max     windows: median   max
    35x20                   9.0    10.2                9.1    10.6
    70x40                  61.8   108.3               19.4    26.4
    100x100               263.7   358.4               19.3    25.5

(4 players on 100x100: 116 / 148 ms before, 26 / 31 ms after.)  One scan of
99,225 rectangles (a 29x29 window) takes 6-7 ms, of the 35x20 grid 3-4 ms, of
100x100 112-123 ms; the walks take 2-4 ms on 35x20, 22-43 ms on a 100x100 grid
or a 41-square window, 10-11 ms in a 31-square one.

The rectangle window keeps each score exact (the kernel, compiled ahead of time,
is unchanged): it is cut from the grid with ``max(1, proximity - 1)`` more squares
on each side that is not the grid's edge, and those are marked blocked, so that no
rectangle there scores (one touching the window's side would otherwise count as
touching the grid's edge), while an opponent just outside still counts for the
proximity term; squares, opponents and the previous rectangle are moved by the
window's corner, the squares still needed to win are counted on the whole grid,
and the middle column (the 2-player border bonus) is the whole grid's.  So a
rectangle of the window scores as on the whole grid; one outside is not seen (it
would take at least twice its distance in turns to reach).  The walks' window is
a grid of its own: a region reaching its edge counts as open, so a walk never
scores more than it would on the whole grid, and may score less.
"""

from __future__ import annotations

import numpy as np

from . import rects
from .lshapes import LShape, best_l_shape
from .rects import Rectangle, scan_arguments, scan_rectangles
from .rects_terms import PARAM_NAMES, RectTerms, needed_to_win

#: the rectangles a scan may look at (:func:`rectangles_examined`): 6-7 ms a scan
#: (the module docstring's measurements)
SCAN_BUDGET = 100_000

#: the largest window side of the L-shaped walks (:func:`l_window_side`): 10-11 ms
L_WINDOW = 31


def rectangles_examined(width: int, height: int, max_side: int) -> int:
    """How many rectangles with sides of 2 to ``max_side`` squares a ``width`` x
    ``height`` grid holds: what the scan's time grows with.

    >>> rectangles_examined(35, 20, 16), rectangles_examined(100, 100, 16)
    (72900, 1904400)
    """
    across = sum(width - w + 1 for w in range(2, min(max_side, width) + 1))
    down = sum(height - h + 1 for h in range(2, min(max_side, height) + 1))
    return across * down


def window_side(width: int, height: int, max_side: int, budget: int = SCAN_BUDGET) -> int:
    """The largest window side ``s`` whose window (``min(width, s)`` x ``min(height,
    s)`` squares) holds at most ``budget`` rectangles; the whole grid's longer side
    when the grid fits.  A rectangle's sides are at least 2 squares: at least 2.

    >>> window_side(35, 20, 16), window_side(100, 100, 16), window_side(100, 100, 8)
    (35, 29, 49)
    """
    side = max(width, height)
    while side > 2 and rectangles_examined(min(width, side), min(height, side),
                                           max_side) > budget:
        side -= 1
    return side


def window_around(shape, position, side: int) -> tuple:
    """``(x0, y0, x1, y1)``: the window of at most ``side`` squares a side centred on
    ``position`` (an ``(x, y)`` square of a grid shaped ``shape``), moved to stay on
    the grid.

    >>> window_around((100, 100), (3, 50), 40)
    (0, 30, 39, 69)
    """
    h, w = shape
    ww, wh = min(side, w), min(side, h)
    x0 = min(max(position[0] - ww // 2, 0), w - ww)
    y0 = min(max(position[1] - wh // 2, 0), h - wh)
    return x0, y0, x0 + ww - 1, y0 + wh - 1


def _crop(mask, box):
    return None if mask is None else np.asarray(mask)[box[1]:box[3] + 1, box[0]:box[2] + 1]


def scan_window(owner, player: int, position, *, side: int, n_players: int = 2,
                terms=None, opponents=(), blocked=None, aimed=None, needed: int | None = None,
                prev=None, scratch=None) -> Rectangle:
    """:func:`~tronlab.capture.rects.scan_rectangles` over the window of at most
    ``side`` squares a side around ``position`` (see the module docstring); the
    arguments are scan_rectangles', the result in the whole grid's coordinates."""
    owner = np.asarray(owner)
    h, w = owner.shape
    if side >= w and side >= h:
        return scan_rectangles(owner, player, position, n_players=n_players, terms=terms,
                               opponents=opponents, blocked=blocked, aimed=aimed,
                               needed=needed, prev=prev, scratch=scratch)
    terms = RectTerms() if terms is None else terms
    x0, y0, x1, y1 = window_around(owner.shape, position, side)
    pad = max(1, terms.proximity - 1)   # an opponent left of it is dropped: too far to count
    box = (max(x0 - pad, 0), max(y0 - pad, 0), min(x1 + pad, w - 1), min(y1 + pad, h - 1))
    ring = np.ones((box[3] - box[1] + 1, box[2] - box[0] + 1), bool)
    ring[y0 - box[1]:y1 - box[1] + 1, x0 - box[0]:x1 - box[0] + 1] = False
    cut = _crop(blocked, box)
    dx, dy = box[0], box[1]
    args = list(scan_arguments(
        owner[box[1]:box[3] + 1, box[0]:box[2] + 1], player,
        (position[0] - dx, position[1] - dy), n_players=n_players, terms=terms,
        opponents=[(x - dx, y - dy) for x, y in opponents],
        blocked=ring if cut is None else ring | cut, aimed=_crop(aimed, box),
        needed=needed_to_win(owner, player) if needed is None else needed,
        prev=None if prev is None else (prev[0] - dx, prev[1] - dy, prev[2] - dx, prev[3] - dy),
        scratch=scratch))
    args[12][PARAM_NAMES.index("border_column")] = w // 2 - dx    # the whole grid's
    score = rects._kernels.fast("rect_scan_kernel")(*args)
    b = [int(v) for v in args[-1]]
    return Rectangle(float(score), b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy, *b[4:])


def l_window_side(width: int, height: int, side: int = L_WINDOW) -> int:
    """The side of the window :func:`l_shape_window` searches: the whole grid (its longer
    side) when its shorter side is at most ``side``, else ``side``.

    >>> l_window_side(35, 20), l_window_side(100, 20), l_window_side(100, 100)
    (35, 100, 31)
    """
    return max(width, height) if min(width, height) <= side else side


def l_shape_window(owner, player: int, position, *, side: int, max_len: int = 20,
                   constant: float = 0.0, scratch=None) -> LShape:
    """:func:`~tronlab.capture.lshapes.best_l_shape` on the window of at most ``side``
    squares a side around ``position``; the result in the whole grid's coordinates.
    The window's edge is a grid edge to the enclosure rule: a region reaching it
    counts as open, so a walk scores at most what it takes on the whole grid."""
    owner = np.asarray(owner)
    h, w = owner.shape
    if side >= w and side >= h:
        return best_l_shape(owner, player, position, max_len=max_len, constant=constant,
                            scratch=scratch)
    x0, y0, x1, y1 = window_around(owner.shape, position, side)
    got = best_l_shape(owner[y0:y1 + 1, x0:x1 + 1], player, (position[0] - x0, position[1] - y0),
                       max_len=max_len, constant=constant, scratch=scratch)
    return got._replace(end=(got.end[0] + x0, got.end[1] + y0))
