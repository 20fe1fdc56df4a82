"""Google AI Challenge 2010 map files (technique E1).

The format: a first line ``W H``, then ``H`` rows of exactly ``W`` characters,
``#`` wall, space empty, ``1`` and ``2`` the two heads.  Off the grid counts
as wall, so a map need not be enclosed.
"""

from __future__ import annotations

import os

from ..runner.reprs import safe_repr
from .ascii import _build
from .board import FREE, MAX_SIDE, TRAIL, WALL, Board, BoardError


def _map_code(ch):
    if ch == "#":
        return WALL, None
    if ch == " ":
        return FREE, None
    if ch in "12":
        return TRAIL + int(ch) - 1, ("head", int(ch) - 1)
    return None, None


def parse_map(text: str, *, name: str = "map") -> Board:
    """Read Google 2010 map text; raises :class:`BoardError` naming the problem."""
    if not isinstance(text, str):
        raise TypeError(f"{name}: map text must be a str, got {type(text).__name__}")
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":      # the newline that ends the last row
        lines.pop()
    if not lines or not lines[0].strip():
        raise BoardError(f"{name}: empty file (expected a first line 'W H')")
    parts = lines[0].split()
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise BoardError(f"{name}: first line must be 'W H' (two whole numbers in digits "
                         f"0-9), got {lines[0][:60]!r}")
    width, height = int(parts[0]), int(parts[1])
    if width < 1 or height < 1:
        raise BoardError(f"{name}: size {width}x{height} is empty")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise BoardError(f"{name}: size {width}x{height} is larger than the "
                         f"{MAX_SIDE}x{MAX_SIDE} boards the contests play")
    rows = lines[1:1 + height]
    if len(rows) < height:
        raise BoardError(f"{name}: header says {height} rows but only {len(rows)} follow")
    for y, row in enumerate(rows):
        if len(row) != width:
            raise BoardError(f"{name}: ragged rows: row {y} has {len(row)} characters, "
                             f"header says width {width}")
    extra = [line for line in lines[1 + height:] if line.strip()]
    if extra:
        raise BoardError(f"{name}: {len(extra)} non-empty line(s) after the {height} rows")
    try:
        board = _build(rows, _map_code, name, heads="1 and 2")
    except BoardError as err:
        if "missing player" in str(err):
            raise BoardError(f"{name}: a Google 2010 map needs both players 1 and 2") from None
        raise
    if board.n_players != 2:
        raise BoardError(f"{name}: a Google 2010 map needs both players 1 and 2")
    if board.free_count() == 0:
        raise BoardError(f"{name}: nothing but walls: no free square to move to")
    return board


def format_map(board: Board) -> str:
    """The board in Google 2010 map format (two players; trails written as '#')."""
    _check_board("format_map", board)
    if board.n_players != 2:
        raise BoardError(f"the Google 2010 format holds 2 players, "
                         f"this board has {board.n_players}")
    rows = []
    for y in range(board.height):
        row = []
        for x in range(board.width):
            c = board.at(x, y)
            row.append(" " if c == FREE else "#")
        rows.append(row)
    for p in range(2):
        x, y = board.head_xy(p)
        rows[y][x] = str(p + 1)
    return f"{board.width} {board.height}\n" + "\n".join("".join(r) for r in rows) + "\n"


def _shown(value) -> str:
    """The type and the first line of the repr of ``value``, for a message."""
    return f"{type(value).__name__} {safe_repr(value, 60).splitlines()[0]}"


def _check_board(function: str, board) -> None:
    if not isinstance(board, Board):
        raise TypeError(f"{function} expects a Board (e.g. Board.from_ascii(...)), got "
                        f"{_shown(board)}")


def _check_path(function: str, path) -> str:
    """``path`` as a str, or a TypeError saying what ``function`` takes."""
    try:
        return os.fspath(path)
    except TypeError:
        raise TypeError(f"{function}: path must be a file name (a str or a pathlib.Path), got "
                        f"{_shown(path)}") from None


def load_map(path) -> Board:
    """Read a Google 2010 map file, or a built-in map by name (see :func:`builtin_maps`)."""
    path = _check_path("load_map", path)
    if not os.path.exists(path):
        from .mapgen import builtin_path
        builtin = builtin_path(path)
        if builtin is None:
            raise BoardError(f"no such map file or built-in map: {path}")
        path = builtin
    try:
        with open(path, encoding="utf-8-sig") as f:     # Windows Notepad's BOM: not the map's
            text = f.read()
    except UnicodeDecodeError:
        raise BoardError(f"{path}: not a text file") from None
    except OSError as err:
        raise BoardError(f"cannot read map {path}: {err.strerror}") from None
    return parse_map(text, name=os.path.basename(path))


def save_map(board: Board, path) -> None:
    """Write ``board`` to the file ``path`` in Google 2010 map format (:func:`format_map`)."""
    _check_board("save_map", board)
    text = format_map(board)
    with open(_check_path("save_map", path), "w", encoding="utf-8") as f:
        f.write(text)
