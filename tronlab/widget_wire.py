"""The board widget's wire format: boards and games as small JSON for the browser (X1).

A frame is ``{"cells": <base64 of the height*width playing-area cell codes, row-major>,
"heads": [[x, y], ...], "alive": [bool, ...]}``.  A replay is ``{"width", "height",
"start": <frame>, "steps": [{"d": [i, code, i, code, ...], "heads", "alive"}, ...]}`` where
``d`` lists only the squares that changed (playing-area index ``y * width + x``) since the
previous frame, so a game of a few hundred turns stays a few kilobytes.  Overlays (one value
per square) are checked here too.  The browser side is ``tronlab/static/board.js``.
"""

from __future__ import annotations

import base64

import numpy as np

from .render import grid_of
from .tron.board import WALL, Board

# overlay name -> kind; any other name needs kind=...
OVERLAY_KINDS = {"territory": "owner", "owner": "owner", "distances": "dist", "dist": "dist",
                 "articulation": "mask", "mask": "mask", "chambers": "chambers", "heat": "heat"}
KINDS = ("owner", "dist", "mask", "chambers", "heat")

__all__ = ["encode_board", "decode_board", "encode_frames", "decode_frames", "overlay_payload",
           "OVERLAY_KINDS", "KINDS"]


def encode_board(board: Board) -> dict:
    """One frame for the browser (see the module docstring)."""
    if not isinstance(board, Board):
        raise TypeError(f"expected a tronlab Board, got {type(board).__name__}")
    inner = np.ascontiguousarray(board.cells[1:-1, 1:-1], dtype=np.uint8)
    return {"cells": base64.b64encode(inner.tobytes()).decode("ascii"),
            "heads": [list(board.xy(h)) for h in board.heads],
            "alive": [bool(a) for a in board.alive]}


def _frame_cells(frame: dict, width: int, height: int) -> np.ndarray:
    raw = np.frombuffer(base64.b64decode(frame["cells"]), dtype=np.uint8)
    if raw.size != width * height:
        raise ValueError(f"frame holds {raw.size} squares, expected {width}x{height}")
    return raw.reshape(height, width)


def decode_board(frame: dict, width: int, height: int) -> Board:
    """Inverse of :func:`encode_board` (facing and start squares are not sent)."""
    cells = np.full((height + 2, width + 2), WALL, dtype=np.uint8)
    cells[1:-1, 1:-1] = _frame_cells(frame, width, height)
    heads = [(y + 1) * (width + 2) + x + 1 for x, y in frame["heads"]]
    return Board(cells, heads, frame["alive"])


def encode_frames(boards) -> dict:
    """All frames of a game, delta-encoded (see the module docstring)."""
    boards = list(boards)
    if not boards:
        raise ValueError("no boards to encode: a replay needs at least the start board")
    for i, b in enumerate(boards):
        if not isinstance(b, Board):
            raise TypeError(f"boards[{i}] is a {type(b).__name__}, not a Board")
        if b.cells.shape != boards[0].cells.shape or b.n_players != boards[0].n_players:
            raise ValueError(f"boards[{i}] has a different size or player count than boards[0]")
    b0 = boards[0]
    steps = []
    prev = b0.cells[1:-1, 1:-1].reshape(-1)
    for b in boards[1:]:
        cur = b.cells[1:-1, 1:-1].reshape(-1)
        changed = np.flatnonzero(cur != prev)
        delta = np.empty(2 * changed.size, dtype=np.int64)
        delta[0::2] = changed
        delta[1::2] = cur[changed]
        steps.append({"d": delta.tolist(), "heads": [list(b.xy(h)) for h in b.heads],
                      "alive": [bool(a) for a in b.alive]})
        prev = cur
    return {"width": b0.width, "height": b0.height, "start": encode_board(b0), "steps": steps}


def decode_frames(payload: dict) -> list[Board]:
    """Inverse of :func:`encode_frames`: the list of boards."""
    w, h = int(payload["width"]), int(payload["height"])
    board = decode_board(payload["start"], w, h)
    out = [board]
    flat = board.cells[1:-1, 1:-1].copy().reshape(-1)
    for step in payload["steps"]:
        d = step["d"]
        flat[np.asarray(d[0::2], dtype=np.int64)] = np.asarray(d[1::2], dtype=np.uint8)
        cells = np.full((h + 2, w + 2), WALL, dtype=np.uint8)
        cells[1:-1, 1:-1] = flat.reshape(h, w)
        heads = [(y + 1) * (w + 2) + x + 1 for x, y in step["heads"]]
        out.append(Board(cells, heads, step["alive"]))
    return out


def overlay_payload(board: Board, name: str, array, kind: str) -> dict:
    """Validate one overlay against ``board`` and turn it into JSON-safe numbers."""
    grid = grid_of(board, array, name=f"overlay {name!r}")
    h, w = grid.shape
    if kind == "mask":
        if grid.dtype != np.bool_ and not np.isin(grid, (0, 1)).all():
            raise ValueError(f"overlay {name!r} (a mask) must hold booleans or 0/1")
        data = grid.astype(bool).reshape(-1).astype(int).tolist()
    elif kind in ("owner", "chambers"):
        g = grid.astype(np.float64)
        if not np.issubdtype(grid.dtype, np.integer) and not (
                np.isfinite(g).all() and (g == np.round(g)).all()):
            raise ValueError(f"overlay {name!r} ({kind}) must hold whole numbers")
        if g.size and np.abs(g).max() > 2**53:    # past it int64 (and the page) lose them
            raise ValueError(f"overlay {name!r} ({kind}) holds {g.flat[np.abs(g).argmax()]:g}: "
                             f"ids and player numbers must stay within +-2**53")
        data = grid.astype(np.int64).reshape(-1).tolist()
        if kind == "owner":  # a player index, or -1 for "nobody's"
            data = [v if 0 <= v < board.n_players else -1 for v in data]
    elif kind == "dist":
        g = grid.astype(np.float64)
        bad = ~np.isfinite(g) | (g < 0) | (g > h * w)
        g = np.where(bad, -1.0, np.round(g, 2))
        data = [int(v) if v == int(v) else float(v) for v in g.reshape(-1)]
    else:  # heat
        g = grid.astype(np.float64).reshape(-1)
        data = [float(v) if np.isfinite(v) else None for v in g]
    return {"kind": kind, "data": data}
