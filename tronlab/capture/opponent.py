"""Olaf69's deterministic opponent model (B7).

Olaf69, third in CodinGame's "Back to the Code" (2015; the write-up "Back to
the Code" with the strategies of Recar and Olaf69), did not search the
opponents' moves: he moved each opponent by three rules, each round,

1. straight on, if the square ahead is neutral;
2. else a quarter turn onto a neutral square, trying first the side opposite
   to its last turn (after a left turn: right, then left; after a right turn:
   left, then right) - ``order="writeup"``; ``order="same"`` tries the side
   of its last turn first, the other order, kept as a variant to measure;
3. else one step (x first, as the game moves) toward the nearest neutral
   square (Manhattan distance, then reading order).

"Neutral" is judged on the board as the model plays it: each opponent takes
the neutral squares it steps on, in id order, so the later ones see them.
Directions are ``(dx, dy)`` with ``y`` growing downwards; turning right from
east faces south.  An opponent that did not move last round has no
heading: rule 1 and 2 are skipped.  ``last_turn`` is +1 (right), -1 (left),
0 (none seen yet: treated as a left turn, so the write-up's order tries
right first).  Every change of direction the model plays counts as a turn,
whichever rule made it (a step of rule 3 that leaves the heading sideways
too; a step back is no turn), just as :func:`last_turn` reads the turns of
a real trail: the write-up's "last move" is the move, not the rule.

:func:`predict` returns each opponent's squares for rounds 1..T and
``arrival``: for every square the first round an opponent stands on it
while it is neutral (a large number when none does), which the path search
reads as "this square is taken from that round on".
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit.kernels import KernelTable, kernel
from . import kernel_guards
from .checks import check_owner, check_square
from ..tron.values import is_whole

NEVER = 1 << 30
ORDERS = {"writeup": 0, "same": 1}


@kernel(sig="i8(i1[::1], i8, i8, i8[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8, i8, i8[::1], "
            "i8[::1], i8[::1], i8)", guard=kernel_guards.opponent_paths)
def opponent_paths_kernel(owner, width, height, xs, ys, hx, hy, turns, order, rounds,
                          out_x, out_y, arrival, never):
    """Move the opponents ``rounds`` rounds (module docstring).  ``owner`` is
    a flat int8 work copy (changed: the squares they take); ``xs, ys`` their
    squares (-1 for none), ``hx, hy`` headings (0, 0 for none), ``turns``
    last turns; ``out_x, out_y`` are ``(n, rounds)`` flat, ``arrival`` flat
    per square (``never`` where no opponent comes)."""
    n = xs.size
    for c in range(width * height):
        arrival[c] = never
    for t in range(1, rounds + 1):
        for q in range(n):
            x = xs[q]
            y = ys[q]
            if x < 0:
                out_x[q * rounds + t - 1] = -1
                out_y[q * rounds + t - 1] = -1
                continue
            dx = hx[q]
            dy = hy[q]
            nx = -1
            ny = -1
            if dx != 0 or dy != 0:
                fx = x + dx
                fy = y + dy
                if 0 <= fx < width and 0 <= fy < height and owner[fy * width + fx] == -1:
                    nx = fx
                    ny = fy
                else:
                    first = 1 if turns[q] <= 0 else -1       # after a left turn: right first
                    if order == 1:
                        first = -first
                    for k in range(2):
                        side = first if k == 0 else -first
                        tx = -dy if side == 1 else dy         # right of (dx, dy): (-dy, dx)
                        ty = dx if side == 1 else -dx
                        sx = x + tx
                        sy = y + ty
                        if 0 <= sx < width and 0 <= sy < height and owner[sy * width + sx] == -1:
                            nx = sx
                            ny = sy
                            break
            if nx < 0:                                        # toward the nearest neutral
                best = never
                gx = x
                gy = y
                for c in range(width * height):
                    if owner[c] == -1:
                        cx = c % width
                        cy = c // width
                        d = abs(cx - x) + abs(cy - y)
                        if 0 < d < best:
                            best = d
                            gx = cx
                            gy = cy
                nx = x
                ny = y
                if gx != x:
                    nx = x + (1 if gx > x else -1)
                elif gy != y:
                    ny = y + (1 if gy > y else -1)
            if nx != x or ny != y:
                cross = dx * (ny - y) - dy * (nx - x)        # a turn by rule 2 or rule 3
                if cross != 0:
                    turns[q] = 1 if cross > 0 else -1
                hx[q] = nx - x
                hy[q] = ny - y
            c = ny * width + nx
            if owner[c] == -1:
                owner[c] = -2                                 # taken by an opponent
                if arrival[c] > t:
                    arrival[c] = t
            xs[q] = nx
            ys[q] = ny
            out_x[q * rounds + t - 1] = nx
            out_y[q * rounds + t - 1] = ny
    return n


_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir


class Prediction(NamedTuple):
    paths: list         # paths[i] = [(x, y) after round 1, 2, ...] of the i-th opponent given
    arrival: np.ndarray  # (height, width) int64: first round an opponent takes the square


def predict(owner, opponents, *, rounds: int = 40, order: str = "writeup",
            jit: bool = True) -> Prediction:
    """The model's moves of ``opponents`` (a list of ``(position, heading,
    last_turn)``; position None for an eliminated player).

    >>> from tronlab.capture.ascii import parse_grid
    >>> g = parse_grid('''
    ...     ....
    ...     .b1.
    ...     ....
    ... ''')
    >>> predict(g.owner, [((1, 1), (1, 0), 0)], rounds=3, jit=False).paths[0]
    [(1, 2), (2, 2), (3, 2)]
    """
    if order not in ORDERS:
        raise ValueError(f"order must be one of {sorted(ORDERS)}, got {order!r}")
    owner = check_owner(owner)
    h, w = owner.shape
    if not is_whole(rounds) or rounds < 0:
        raise ValueError(f"rounds must be a non-negative int, got {rounds!r}")
    opponents = _checked_opponents(opponents, owner.shape)
    n = len(opponents)
    xs = np.array([-1 if p is None else p[0] for p, _, _ in opponents], np.int64).reshape(n)
    ys = np.array([-1 if p is None else p[1] for p, _, _ in opponents], np.int64).reshape(n)
    hx = np.array([0 if d is None else d[0] for _, d, _ in opponents], np.int64).reshape(n)
    hy = np.array([0 if d is None else d[1] for _, d, _ in opponents], np.int64).reshape(n)
    turns = np.array([t for _, _, t in opponents], np.int64).reshape(n)
    out_x = np.empty(n * rounds, np.int64)
    out_y = np.empty(n * rounds, np.int64)
    arrival = np.empty(w * h, np.int64)
    name = "opponent_paths_kernel"
    run = _kernels.fast(name) if jit else _kernels.plain(name)
    run(np.array(owner, np.int8, order="C").reshape(-1), np.int64(w), np.int64(h), xs, ys, hx, hy,
        turns, np.int64(ORDERS[order]), np.int64(rounds), out_x, out_y, arrival, np.int64(NEVER))
    paths = [[] if opponents[q][0] is None else
             [(int(out_x[q * rounds + t]), int(out_y[q * rounds + t])) for t in range(rounds)]
             for q in range(n)]
    return Prediction(paths, arrival.reshape(h, w))


def _checked_opponents(opponents, shape) -> list:
    """``opponents`` as a list of checked ``(position, heading, last_turn)``."""
    out = []
    for i, item in enumerate(opponents):
        try:
            position, heading, turn = item
        except (TypeError, ValueError):
            raise ValueError(f"opponents[{i}] must be (position, heading, last_turn), "
                             f"got {item!r}") from None
        if position is not None:
            position = check_square(position, shape, f"opponents[{i}] position")
        if heading is not None:
            try:
                dx, dy = heading
            except (TypeError, ValueError):
                dx = dy = None
            if not (is_whole(dx) and is_whole(dy) and -1 <= dx <= 1 and -1 <= dy <= 1):
                raise ValueError(f"opponents[{i}] heading must be None or (dx, dy) with "
                                 f"dx, dy in -1..1, got {heading!r}")
        if not is_whole(turn) or not -1 <= turn <= 1:
            raise ValueError(f"opponents[{i}] last_turn must be -1, 0 or 1, got {turn!r}")
        out.append((position, heading, turn))
    return out


def last_turn(trail) -> int:
    """+1 if the last change of direction in ``trail`` (positions, oldest
    first) was a right turn, -1 for a left turn, 0 if it never turned."""
    moves = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(trail, trail[1:])
             if a is not None and b is not None and a != b]
    for (ax, ay), (bx, by) in zip(reversed(moves[:-1]), reversed(moves[1:])):
        cross = ax * by - ay * bx
        if cross:
            return 1 if cross > 0 else -1
    return 0
