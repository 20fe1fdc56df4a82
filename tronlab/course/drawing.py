"""Boards as text for the checkers' reports: :func:`draw` (the board in ASCII with rulers)
and :func:`draw_grid` (a per-square array drawn over the playing area).  Both are
re-exported by :mod:`tronlab.course.checker` and :mod:`tronlab.course`.
"""

from __future__ import annotations

import numpy as np

from ..runner.reprs import safe_repr
from ..tron.board import FREE, TRAIL, WALL, Board
from .learner import describe_value

__all__ = ["draw", "draw_grid"]


def draw(board: Board) -> str:
    """The board as ASCII with x digits above and y numbers on the left."""
    _need_board("draw", board)
    rows = board.to_ascii().split("\n")
    ruler = "".join(str(x % 10) for x in range(board.width))
    width = len(str(board.height - 1))
    lines = [" " * (width + 1) + ruler]
    lines += [f"{y:>{width}} {row}" for y, row in enumerate(rows)]
    return "\n".join(lines)


def draw_grid(board: Board, values, *, blank=None, cell=2) -> str:
    """A per-square array shaped like ``board.cells`` drawn over the playing area, each value
    in ``cell`` characters.  Blocked squares whose value is ``blank`` show what blocks them:
    ``#`` for a wall, the owner's trail letter ``a``-``d`` for a trail or head (so a head is
    never mistaken for a number); free squares whose value is ``blank`` show ``.``."""
    _need_board("draw_grid", board, ("cells", "width", "height"))
    try:
        values = np.asarray(values)
    except ValueError as err:      # ragged nested lists
        raise ValueError(f"draw_grid: values must be an array shaped like board.cells "
                         f"{board.cells.shape}: {err}") from None
    if values.shape != board.cells.shape:
        given = f"shape {values.shape}" if values.ndim else f"a single value {safe_repr(values)}"
        extra = ("; that is the playing area only: board.cells has a border of walls "
                 "around it, one row/column on each side"
                 if values.shape == (board.height, board.width) else "")
        raise ValueError(f"draw_grid: values must have one entry per square of board.cells, "
                         f"shape {board.cells.shape} (height + 2, width + 2), got {given}{extra}")
    out = []
    for y in range(board.height):
        row = []
        for x in range(board.width):
            v = values[y + 1, x + 1]
            code = int(board.cells[y + 1, x + 1])
            if blank is not None and v == blank:
                text = "." if code == FREE else "#" if code == WALL else "abcd"[(code - TRAIL) % 4]
            else:
                text = str(v.item() if hasattr(v, "item") else v)
            row.append(text.rjust(cell))
        out.append(" ".join(row))
    return "\n".join(out)


def _need_board(function: str, board, needs=("to_ascii", "width", "height")) -> None:
    """A TypeError saying what ``function`` expects unless ``board`` looks like a Board."""
    if not isinstance(board, Board) and not all(hasattr(board, a) for a in needs):
        raise TypeError(f"{function} expects a board (tronlab.tron.board.Board, e.g. "
                        f"Board.from_ascii(...)), got {describe_value(board)}")
