"""Plain-Python answers with deliberate mistakes, to recognise what a learner got wrong.

When a learner's answer is wrong, the checkers recompute the answer the way a common
mistake would (counting the head, stepping diagonally, giving ties to player 0, ...); if
that matches the learner's answer, the hint can name the mistake.  Each function takes
mistake switches as keyword options and with all of them off gives the right answer, so
the right answer and its mistakes share one small piece of code.

Everything here works on ``board.cells`` with plain Python loops: it is slow, obvious,
and independent of the package's numba kernels.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from ..board import FREE, WALL, Board

_STRAIGHT = ((0, -1), (1, 0), (0, 1), (-1, 0))
_DIAGONAL = ((1, -1), (1, 1), (-1, 1), (-1, -1))
UNREACHED = -1


def steps(diagonal: bool = False):
    return _STRAIGHT + _DIAGONAL if diagonal else _STRAIGHT


def passable(board: Board, *, walls_only: bool = False) -> np.ndarray:
    """Boolean array shaped like ``board.cells``: squares a path may enter.  With
    ``walls_only`` the mistake of treating trails as free."""
    return board.cells != WALL if walls_only else board.cells == FREE


def distances(board: Board, player: int, *, diagonal: bool = False, walls_only: bool = False,
              head_distance: int = 0) -> np.ndarray:
    """BFS moves from the player's head, shaped like ``board.cells``, -1 where it cannot
    reach.  ``head_distance=1`` is the off-by-one mistake of starting the count at 1."""
    ok = passable(board, walls_only=walls_only)
    dist = np.full(board.cells.shape, UNREACHED, dtype=np.int64)
    hy, hx = divmod(int(board.heads[player]), board.stride)
    dist[hy, hx] = head_distance
    queue = deque([(hy, hx)])
    h, w = board.cells.shape
    while queue:
        y, x = queue.popleft()
        for dx, dy in steps(diagonal):
            ny, nx = y + dy, x + dx
            if 0 <= ny < h and 0 <= nx < w and ok[ny, nx] and dist[ny, nx] == UNREACHED:
                dist[ny, nx] = dist[y, x] + 1
                queue.append((ny, nx))
    return dist


def manhattan(board: Board, player: int) -> np.ndarray:
    """The mistake of using straight-line (Manhattan) distance on free squares."""
    hy, hx = divmod(int(board.heads[player]), board.stride)
    ys, xs = np.indices(board.cells.shape)
    dist = np.where(board.cells == FREE, np.abs(ys - hy) + np.abs(xs - hx), UNREACHED)
    dist[hy, hx] = 0
    return dist.astype(np.int64)


def flood_size(board: Board, player: int, *, diagonal: bool = False, walls_only: bool = False,
               count_head: bool = False) -> int:
    """Free squares the head can reach (the head itself left out unless ``count_head``)."""
    dist = distances(board, player, diagonal=diagonal, walls_only=walls_only)
    return int(np.count_nonzero(dist > 0)) + (1 if count_head else 0)


def labels(board: Board, *, diagonal: bool = False) -> np.ndarray:
    """Connected components of the free squares, labelled 1, 2, ... in reading order;
    0 on blocked squares."""
    free = board.cells == FREE
    out = np.zeros(board.cells.shape, dtype=np.int64)
    h, w = out.shape
    label = 0
    for sy in range(h):
        for sx in range(w):
            if not free[sy, sx] or out[sy, sx]:
                continue
            label += 1
            out[sy, sx] = label
            stack = [(sy, sx)]
            while stack:
                y, x = stack.pop()
                for dx, dy in steps(diagonal):
                    ny, nx = y + dy, x + dx
                    if 0 <= ny < h and 0 <= nx < w and free[ny, nx] and not out[ny, nx]:
                        out[ny, nx] = label
                        stack.append((ny, nx))
    return out


def territory(board: Board, players=(0, 1), *, ties: str = "neutral", diagonal: bool = False,
              count_heads: bool = False, minus_one_is_near: bool = False,
              metric: str = "bfs") -> tuple[int, int]:
    """Squares strictly nearer each of two players, heads left out.  Mistakes:
    ``ties="first"``/``"both"`` give tie squares to player 0 or to both,
    ``minus_one_is_near`` compares -1 (unreachable) as a small distance,
    ``metric="manhattan"`` ignores walls when measuring."""
    p, q = players
    if metric == "manhattan":
        d0, d1 = manhattan(board, p), manhattan(board, q)
    else:
        d0 = distances(board, p, diagonal=diagonal)
        d1 = distances(board, q, diagonal=diagonal)
    n0 = n1 = 0
    free = board.cells == FREE
    for y, x in zip(*np.nonzero(free)):
        a, b = int(d0[y, x]), int(d1[y, x])
        if not minus_one_is_near:
            a = a if a >= 0 else 1 << 30
            b = b if b >= 0 else 1 << 30
        if a == b == 1 << 30:
            continue
        if a < b:
            n0 += 1
        elif b < a:
            n1 += 1
        elif ties == "first":
            n0 += 1
        elif ties == "both":
            n0 += 1
            n1 += 1
    if count_heads:
        n0, n1 = n0 + 1, n1 + 1
    return n0, n1


def space_after(board: Board, player: int, move: int) -> int:
    """Free squares reachable from where ``move`` takes the head, after it moves there
    (the new head square left out); -1 if the move is not legal."""
    target = int(board.heads[player] + board.offsets[move])
    if board.flat[target] != FREE:
        return -1
    after = board.copy()
    after.flat[target] = after.flat[board.heads[player]]
    after.heads[player] = target
    return flood_size(after, player)


def free_neighbours(board: Board, square: int) -> int:
    return sum(1 for off in board.offsets if board.flat[square + off] == FREE)


def greedy_choices(board: Board, player: int) -> list[int]:
    """Every move the greedy filler may play: first keep the moves that leave the most
    space (so a move that cuts the space in two is taken only when all do, and then
    towards the bigger side), then among those the moves whose target square has the
    fewest free neighbours (hugging walls).  Empty if no move is legal."""
    legal = board.legal_moves(player)
    if not legal:
        return []
    room = {m: space_after(board, player, m) for m in legal}
    most = max(room.values())
    roomy = [m for m in legal if room[m] == most]
    edges = {m: free_neighbours(board, int(board.heads[player] + board.offsets[m])) for m in roomy}
    fewest = min(edges.values())
    return [m for m in roomy if edges[m] == fewest]
