"""The board: walls, trails and 2-4 heads on a padded grid (technique E1).

Layout
------
``cells`` is a ``uint8`` array of shape ``(height + 2, width + 2)``: the playing
area plus a one-square wall border, so kernels can look at the four neighbours
of any playing square without bounds checks.  A square holds

* ``FREE`` (0) - empty,
* ``WALL`` (1) - a wall of the map (and the padding border),
* ``TRAIL + p`` (2 + p) - the trail of player ``p``; a head is part of its trail.

Kernels only ask "is it zero?"; the owner of a trail matters to the CodinGame
rules, which remove a dead player's trail.

Squares are addressed by *flat index* into the padded grid,
``index = (y + 1) * stride + (x + 1)`` with ``stride = width + 2``, where
``(x, y)`` are playing-area coordinates with ``(0, 0)`` top-left and ``y``
growing downwards.  Moves are numbered ``0 up, 1 right, 2 down, 3 left``; the
flat offset of move ``m`` is ``offsets[m]`` = ``(-stride, +1, +stride, -1)``.

ASCII boards (for tests and docs), one character a square::

    #        wall                 .  (or space) empty
    1 2 3 4  head of player 0..3  a b c d     trail of player 0..3
    A B C D  head of a dead player 0..3

>>> b = Board.from_ascii('''
...     #####
...     #1.2#
...     #####
... ''')
>>> b.width, b.height, b.n_players, b.legal_moves(0)
(5, 3, 2, [1])
"""

from __future__ import annotations

import textwrap

import numpy as np

FREE = 0
WALL = 1
TRAIL = 2
MAX_PLAYERS = 4

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
MOVE_NAMES = ("up", "right", "down", "left")
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)

_HEAD_CHARS = "1234"
_DEAD_CHARS = "ABCD"
_TRAIL_CHARS = "abcd"


class BoardError(ValueError):
    """A board or map that cannot be read or does not make sense."""


def move_offsets(stride: int) -> np.ndarray:
    """Flat-index offsets of the four moves (up, right, down, left)."""
    return np.array([-stride, 1, stride, -1], dtype=np.int64)


def opposite(move) -> int:
    """The reverse of a move (0-3 or a name, as :func:`parse_move` reads it): up <-> down,
    left <-> right."""
    return (parse_move(move) + 2) % 4


def parse_move(move) -> int:
    """A move given as 0-3 or as a name ('up', 'N', 'right', ...) -> 0-3."""
    if isinstance(move, (int, np.integer)) and not isinstance(move, bool):
        if 0 <= int(move) <= 3:
            return int(move)
        raise ValueError(f"a move is 0-3 (up, right, down, left), got {int(move)}")
    if isinstance(move, str):
        key = move.strip().lower()
        names = {"up": 0, "u": 0, "n": 0, "north": 0, "right": 1, "r": 1, "e": 1, "east": 1,
                 "down": 2, "d": 2, "s": 2, "south": 2, "left": 3, "l": 3, "w": 3, "west": 3}
        if key in names:
            return names[key]
        raise ValueError(f"unknown move name {move!r}; use up, right, down or left")
    raise TypeError(f"a move is an int 0-3 or a name like 'up', got {type(move).__name__}")


def check_board(board) -> "Board":
    """``board`` itself if it is a :class:`Board`, else a clear TypeError."""
    if not isinstance(board, Board):
        raise TypeError(f"expected a tronlab Board, got {type(board).__name__}")
    return board


def check_player(board: "Board", player, what: str = "player") -> int:
    """``player`` as an int if the board has that player, else a clear error."""
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
        raise TypeError(f"{what} must be an int, got {type(player).__name__}")
    if not 0 <= player < board.n_players:
        raise ValueError(f"{what} {player} does not exist: the board has players "
                         f"0..{board.n_players - 1}")
    return int(player)


def start_square(board: "Board", player=0, start=None) -> int:
    """The flat index a search from ``player`` starts at: its head, or ``start``
    (a flat index of a playing square) when given.  Checks both."""
    check_board(board)
    if start is None:
        return int(board.heads[check_player(board, player)])
    if isinstance(start, bool) or not isinstance(start, (int, np.integer)):
        raise TypeError(f"start must be a flat index (int), got {type(start).__name__}")
    y, x = divmod(int(start), board.stride)
    if not (1 <= y <= board.height and 1 <= x <= board.width):
        raise ValueError(f"start {start} is not a flat index inside this board (a playing "
                         f"square, not the wall border: (y + 1) * {board.stride} + (x + 1))")
    return int(start)


def _per_player(values, dtype, n: int, name: str) -> np.ndarray:
    """``values`` as one entry per player, or a clear error."""
    out = np.array(values, dtype=dtype).reshape(-1)
    if out.size != n:
        raise BoardError(f"{name} needs one entry per player ({n}), got {out.size}")
    return out


def _whole_numbers(values, dtype, name: str, low: int, high: int) -> np.ndarray:
    """``values`` as an array of ``dtype`` if they are whole numbers in ``low..high``,
    else a BoardError naming ``name`` (numpy would wrap 258 to 2 in uint8 and cut
    0.9 to 0 without a word)."""
    try:
        raw = np.asarray(values)
    except (TypeError, ValueError) as err:
        raise BoardError(f"{name} must be whole numbers: {err}") from None
    if raw.dtype == dtype:
        return raw
    if raw.dtype.kind not in "biuf":
        raise BoardError(f"{name} must be whole numbers, got an array of {raw.dtype}")
    if raw.size:
        if raw.dtype.kind == "f":
            bad = ~np.isfinite(raw) | (raw != np.floor(raw))
            if bad.any():
                raise BoardError(f"{name} must be whole numbers, found {raw[bad][0].item()!r}")
        top, bottom = raw.max(), raw.min()
        if top > high or bottom < low:
            value = top if top > high else bottom
            raise BoardError(f"{name} hold values {low}-{high}, found {value.item()!r}")
    return raw.astype(dtype)


def _check_layout(cells: np.ndarray, heads: np.ndarray, alive: np.ndarray) -> None:
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
    h, w = cells.shape
    for p, (head, live) in enumerate(zip(heads.tolist(), alive.tolist())):
        if not 0 <= head < cells.size:
            raise BoardError(f"head of player {p} is flat index {head}, outside the "
                             f"{w}x{h} padded grid")
        y, x = divmod(head, w)
        if not live:
            continue
        if not (0 < y < h - 1 and 0 < x < w - 1):
            raise BoardError(f"head of player {p} (flat index {head}) is on the border, "
                             f"not on the playing area")
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


class Board:
    """Walls, trails and heads of a Tron game; see the module docstring.

    Construct with :meth:`from_ascii`, :func:`tronlab.tron.maps.parse_map`,
    :func:`tronlab.tron.maps.load_map` or the game constructors in
    :mod:`tronlab.tron.mapgen`; or directly from arrays.
    """

    __slots__ = ("cells", "heads", "alive", "facing", "starts")

    def __init__(self, cells, heads, alive=None, facing=None, starts=None):
        cells = np.ascontiguousarray(_whole_numbers(cells, np.uint8, "cells", 0,
                                                    TRAIL + MAX_PLAYERS - 1))
        if cells.ndim != 2 or cells.shape[0] < 3 or cells.shape[1] < 3:
            raise BoardError("cells must be a 2-D padded grid of at least 3x3")
        heads = np.array(_whole_numbers(heads, np.int64, "heads", -2**62, 2**62),
                         dtype=np.int64).reshape(-1)
        n = len(heads)
        if not 1 <= n <= MAX_PLAYERS:
            raise BoardError(f"a board has 1 to {MAX_PLAYERS} players, got {n}")
        self.cells = cells
        self.heads = heads
        self.alive = (np.ones(n, dtype=np.bool_) if alive is None
                      else _per_player(alive, np.bool_, n, "alive"))
        self.facing = (np.full(n, -1, dtype=np.int8) if facing is None
                       else _per_player(facing, np.int8, n, "facing"))
        self.starts = heads.copy() if starts is None else _per_player(starts, np.int64, n, "starts")
        _check_layout(cells, heads, self.alive)

    # ---- shape and addressing -------------------------------------------------
    @property
    def width(self) -> int:
        return self.cells.shape[1] - 2

    @property
    def height(self) -> int:
        return self.cells.shape[0] - 2

    @property
    def stride(self) -> int:
        return self.cells.shape[1]

    @property
    def n_players(self) -> int:
        return len(self.heads)

    @property
    def flat(self) -> np.ndarray:
        """The padded grid as a 1-D view (what kernels take)."""
        return self.cells.reshape(-1)

    @property
    def offsets(self) -> np.ndarray:
        return move_offsets(self.stride)

    def index(self, x: int, y: int) -> int:
        """Flat index of playing square (x, y)."""
        return (y + 1) * self.stride + (x + 1)

    def xy(self, index: int) -> tuple[int, int]:
        """Playing-area (x, y) of a flat index."""
        y, x = divmod(int(index), self.stride)
        return x - 1, y - 1

    def head_xy(self, player: int) -> tuple[int, int]:
        return self.xy(self.heads[check_player(self, player)])

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def at(self, x: int, y: int) -> int:
        """Cell code at (x, y); off the grid counts as WALL."""
        for name, v in (("x", x), ("y", y)):
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"{name} must be an int, got {type(v).__name__} {v!r}")
        if not self.inside(x, y):
            return WALL
        return int(self.cells[y + 1, x + 1])

    def is_free(self, x: int, y: int) -> bool:
        return self.at(x, y) == FREE

    def target(self, player: int, move: int) -> int:
        """Flat index the player's head would enter with ``move``."""
        return int(self.heads[check_player(self, player)] + self.offsets[parse_move(move)])

    def legal_moves(self, player: int) -> list[int]:
        """Moves (0-3) that enter a free square; empty for a dead player."""
        if not self.alive[check_player(self, player)]:
            return []
        h = self.heads[player]
        flat = self.flat
        return [m for m, off in enumerate(self.offsets) if flat[h + off] == FREE]

    def free_count(self) -> int:
        return int(np.count_nonzero(self.cells == FREE))

    # ---- copies and comparison -----------------------------------------------
    def copy(self) -> "Board":
        out = Board.__new__(Board)          # already checked: no need to check again
        out.cells, out.heads, out.alive = self.cells.copy(), self.heads.copy(), self.alive.copy()
        out.facing, out.starts = self.facing.copy(), self.starts.copy()
        return out

    def __eq__(self, other) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.cells.shape == other.cells.shape
                and np.array_equal(self.cells, other.cells)
                and np.array_equal(self.heads, other.heads)
                and np.array_equal(self.alive, other.alive))

    __hash__ = None

    def __repr__(self) -> str:
        return (f"Board({self.width}x{self.height}, {self.n_players} players, "
                f"alive={self.alive.tolist()})\n{self.to_ascii()}")

    # ---- text -----------------------------------------------------------------
    @classmethod
    def from_ascii(cls, text: str) -> "Board":
        return parse_ascii(text)

    def to_ascii(self) -> str:
        return format_ascii(self)

    def to_map(self) -> str:
        from .maps import format_map
        return format_map(self)


def parse_ascii(text: str) -> Board:
    """Build a board from an ASCII picture (see the module docstring).

    Leading/trailing blank lines and common indentation are removed; every
    remaining row must have the same length.
    """
    if not isinstance(text, str):
        raise TypeError(f"an ASCII board is a str, got {type(text).__name__}")
    text = text.replace("\r\n", "\n").replace("\r", "\n")    # Windows or old Mac line ends
    lines = textwrap.dedent(text.replace("\t", "    ")).split("\n")
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
                                     f"(at {_xy(found[p][0], stride)} and ({x}, {y}))")
                found[p] = ((y + 1) * stride + x + 1, kind == "head")
    return cells, found


def _build(rows, code_of, what) -> Board:
    """Turn equal-length rows of characters into a Board using ``code_of``."""
    cells, found = grid_cells(rows, code_of, what)
    if not found:
        raise BoardError(f"{what}: no players (heads are written 1, 2, 3, 4)")
    n = max(found) + 1
    missing = [p + 1 for p in range(n) if p not in found]
    if missing:
        raise BoardError(f"{what}: missing player {missing[0]} (players must be numbered 1..{n})")
    if n < 2:
        raise BoardError(f"{what}: only one player; a game needs 2 to {MAX_PLAYERS}")
    heads = [found[p][0] for p in range(n)]
    alive = [found[p][1] for p in range(n)]
    return Board(cells, heads, alive)


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
