"""The board: walls, trails and 1-4 heads on a padded grid (technique E1).  A game
needs 2 to 4 players; a 1-player board is a solo room for the space-filling
functions (flood fill, fill length, the endgame solver).

Layout
------
``cells`` is a ``uint8`` array of shape ``(height + 2, width + 2)``: the playing
area plus a one-square wall border, so kernels can look at the four neighbours
of any playing square without bounds checks.  Width and height are at most
:data:`MAX_SIDE` (1000).  A square holds

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

(the digit is the player index plus one; Back to the Code's grids,
:mod:`tronlab.capture.ascii`, are written another way)

>>> b = Board.from_ascii('''
...     #####
...     #1.2#
...     #####
... ''')
>>> b.width, b.height, b.n_players, b.legal_moves(0)
(5, 3, 2, [1])
"""

from __future__ import annotations

import numpy as np

from .values import is_whole, whole_numbers as whole_numbers    # re-exported: tronlab.tron.board's

FREE = 0
WALL = 1
TRAIL = 2
MAX_PLAYERS = 4
#: the largest playing-area side a Board takes (random_map, map files and the protocols
#: keep to it too): the contest protocols refuse larger boards (Google 2010's maps are at
#: most 100 wide), and a board of a million squares is already a long game
MAX_SIDE = 1000

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
MOVE_NAMES = ("up", "right", "down", "left")
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)



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
    if is_whole(move):
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


def check_two_player_board(board, who: str, where: str = "") -> "Board":
    """``board`` if it is a :class:`Board` of two players, else a TypeError (not a Board)
    or a ValueError saying that ``who`` needs one (``where``, e.g. ``" at index 3"``,
    says which of several)."""
    if not isinstance(board, Board):
        raise TypeError(f"{who} needs a 2-player tronlab Board{where}, got "
                        f"{type(board).__name__}")
    if board.n_players != 2:
        raise ValueError(f"{who} needs a 2-player Board{where}, this one has "
                         f"{board.n_players} players")
    return board


def check_board(board) -> "Board":
    """``board`` itself if it is a :class:`Board` the kernels can read safely, else a
    clear TypeError (not a Board) or BoardError.

    Reassigning ``cells``, ``heads`` or ``alive`` runs the constructor's checks
    (they are properties), but arrays can also change in place: bots and the
    engine write trails into ``cells`` and move ``heads`` that way, by design.  So
    every public function starts here with the cheap checks the kernels' memory
    safety needs, a few microseconds: the arrays' dtype, shape and layout, a
    blocked (nonzero) border all round (kernels look at neighbours without bounds
    checks), every head inside the padded grid and every living head on the
    playing area.  Not re-checked (a pass over every square, or rules rather than
    safety): the cell codes, and that a living head's square holds its trail."""
    if not isinstance(board, Board):
        raise TypeError(f"expected a tronlab Board, got {type(board).__name__}")
    cells, heads, alive = board.cells, board.heads, board.alive
    if (cells.dtype != np.uint8 or cells.ndim != 2 or not cells.flags.c_contiguous
            or heads.dtype != np.int64 or heads.ndim != 1 or alive.dtype != np.bool_
            or alive.shape != heads.shape or min(cells.shape) < 3):
        raise BoardError("the board's arrays were changed in place (dtype or shape): cells "
                         "must stay a C-contiguous 2-D uint8 grid, heads int64 and alive bool, "
                         "one per player; make a new Board instead")
    h, w = cells.shape
    border = (np.count_nonzero(cells[0]) + np.count_nonzero(cells[-1])
              + np.count_nonzero(cells[1:-1, 0]) + np.count_nonzero(cells[1:-1, -1]))
    if border != 2 * w + 2 * (h - 2):
        raise BoardError("the board's border has a free square: cells must keep a wall "
                         "(nonzero) border all round, the kernels do not check bounds")
    check_heads_placed(cells, heads, alive)
    return board


def check_player(board: "Board", player, what: str = "player") -> int:
    """``player`` as an int if the board has that player, else a clear error."""
    if not is_whole(player):
        raise TypeError(f"{what} must be an int, got {type(player).__name__}")
    if not 0 <= player < board.n_players:
        raise ValueError(f"{what} {player} does not exist: the board has players "
                         f"0..{board.n_players - 1}")
    return int(player)


def in_play(board: "Board", flat) -> bool:
    """Whether flat index ``flat`` is a square of the playing area, not the wall border
    (nor past the grid)."""
    y, x = divmod(int(flat), board.stride)
    return 1 <= y <= board.height and 1 <= x <= board.width


def check_head(board: "Board", player, what: str = "player") -> int:
    """``player`` as :func:`check_player` gives it, if its head stands on the playing area.
    A dead player's head may be a placeholder on the wall border (a CodinGame or Light
    Riders client gives flat index 0 to a player never seen alive); the kernels would
    search from there past the grid's end, so that is a clear ValueError.  The alive
    flag is not read otherwise: a dead player's head on the board is searched from."""
    player = check_player(board, player, what)
    if not in_play(board, board.heads[player]):
        raise ValueError(f"{what} {player} is dead and its head (flat index "
                         f"{int(board.heads[player])}) is not on the playing area: there is "
                         f"no square to start from")
    return player


def check_xy(x, y) -> tuple[int, int]:
    """``(x, y)`` as ints if both are ints (not bools, not floats such as 1.5 or
    2.0), else a clear TypeError."""
    for name, v in (("x", x), ("y", y)):
        if not is_whole(v):
            raise TypeError(f"{name} must be an int, got {type(v).__name__} {v!r}")
    return int(x), int(y)


def start_square(board: "Board", player=0, start=None) -> int:
    """The flat index a search from ``player`` starts at: its head, or ``start``
    (a flat index of a playing square) when given.  Checks both."""
    check_board(board)
    if start is None:
        return int(board.heads[check_head(board, player)])
    if not is_whole(start):
        raise TypeError(f"start must be a flat index (int), got {type(start).__name__}")
    if not in_play(board, start):
        raise ValueError(f"start {start} is not a flat index inside this board (a playing "
                         f"square, not the wall border: (y + 1) * {board.stride} + (x + 1))")
    return int(start)


class Board:
    """Walls, trails and heads of a Tron game; see the module docstring.

    The board keeps its own copies of the arrays it is given (``Board(cells,
    heads)``, or assigned: ``board.cells = a``): changing ``cells`` afterwards does
    not change the board, and two boards made from one array are independent.
    ``board.cells``, ``board.heads`` and ``board.alive`` *are* the board's arrays:
    writing into them changes the board (bots and the engine do, by design;
    :meth:`copy` for a board of one's own).

    ``cells``, ``heads`` and ``alive`` are checked when assigned, like the
    constructor's arguments; :func:`check_board` re-checks what in-place changes
    could break.  A side over :data:`MAX_SIDE` is refused before the grid is read.

    Construct with :meth:`from_ascii`, :func:`tronlab.tron.maps.parse_map`,
    :func:`tronlab.tron.maps.load_map` or the game constructors in
    :mod:`tronlab.tron.mapgen`; or directly from arrays.
    """

    __slots__ = ("_cells", "_heads", "_alive", "facing", "starts")

    def __init__(self, cells, heads, alive=None, facing=None, starts=None):
        cells = as_cells(cells)
        heads = as_heads(heads)
        n = len(heads)
        if not 1 <= n <= MAX_PLAYERS:
            raise BoardError(f"a board has 1 to {MAX_PLAYERS} players, got {n}")
        alive = np.ones(n, dtype=np.bool_) if alive is None else player_flags(alive, n, "alive")
        self.facing = (np.full(n, -1, dtype=np.int8) if facing is None else per_player(
            whole_numbers(facing, "facing (-1: none, 0-3 a move)", -1, 3, np.int8,
                          error=BoardError, type_error=BoardError), np.int8, n, "facing"))
        self.starts = heads.copy() if starts is None else per_player(whole_numbers(
            starts, "starts (flat indices)", 0, cells.size - 1, np.int64, error=BoardError,
            type_error=BoardError), np.int64, n, "starts")
        check_layout(cells, heads, alive)
        self._cells, self._heads, self._alive = cells, heads, alive

    # ---- the checked arrays: assigning one runs the constructor's checks --------
    @property
    def cells(self) -> np.ndarray:
        """The padded grid, uint8 (see the module docstring)."""
        return self._cells

    @cells.setter
    def cells(self, value) -> None:
        self._replace(as_cells(value), self._heads, self._alive)

    @property
    def heads(self) -> np.ndarray:
        """Flat index of each player's head, int64."""
        return self._heads

    @heads.setter
    def heads(self, value) -> None:
        heads = as_heads(value)
        if len(heads) != len(self._heads):
            raise BoardError(f"heads needs one entry per player ({len(self._heads)}), got "
                             f"{len(heads)}; make a new Board for another number of players")
        self._replace(self._cells, heads, self._alive)

    @property
    def alive(self) -> np.ndarray:
        """Whether each player is alive, bool."""
        return self._alive

    @alive.setter
    def alive(self, value) -> None:
        self._replace(self._cells, self._heads, player_flags(value, len(self._heads), "alive"))

    def _replace(self, cells, heads, alive) -> None:
        try:
            check_layout(cells, heads, alive)
        except BoardError as err:
            raise BoardError(f"{err} (to change cells and heads together, make a new "
                             f"Board(cells, heads, alive))") from None
        self._cells, self._heads, self._alive = cells, heads, alive

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
        """Flat index of square (x, y): a playing square, or the wall border around them
        (x = -1 or width, y = -1 or height); farther out is a ValueError."""
        x, y = check_xy(x, y)
        if not (-1 <= x <= self.width and -1 <= y <= self.height):
            raise ValueError(f"({x}, {y}) is off the {self.width}x{self.height} board and its "
                             f"wall border (x -1..{self.width}, y -1..{self.height})")
        return (y + 1) * self.stride + (x + 1)

    def xy(self, index: int) -> tuple[int, int]:
        """Playing-area (x, y) of a flat index (-1, width or height on the wall border)."""
        if not is_whole(index):
            raise TypeError(f"index must be a flat index (int), got {type(index).__name__}")
        if not 0 <= index < self.cells.size:
            raise ValueError(f"flat index {index} is outside this board's padded grid "
                             f"(0..{self.cells.size - 1})")
        y, x = divmod(int(index), self.stride)
        return x - 1, y - 1

    def head_xy(self, player: int) -> tuple[int, int]:
        return self.xy(self.heads[check_player(self, player)])

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def at(self, x: int, y: int) -> int:
        """Cell code at (x, y); off the grid counts as WALL."""
        check_xy(x, y)
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
        out._cells, out._heads = self._cells.copy(), self._heads.copy()
        out._alive = self._alive.copy()
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


# the checks of a board's arrays and the ASCII notation live in their own modules (which
# import this one's names); these names stay importable from here
from .board_checks import as_cells, as_heads, check_heads_placed, check_layout  # noqa: E402
from .board_checks import per_player, player_flags  # noqa: E402
from .ascii import format_ascii, parse_ascii  # noqa: E402
