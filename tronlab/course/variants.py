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

from ..tron.board import FREE, TRAIL, WALL, Board

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


def first_of_trail(board: Board, player: int) -> int:
    """The mistake of finding the head by its number: the first flat index, in reading order,
    holding ``2 + player``.  The whole trail holds that number, so this is a square of the
    trail whenever the trail passes above or left of the head."""
    return int(np.flatnonzero(board.flat == TRAIL + player)[0])


def cropped(board: Board) -> list[tuple[str, Board]]:
    """The off-by-one mistake at the edge of the board: for each edge of the playing area
    (``"last column"``, ``"bottom row"``, ``"first column"``, ``"top row"``) a copy of
    ``board`` with the free squares of that edge walled, the board a loop or bounds check
    that stops one square short sees."""
    out = []
    for edge, line in (("last column", (slice(None), -2)), ("bottom row", (-2, slice(None))),
                       ("first column", (slice(None), 1)), ("top row", (1, slice(None)))):
        short = board.copy()
        squares = short.cells[line]
        squares[squares == FREE] = WALL
        out.append((edge, short))
    return out


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


def flat_flood_size(board: Board, player: int, row: int) -> int:
    """Free squares reached from the head walking ``board.flat`` with ``row`` as the
    length of a row (``board.stride`` is right; ``board.width`` forgets the border)."""
    flat, start = board.flat, int(board.heads[player])
    seen, stack = {start}, [start]
    while stack:
        sq = stack.pop()
        for nb in (sq - row, sq + 1, sq + row, sq - 1):
            if 0 <= nb < flat.size and flat[nb] == FREE and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) - 1


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
              both_reach: bool = False, metric: str = "bfs") -> tuple[int, int]:
    """Squares strictly nearer each of two players, heads left out.  Mistakes:
    ``ties="first"``/``"both"`` give tie squares to player 0 or to both,
    ``minus_one_is_near`` compares -1 (unreachable) as a small distance,
    ``both_reach`` skips the squares only one player reaches,
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
        if a == b == 1 << 30 or (both_reach and (1 << 30) in (a, b)):
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


def path_bound(other: int, same: int) -> int:
    """A10: longest path into a region with ``other`` squares of the other colour than the
    start and ``same`` of the start's colour (the start not counted)."""
    return 2 * same + 1 if other > same else 2 * other


#: slips in the bound's formula 2 * same + 1 if other > same else 2 * other, one character
#: each, that greedy_move's hint recognises, the likeliest first
BOUND_SLIPS = [
    lambda o, s: 2 * s + 1 if o >= s else 2 * o, lambda o, s: 2 * s if o > s else 2 * o,
    lambda o, s: 2 * s + 1 if o > s else 2 * o + 1, lambda o, s: 2 * s + 1 if o == s else 2 * o,
    lambda o, s: 2 * s + 1 if o < s else 2 * o, lambda o, s: 2 * s + 1 if o <= s else 2 * o,
    lambda o, s: 2 * s + 1 if s > o else 2 * o, lambda o, s: 2 * s + 1 if o != s else 2 * o,
    lambda o, s: 2 * s - 1 if o > s else 2 * o, lambda o, s: 2 * s + 1 if o > s else 2 * o - 1,
    lambda o, s: 2 * s + 2 if o > s else 2 * o, lambda o, s: 2 * s + 1 if o > s else 2 * s,
    lambda o, s: 3 * s + 1 if o > s else 2 * o, lambda o, s: 2 * s + 1 if o > s else 2 + o,
    lambda o, s: 2 * s + 1 if o > s else 3 * o, lambda o, s: 2 * s + 1 if o > s else o,
    lambda o, s: 2 * o + 1 if o > s else 2 * o, lambda o, s: 2 * s + 1 if o > s else 2 * s + 1,
]


def colour_counts(board: Board, player: int, *, diagonal: bool = False,
                  walls_only: bool = False, everywhere: bool = False,
                  colour_of: str = "head") -> tuple[int, int]:
    """A10: ``(other, same)``, the squares the player's head reaches (itself left out) of the
    other colour than the head's and of the head's colour.  Mistakes: ``diagonal``,
    ``walls_only`` (through trails and heads), ``everywhere`` (every free square of the
    board, reachable or not), ``colour_of="flat"`` (the colour as the parity of the flat
    index), ``"width"`` (rows and columns from divmod by the width, not the stride) or
    ``"even"`` (even squares counted as the head's colour, whatever the head's)."""
    head = int(board.heads[player])
    if everywhere:
        squares = [int(i) for i in np.flatnonzero(board.flat == FREE)]
    else:
        reach = distances(board, player, diagonal=diagonal, walls_only=walls_only).ravel()
        squares = [int(i) for i in np.flatnonzero(reach > 0)]

    def shade(square):
        if colour_of == "width":           # divmod by the width, not the stride
            return sum(divmod(square, board.width)) % 2
        return square % 2 if colour_of == "flat" else colour(board, square)
    start = 0 if colour_of == "even" else shade(head)
    same = sum(1 for square in squares if shade(square) == start)
    return len(squares) - same, same


def sides(board: Board, square: int, *, diagonal: bool = False) -> list[set]:
    """The pieces the free squares next to ``square`` fall into when ``square`` is blocked:
    a list of sets of flat indices, one per piece (more than one: ``square`` is a cut vertex).
    ``diagonal``: the mistake of flooding a piece through corners too."""
    flat = board.flat
    s = board.stride
    flood = [int(o) for o in board.offsets] + ([-s - 1, -s + 1, s - 1, s + 1] if diagonal else [])
    seen = {int(square)}
    pieces = []
    for off in board.offsets:
        start = int(square + off)
        if flat[start] != FREE or start in seen:
            continue
        piece = {start}
        seen.add(start)
        todo = [start]
        while todo:
            sq = todo.pop()
            for step in flood:
                nxt = sq + step
                if flat[nxt] == FREE and nxt not in seen:
                    seen.add(nxt)
                    piece.add(nxt)
                    todo.append(nxt)
        pieces.append(piece)
    return pieces


def side_counts(board: Board, square: int) -> list[tuple[int, int]]:
    """``(other, same)`` for each of :func:`sides` of ``square``: its squares of the other
    colour than ``square`` and of the same."""
    out = []
    for piece in sides(board, square):
        same = sum(1 for sq in piece if colour(board, sq) == colour(board, square))
        out.append((len(piece) - same, same))
    return out


def colour(board: Board, square: int) -> int:
    y, x = divmod(int(square), board.stride)
    return (x + y) % 2


def free_neighbours(board: Board, square: int) -> int:
    return sum(1 for off in board.offsets if board.flat[square + off] == FREE)


def move_key(board: Board, player: int, move: int, *, parity: bool = True,
             head_colour: bool = False, diagonal: bool = False, count_target: bool = False,
             bound=path_bound):
    """How the greedy filler ranks ``move`` (bigger is better), or None if it is not legal:
    ``(space, not cut, -free neighbours)`` of the target square, where ``space`` is one plus
    the longest path the parity bound allows into the best side behind the target.  With
    ``parity=False`` the mistake of measuring a side by its number of squares, with
    ``head_colour`` that of counting its colours relative to the head, not the target,
    ``diagonal`` that of flooding the sides through corners, ``count_target`` that of
    counting the target square in each side, and ``bound`` (a function of ``(other, same)``
    like :func:`path_bound`) the mistake of a slip in the bound's formula."""
    target = int(board.heads[player] + board.offsets[move])
    if board.flat[target] != FREE:
        return None
    pieces = sides(board, target, diagonal=diagonal)
    start = colour(board, int(board.heads[player]) if head_colour else target)
    best = 0
    for piece in pieces:
        same = sum(1 for sq in piece if colour(board, sq) == start) + int(count_target)
        piece = len(piece) + int(count_target)
        best = max(best, bound(piece - same, same) if parity else piece)
    return 1 + best, len(pieces) < 2, -free_neighbours(board, target)


def greedy_choices(board: Board, player: int, **mistakes) -> list[int]:
    """Every move the greedy filler (A1, as :mod:`tronlab.tron.spacefill` ranks moves) may play: the
    moves with the best :func:`move_key` (with the ``mistakes`` it takes).  Empty if no move
    is legal."""
    keys = {m: move_key(board, player, m, **mistakes) for m in board.legal_moves(player)}
    if not keys:
        return []
    top = max(keys.values())
    return [m for m, key in keys.items() if key == top]


def turn_order(board: Board, first: int, *, down: bool = False, one_square: bool = False,
               stop_early: bool = False) -> list[int]:
    """K1: squares each player claims when the living players take turns from ``first``,
    each growing its whole frontier by one step a turn.  Mistakes: ``down`` (the turns go
    first, first - 1, ...), ``one_square`` (a turn grows from one square of a queue, not the
    whole frontier), ``stop_early`` (stop as soon as one player's frontier is empty)."""
    n = board.n_players
    order = [(first - i if down else first + i) % n for i in range(n)]
    order = [p for p in order if board.alive[p]]
    claimed = {int(board.heads[p]) for p in order}
    fronts = {p: deque([int(board.heads[p])]) for p in order}
    counts = [0] * n
    while any(fronts.values()) and not (stop_early and not all(fronts.values())):
        for p in order:
            grow = [fronts[p].popleft()] if one_square and fronts[p] else list(fronts[p])
            if not one_square:
                fronts[p].clear()
            for square in grow:
                for off in board.offsets:
                    nxt = square + int(off)
                    if board.flat[nxt] == FREE and nxt not in claimed:
                        claimed.add(nxt)
                        fronts[p].append(nxt)
                        counts[p] += 1
    return counts
