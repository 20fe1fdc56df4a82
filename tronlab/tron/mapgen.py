"""Maps to play on: the built-in maps, fair random maps and the contest start boards (E4).

*Built-in maps* are Google 2010 map files shipped in ``tronlab/maps/``; every
one is point-symmetric (square ``(x, y)`` mirrors ``(W-1-x, H-1-y)``), so
neither player has the better side, and the two heads can reach each other.
:func:`tronlab.tron.maps.load_map` finds them by name.

:func:`random_map` draws a *fair* random map with the same two properties:
walls and heads point-symmetric, heads connected.  Symmetry makes the two
starts equivalent; connectivity keeps the game a fight rather than two
separate solitaire fills.

:func:`codingame_board` and :func:`lightriders_board` set up the empty
boards of CodinGame Tron Battle (30x20, 2-4 players) and Light Riders (16x16,
mirrored starts, heads facing each other).

Randomness: every function that draws takes ``rng``, a
``numpy.random.Generator`` or an int seed; ``None`` means fresh entropy.
"""

from __future__ import annotations

import os
from collections import deque

import numpy as np

from ..runner.reprs import safe_repr
from .board import FREE, MAX_SIDE, TRAIL, WALL, Board
from .maps import load_map
from .values import is_real, is_whole

_MAP_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "maps")


# ---- built-in maps ------------------------------------------------------------------------------

def builtin_maps() -> list[str]:
    """Names of the built-in maps, sorted."""
    if not os.path.isdir(_MAP_DIR):
        return []
    return sorted(f[:-4] for f in os.listdir(_MAP_DIR) if f.endswith(".txt"))


def builtin_path(name) -> str | None:
    """Path of the built-in map ``name`` (with or without ``.txt``), or None."""
    if not isinstance(name, str):
        return None
    base = name[:-4] if name.endswith(".txt") else name
    if base not in builtin_maps():
        return None
    return os.path.join(_MAP_DIR, base + ".txt")


def load_builtin(name: str) -> Board:
    """The built-in map ``name`` as a Board."""
    path = builtin_path(name)
    if path is None:
        raise ValueError(f"no built-in map {name!r}; built-in maps: {', '.join(builtin_maps())}")
    return load_map(path)


# ---- helpers ----------------------------------------------------------------------------------

def as_rng(rng) -> np.random.Generator:
    """A numpy Generator from a Generator, an int seed or None (fresh entropy)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return np.random.default_rng()
    if is_whole(rng):
        if rng < 0:
            raise ValueError(f"rng must be a numpy.random.Generator, an int seed of 0 or more "
                             f"or None, got {rng}")
        return np.random.default_rng(int(rng))
    raise TypeError(f"rng must be a numpy.random.Generator, an int seed or None, "
                    f"got {type(rng).__name__} {safe_repr(rng, 60)}")


def _check_size(name, value, low, high=None):
    if not is_whole(value):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be at most {high} (the contests' largest board), "
                         f"got {value}")
    return int(value)


def heads_connected(board: Board, a: int = 0, b: int = 1) -> bool:
    """True if a path of free squares leads from next to head ``a`` to next to head ``b``."""
    flat, offsets = board.flat, board.offsets
    goal = {int(board.heads[b] + off) for off in offsets}
    seen = {int(board.heads[a])}
    queue = deque(seen)
    while queue:
        sq = queue.popleft()
        for off in offsets:
            nxt = int(sq + off)
            if nxt not in seen and flat[nxt] == FREE:
                if nxt in goal:
                    return True
                seen.add(nxt)
                queue.append(nxt)
    return False


def _board(cells: np.ndarray, squares, facing=None) -> Board:
    """A board on padded ``cells`` with heads at the playing squares ``[(x, y), ...]``."""
    stride = cells.shape[1]
    heads = [(y + 1) * stride + x + 1 for x, y in squares]
    for p, h in enumerate(heads):
        cells.reshape(-1)[h] = TRAIL + p
    return Board(cells, heads, facing=facing)


# ---- random fair maps ----------------------------------------------------------------------

def random_map(width: int, height: int, *, density: float = 0.15, border: bool = True,
               rng=None, tries: int = 200) -> Board:
    """A random 2-player map, fair by point symmetry, with the heads connected.

    ``density`` is the chance that a square (and so its mirror image) is a
    wall; ``border=True`` encloses the map in a wall ring (part of the
    ``width`` x ``height``, as in the Google maps), ``False`` leaves the grid
    edge as the only limit.  Sides are at most :data:`tronlab.tron.board.MAX_SIDE` (1000, the
    contest protocols' limit, which Board keeps to).  Draws a new wall layout until the heads can be
    placed (up to ``tries`` layouts), else raises ValueError.
    """
    width = _check_size("width", width, 3 if border else 1, MAX_SIDE)
    height = _check_size("height", height, 3 if border else 1, MAX_SIDE)
    if not is_real(density):
        raise TypeError(f"density is a fraction in [0, 1), got {type(density).__name__} "
                        f"{density!r}")
    if not 0 <= density < 1:
        raise ValueError(f"density is a fraction in [0, 1), got {density!r}")
    tries = _check_size("tries", tries, 1)
    gen = as_rng(rng)
    inner = (width - 2) * (height - 2) if border else width * height
    if inner < 2:
        raise ValueError(f"a {width}x{height} map{' with a border' if border else ''} "
                         f"has no room for two heads")
    for _ in range(tries):
        cells = _symmetric_walls(width, height, density, border, gen)
        board = _place_heads(cells, gen)
        if board is not None:
            return board
    raise ValueError(f"random_map: no connected point-symmetric starts found on {tries} random "
                     f"{width}x{height} layouts with density {density}; lower the density "
                     f"or enlarge the map")


def _symmetric_walls(width, height, density, border, gen) -> np.ndarray:
    n = width * height
    half = gen.random((n + 1) // 2) < density        # squares 0..(n-1)/2 in row-major order
    # square i mirrors square n-1-i, so the second half is the first one reversed
    area = np.concatenate([half, half[: n // 2][::-1]]).reshape(height, width)
    if border:
        area[0, :] = area[-1, :] = True
        area[:, 0] = area[:, -1] = True
    cells = np.full((height + 2, width + 2), WALL, dtype=np.uint8)
    cells[1:-1, 1:-1] = np.where(area, WALL, FREE)
    return cells


def _place_heads(cells, gen, attempts: int = 8) -> Board | None:
    height, width = cells.shape[0] - 2, cells.shape[1] - 2
    ys, xs = np.nonzero(cells[1:-1, 1:-1] == FREE)
    mirror_free = cells[height - ys, width - xs] == FREE   # mirror (W-1-x, H-1-y), padded +1
    distinct = (xs != width - 1 - xs) | (ys != height - 1 - ys)
    candidates = np.flatnonzero(mirror_free & distinct)
    if len(candidates) == 0:
        return None
    for i in gen.permutation(candidates)[:attempts]:
        x, y = int(xs[i]), int(ys[i])
        board = _board(cells.copy(), [(x, y), (width - 1 - x, height - 1 - y)])
        if heads_connected(board):
            return board
    return None


# ---- contest start boards ------------------------------------------------------------------

def codingame_board(n_players: int = 2, *, rng=None, starts=None, mirrored: bool = False) -> Board:
    """An empty 30x20 CodinGame Tron Battle board with 2-4 players.

    Starts are distinct random squares, or ``starts=[(x, y), ...]``;
    ``mirrored=True`` (2 players) puts player 1 at ``(29-x, 19-y)``.
    """
    width, height = 30, 20
    n_players = _check_size("n_players", n_players, 2)
    if n_players > 4:
        raise ValueError(f"CodinGame Tron is played by 2 to 4 players, got {n_players}")
    if starts is not None and mirrored:
        raise ValueError("give either starts or mirrored=True, not both")
    if starts is not None:
        squares = _check_starts(starts, n_players, width, height)
        if len(set(squares)) != len(squares):
            raise ValueError(f"starts must be distinct squares, got {squares}")
    elif mirrored:
        if n_players != 2:
            raise ValueError(f"mirrored starts are for 2 players, got {n_players}")
        gen = as_rng(rng)
        x, y = int(gen.integers(width)), int(gen.integers(height))
        squares = [(x, y), (width - 1 - x, height - 1 - y)]
    else:
        gen = as_rng(rng)
        picks = gen.choice(width * height, size=n_players, replace=False)
        squares = [(int(i % width), int(i // width)) for i in picks]
    cells = np.full((height + 2, width + 2), WALL, dtype=np.uint8)
    cells[1:-1, 1:-1] = FREE
    return _board(cells, squares)


def _check_starts(starts, n_players, width, height) -> list[tuple[int, int]]:
    """``starts`` as ``n_players`` ``(x, y)`` pairs of ints on the grid, or an error naming
    the bad one."""
    try:
        starts = list(starts)
    except TypeError:
        raise TypeError(f"starts must be a list of (x, y) squares, got "
                        f"{safe_repr(starts, 60)}") from None
    if len(starts) != n_players:
        raise ValueError(f"{len(starts)} starts for {n_players} players: {safe_repr(starts, 80)}")
    squares = []
    for i, start in enumerate(starts):
        try:
            x, y = start
        except (TypeError, ValueError):
            x = y = None
        if not all(is_whole(v) for v in (x, y)):
            raise ValueError(f"starts[{i}] must be an (x, y) pair of ints, got "
                             f"{safe_repr(start, 60)}")
        if not (0 <= x < width and 0 <= y < height):
            raise ValueError(f"start ({x}, {y}) is off the {width}x{height} grid")
        squares.append((int(x), int(y)))
    return squares


def lightriders_board(*, rng=None, x: int | None = None, y: int | None = None) -> Board:
    """An empty 16x16 Light Riders board with mirrored starts on one row.

    Player 0 is at (x, y) facing right, player 1 at (15-x, y) facing left;
    ``x`` (1..6) and ``y`` (1..14) are drawn with ``rng`` when not given.
    """
    gen = None
    if x is None or y is None:
        gen = as_rng(rng)
    x = int(gen.integers(1, 7)) if x is None else _check_size("x", x, 1)
    y = int(gen.integers(1, 15)) if y is None else _check_size("y", y, 1)
    if not (1 <= x <= 6 and 1 <= y <= 14):
        raise ValueError(f"Light Riders starts have x in 1..6 and y in 1..14, got ({x}, {y})")
    cells = np.full((18, 18), WALL, dtype=np.uint8)
    cells[1:-1, 1:-1] = FREE
    return _board(cells, [(x, y), (15 - x, y)], facing=[1, 3])
