"""Brute-force rectangle and L-shape scores, written from the definitions in
tronlab.capture.rects_terms and tronlab.capture.rects without their kernels (the
closing walk's enclosure by the scipy oracle of enclosure_oracle.py)."""

from __future__ import annotations

import numpy as np

from .enclosure_oracle import scipy_enclose


def border_squares(x0, y0, x1, y1):
    """The border, clockwise from the upper-left corner, walked step by step."""
    out, (x, y) = [], (x0, y0)
    for dx, dy, n in ((1, 0, x1 - x0), (0, 1, y1 - y0), (-1, 0, x1 - x0), (0, -1, y1 - y0)):
        for _ in range(n):
            out.append((x, y))
            x, y = x + dx, y + dy
    return out


def fewest_turns(owner, player, pos, cycle, approach, constant):
    """Fewest turns over every start square and both directions, by trying each
    walk length until the walked squares cover every square not yet ours."""
    todo = {sq for sq in cycle if owner[sq[1], sq[0]] != player}
    n = len(cycle)
    best = None
    for i, (ex, ey) in enumerate(cycle):
        d = abs(pos[0] - ex) + abs(pos[1] - ey)
        for step in (1, -1):
            for walk in range(n):
                walked = {cycle[(i + step * k) % n] for k in range(walk + 1)}
                if todo <= walked:
                    break
            t = approach * d + walk + 1 + constant
            if best is None or t < best[0]:
                best = (t, i, step)
    return best


def rect_score(owner, player, pos, rect, params, *, blocked, aimed, opponents, needed, prev):
    """The score of one rectangle, term by term (params as RectTerms.params)."""
    (cap, win_bonus, thin, approach, constant, size_limit, size_div, border_bonus, border_col,
     border_free, edge_bonus, prox, prox_div, aimed_div, stable, _) = params
    x0, y0, x1, y1 = rect
    h, w = owner.shape
    inside = np.zeros(owner.shape, bool)
    inside[y0:y1 + 1, x0:x1 + 1] = True
    others = (owner >= 0) & (owner != player)
    neutral = int(np.count_nonzero(inside & (owner == -1)))
    if (inside & (others | blocked)).any() or neutral == 0:
        return 0.0
    turns = fewest_turns(owner, player, pos, border_squares(*rect), approach, constant)[0]
    points = min(neutral, needed) if cap else neutral
    score = points / turns
    if thin and (x1 - x0 < 2 or y1 - y0 < 2):
        score = 1 / (1 + abs(pos[0] - x0) + abs(pos[1] - y0)) / turns
    if neutral >= needed:
        score *= win_bonus
    if x1 - x0 + 1 > size_limit or y1 - y0 + 1 > size_limit:
        score /= size_div
    col = int(border_col)
    if col in (x0, x1) and np.count_nonzero(owner[y0:y1 + 1, col] == -1) > border_free:
        score *= border_bonus
    if x0 == 0 or y0 == 0 or x1 == w - 1 or y1 == h - 1:
        score *= edge_bonus
    for ox, oy in opponents:
        gap = max(0, x0 - ox, ox - x1) + max(0, y0 - oy, oy - y1)
        if gap < prox:
            score /= prox_div
    if (inside & aimed).any():
        score /= aimed_div
    if tuple(prev) == tuple(rect):
        score *= stable
    return score


def all_rect_scores(owner, player, pos, params, **kw):
    """{(x0, y0, x1, y1): score} for every rectangle with sides 2..max_side."""
    h, w = owner.shape
    side = int(params[15])
    out = {}
    for y0 in range(h):
        for x0 in range(w):
            for y1 in range(y0 + 1, min(h, y0 + side)):
                for x1 in range(x0 + 1, min(w, x0 + side)):
                    out[x0, y0, x1, y1] = rect_score(owner, player, pos, (x0, y0, x1, y1),
                                                     params, **kw)
    return out


def all_l_walks(owner, player, pos, max_len, constant):
    """{(first, turn, a, b): (score, gain, end)} for every L-shaped walk that stays on
    the grid, in the kernel's order (first, then turn -1 before +1, then a, then b)."""
    h, w = owner.shape
    dirs = ((1, 0), (0, 1), (-1, 0), (0, -1))
    out = {}
    for first in range(4):
        for turn in (-1, 1):
            second = (first + turn) % 4
            for a in range(max_len + 1):
                for b in range(max_len + 1 - a):
                    if a + b == 0 or (a == 0 and turn == 1):
                        continue
                    path = [(pos[0] + dirs[first][0] * k, pos[1] + dirs[first][1] * k)
                            for k in range(1, a + 1)]
                    corner = (pos[0] + dirs[first][0] * a, pos[1] + dirs[first][1] * a)
                    path += [(corner[0] + dirs[second][0] * k, corner[1] + dirs[second][1] * k)
                             for k in range(1, b + 1)]
                    if not all(0 <= x < w and 0 <= y < h for x, y in path + [corner]):
                        continue
                    work = owner.copy()
                    gain = 0
                    for x, y in path:
                        if work[y, x] == -1:
                            work[y, x] = player
                            gain += 1
                    end = path[-1]
                    gain += int(np.count_nonzero(scipy_enclose(work, player, *end) != work))
                    out[first, turn, a, b] = (gain / (a + b + 1 + constant), gain, end)
    return out


def all_l_scores(owner, player, pos, max_len, constant):
    """{(first, turn, a, b): score} for every L-shaped walk that stays on the grid."""
    return {k: v[0] for k, v in all_l_walks(owner, player, pos, max_len, constant).items()}


def best_l_walk(owner, player, pos, max_len, constant):
    """``(score, first, turn, a, b, gain, end)`` of the best walk, a tie going to the
    first in the kernel's order; None when no walk stays on the grid."""
    walks = all_l_walks(owner, player, pos, max_len, constant)
    if not walks:
        return None
    key = max(walks, key=lambda k: walks[k][0])      # max keeps the first of equal scores
    score, gain, end = walks[key]
    return (score, *key, gain, end)
