"""Plain-Python twins of the numba kernels.

Each function here computes what a kernel computes, written the way one would
in ordinary Python: lists, ``collections.deque``, ``heapq``, sets.  They are
the baseline in the benchmarks (how much do the kernels buy?) and a second
opinion in the tests.  Same inputs as the kernels minus the scratch arrays:
a flat padded grid (nonzero = blocked, a blocked border), flat indices and the
``stride``; no numba anywhere.
"""

from __future__ import annotations

import heapq
from collections import deque


def _grid(flat):
    return flat.tolist() if hasattr(flat, "tolist") else list(flat)


def _steps(stride):
    return (-stride, 1, stride, -1)


# ---- A4 / H6 / A7 -----------------------------------------------------------
def bfs_distances(flat, start, stride):
    """Moves from ``start`` to every square, ``-1`` where unreachable."""
    grid = _grid(flat)
    steps = _steps(stride)
    dist = [-1] * len(grid)
    dist[start] = 0
    todo = deque([start])
    while todo:
        sq = todo.popleft()
        for step in steps:
            nb = sq + step
            if not grid[nb] and dist[nb] == -1:
                dist[nb] = dist[sq] + 1
                todo.append(nb)
    return dist


def dijkstra_distances(flat, start, stride, cost):
    """Cheapest cost from ``start`` (entering square s costs ``cost[s]``), heapq."""
    grid = _grid(flat)
    cost = _grid(cost)
    steps = _steps(stride)
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        d, sq = heapq.heappop(heap)
        if d > best[sq]:
            continue
        for step in steps:
            nb = sq + step
            if grid[nb]:
                continue
            nd = d + cost[nb]
            if nd < best.get(nb, nd + 1):
                best[nb] = nd
                heapq.heappush(heap, (nd, nb))
    return [best.get(i, -1) for i in range(len(grid))]


def territory(flat, head0, head1, stride):
    """``(n0, n1, e0, e1)`` of the two-player Voronoi split; one BFS from both heads."""
    grid = _grid(flat)
    steps = _steps(stride)
    dist = {head0: 0, head1: 0}
    owner = {head0: 0, head1: 1}
    todo = deque([head0, head1])
    counts = [0, 0]
    edges = [0, 0]
    while todo:
        sq = todo.popleft()
        d, who = dist[sq] + 1, owner[sq]
        open_sides = 0
        for step in steps:
            nb = sq + step
            if grid[nb]:
                continue
            open_sides += 1
            if nb not in dist:
                dist[nb] = d
                owner[nb] = who
                todo.append(nb)
            elif dist[nb] == d and owner[nb] != who:
                owner[nb] = 2
        if dist[sq] > 0 and who < 2:
            counts[who] += 1
            edges[who] += open_sides
    return counts[0], counts[1], edges[0], edges[1]


def owner_map(flat, head0, head1, stride):
    """Owner of each square: 0/1 nearer that player (heads too), 2 tie, 255 none."""
    d0 = bfs_distances(flat, head0, stride)
    d1 = bfs_distances(flat, head1, stride)
    out = []
    for a, b in zip(d0, d1):
        if a < 0 and b < 0:
            out.append(255)
        elif b < 0 or 0 <= a < b:
            out.append(0)
        elif a < 0 or 0 <= b < a:
            out.append(1)
        else:
            out.append(2)
    out[head0], out[head1] = 0, 1
    return out


def territory_from_distances(flat, dist0, dist1, stride):
    """H6: counts from two distance maps, by the sign of ``d1 - d0``."""
    grid = _grid(flat)
    inf = float("inf")
    counts, edges = [0, 0], [0, 0]
    for sq, blocked in enumerate(grid):
        if blocked:
            continue
        a = dist0[sq] if dist0[sq] >= 0 else inf
        b = dist1[sq] if dist1[sq] >= 0 else inf
        if a == b:
            continue
        who = 0 if a < b else 1
        counts[who] += 1
        edges[who] += sum(1 for step in _steps(stride) if not grid[sq + step])
    return counts[0], counts[1], edges[0], edges[1]


# ---- K1 ---------------------------------------------------------------------
def turn_order_territory(flat, heads, alive, first, stride):
    """Counts and owners of the turn-order expansion (see :mod:`tronlab.grid.multivoronoi`)."""
    grid = _grid(flat)
    steps = _steps(stride)
    n = len(heads)
    owner = [255] * len(grid)
    fronts = {}
    order = [(first + i) % n for i in range(n)]
    for p in order:
        if alive[p]:
            owner[heads[p]] = p
            fronts[p] = [heads[p]]
    counts = [0] * n
    while any(fronts.values()):
        for p in order:
            if p not in fronts:
                continue
            grown = []
            for sq in fronts[p]:
                for step in steps:
                    nb = sq + step
                    if not grid[nb] and owner[nb] == 255:
                        owner[nb] = p
                        grown.append(nb)
            counts[p] += len(grown)
            fronts[p] = grown
    return counts, owner


# ---- A3 ---------------------------------------------------------------------
def flood_fill(flat, start, stride):
    """Free squares reachable from ``start``'s neighbours, ``start`` not counted."""
    grid = _grid(flat)
    steps = _steps(stride)
    seen = {start}
    stack = [start]
    while stack:
        sq = stack.pop()
        for step in steps:
            nb = sq + step
            if not grid[nb] and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) - 1


def components(flat, stride):
    """Labels (0 blocked, 1.. per component, numbered in raster order of their
    first square) and the list of sizes (index 0 unused)."""
    grid = _grid(flat)
    steps = _steps(stride)
    labels = [0] * len(grid)
    sizes = [0]
    for sq, blocked in enumerate(grid):
        if blocked or labels[sq]:
            continue
        label = len(sizes)
        labels[sq] = label
        todo = deque([sq])
        size = 0
        while todo:
            cur = todo.popleft()
            size += 1
            for step in steps:
                nb = cur + step
                if not grid[nb] and not labels[nb]:
                    labels[nb] = label
                    todo.append(nb)
        sizes.append(size)
    return labels, sizes


def fill_square(flat, stride, square):
    """Twin of the incremental update: the components after ``square`` fills
    (recomputed from scratch, which is what the update must agree with)."""
    grid = _grid(flat)
    grid[square] = 1
    return components(grid, stride)


# ---- A2 ---------------------------------------------------------------------
def potential_articulation(ring):
    """A2 for one 8-bit ring code (bit i = i-th square clockwise from north free):
    do the free orthogonal neighbours fall into two or more runs of the ring?"""
    free = [(ring >> i) & 1 for i in range(8)]
    groups = 0
    for i in (0, 2, 4, 6):          # N, E, S, W
        # an orthogonal neighbour starts a new group unless the ring square
        # just before it (counter-clockwise, a corner) and the one before that
        # link it to an earlier orthogonal neighbour
        if free[i] and not (free[i - 1] and free[i - 2]):
            groups += 1
    if groups == 0 and sum(free[0::2]) > 0:   # one run going all the way round
        groups = 1
    return groups >= 2


# ---- A10 --------------------------------------------------------------------
def fill_bound(flat, start, stride):
    """``(bound, n_other, n_same)``: squares reachable from ``start`` of the other
    colour than the start, of the same colour, and the longest-path bound."""
    grid = _grid(flat)
    width = stride
    colour = lambda sq: (sq // width + sq % width) % 2  # noqa: E731
    seen = {start}
    stack = [start]
    while stack:
        sq = stack.pop()
        for step in _steps(stride):
            nb = sq + step
            if not grid[nb] and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    seen.discard(start)
    same = sum(1 for sq in seen if colour(sq) == colour(start))
    other = len(seen) - same
    bound = 2 * min(other, same) + (1 if other > same else 0)
    return bound, other, same


def region_colours(flat, stride):
    """For each component (labels as :func:`components`), ``[even, odd]`` square
    counts, colour = (x + y) % 2; index 0 unused."""
    labels, sizes = components(flat, stride)
    out = [[0, 0] for _ in sizes]
    for sq, label in enumerate(labels):
        if label:
            out[label][(sq // stride + sq % stride) % 2] += 1
    return out


# ---- A11 --------------------------------------------------------------------
def articulation_points(flat, stride):
    """Set of flat indices of cut vertices of the free-square graph (iterative
    Hopcroft-Tarjan with a stack of neighbour iterators)."""
    grid = _grid(flat)
    steps = _steps(stride)
    disc, low = {}, {}
    cuts = set()
    for root, blocked in enumerate(grid):
        if blocked or root in disc:
            continue
        disc[root] = low[root] = len(disc)
        children = 0
        stack = [(root, -1, iter(steps))]
        while stack:
            sq, parent, nbs = stack[-1]
            for step in nbs:
                nb = sq + step
                if grid[nb]:
                    continue
                if nb not in disc:
                    disc[nb] = low[nb] = len(disc)
                    stack.append((nb, sq, iter(steps)))
                    if sq == root:
                        children += 1
                    break
                if nb != parent:
                    low[sq] = min(low[sq], disc[nb])
            else:
                stack.pop()
                if stack:
                    up = stack[-1][0]
                    low[up] = min(low[up], low[sq])
                    if up != root and low[sq] >= disc[up]:
                        cuts.add(up)
        if children > 1:
            cuts.add(root)
    return cuts


# ---- ref.c's search (the speed baseline of benchmarks/search.py) --------------
def refc_search(flat, head0, head1, stride, depth=6):
    """Twin of :func:`tronlab.tron.c_reference.reference_search_kernel`: ``bench/ref.c``'s
    fail-soft alpha-beta negamax, player 0 then player 1 on the changed board
    (sequential plies, no collisions), moves up, right, down, left, -10000 for a
    side with no move, leaves scored ``n(side to move) - n(other)`` by
    :func:`territory`.  Plain recursion over a list.  Returns ``(value, move,
    nodes)`` with nodes counted as ref.c counts them (the root included)."""
    grid = _grid(flat)                  # a fresh list: the search writes to it
    steps = _steps(stride)
    pos = [head0, head1]
    nodes = [1]

    def negamax(side, depth, alpha, beta):
        if depth == 0:
            n_me, n_other, _, _ = territory(grid, pos[side], pos[1 - side], stride)
            return n_me - n_other, -1
        best, best_move = None, -1
        for move, step in enumerate(steps):
            if alpha >= beta:
                break
            target = pos[side] + step
            if grid[target]:
                continue
            grid[target], old, pos[side] = 1, pos[side], target
            nodes[0] += 1
            value = -negamax(1 - side, depth - 1, -beta, -alpha)[0]
            grid[target], pos[side] = 0, old
            if best is None or value > best:
                best, best_move = value, move
            alpha = max(alpha, value)
        return (-10000, -1) if best is None else (best, best_move)

    value, move = negamax(0, depth, -1000000, 1000000)
    return value, move, nodes[0]
