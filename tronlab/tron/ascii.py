"""ASCII boards, for tests and docs: one character a square (the notation of
:mod:`tronlab.tron.board`), read by :func:`parse_ascii` and written by
:func:`format_ascii`; :func:`grid_cells` is the shared reader of character rows
that map files use too.

>>> print(format_ascii(parse_ascii("1.\\n.2")))
1.
.2
"""

from __future__ import annotations

import textwrap

import numpy as np

from .board import FREE, MAX_PLAYERS, TRAIL, WALL, Board, BoardError

_HEAD_CHARS = "1234"
_DEAD_CHARS = "ABCD"
_TRAIL_CHARS = "abcd"


def parse_ascii(text: str) -> Board:
    """Build a board from an ASCII picture (the notation of :mod:`tronlab.tron.board`).

    Leading/trailing blank lines and common indentation are removed; every
    remaining row must have the same length.  One head makes a 1-player board, as
    ``Board(cells, [head])`` does (a solo room for the space-filling functions; a game
    needs 2 to 4 players, and :func:`tronlab.runner.engine.play` says so).
    """
    if not isinstance(text, str):
        raise TypeError(f"an ASCII board is a str, got {type(text).__name__}")
    text = text.replace("\r\n", "\n").replace("\r", "\n")    # Windows or old Mac line ends
    # a tab indents (4 spaces) but is no square: one inside a row is refused below
    lines = textwrap.dedent("\n".join(_expand_indent(line) for line in text.split("\n")))
    lines = lines.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise BoardError("empty board: no rows")
    width = max(len(line) for line in lines)
    for i, line in enumerate(lines):
        if len(line.rstrip()) != width and len(line) != width:
            raise BoardError(f"ragged rows: row {i} has {len(line)} characters, expected {width}")
    rows = [line.ljust(width) for line in lines]
    return _build(rows, _ascii_code, "ASCII board")


def _expand_indent(line: str) -> str:
    """``line`` with the tabs of its leading whitespace read as 4 spaces each."""
    body = line.lstrip(" \t")
    return line[:len(line) - len(body)].replace("\t", "    ") + body


def _ascii_code(ch):
    if ch == "#":
        return WALL, None
    if ch in ". ":
        return FREE, None
    if ch in _HEAD_CHARS:
        return TRAIL + _HEAD_CHARS.index(ch), ("head", _HEAD_CHARS.index(ch))
    if ch in _DEAD_CHARS:
        return TRAIL + _DEAD_CHARS.index(ch), ("dead", _DEAD_CHARS.index(ch))
    if ch in _TRAIL_CHARS:
        return TRAIL + _TRAIL_CHARS.index(ch), None
    return None, None


def grid_cells(rows, code_of=None, what="ASCII board"):
    """The padded ``cells`` array of equal-length character rows, and the heads
    found as ``{player: (flat index, alive)}``.  ``code_of(ch)`` gives a cell
    code and a head marker (default: the ASCII characters of this module)."""
    code_of = code_of or _ascii_code
    height, width = len(rows), len(rows[0]) if rows else 0
    if width == 0:
        raise BoardError(f"{what}: rows are empty")
    cells = np.full((height + 2, width + 2), WALL, dtype=np.uint8)
    found: dict[int, tuple[int, bool]] = {}
    stride = width + 2
    for y, row in enumerate(rows):
        if len(row) != width:
            raise BoardError(f"{what}: ragged rows: row {y} has {len(row)} characters, "
                             f"expected {width}")
        for x, ch in enumerate(row):
            code, head = code_of(ch)
            if code is None:
                raise BoardError(f"{what}: unknown character {ch!r} at x={x}, y={y}")
            cells[y + 1, x + 1] = code
            if head is not None:
                kind, p = head
                if p in found:
                    raise BoardError(f"{what}: player {p + 1} appears twice "
                                     f"(at {_xy(found[p][0], stride)} and ({x}, {y})){_index(p)}")
                found[p] = ((y + 1) * stride + x + 1, kind == "head")
    return cells, found


def _build(rows, code_of, what, heads: str = "1, 2, 3, 4") -> Board:
    """Turn equal-length rows of characters into a Board using ``code_of``; ``heads``
    names the head characters the format allows (for the message of a grid with none)."""
    cells, found = grid_cells(rows, code_of, what)
    if not found:
        raise BoardError(f"{what}: no players (heads are written {heads})")
    n = max(found) + 1
    missing = [p for p in range(n) if p not in found]
    if missing:
        raise BoardError(f"{what}: missing player {missing[0] + 1} (players must be numbered "
                         f"1..{n}){_index(missing[0])}")
    check_trail_owners(rows, cells, n, what)
    heads = [found[p][0] for p in range(n)]
    alive = [found[p][1] for p in range(n)]
    return Board(cells, heads, alive)


def check_trail_owners(rows, cells, n: int, what: str) -> None:
    """A BoardError naming the first square (in reading order) whose trail belongs to a
    player the board does not have: ``c`` on a board whose heads are 1 and 2 is no
    player's trail, and the board would silently carry a wall-like square for it."""
    stray = np.argwhere(cells[1:-1, 1:-1] >= TRAIL + n)
    if stray.size == 0:
        return
    y, x = (int(v) for v in stray[0])
    owner = int(cells[y + 1, x + 1]) - TRAIL
    players = ", ".join(str(p + 1) for p in range(n))
    raise BoardError(f"{what}: {rows[y][x]!r} at x={x}, y={y} (row {y}, column {x}) is the "
                     f"trail of player {owner + 1}, but the board has "
                     f"{'only player' if n == 1 else 'players'} {players} (its heads); "
                     f"draw that square '#' for a wall or give player {owner + 1} a head")


def _index(p: int) -> str:
    """What a message naming the head written ``p + 1`` adds: the board's player index,
    which counts from 0 (``board.heads[p]``, ``legal_moves(p)``)."""
    return f"; head {p + 1} is player index {p}"


def _xy(index, stride):
    y, x = divmod(index, stride)
    return (x - 1, y - 1)


def format_ascii(board: Board) -> str:
    """The board as ASCII rows ('.' for empty); inverse of :func:`parse_ascii`."""
    chars = np.full(board.cells.shape, "?", dtype="<U1")
    chars[board.cells == FREE] = "."
    chars[board.cells == WALL] = "#"
    for p in range(MAX_PLAYERS):
        chars[board.cells == TRAIL + p] = _TRAIL_CHARS[p]
    for p, h in enumerate(board.heads):
        y, x = divmod(int(h), board.stride)
        if board.cells[y, x] == TRAIL + p:
            chars[y, x] = _HEAD_CHARS[p] if board.alive[p] else _DEAD_CHARS[p]
    return "\n".join("".join(row[1:-1]) for row in chars[1:-1])
