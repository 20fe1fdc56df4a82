"""Value checks of the capture game's kernels called from Python
(``@kernel(guard=...)``; see :mod:`tronlab.grid.guards` for the Tron grid's).

The capture kernels take the grid as a flat ``owner`` row-major array with its
``width`` and ``height`` (no border: they test coordinates themselves), squares
as ``(x, y)`` or a flat index, and scratch arrays one item a square or sized by a
budget.  Each function takes its kernel's arguments and raises ValueError
naming the argument that would make the kernel index outside an array.
"""

from __future__ import annotations

from ..grid import guards


def grid(owner, width, height, squares=None, **arrays) -> int:
    """``owner`` is a ``width`` x ``height`` grid, each ``{name: (x, y)}`` of
    ``squares`` lies on it and each of ``arrays`` holds one item a square; returns
    the number of squares."""
    if width < 1 or height < 1 or width * height != owner.size:
        raise ValueError(f"width {width} x height {height} does not match owner's "
                         f"{owner.size} squares")
    for name, (x, y) in (squares or {}).items():
        if not (0 <= x < width and 0 <= y < height):
            raise ValueError(f"{name} ({x}, {y}) is off the {width}x{height} grid")
    guards.long_enough(owner.size, **arrays)
    return owner.size


def neutral_region(owner, width, height, seed, seen, region):
    grid(owner, width, height, seen=seen, region=region)
    guards.between("seed", seed, 0, owner.size - 1)


def enclose(owner, width, height, player, x, y, write, stamp, next_stamp, region):
    grid(owner, width, height, {"(x, y)": (x, y)}, stamp=stamp, region=region)
    guards.long_enough(1, next_stamp=next_stamp)


def l_scan(owner, width, height, player, px, py, max_len, constant, work, stamp, next_stamp,
           region, best):
    grid(owner, width, height, {"(px, py)": (px, py)}, work=work, stamp=stamp, region=region)
    guards.long_enough(1, next_stamp=next_stamp)
    guards.long_enough(7, best=best)


def opponent_paths(owner, width, height, xs, ys, hx, hy, turns, order, rounds, out_x, out_y,
                   arrival, never):
    grid(owner, width, height, arrival=arrival)
    n = xs.size
    guards.long_enough(n, ys=ys, hx=hx, hy=hy, turns=turns)
    guards.between("rounds", rounds, 0, 1 << 40)
    guards.long_enough(n * rounds, out_x=out_x, out_y=out_y)
    for q in range(n):
        if xs[q] >= 0:
            grid(owner, width, height, {f"opponent {q}'s square (xs, ys)": (xs[q], ys[q])})


def path_search(owner, width, height, player, px, py, stand, arrival, step, max_nodes,
                max_steps, escape, parent, node_x, node_y, node_t, node_gain, mark, mark_t,
                seen, rstamp, counter, region, result, deadline, constant, needed):
    grid(owner, width, height, {"(px, py)": (px, py)}, stand=stand, arrival=arrival, mark=mark,
         mark_t=mark_t, seen=seen, rstamp=rstamp, region=region)
    guards.between("max_nodes", max_nodes, 1, min(
        a.size for a in (parent, node_x, node_y, node_t, node_gain)))
    guards.long_enough(1, counter=counter)
    guards.long_enough(8, result=result)


def rect_scan(owner, width, height, player, px, py, blocked, aimed, opp_x, opp_y, needed, prev,
              params, pre, cx, cy, own, run_a, run_b, scores, best):
    grid(owner, width, height, {"(px, py)": (px, py)}, blocked=blocked, aimed=aimed)
    guards.long_enough(opp_x.size, opp_y=opp_y)
    guards.long_enough(4, prev=prev)
    guards.long_enough(16, params=params)
    guards.long_enough(8, best=best)
    guards.long_enough(4 * (width + 1) * (height + 1), pre=pre)
    guards.long_enough(2 * (width + height), cx=cx, cy=cy, own=own, run_a=run_a, run_b=run_b)
    if not 0 <= params[15] <= 1 << 20:
        raise ValueError(f"params[15] (the largest side) is {params[15]}, not 0..{1 << 20}")
    if scores.size:
        side = int(params[15])
        guards.long_enough(height * width * side * side, scores=scores)
