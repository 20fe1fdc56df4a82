"""A slow, plain-Python chamber tree (A12/A13) to check tronlab.tron.chambers against.

Written from the definition in the ``tronlab.tron.chambers`` docstring, sharing no
code with it: two separate BFS distance maps decide ownership (the kernel uses
one BFS seeded with both heads), networkx finds the cut vertices (the kernel
uses C's Hopcroft-Tarjan), chambers are sets grown with a deque, and values
are computed by a recursive function over the tree.

Input: a flat padded grid (nonzero = blocked), the two heads, the stride.

``literal`` holds the write-up's literal readings as named keywords, written
from a1k0n's description: ``ties`` (only the opponent's squares are walls, so
equidistant squares are both players'), ``front`` (a child is a battlefront
when it touches the front itself), ``no_stay`` (a chamber with children is worth
its best child), ``n_only`` (options compared by the space count alone).
The numeric flag word of the package is translated by :func:`readings`.
"""

from __future__ import annotations

from collections import deque

import sys

import networkx as nx

sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))

INF = float("inf")


def distances(grid, start, stride):
    """Moves from ``start`` to each free square it reaches (a dict)."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        sq = todo.popleft()
        for nb in (sq - stride, sq + 1, sq + stride, sq - 1):
            if grid[nb] == 0 and nb not in dist:
                dist[nb] = dist[sq] + 1
                todo.append(nb)
    return dist


def owned_squares(grid, heads, stride, ties=False):
    """For each of the two players, the free squares strictly nearer its head
    (with ``ties``, also those as near as the other's)."""
    d0 = distances(grid, heads[0], stride)
    d1 = distances(grid, heads[1], stride)
    mine = [set(), set()]
    for sq in set(d0) | set(d1):
        if grid[sq]:
            continue
        a, b = d0.get(sq, INF), d1.get(sq, INF)
        if a < b or (ties and a == b):
            mine[0].add(sq)
        if b < a or (ties and a == b):
            mine[1].add(sq)
    return mine


def degree(grid, sq, stride):
    return sum(grid[nb] == 0 for nb in (sq - stride, sq + 1, sq + stride, sq - 1))


def build_tree(grid, head, owned, stride):
    """The chambers of one player; a list of dicts, chamber 0 is the head."""
    graph = nx.Graph()
    graph.add_nodes_from(owned)
    for sq in owned:
        for nb in (sq + 1, sq + stride):
            if nb in owned:
                graph.add_edge(sq, nb)
    cuts = set(nx.articulation_points(graph))

    def touches_front(sq):
        return any(grid[nb] == 0 and nb not in owned
                   for nb in (sq - stride, sq + 1, sq + stride, sq - 1))

    chambers = [dict(kind="head", entrance=head, parent=-1, squares=[], n=0, e=0,
                     front=False, step=(0, 0))]
    where = {}                       # square -> chamber id

    def new_chamber(kind, entrance, parent, step):
        chambers.append(dict(kind=kind, entrance=entrance, parent=parent, squares=[],
                             n=0, e=0, front=False, step=step))
        return len(chambers) - 1

    def new_gate(sq, parent, step):
        where[sq] = new_chamber("gate", sq, parent, step)
        gate = chambers[where[sq]]
        gate["squares"].append(sq)
        gate["front"] = touches_front(sq)
        return where[sq]

    def grow_room(cid):
        """Breadth-first from the entrance over non-cut owned squares; returns
        the gates found, each claimed at the shortest (then cheapest) distance."""
        room = chambers[cid]
        start = room["entrance"]
        where[start] = cid
        depth = {start: 0}
        cost = {start: degree(grid, start, stride)}
        order = deque([start])
        exits = []
        while order:
            sq = order.popleft()
            room["squares"].append(sq)
            if touches_front(sq):
                room["front"] = True
            for nb in (sq - stride, sq + 1, sq + stride, sq - 1):
                if nb not in owned:
                    continue
                if nb in cuts:
                    offer = (depth[sq] + 1, cost[sq])
                    if nb not in where:
                        exits.append(new_gate(nb, cid, offer))
                    elif where[nb] in exits:
                        gate = chambers[where[nb]]
                        gate["step"] = min(gate["step"], offer)
                elif nb not in where:
                    where[nb] = cid
                    depth[nb] = depth[sq] + 1
                    cost[nb] = cost[sq] + degree(grid, nb, stride)
                    order.append(nb)
                elif where[nb] == cid and depth[nb] == depth[sq] + 1:
                    cost[nb] = min(cost[nb], cost[sq] + degree(grid, nb, stride))
        return exits

    def open_gate(cid):
        """Depth first: each new neighbour is explored to the end before the next."""
        gate = chambers[cid]
        sq = gate["entrance"]
        step = (len(gate["squares"]), sum(degree(grid, x, stride) for x in gate["squares"]))
        around = [nb for nb in (sq - stride, sq + 1, sq + stride, sq - 1) if nb in owned]
        for want_cut in (False, True):
            for nb in around:
                if nb in where or (nb in cuts) != want_cut:
                    continue
                if want_cut:
                    open_gate(new_gate(nb, cid, step))
                else:
                    for exit_gate in grow_room(new_chamber("room", nb, cid, step)):
                        open_gate(exit_gate)

    open_gate(0)
    for ch in chambers:
        ch["n"] = len(ch["squares"])
        ch["e"] = sum(degree(grid, sq, stride) for sq in ch["squares"])
    return chambers, where, cuts


def readings(literal):
    """The package's ``literal`` bits (1 ties, 2 front, 4 no_stay, 8 n_only) as a set of names."""
    return {name for bit, name in ((1, "ties"), (2, "front"), (4, "no_stay"), (8, "n_only"))
            if literal & bit}


def evaluate_tree(chambers, k1, k2, penalize, literal=frozenset()):
    """Fill in value, value_front and choice of every chamber, recursively."""
    if "n_only" in literal:
        k1, k2 = 1, 0
    children = [[] for _ in chambers]
    for cid, ch in enumerate(chambers):
        if ch["parent"] >= 0:
            children[ch["parent"]].append(cid)

    def solve(cid):
        ch = chambers[cid]
        best = (ch["n"], ch["e"], ch["front"], -1)
        take_first = "no_stay" in literal          # the first child replaces staying
        for kid in sorted(children[cid]):
            solve(kid)
            sub = chambers[kid]
            vn, ve = sub["value"]
            sn, se = sub["step"]
            if sub["front"] if "front" in literal else sub["value_front"]:
                n, e = sn + vn, se + ve
                if penalize:
                    n -= ch["n"] - sn
                    e -= ch["e"] - se
            else:
                n, e = ch["n"] + vn, ch["e"] + ve
            if take_first or k1 * n + k2 * e > k1 * best[0] + k2 * best[1]:
                best = (n, e, ch["front"] or sub["value_front"], kid)
            take_first = False
        ch["value"] = (best[0], best[1])
        ch["value_front"] = best[2]
        ch["choice"] = best[3]

    solve(0)
    return chambers


def chamber_tree(flat, heads, player, stride, *, k1=0.055, k2=0.194, penalize=False, literal=0):
    """Chambers of ``player`` (0 or 1 in ``heads``); returns (chambers, where, cuts)."""
    grid = [int(v) for v in flat]
    read = readings(literal)
    owned = owned_squares(grid, heads, stride, ties="ties" in read)[player]
    chambers, where, cuts = build_tree(grid, heads[player], owned, stride)
    evaluate_tree(chambers, k1, k2, penalize, read)
    return chambers, where, cuts


def chamber_counts(flat, heads, stride, *, k1=0.055, k2=0.194, penalize=False, literal=0):
    """(n0, n1, e0, e1), territory's order: the value of each player's chamber tree."""
    values = [chamber_tree(flat, heads, p, stride, k1=k1, k2=k2, penalize=penalize,
                           literal=literal)[0][0]["value"]
              for p in (0, 1)]
    return tuple(int(v[0]) for v in values) + tuple(int(v[1]) for v in values)
