"""Recar's rectangles (B3): the scan as a numba kernel.

:func:`scan_rectangles` scores every rectangle of the grid with sides of 2 to
``max_side`` squares by the terms of :mod:`tronlab.capture.rects_terms` and
returns the best (the L-shaped walks of B5 are in :mod:`tronlab.capture.lshapes`).

A rectangle's border is walked as a cycle: index 0 is the upper-left corner,
then clockwise (right along the top, down the right side, left along the
bottom, up the left side).  ``direction`` is +1 for clockwise, -1 for
anticlockwise.

Kernels take flat arrays (``owner`` int8, the masks uint8) and int64
scalars; scratch comes from :func:`new_scratch`.  The plain Python twins are
``_kernels.plain(name)`` (plain down to the helpers they call); the wrappers take
``jit=False`` to use them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit.kernels import KernelTable, kernel
from . import kernel_guards
from .checks import check_owner, check_player, check_player_of, check_square, kernel_array
from ..tron.values import is_whole
from .rects_terms import RectTerms, needed_to_win



@kernel(inline="always")
def _fewest_turns_bound(pre, base, w1, x0, y0, x1, y1, px, py, approach, constant):
    """A lower bound of a rectangle's turns: the approach to the nearest border
    square, one step per border square not yet ours, the constant."""
    own = (pre[base + (y1 + 1) * w1 + x1 + 1] - pre[base + y0 * w1 + x1 + 1]
           - pre[base + (y1 + 1) * w1 + x0] + pre[base + y0 * w1 + x0])
    if x1 - x0 >= 2 and y1 - y0 >= 2:
        own -= (pre[base + y1 * w1 + x1] - pre[base + (y0 + 1) * w1 + x1]
                - pre[base + y1 * w1 + x0 + 1] + pre[base + (y0 + 1) * w1 + x0 + 1])
    todo = 2 * (x1 - x0) + 2 * (y1 - y0) - own
    gap = max(0, x0 - px, px - x1) + max(0, y0 - py, py - y1)
    if gap == 0:
        gap = min(px - x0, x1 - px, py - y0, y1 - py)
    return approach * gap + max(todo, 1) + constant


@kernel(inline="always")
def _most(neutral, needed, cap, win_bonus, x0, y0, x1, y1, border_col, border_bonus, edge_bonus,
          width, height, prev, stable):
    """An upper bound of a rectangle's points times its bonuses."""
    most = float(max(neutral, 1))
    if cap > 0 and neutral > needed:
        most = float(needed)
    if neutral >= needed:
        most *= max(1.0, win_bonus)
    if x0 == border_col or x1 == border_col:
        most *= max(1.0, border_bonus)
    if x0 == 0 or y0 == 0 or x1 == width - 1 or y1 == height - 1:
        most *= max(1.0, edge_bonus)
    if x0 == prev[0] and y0 == prev[1] and x1 == prev[2] and y1 == prev[3]:
        most *= max(1.0, stable)
    return most


@kernel(sig="f8(i1[::1], i8, i8, i8, i8, i8, u1[::1], u1[::1], i8[::1], i8[::1], i8, i8[::1], "
            "f8[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8[::1], f8[::1], i8[::1])",
        guard=kernel_guards.rect_scan)
def rect_scan_kernel(owner, width, height, player, px, py, blocked, aimed, opp_x, opp_y,
                     needed, prev, params, pre, cx, cy, own, run_a, run_b, scores, best):
    """Score every rectangle; return the best score and fill ``best`` with
    ``x0, y0, x1, y1, entry, direction, turns, points``.  ``scores`` (flat
    ``(height, width, max_side, max_side)`` indexed ``[y0, x0, h-1, w-1]``,
    or empty) receives every score, -1 where no rectangle fits."""
    # Why one long kernel: every score term reads the same prefix sums and the running
    # best inside four nested loops over all rectangles (largest first, for pruning).
    cap, win_bonus, thin_corner, approach, constant = (params[0], params[1], params[2],
                                                       params[3], params[4])
    size_limit, size_div, border_bonus, border_col, border_free = (params[5], params[6],
                                                                   params[7], params[8], params[9])
    edge_bonus, prox, prox_div, aimed_div, stable = (params[10], params[11], params[12],
                                                     params[13], params[14])
    side = np.int64(params[15])
    w1 = width + 1
    plane = (height + 1) * w1
    for k in range(4 * plane):      # prefix sums of neutral, blocked, aimed and own squares
        pre[k] = 0
    for y in range(height):
        for x in range(width):
            c = y * width + x
            i = (y + 1) * w1 + x + 1
            for m in range(4):
                v = 0
                if m == 0:
                    v = 1 if owner[c] == -1 else 0
                elif m == 1:
                    v = blocked[c]
                elif m == 2:
                    v = aimed[c]
                else:
                    v = 1 if owner[c] == player else 0
                pre[m * plane + i] = (v + pre[m * plane + i - 1] + pre[m * plane + i - w1]
                                      - pre[m * plane + i - w1 - 1])
    if scores.size > 0:
        scores[:] = -1.0
    best_score = -1.0
    for h in range(min(side, height), 1, -1):       # large first: a high best prunes more
        for w in range(min(side, width), 1, -1):
            for y0 in range(height - h + 1):
                for x0 in range(width - w + 1):
                    x1 = x0 + w - 1
                    y1 = y0 + h - 1
                    a = y0 * w1 + x0
                    b = y0 * w1 + x1 + 1
                    c = (y1 + 1) * w1 + x0
                    d = (y1 + 1) * w1 + x1 + 1
                    neutral = pre[d] - pre[b] - pre[c] + pre[a]
                    nblock = (pre[plane + d] - pre[plane + b] - pre[plane + c]
                              + pre[plane + a])
                    naimed = (pre[2 * plane + d] - pre[2 * plane + b] - pre[2 * plane + c]
                              + pre[2 * plane + a])
                    score = 0.0
                    entry = 0
                    direction = 1
                    turns = 0.0
                    points = 0
                    if nblock > 0 or neutral == 0:
                        score = 0.0
                    elif scores.size == 0 and best_score > 0 and (
                            _most(neutral, needed, cap, win_bonus, x0, y0, x1, y1, border_col,
                                  border_bonus, edge_bonus, width, height, prev, stable)
                            / _fewest_turns_bound(
                                pre, 3 * plane, w1, x0, y0, x1, y1, px, py, approach, constant)
                            <= best_score):
                        continue            # cannot beat the best so far: skip the walk
                    else:
                        n = 0                       # the border as a cycle
                        for x in range(x0, x1):
                            cx[n] = x
                            cy[n] = y0
                            n += 1
                        for y in range(y0, y1):
                            cx[n] = x1
                            cy[n] = y
                            n += 1
                        for x in range(x1, x0, -1):
                            cx[n] = x
                            cy[n] = y1
                            n += 1
                        for y in range(y1, y0, -1):
                            cx[n] = x0
                            cy[n] = y
                            n += 1
                        start = -1
                        nown = 0
                        for i in range(n):
                            own[i] = 1 if owner[cy[i] * width + cx[i]] == player else 0
                            nown += own[i]
                            if own[i] == 0:
                                start = i
                        best_t = 1e18
                        if nown == 0:          # every walk is n - 1 steps: the nearest entry
                            for i in range(n):
                                dist = abs(px - cx[i]) + abs(py - cy[i])
                                t = approach * dist + n + constant
                                if t < best_t:
                                    best_t = t
                                    entry = i
                        else:
                            if start >= 0:
                                run_a[(start + 1) % n] = 0
                                for k in range(2, n + 1):      # own squares just behind i
                                    i = (start + k) % n
                                    j = (i + n - 1) % n
                                    run_a[i] = run_a[j] + 1 if own[j] == 1 else 0
                                run_b[(start + n - 1) % n] = 0
                                for k in range(2, n + 1):      # own squares just ahead of i
                                    i = (start + n * 2 - k) % n
                                    j = (i + 1) % n
                                    run_b[i] = run_b[j] + 1 if own[j] == 1 else 0
                            for i in range(n):
                                dist = abs(px - cx[i]) + abs(py - cy[i])
                                for s in range(2):
                                    walk = 0
                                    if start >= 0:
                                        walk = n - 1 - (run_a[i] if s == 0 else run_b[i])
                                    t = approach * dist + walk + 1 + constant
                                    if t < best_t:
                                        best_t = t
                                        entry = i
                                        direction = 1 if s == 0 else -1
                        turns = best_t
                        points = neutral
                        if cap > 0 and points > needed:
                            points = needed
                        score = points / turns
                        if (w < 3 or h < 3) and thin_corner > 0:
                            score = 1.0 / (1.0 + abs(px - x0) + abs(py - y0)) / turns
                        if neutral >= needed:
                            score *= win_bonus
                        if w > size_limit or h > size_limit:
                            score /= size_div
                        if x0 == border_col or x1 == border_col:
                            col = np.int64(border_col)
                            free = 0
                            for y in range(y0, y1 + 1):
                                if owner[y * width + col] == -1:
                                    free += 1
                            if free > border_free:
                                score *= border_bonus
                        if x0 == 0 or y0 == 0 or x1 == width - 1 or y1 == height - 1:
                            score *= edge_bonus
                        for q in range(opp_x.size):
                            if opp_x[q] >= 0:
                                gap = (max(0, x0 - opp_x[q], opp_x[q] - x1)
                                       + max(0, y0 - opp_y[q], opp_y[q] - y1))
                                if gap < prox:
                                    score /= prox_div
                        if naimed > 0:
                            score /= aimed_div
                        if x0 == prev[0] and y0 == prev[1] and x1 == prev[2] and y1 == prev[3]:
                            score *= stable
                    if scores.size > 0:
                        scores[((y0 * width + x0) * side + h - 1) * side + w - 1] = score
                    if score > best_score:
                        best_score = score
                        best[0] = x0
                        best[1] = y0
                        best[2] = x1
                        best[3] = y1
                        best[4] = entry
                        best[5] = direction
                        best[6] = np.int64(turns)
                        best[7] = points
    return best_score


_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir


# ---------------------------------------------------------------------------
# friendly wrappers
# ---------------------------------------------------------------------------
class Rectangle(NamedTuple):
    """A scored rectangle: corners, where its border walk starts (``entry``, a
    cycle index), which way round (``direction``), turns and points."""
    score: float
    x0: int
    y0: int
    x1: int
    y1: int
    entry: int
    direction: int
    turns: int
    points: int


def border_cycle(x0: int, y0: int, x1: int, y1: int) -> list:
    """The border squares of a rectangle in cycle order (see the module docstring).

    >>> border_cycle(0, 0, 2, 1)
    [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)]
    """
    top = [(x, y0) for x in range(x0, x1)]
    right = [(x1, y) for y in range(y0, y1)]
    bottom = [(x, y1) for x in range(x1, x0, -1)]
    left = [(x0, y) for y in range(y1, y0, -1)]
    return top + right + bottom + left


def new_scratch(width: int, height: int, max_side: int = 20, *, scores: bool = False) -> dict:
    """Scratch arrays for :func:`scan_rectangles` (and
    :func:`~tronlab.capture.lshapes.best_l_shape`)."""
    n = 2 * (width + height)
    side = max_side
    return {"pre": np.empty(4 * (width + 1) * (height + 1), np.int64),
            "cx": np.empty(n, np.int64), "cy": np.empty(n, np.int64),
            "own": np.empty(n, np.int64), "run_a": np.empty(n, np.int64),
            "run_b": np.empty(n, np.int64),
            "scores": np.empty(height * width * side * side if scores else 0, np.float64),
            "best": np.zeros(8, np.int64), "work": np.empty(width * height, np.int8),
            "stamp": np.zeros(width * height, np.int64), "stamp_next": np.ones(1, np.int64),
            "region": np.empty(width * height, np.int32)}


def _mask(mask, shape) -> np.ndarray:
    if mask is None:
        return np.zeros(shape[0] * shape[1], np.uint8)
    mask = np.asarray(mask)
    if mask.shape != shape:
        raise ValueError(f"mask shaped {mask.shape}, the grid is {shape}")
    return kernel_array(mask.astype(np.uint8, copy=False)).reshape(-1)


def _four_ints(v) -> bool:
    try:
        return len(v) == 4 and all(is_whole(c) for c in v)
    except TypeError:
        return False


def scan_arguments(owner, player: int, position, *, n_players: int = 2, terms=None,
                   opponents=(), blocked=None, aimed=None, needed: int | None = None,
                   prev=None, scratch=None) -> tuple:
    """The checked arguments of :func:`rect_scan_kernel` for :func:`scan_rectangles`'
    options (``benchmarks/twins.py`` times the kernel on them); the last is ``best``."""
    owner = check_owner(owner)
    h, w = owner.shape
    player = check_player(player)
    position = check_square(position, owner.shape)
    if prev is not None and not _four_ints(prev):
        raise ValueError(f"prev must be None or 4 ints (x0, y0, x1, y1), got {prev!r}")
    terms = RectTerms() if terms is None else terms
    params = terms.params(n_players, w)
    check_player_of(player, n_players)
    side = int(params[15])
    s = scratch or new_scratch(w, h, side)
    block = _mask(blocked, owner.shape) | ((owner >= 0) & (owner != player)).reshape(-1)
    opp = np.array([list(p) for p in opponents], np.int64).reshape(-1, 2)
    need = needed_to_win(owner, player) if needed is None else needed
    prev = np.array(prev if prev is not None else (-1, -1, -1, -1), np.int64)
    return (owner.reshape(-1), np.int64(w), np.int64(h), np.int64(player),
            np.int64(position[0]), np.int64(position[1]), block.astype(np.uint8),
            _mask(aimed, owner.shape), np.ascontiguousarray(opp[:, 0]),
            np.ascontiguousarray(opp[:, 1]), np.int64(need), prev, params, s["pre"], s["cx"],
            s["cy"], s["own"], s["run_a"], s["run_b"], s["scores"], s["best"])


def scan_rectangles(owner, player: int, position, *, n_players: int = 2, terms=None,
                    opponents=(), blocked=None, aimed=None, needed: int | None = None,
                    prev=None, scratch=None, jit: bool = True) -> Rectangle:
    """The best rectangle for ``player`` standing on ``position``.

    ``opponents`` are the active opponents' squares (for the proximity term),
    ``blocked`` a boolean grid of squares to treat as an opponent's (default:
    squares owned by another player; a given mask is added to those), ``aimed``
    a boolean grid for the aimed term, ``needed`` the squares still needed to
    win (default :func:`~tronlab.capture.rects_terms.needed_to_win`), ``prev``
    the previous turn's ``(x0, y0, x1, y1)``.  A score of -1 means no rectangle
    fits the grid.  ``player`` must be one of the ``n_players`` (the game's
    player count, which sets the score's terms).

    >>> from tronlab.capture.ascii import parse_grid
    >>> g = parse_grid('''
    ...     A00...
    ...     0.0...
    ...     0.....
    ... ''')
    >>> r = scan_rectangles(g.owner, 0, (0, 0), jit=False)
    >>> (r.x0, r.y0, r.x1, r.y1), r.points, r.turns   # 7 steps + closing turn + 10
    ((0, 0, 3, 2), 4, 18)
    """
    args = scan_arguments(owner, player, position, n_players=n_players, terms=terms,
                          opponents=opponents, blocked=blocked, aimed=aimed, needed=needed,
                          prev=prev, scratch=scratch)
    scan = _kernels.fast("rect_scan_kernel") if jit else _kernels.plain("rect_scan_kernel")
    score = scan(*args)
    return Rectangle(float(score), *(int(v) for v in args[-1]))


def rectangle_scores(owner, player: int, position, *, jit: bool = True, **options) -> np.ndarray:
    """Every rectangle's score, shaped ``(height, width, max_side, max_side)``
    and indexed ``[y0, x0, h - 1, w - 1]``; -1 where no rectangle fits."""
    owner = check_owner(owner)
    h, w = owner.shape
    terms = options.get("terms") or RectTerms()
    side = terms.max_side
    scratch = new_scratch(w, h, side, scores=True)
    scan_rectangles(owner, player, position, scratch=scratch, jit=jit, **options)
    return scratch["scores"].reshape(h, w, side, side)
