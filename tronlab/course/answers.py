"""Reading a learner's answer: turn it into a comparable value or say why it has the wrong kind.

Shared by the exercise modules: counts, moves and per-square arrays, with a sentence for
every way an answer can have the wrong shape (a float count, a list, an array of the
playing area's shape instead of the padded one, a move name instead of a number, a dict
or set where the order of the values says whose they are...).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..runner.reprs import safe_repr
from ..tron.board import Board
from ..tron.values import is_whole
from . import variants
from .checker import Case, WrongType


def reject_text(value, what: str) -> None:
    """:class:`WrongType` if ``value`` is a str or bytes where ``what`` (a phrase such as
    ``"the bound as an int"``) is expected: ``"5"`` is text, not the number 5."""
    if isinstance(value, (str, bytes)):
        raise WrongType(f"return {what}, not the string {safe_repr(value, 40)}")


#: what to say about a list or tuple where one count is wanted
COLLECTED = "if you collected squares, return len(...) of it"
#: what to say about a float where one count is wanted
WHOLE = "counts are whole numbers, so avoid / and use // or len(...)"
MOVES = "0 up, 1 right, 2 down, 3 left"
#: the hint for an IndexError in a function reading a Board (x and y swapped, most often)
CELLS_INDEX = ("an index ran past the end of an array: board.cells is indexed row first, "
               "board.cells[y + 1, x + 1], so board.cells[x, y] runs off any board that is not "
               "square (and a flat index goes into board.flat, not board.cells)")


def reject_unordered(value, what: str) -> None:
    """:class:`WrongType` if ``value`` is a dict or a set where ``what`` (a phrase such as
    ``"a pair (n0, n1) of counts"``) is wanted in order: ``list(d)`` is a dict's keys, and a
    set has no order (and keeps equal values once)."""
    if isinstance(value, dict):
        raise WrongType(f"return {what} as a tuple or list, not a dict: the checker reads the "
                        f"values by position, and a dict gives its keys ({_keys(value)})")
    if isinstance(value, (set, frozenset)):
        raise WrongType(f"return {what} as a tuple or list, not a set: a set has no order, so "
                        f"it cannot say whose each value is (and keeps equal values only once)")


def _keys(value: dict) -> str:
    keys = list(value)
    shown = ", ".join(safe_repr(k, 20) for k in keys[:3])
    return shown + (", ..." if len(keys) > 3 else "")


def as_count(value, what: str = "a count", *, many: str = COLLECTED, whole: str = WHOLE) -> int:
    """A whole number from an int or numpy integer, else :class:`WrongType`.  ``many`` is the
    advice for a list, tuple, set or dict, ``whole`` the advice for a float."""
    reject_text(value, f"{what} as an int")
    if isinstance(value, (bool, np.bool_)):
        raise WrongType(f"return {what} as an int, not True/False")
    if is_whole(value):
        return int(value)
    if isinstance(value, (float, np.floating)):
        raise WrongType(f"return {what} as an int, not a float ({value!r}); {whole}")
    if isinstance(value, np.ndarray) and value.ndim == 0 and np.issubdtype(value.dtype, np.integer):
        return int(value)
    if isinstance(value, np.ndarray):
        raise WrongType(f"return {what} (one int), not a numpy array of shape {value.shape}; "
                        f"np.count_nonzero(...) or int(array.sum()) turns an array into a count")
    if isinstance(value, (list, set, tuple, dict)):
        raise WrongType(f"return {what} (one int), not a {_sized(value)}; {many}")
    raise WrongType(f"return {what} as an int, not a {type(value).__name__}")


def _sized(value) -> str:
    n = len(value)
    return f"{type(value).__name__} of {n} value{'' if n == 1 else 's'}"


def as_grid(value, board: Board, what: str, *, distances: bool = False) -> np.ndarray:
    """An integer array shaped like ``board.cells``, else :class:`WrongType`.  With
    ``distances`` the array holds move counts, -1 where a square is not reached: inf for
    those is named, and integers narrower than 32 bits are refused (they overflow on a
    big board)."""
    reject_text(value, f"{what} as a numpy array shaped like board.cells")
    if isinstance(value, (int, float, np.integer, np.floating)):
        raise WrongType(f"return {what} as an array shaped like board.cells, not a single number")
    if isinstance(value, (dict, set, frozenset, Iterator)):
        kind = "generator" if isinstance(value, Iterator) else type(value).__name__
        raise WrongType(f"return {what} as a numpy array shaped like board.cells, not a {kind}; "
                        f"make one with np.zeros(board.cells.shape, dtype=int) or "
                        f"np.full(board.cells.shape, -1) and fill it in")
    try:
        arr = np.asarray(value)
    except Exception:                                  # noqa: BLE001 - ragged lists and such
        raise WrongType(f"return {what} as a numpy array shaped like board.cells") from None
    if arr.ndim == 0:
        raise WrongType(f"return {what} as a numpy array shaped like board.cells, not a "
                        f"{type(value).__name__}")
    shape = board.cells.shape
    if arr.shape != shape:
        if arr.shape == (board.height, board.width):
            raise WrongType(f"{what} has shape {arr.shape}, the playing area; use the padded "
                            f"shape board.cells.shape = {shape}, so that square (x, y) is at "
                            f"[y + 1, x + 1] and the border is included")
        if arr.shape == shape[::-1]:
            raise WrongType(f"{what} has shape {arr.shape}, rows and columns swapped: "
                            f"board.cells.shape is {shape}, (rows, columns) = (H + 2, W + 2), "
                            f"so square (x, y) is at [y + 1, x + 1], row first")
        if arr.shape == (board.flat.size,):
            raise WrongType(f"{what} is flat (shape {arr.shape}); return it shaped like "
                            f"board.cells: array.reshape(board.cells.shape)")
        raise WrongType(f"{what} must have the shape of board.cells, {shape}; yours has shape "
                        f"{arr.shape}")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        if np.issubdtype(arr.dtype, np.floating) and np.all(np.isfinite(arr)) \
                and np.all(arr == np.round(arr)):
            return arr.astype(np.int64)
        if distances and np.issubdtype(arr.dtype, np.floating) and np.any(np.isinf(arr)):
            raise WrongType(f"{what} holds inf: mark a square the head cannot reach with -1, "
                            f"not inf (np.full(board.cells.shape, -1) starts every square so)")
        raise WrongType(f"{what} must hold whole numbers; yours has dtype {arr.dtype} "
                        f"(make it with np.full(board.cells.shape, -1) or "
                        f"np.zeros(..., dtype=int))")
    if distances and arr.dtype.itemsize < 4:
        top = np.iinfo(arr.dtype).max
        raise WrongType(f"{what} has dtype {arr.dtype}, which holds numbers up to {top} only: "
                        f"on a big board a distance passes that and wraps round without an "
                        f"error. Use int32 or wider (np.full(board.cells.shape, -1) gives int64)")
    return arr.astype(np.int64)


def as_move(value) -> int:
    """A move 0-3 from an int or numpy integer, else :class:`WrongType` with advice that
    fits a move (not a count: the length of a list of moves is not a move)."""
    if isinstance(value, (str, bytes)):
        raise WrongType(f"return the move as a number 0-3 ({MOVES}), not the string "
                        f"{safe_repr(value, 40)}")
    if isinstance(value, (bool, np.bool_)):
        raise WrongType(f"return the move as a number 0-3 ({MOVES}), not True/False")
    if isinstance(value, np.ndarray) and value.ndim == 0 and np.issubdtype(value.dtype, np.integer):
        value = int(value)
    if is_whole(value):
        if not 0 <= value <= 3:
            raise WrongType(f"a move is 0, 1, 2 or 3 (up, right, down, left); you returned "
                            f"{int(value)}")
        return int(value)
    if isinstance(value, (float, np.floating)):
        raise WrongType(f"return the move as an int 0-3 ({MOVES}), not a float ({value!r}): "
                        f"a move is one of four labels, so return the int itself (int(move) "
                        f"if it came out of a float array)")
    if isinstance(value, tuple) and len(value) == 2:
        raise WrongType(f"return one move, an int 0-3 ({MOVES}), not a pair "
                        f"{safe_repr(value, 40)}: a move is a direction, not the (x, y) square "
                        f"it leads to")
    if isinstance(value, (list, tuple, set, dict, np.ndarray)):
        kind = (f"numpy array of shape {value.shape}" if isinstance(value, np.ndarray)
                else _sized(value))
        raise WrongType(f"return one move, an int 0-3 ({MOVES}), not a {kind}: if you "
                        f"collected the good moves, return the best of them")
    if value is None:
        raise WrongType(f"is a `return` missing (None came back)? Return the move as an int "
                        f"0-3 ({MOVES})")
    raise WrongType(f"return the move as an int 0-3 ({MOVES}), not a {type(value).__name__}")


def off_border(grid: np.ndarray, blank) -> tuple[int, int] | None:
    """The first ``[row, column]`` of the padding border (the ring of wall round the playing
    area, which pictures do not draw) where ``grid`` is not ``blank``, or None."""
    ring = np.ones(grid.shape, dtype=bool)
    ring[1:-1, 1:-1] = False
    where = np.argwhere(ring & (grid != blank))
    return None if len(where) == 0 else (int(where[0][0]), int(where[0][1]))


def border_note(grid: np.ndarray, blank) -> str:
    """A line to put under a picture of ``grid`` when its undrawn border is not ``blank``."""
    at = off_border(grid, blank)
    if at is None:
        return ""
    return (f"\n(not drawn: the padding border, where board.cells[{at[0]}, {at[1]}] holds "
            f"{grid[at].item()}, not {blank})")


def square_name(board: Board, index: int) -> str:
    x, y = board.xy(index)
    return f"({x}, {y})"


def first_difference(board: Board, want: np.ndarray, got: np.ndarray):
    """The first square (reading order) where two grids differ, as (x, y), or None."""
    diff = np.argwhere(want != got)
    if len(diff) == 0:
        return None
    y, x = diff[0]
    return int(x) - 1, int(y) - 1


def players_of(board: Board, *, alive_only=True):
    return [p for p in range(board.n_players) if board.alive[p] or not alive_only]


def player_cases(cases, *, every=True):
    """One case per (board, player) for exercises taking a player argument."""
    out = []
    for case in cases:
        for p in (range(case.board.n_players) if every else (0,)):
            out.append(Case(f"{case.label}, player {p}", case.board, (p,)))
    return out


def edge_mistake(board: Board, got, answer, same=None) -> str | None:
    """The hint when ``got`` is the answer on ``board`` with one edge of its playing area left
    out (a loop or bounds check that stops one square short), else None.  ``answer(b)`` is
    the right answer on board ``b``; ``same(a, b)`` compares two answers (default ``==``)."""
    same = same or (lambda a, b: a == b)
    for edge, short in variants.cropped(board):
        if same(answer(short), got):
            last = {"last column": f"x = {board.width - 1}", "first column": "x = 0",
                    "bottom row": f"y = {board.height - 1}", "top row": "y = 0"}[edge]
            return (f"that is the answer with the {edge} ({last}) left out: a loop or bounds "
                    f"check stops one square short of the edge. The playing area is x = 0 .. "
                    f"{board.width - 1}, y = 0 .. {board.height - 1}, at board.cells[y + 1, "
                    f"x + 1]; the ring of wall round it means a step never leaves board.cells, "
                    f"so no bounds check is needed")
    return None


def trail_start_hint(board: Board, player: int) -> str:
    """The hint for a function that started from the first square holding ``2 + player``."""
    x, y = board.xy(variants.first_of_trail(board, player))
    return (f"you started from ({x}, {y}), the first square holding {2 + player}: the whole "
            f"trail of player {player} holds {2 + player}, not only its head. The head is "
            f"board.heads[player], a flat index (board.xy(board.heads[player]) gives its (x, y))")
