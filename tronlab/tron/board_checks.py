"""What a :class:`~tronlab.tron.board.Board`'s arrays must be, checked when a board
is made or an array of it is assigned: each function returns the board's own
array (a copy, never the caller's) or raises a :class:`~tronlab.tron.board.BoardError`
naming the problem.  :func:`check_layout` is what the kernels' memory safety
needs of a whole board; :func:`tronlab.tron.board.check_board` re-checks its cheap
part before every public call.
"""

from __future__ import annotations

import numpy as np

from .board import FREE, MAX_PLAYERS, MAX_SIDE, TRAIL, WALL, BoardError
from .values import whole_numbers


def check_sides(shape) -> None:
    """A 2-D ``shape`` of a padded grid, refused with a BoardError when its playing
    area (the shape less the border) is wider or taller than ``MAX_SIDE``."""
    if shape is not None and len(shape) == 2 and max(shape) - 2 > MAX_SIDE:
        h, w = shape
        raise BoardError(f"cells of shape {tuple(shape)} make a {w - 2}x{h - 2} board, larger "
                         f"than the {MAX_SIDE}x{MAX_SIDE} boards this package plays "
                         f"(tronlab.tron.board.MAX_SIDE)")


def as_cells(cells) -> np.ndarray:
    """``cells`` as the board's own C-contiguous ``uint8`` padded grid: checked,
    and copied unless the checks already made a new array (a board never shares
    memory with its caller's array)."""
    check_sides(getattr(cells, "shape", None))      # an array's size, before reading it
    out = whole_numbers(cells, "cells", 0, TRAIL + MAX_PLAYERS - 1, np.uint8,
                        error=BoardError, type_error=BoardError)
    if out.ndim != 2 or out.shape[0] < 3 or out.shape[1] < 3:
        raise BoardError("cells must be a 2-D padded grid of at least 3x3")
    check_sides(out.shape)
    return out if out is not cells and out.base is None else out.copy()


def as_heads(heads) -> np.ndarray:
    """``heads`` as the board's own 1-D ``int64`` array of flat indices.  Any other
    shape is refused: flattening ``[(x0, y0), (x1, y1)]`` read four heads at flat
    indices x0, y0, x1, y1 and then blamed "player 0's head" for it."""
    a = whole_numbers(heads, "heads", -2**62, 2**62, np.int64, error=BoardError,
                      type_error=BoardError)
    if np.ndim(heads) != 1:     # (whole_numbers gives a number as a 1-item array)
        raise BoardError(f"heads must be one flat index per player (a 1-D sequence; "
                         f"board.index(x, y) gives the flat index of (x, y)), got "
                         f"{'a number' if np.ndim(heads) == 0 else f'shape {np.shape(heads)}'}")
    return a.copy()


def player_flags(values, n: int, name: str) -> np.ndarray:
    """``values`` as one bool per player: True/False or 0/1, nothing else (numpy
    would read any non-empty string, "no" included, as True)."""
    a = np.asarray(values)
    if a.dtype.kind not in "biu" or (a.dtype.kind in "iu" and ((a != 0) & (a != 1)).any()):
        raise BoardError(f"{name} holds True/False (or 1/0) per player, got {values!r}")
    return per_player(a, np.bool_, n, name)


def per_player(values, dtype, n: int, name: str) -> np.ndarray:
    """``values`` as a new array of one entry per player, or a clear error."""
    out = np.array(values, dtype=dtype).reshape(-1)
    if out.size != n:
        raise BoardError(f"{name} needs one entry per player ({n}), got {out.size}")
    return out


def check_heads_placed(cells: np.ndarray, heads: np.ndarray, alive: np.ndarray) -> None:
    """Every head inside the padded grid and every living head on its playing area:
    what the kernels need of the heads (the constructor and
    :func:`~tronlab.tron.board.check_board`)."""
    h, w = cells.shape
    for p, (head, live) in enumerate(zip(heads.tolist(), alive.tolist())):
        if not 0 <= head < cells.size:
            raise BoardError(f"head of player {p} is flat index {head}, outside the "
                             f"{w}x{h} padded grid")
        y, x = divmod(head, w)
        if live and not (0 < y < h - 1 and 0 < x < w - 1):
            raise BoardError(f"head of player {p} (flat index {head}) is on the border, "
                             f"not on the playing area")


def check_layout(cells: np.ndarray, heads: np.ndarray, alive: np.ndarray) -> None:
    """What the kernels rely on: a WALL border all round (they look at the
    neighbours of any playing square without bounds checks), known cell codes,
    every living head on the playing area, on a square holding its own trail
    (``TRAIL + p``), and no two living heads on one square.  A dead player's head
    is not checked: it may be a placeholder (0) or a square freed since."""
    border = np.concatenate((cells[0], cells[-1], cells[1:-1, 0], cells[1:-1, -1]))
    if (border != WALL).any():
        raise BoardError("cells must be the padded grid: a one-square WALL (1) border round the "
                         "playing area (Board.from_ascii and the map makers add it)")
    top = int(cells.max())
    if top > TRAIL + MAX_PLAYERS - 1:
        raise BoardError(f"cells hold 0 (free), 1 (wall) or 2-{TRAIL + MAX_PLAYERS - 1} "
                         f"(trails), found {top}")
    check_heads_placed(cells, heads, alive)
    w = cells.shape[1]
    for p, (head, live) in enumerate(zip(heads.tolist(), alive.tolist())):
        if not live:
            continue
        y, x = divmod(head, w)
        code = int(cells[y, x])
        if code != TRAIL + p:
            other = [q for q in range(p) if alive[q] and heads[q] == head]
            if other:
                raise BoardError(f"players {other[0]} and {p} are alive with their heads on "
                                 f"the same square ({x - 1}, {y - 1})")
            held = {FREE: "free (0)", WALL: "a wall (1)"}.get(code, f"player {code - TRAIL}'s "
                                                                   f"trail ({code})")
            raise BoardError(f"head of living player {p} at ({x - 1}, {y - 1}) is on a square "
                             f"that is {held}; it must hold the player's trail ({TRAIL + p})")
