"""The opponent's rectangle as the path bot sees it: Recar's scan (B4) run
from an opponent's square predicts where a rectangle player goes next.

* :func:`rectangle_walk` - the squares an opponent walks if it plays its best
  rectangle as :class:`~tronlab.capture.rects_bot.RectangleBot` does: to the
  rectangle's start square, then round its border;
* :func:`rectangle_arrival` - those walks as arrival rounds, the form the path
  search reads (the ``rival`` option of :class:`~tronlab.capture.paths_bot.PathBot`);
* :func:`rival_border` - the nearest neutral square of such a rectangle's
  border that the player reaches first (the ``spoil`` option).
"""

from __future__ import annotations

import numpy as np

from .checks import check_view
from .opponent import NEVER
from .rects import border_cycle, scan_rectangles
from .rects_bot import approach_target
from .rules import step_toward


def _best_rectangles(view, player: int):
    """``(opponent id, its square, its best Rectangle)`` for each active opponent."""
    player = check_view(view, player)
    out = []
    for q in range(view.n_players):
        pos = view.positions[q]
        if q == player or pos is None or view.eliminated[q]:
            continue
        others = [p for r, p in enumerate(view.positions) if r != q and p is not None]
        out.append((q, pos, scan_rectangles(view.owner, q, pos, n_players=view.n_players,
                                             opponents=others)))
    return out


def rectangle_walk(owner, position, rect, rounds: int) -> list:
    """The squares, one a round (at most ``rounds``), of a player on
    ``position`` that walks to ``rect``'s start square (the way
    :func:`~tronlab.capture.rects_bot.approach_target` picks) and round its
    border back to the start.

    >>> from tronlab.capture.rects import Rectangle
    >>> owner = np.full((4, 5), -1, np.int8)
    >>> rect = Rectangle(2.0, 1, 0, 3, 2, 0, 1, 9, 1)    # entry (1, 0), clockwise
    >>> rectangle_walk(owner, (0, 0), rect, 6)
    [(1, 0), (2, 0), (3, 0), (3, 1), (3, 2), (2, 2)]
    """
    cycle = border_cycle(rect.x0, rect.y0, rect.x1, rect.y1)
    entry = cycle[rect.entry]
    out, here = [], tuple(position)
    while here != entry and len(out) < rounds:
        corner = approach_target(owner, here, entry)
        here = step_toward(*here, *corner)
        out.append(here)
    n = len(cycle)
    for k in range(1, n + 1):
        if len(out) >= rounds:
            break
        out.append(cycle[(rect.entry + rect.direction * k) % n])
    return out


def rectangle_arrival(view, player: int, rounds: int) -> np.ndarray:
    """Per square, the first round (from now) an opponent walking its best
    rectangle (:func:`rectangle_walk`) stands on it while neutral; NEVER
    elsewhere."""
    h, w = view.owner.shape
    out = np.full((h, w), NEVER, np.int64)
    for _, pos, rect in _best_rectangles(view, player):
        if rect.score <= 0:
            continue
        for t, (x, y) in enumerate(rectangle_walk(view.owner, pos, rect, rounds), 1):
            if view.owner[y, x] == -1 and out[y, x] > t:
                out[y, x] = t
    return out


def rival_border(view, player: int, min_points: int):
    """The nearest neutral border square of an opponent's best rectangle
    that brings it at least ``min_points`` squares, when the player gets
    there before the opponent can close it; else None."""
    best, rivals = None, _best_rectangles(view, player)     # checks player first
    me = view.positions[player]
    for _, _, theirs in rivals:
        if theirs.score <= 1 or theirs.points < min_points:
            continue
        for x, y in border_cycle(theirs.x0, theirs.y0, theirs.x1, theirs.y1):
            d = abs(x - me[0]) + abs(y - me[1])
            if view.owner[y, x] == -1 and 0 < d < theirs.turns and (best is None or d < best[0]):
                best = (d, (x, y))
    return None if best is None else best[1]
