"""Olaf69's breadth-first search over the player's own paths (B6).

The search grows a tree of paths from the player's square, breadth first:

* a node's children are the straight steps of ``step`` squares (3, then 2,
  then 1) in each of the four directions whose squares are all *neutral* at
  the time the player would stand on them: not owned, not on the path so
  far, not taken by an opponent by then (``arrival``, from the opponent model
  of :mod:`tronlab.capture.opponent`);
* a node with no neutral neighbour at all leaves its area one square at a
  time into non-neutral neighbours, and no two paths may step on the same
  non-neutral square (``escape``);
* when a square of a step is orthogonally next to a square the player stood
  on two or more rounds before (its trail before the search, ``stand``, or
  the path), the enclosure rule fires: the regions it would close, judged with
  the path's squares as the player's and the opponents' future squares as
  theirs, are counted, and the path ends there (a leaf);
* every path is scored ``(extra + 20) / (steps + 20)``, ``extra`` the squares
  it brings (its neutral squares and the regions it closes), ``steps`` its
  length in rounds.  Plain walks over neutral squares score exactly 1.

The search stops at ``max_nodes`` nodes or when the tree is exhausted; :func:`search_paths`
runs it with steps of 3, then, while the tree was exhausted, 2 and 1 (Olaf69's trick: 3-square
steps reach three times further for as many nodes), and keeps the best path found.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from ..jit.clock import NO_DEADLINE, check_deadline, clock_ns
from ..jit.kernels import KernelTable, kernel
from .checks import check_owner, check_player, check_search, check_square, kernel_array
from .kernel_guards import path_search as _path_search_guard

NEVER = 1 << 30                       # "no cap" for ``needed``
CLOCK_EVERY = 64                      # expansions between two looks at the clock (a power of 2)


@kernel(sig="f8(i1[::1], i8, i8, i8, i8, i8, i8[::1], i8[::1], i8, i8, i8, b1"
            + ", i8[::1]" * 12 + ", i8, f8, i8)", guard=_path_search_guard)
def path_search_kernel(owner, width, height, player, px, py, stand, arrival, step, max_nodes,
                       max_steps, escape, parent, node_x, node_y, node_t, node_gain, mark,
                       mark_t, seen, rstamp, counter, region, result, deadline, constant,
                       needed):
    """One breadth-first search with steps of ``step`` squares (module
    docstring).  Returns the best score; ``result`` gets ``nodes, parent,
    x, y, steps, extra, exhausted, depth`` of the best path (its last square
    and the node it grew from; ``depth`` the steps of the deepest node).
    ``deadline`` (ns on :func:`tronlab.jit.clock.clock_ns`; NO_DEADLINE for
    none) stops the search like a full node budget; the clock is read every
    :data:`CLOCK_EVERY` expansions.  ``constant`` is the 20 of the score
    ``(extra + 20) / (steps + 20)``; ``needed`` caps ``extra`` and doubles
    the score of a path that brings that many (:func:`path_score`)."""
    # Why one long kernel: expanding a node marks its path, then scores its four
    # directions against those marks and the best so far, all in one breadth-first loop.
    parent[0] = -1
    node_x[0] = px
    node_y[0] = py
    node_t[0] = 0
    node_gain[0] = 0
    n = 1
    head = 0
    call = counter[0]
    counter[0] += 1
    best = -1.0
    full = False
    timed = deadline < NO_DEADLINE
    while head < n and not full:
        if timed and (head & (CLOCK_EVERY - 1)) == 0 and clock_ns() >= deadline:
            full = True
            break
        i = head
        head += 1
        t = node_t[i]
        x = node_x[i]
        y = node_y[i]
        stamp = counter[0]
        counter[0] += 1
        j = i
        while j > 0:                     # mark the path of node i with its times
            pj = parent[j]
            k = node_t[j] - node_t[pj]
            ddx = np.sign(node_x[j] - node_x[pj])
            ddy = np.sign(node_y[j] - node_y[pj])
            for m in range(1, k + 1):
                c = (node_y[pj] + m * ddy) * width + node_x[pj] + m * ddx
                mark[c] = stamp
                mark_t[c] = node_t[pj] + m
            j = pj
        c0 = node_y[0] * width + node_x[0]
        mark[c0] = stamp
        mark_t[c0] = 0
        neutral_around = False
        for d in range(4):
            dx = 1 if d == 0 else (-1 if d == 2 else 0)
            dy = 1 if d == 1 else (-1 if d == 3 else 0)
            sx = x + dx
            sy = y + dy
            if 0 <= sx < width and 0 <= sy < height:
                c = sy * width + sx
                if owner[c] == -1 and mark[c] != stamp and arrival[c] > t + 1:
                    neutral_around = True
        for d in range(4):
            if full or t + 1 > max_steps:
                break
            dx = 1 if d == 0 else (-1 if d == 2 else 0)
            dy = 1 if d == 1 else (-1 if d == 3 else 0)
            sub = counter[0]
            counter[0] += 1
            if neutral_around:
                k = step if t + step <= max_steps else 0
            else:
                k = 1 if escape else 0
            for m in range(1, k + 1):
                sx = x + m * dx
                sy = y + m * dy
                if sx < 0 or sy < 0 or sx >= width or sy >= height:
                    break
                c = sy * width + sx
                tm = t + m
                if neutral_around:
                    if owner[c] != -1 or mark[c] == stamp or arrival[c] <= tm:
                        break
                else:
                    if seen[c] >= call:
                        break
                    seen[c] = call
                mark[c] = sub
                mark_t[c] = tm
                gain = node_gain[i] + (m if neutral_around else 0)
                fired = False
                for e in range(4):       # the enclosure rule fires next to an old square
                    nx = sx + (1 if e == 0 else (-1 if e == 2 else 0))
                    ny = sy + (1 if e == 1 else (-1 if e == 3 else 0))
                    if 0 <= nx < width and 0 <= ny < height:
                        cn = ny * width + nx
                        if stand[cn] <= tm - 2 or (mark[cn] == stamp and mark_t[cn] <= tm - 2):
                            fired = True
                taken = 0
                if fired:
                    taken = _closed_virtual(owner, width, height, player, sx, sy, tm, arrival,
                                            mark, stamp, sub, rstamp, counter, region)
                if taken > 0:
                    best = _keep_best(result, best, i, sx, sy, tm, gain + taken, constant,
                                      needed)
                    break                # a path ends when it closes an area
                if m == k:
                    if n >= max_nodes:
                        full = True
                        break
                    parent[n] = i
                    node_x[n] = sx
                    node_y[n] = sy
                    node_t[n] = tm
                    node_gain[n] = gain
                    n += 1
                    best = _keep_best(result, best, i, sx, sy, tm, gain, constant, needed)
    result[0] = n
    result[7] = node_t[n - 1]
    result[6] = 1 if (head >= n and not full) else 0
    return best


@kernel(inline="always")
def path_score(extra, steps, constant, needed):
    """``(extra + constant) / (steps + constant)``; a path that brings the
    ``needed`` squares that make the win sure counts ``needed`` and scores
    double (Recar's enough-to-win cap, borrowed)."""
    if extra >= needed:
        return 2.0 * (needed + constant) / (steps + constant)
    return (extra + constant) / (steps + constant)


@kernel(inline="always")
def _keep_best(result, best, i, x, y, steps, extra, constant, needed):
    """``best``, or the :func:`path_score` of the path from node ``i`` to ``(x, y)``
    when it scores more: then ``result[1:6]`` get ``i, x, y, steps, extra``."""
    score = path_score(extra, steps, constant, needed)
    if score > best:
        result[1] = i
        result[2] = x
        result[3] = y
        result[4] = steps
        result[5] = extra
        return score
    return best


@kernel(inline="always")
def _closed_virtual(owner, width, height, player, x, y, tm, arrival, mark, stamp, sub, rstamp,
                    counter, region):
    """Squares the enclosure rule would give at ``(x, y)`` at time ``tm``,
    with the path (``mark`` = ``stamp`` or ``sub``) as the player's and the
    squares opponents reach by ``tm`` as theirs."""
    base = counter[0]
    taken = 0
    for sy in range(max(y - 1, 0), min(y + 2, height)):
        for sx in range(max(x - 1, 0), min(x + 2, width)):
            seed = sy * width + sx
            if (owner[seed] != -1 or mark[seed] == stamp or mark[seed] == sub
                    or arrival[seed] <= tm or rstamp[seed] >= base):
                continue
            flood = counter[0]
            counter[0] += 1
            rstamp[seed] = flood
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
                        nb = ny * width + nx
                        v = owner[nb]
                        mine = v == player or mark[nb] == stamp or mark[nb] == sub
                        if v == -1 and not mine:
                            if arrival[nb] <= tm:
                                closed = False
                            elif rstamp[nb] < base:
                                rstamp[nb] = flood
                                region[count] = nb
                                count += 1
                            elif rstamp[nb] != flood:
                                closed = False
                        elif not mine:
                            closed = False
            if closed:
                taken += count
    return taken


_kernels = KernelTable(globals())
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir


class PathResult(NamedTuple):
    """The best path: its squares after the start, score, squares it brings,
    nodes searched (all runs), the step sizes run, seconds taken, and the
    deepest node's steps in the first run."""
    score: float
    path: list
    extra: int
    nodes: int
    steps_run: tuple
    seconds: float
    depth: int = 0


def new_scratch(width: int, height: int, max_nodes: int) -> dict:
    cells = width * height
    return {"parent": np.empty(max_nodes, np.int64), "x": np.empty(max_nodes, np.int64),
            "y": np.empty(max_nodes, np.int64), "t": np.empty(max_nodes, np.int64),
            "gain": np.empty(max_nodes, np.int64), "mark": np.zeros(cells, np.int64),
            "mark_t": np.zeros(cells, np.int64), "seen": np.zeros(cells, np.int64),
            "rstamp": np.zeros(cells, np.int64), "counter": np.ones(1, np.int64),
            "region": np.empty(cells, np.int64), "result": np.zeros(8, np.int64)}


def _path_of(s, node, last) -> list:
    out = [tuple(last)]
    while node > 0:
        out.append((int(s["x"][node]), int(s["y"][node])))
        node = int(s["parent"][node])
    out.append((int(s["x"][0]), int(s["y"][0])))
    out.reverse()
    squares = [out[0]]
    for a, b in zip(out, out[1:]):        # fill in the straight steps
        dx, dy = np.sign(b[0] - a[0]), np.sign(b[1] - a[1])
        x, y = a
        while (x, y) != b:
            x, y = x + int(dx), y + int(dy)
            squares.append((x, y))
    return squares[1:]


def _standing(w, h, position, trail):
    """Per square, how many rounds ago the player stood there (as ``-age``; 0 for
    ``position``, ``1 << 30`` for never)."""
    stand = np.full(w * h, 1 << 30, np.int64)
    for age, (x, y) in enumerate(reversed(list(trail)), 1):    # stood there ``age`` rounds ago
        stand[y * w + x] = min(stand[y * w + x], -age)
    stand[position[1] * w + position[0]] = min(stand[position[1] * w + position[0]], 0)
    return stand


def search_paths(owner, player: int, position, *, trail=(), arrival=None, steps=(3, 2, 1),
                 max_nodes: int = 60000, max_steps: int = 60, escape: bool = True,
                 deadline: int = NO_DEADLINE, constant: float = 20.0, needed: int = NEVER,
                 scratch=None, jit: bool = True) -> PathResult:
    """The best path for ``player`` from ``position`` (module docstring).

    ``trail`` lists the squares the player stood on before, oldest first (the last one is
    ``position``'s predecessor); ``arrival`` (``(height, width)`` ints) is the round from which
    an opponent holds each square (default: never).  ``max_nodes`` bounds all runs together, and
    so does ``deadline`` (absolute, :func:`tronlab.jit.clock.deadline_after`; None: none;
    compiled kernels only), whichever comes first.  ``constant`` replaces the write-up's 20 in
    the score (a smaller one prefers shorter loops); ``needed`` is the enough-to-win cap of
    :func:`path_score`.  ``player`` is only checked as 0-3 (the grid has no player count).

    >>> from tronlab.capture.ascii import parse_grid
    >>> g = parse_grid('''
    ...     .......
    ...     .0000..
    ...     .0..0..
    ...     .000A..
    ...     .......
    ... ''')
    >>> trail = [(1, 1), (2, 1), (3, 1), (4, 1), (4, 2), (1, 2), (1, 3), (2, 3), (3, 3)]
    >>> r = search_paths(g.owner, 0, (4, 3), trail=trail, jit=False)
    >>> r.path      # round the east side, back next to (4, 1): closes (5, 1)-(5, 3)
    [(4, 4), (5, 4), (6, 4), (6, 3), (6, 2), (6, 1), (6, 0), (5, 0), (4, 0)]
    >>> r.extra, round(r.score, 3)          # 9 squares walked + 3 closed, over 9 rounds
    (12, 1.103)
    """
    owner, player, position, trail, arr = _checked_inputs(owner, player, position, trail,
                                                          arrival)
    max_nodes, steps, max_steps, constant, escape = check_search(max_nodes, steps, max_steps,
                                                                 constant, escape)
    h, w = owner.shape
    s = scratch if scratch is not None and s_fits(scratch, w, h, max_nodes) else \
        new_scratch(w, h, max_nodes)
    stand = _standing(w, h, position, trail)
    run = _search_kernel(jit, deadline := check_deadline(deadline))
    start = time.perf_counter()
    best, used, nodes, ran, depth = None, 0, 0, [], None
    for k in steps:
        score = run(owner.reshape(-1), np.int64(w), np.int64(h), np.int64(player),
                    np.int64(position[0]), np.int64(position[1]), stand, arr, np.int64(k),
                    np.int64(max_nodes - used), np.int64(max_steps), escape, s["parent"],
                    s["x"], s["y"], s["t"], s["gain"], s["mark"], s["mark_t"], s["seen"],
                    s["rstamp"], s["counter"], s["region"], s["result"], np.int64(deadline),
                    np.float64(constant), np.int64(needed))
        r = s["result"]
        nodes += int(r[0])
        used += int(r[0])
        ran.append(k)
        depth = int(r[7]) if depth is None else depth
        if score > 0 and (best is None or score > best[0]):
            best = (float(score), _path_of(s, int(r[1]), (int(r[2]), int(r[3]))), int(r[5]))
        if not r[6] or used >= max_nodes:      # budget spent, or the deadline passed
            break
    seconds = time.perf_counter() - start
    if best is None:
        return PathResult(-1.0, [], 0, nodes, tuple(ran), seconds, depth or 0)
    return PathResult(best[0], best[1], best[2], nodes, tuple(ran), seconds, depth or 0)


def _checked_inputs(owner, player, position, trail, arrival):
    """search_paths' arguments, checked; ``arrival`` flat int64 (default never, 1 << 30)."""
    owner = check_owner(owner)
    player = check_player(player)
    position = check_square(position, owner.shape)
    trail = _checked_trail(trail, owner.shape)
    if arrival is None:
        return owner, player, position, trail, np.full(owner.size, 1 << 30, np.int64)
    if np.shape(arrival) != owner.shape:
        raise ValueError(f"arrival must be shaped like owner, {owner.shape}, "
                         f"got {np.shape(arrival)}")
    arr = kernel_array(np.asarray(arrival, dtype=np.int64)).reshape(-1)
    return owner, player, position, trail, arr


def _checked_trail(trail, shape) -> list:
    """``trail`` as a list of ``(x, y)`` int pairs on a grid shaped ``shape``, or a
    TypeError / ValueError naming the first square that is not (a quick pass first:
    under 0.1 ms for 350 squares of plain ints)."""
    trail = list(trail)
    h, w = shape
    try:
        if all(type(x) is int and type(y) is int and 0 <= x < w and 0 <= y < h
               for x, y in trail):
            return trail
    except (TypeError, ValueError):     # a square that is no pair: named below
        pass
    for i, square in enumerate(trail):
        check_square(square, shape, f"trail[{i}]")
    return trail


def _search_kernel(jit: bool, deadline: int):
    """The compiled path search, or its plain-Python twin (which has no clock)."""
    if not jit and deadline != NO_DEADLINE:
        raise ValueError("a deadline needs the compiled kernel (jit=True): the plain-Python "
                         "twin cannot read the kernels' clock")
    return _kernels.fast("path_search_kernel") if jit else _kernels.plain("path_search_kernel")


def s_fits(s, w, h, max_nodes) -> bool:
    return s["parent"].size >= max_nodes and s["mark"].size == w * h
