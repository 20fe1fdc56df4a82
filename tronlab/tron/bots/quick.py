"""The ``quick`` bot: plain Python, no compiled kernels, an answer in milliseconds.

A contest program must answer its first move within a second or three, but
the compiled search of the strong bots needs numba, and numba needs its cache:
empty, it compiles for tens of seconds.  While that happens a tronlab program
answers with this bot (:class:`tronlab.runner.stdio.StartingBot`), then
switches to the compiled one.  It is a plain-Python twin of two compiled bots:

* while the heads can still meet (two players): the ``voronoi`` bot's move -
  one move of lookahead on Voronoi territory (A4), a square the opponent can
  also enter this turn worth at most a draw, a separated position worth the
  difference of the parity bounds (A10, H3);
* with three or four players: the same lookahead, counting the squares I reach
  first against all the others;
* once I am alone in my region: the greedy space filler's move (A1,
  :mod:`tronlab.tron.spacefill`): the most parity-bounded space after the
  move (the best side when the move cuts the region), then a move that does
  not cut, then the fewest free neighbours, then move order.

The tests check both halves against the compiled bots they copy
(``tests/test_quick.py``).  It only enters free squares; boxed in, it goes
straight on.  Everything runs on Python lists (``board.flat.tolist()``) with
:mod:`tronlab.grid.reference`'s twins; about 2-10 ms a move on a 30x20 board.
"""

from __future__ import annotations

from collections import deque

from ..board import Board
from ...grid.reference import fill_bound, territory
from ...runner.registry import register

SEP_WEIGHT = 1000          # as tronlab.tron.evaluate.SEP_WEIGHT_DEFAULT
DRAW = -1                  # the voronoi bot's value of a possible head-on crash


def _colour(square: int, stride: int) -> int:
    return (square // stride + square % stride) & 1


def _path_bound(other: int, same: int) -> int:
    """Longest path into a region with ``other`` squares of the other colour
    than the start and ``same`` of its own (A10)."""
    return 2 * same + 1 if other > same else 2 * other


def touching(grid, head: int, other: int, stride: int) -> bool:
    """Can ``head`` still reach a free square next to ``other``?"""
    steps = (-stride, 1, stride, -1)
    near = {other + s for s in steps}
    seen = {head}
    todo = deque([head])
    while todo:
        sq = todo.popleft()
        for s in steps:
            nb = sq + s
            if not grid[nb] and nb not in seen:
                if nb in near:
                    return True
                seen.add(nb)
                todo.append(nb)
    return False


def filler_move(grid, head: int, stride: int) -> int:
    """The greedy filler's move from ``head`` (0-3), -1 when boxed in; ``grid``
    a list (nonzero blocked, the head blocked), left as it was."""
    steps = (-stride, 1, stride, -1)
    best_key, best_move = None, -1
    for k, step in enumerate(steps):
        t = head + step
        if grid[t]:
            continue
        col = _colour(t, stride)
        grid[t] = 1
        label = {}                      # square -> side, for the free neighbours' sides
        counts = []                     # side -> [same colour as t, other colour]
        free = 0
        space = 1
        for s in steps:
            u = t + s
            if grid[u]:
                continue
            free += 1
            if u not in label:
                side = len(counts)
                counts.append([0, 0])
                label[u] = side
                todo = [u]
                while todo:
                    sq = todo.pop()
                    counts[side][_colour(sq, stride) != col] += 1
                    for s2 in steps:
                        nb = sq + s2
                        if not grid[nb] and nb not in label:
                            label[nb] = side
                            todo.append(nb)
            same, other = counts[label[u]]
            space = max(space, 1 + _path_bound(other, same))
        grid[t] = 0
        key = (space, len(counts) < 2, -free)
        if best_key is None or key > best_key:
            best_key, best_move = key, k
    return best_move


def _separated_score(grid, me: int, opp: int, stride: int) -> int:
    return SEP_WEIGHT * (fill_bound(grid, me, stride)[0] - fill_bound(grid, opp, stride)[0])


_GAIN = (1, -1, 0)         # a square of mine, of another player, of nobody (a tie)


def _multi_territory(grid, me: int, others, stride: int) -> int:
    """Squares ``me`` reaches strictly first minus squares the others reach first."""
    steps = (-stride, 1, stride, -1)
    owner = {me: 0}
    dist = {me: 0}
    for h in others:
        owner[h] = 1
        dist[h] = 0
    todo = deque([me, *others])
    score = 0
    while todo:
        sq = todo.popleft()
        d, o = dist[sq] + 1, owner[sq]
        for s in steps:
            nb = sq + s
            if grid[nb]:
                continue
            if nb not in dist:
                dist[nb], owner[nb] = d, o
                score += _GAIN[o]
                todo.append(nb)
            elif dist[nb] == d and owner[nb] != o and owner[nb] != 2:
                score -= _GAIN[owner[nb]]                  # a tie: nobody's
                owner[nb] = 2
    return score


def lookahead_move(grid, head: int, others, stride: int) -> int:
    """The voronoi bot's move (two players) or its many-player version."""
    steps = (-stride, 1, stride, -1)
    contested = {h + s for h in others for s in steps}
    best, best_move = None, -1
    for k, step in enumerate(steps):
        t = head + step
        if grid[t]:
            continue
        grid[t] = 1
        if len(others) == 1:
            opp = others[0]
            if touching(grid, t, opp, stride):
                n0, n1, _, _ = territory(grid, t, opp, stride)
                v = n0 - n1
            else:
                v = _separated_score(grid, t, opp, stride)
        else:
            v = _multi_territory(grid, t, others, stride)
        grid[t] = 0
        if t in contested:
            v = min(v, DRAW)
        if best is None or v > best:
            best, best_move = v, k
    return best_move


class QuickBot:
    """Plain-Python stand-in for the compiled bots; see the module docstring."""

    name = "quick"

    def __init__(self):
        self.last_stats: dict = {}

    def __call__(self, board: Board, player: int) -> int:
        legal = board.legal_moves(player)
        if len(legal) <= 1:
            self.last_stats = {"mode": "forced"}
            if legal:
                return legal[0]
            facing = int(board.facing[player])
            return facing if facing >= 0 else 0
        grid = board.flat.tolist()
        stride = board.stride
        head = int(board.heads[player])
        others = [int(h) for p, h in enumerate(board.heads) if p != player and board.alive[p]]
        if any(touching(grid, head, h, stride) for h in others):
            self.last_stats = {"mode": "territory"}
            move = lookahead_move(grid, head, others, stride)
        else:
            self.last_stats = {"mode": "filler"}
            move = filler_move(grid, head, stride)
        return move if move >= 0 else legal[0]


@register("quick", description="plain Python, no compiler: voronoi lookahead, then greedy filler")
def make_quick(*, rng=None, time=None):
    return QuickBot()
