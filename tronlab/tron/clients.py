"""Client side of the Google 2010 and CodinGame protocols (techniques E3, K3).

What a tronlab bot running as a contest program reads (see :mod:`tronlab.tron.protocol`
for the formats, the server side and the Light Riders client).  A client is fed one
input line at a time; it returns a :class:`~tronlab.tron.protocol.Request` once a
turn is complete.  A line that breaks the protocol raises
:class:`~tronlab.tron.protocol.ProtocolError` naming the problem, and the client
drops the half-read turn and passes over the rest of its lines without a word
(the rows a Google 2010 header announced; CodinGame player lines, up to the next
``N P`` header), so one broken turn is one error and never locks a bot out of
the rest of the game.  When the broken turn's size was known (a good header), the
server still waits for an answer: once its last line is read, the client's
``fallback`` is a guess to answer with (a free square next to the reader's head as
the turn's lines and the remembered trails show it), else None.  :meth:`finish` (at
end of input) says whether the input stopped in the middle of a turn.

>>> client = Google2010Client()
>>> client.feed("0 3")
Traceback (most recent call last):
...
tronlab.tron.protocol.ProtocolError: google2010 header: size 0x3 is empty ('0 3')
>>> [client.feed(line) for line in ["3 1", "1 2"]][-1].board.to_ascii()
'1.2'
"""

from __future__ import annotations

import numpy as np

from .board import FREE, TRAIL, WALL, Board
from .maps import MAX_SIDE      # larger grids are refused (Google 2010 maps <= 100)
from .protocol import (CODINGAME_SIZE, ProtocolError, Request, _empty_cells, _int_fields,
                       _move_between, format_answer, quote)


class Google2010Client:
    """Reads Google 2010 turns (stateless: each turn is the whole grid)."""

    protocol = "google2010"

    def __init__(self):
        self._size = None
        self._rows: list[str] = []
        self._turn = 0
        self._skip = 0      # lines of a broken turn still to pass over; -1: up to a header
        self._broken: list[str] | None = None   # the rows so far of a broken turn
        self._width = 0                             # ... and its width
        self.fallback = None    # a move for a broken turn whose last row was just read

    def feed(self, line: str) -> Request | None:
        line = line.rstrip("\r\n")
        self.fallback = None
        if self._skip > 0:              # the rest of a broken turn: reported already
            self._skip -= 1
            if self._broken is not None:
                self._broken.append(line)
                self._end_broken()
            return None
        if self._size is None:
            if not line.strip():
                return None
            try:
                self._size = self._header(line)   # checked before it is kept
            except ProtocolError:
                if self._skip:          # still lost after a bad header: a row, most likely
                    return None
                self._skip = -1         # skip to the next good header
                raise
            self._skip, self._rows = 0, []
            return None
        try:
            return self._row(line)
        except ProtocolError:
            # drop the turn and pass over its other rows: one error line per broken turn
            if self._size is not None:  # a bad row; else the whole grid was read
                self._skip = self._size[1] - len(self._rows) - 1
                self._width, self._broken = self._size[0], self._rows + [line]
            self._size, self._rows = None, []
            self._end_broken()
            raise

    def _end_broken(self) -> None:
        """Once a broken turn's last row is read, set :attr:`fallback`: the server waits
        for an answer to the turn, and silence loses on time.  The move is a guess from
        the rows as they came (:func:`first_free_move`)."""
        if self._broken is None or self._skip > 0:
            return
        width = self._width
        self.fallback = first_free_move([row[:width].ljust(width) for row in self._broken])
        self._broken = None
        self._turn += 1

    @staticmethod
    def _header(line: str) -> tuple[int, int]:
        width, height = _int_fields(line, 2, "google2010 header 'W H'")
        if width < 1 or height < 1:
            raise ProtocolError(f"google2010 header: size {width}x{height} is empty "
                                f"({quote(line)})")
        if width > MAX_SIDE or height > MAX_SIDE:
            raise ProtocolError(f"google2010 header: size {width}x{height} is larger than "
                                f"{MAX_SIDE}x{MAX_SIDE} ({quote(line)})")
        return width, height

    def _row(self, line: str) -> Request | None:
        width, height = self._size
        if len(line) > width and line[width:].strip(" \t"):   # blanks past it carry nothing
            raise ProtocolError(f"google2010 row {len(self._rows)} is longer than width {width}: "
                                f"{quote(line)}")
        self._rows.append(line[:width].ljust(width))  # stripped trailing spaces: empty squares
        if len(self._rows) < height:
            return None
        rows, self._size, self._rows = self._rows, None, []
        self._width, self._broken = width, rows     # a guess answers a refused grid
        board = self.decode(rows)
        self._broken = None
        self._turn += 1
        return Request(board, 0, self._turn - 1, None)

    def finish(self) -> str | None:
        """At end of input: a sentence if it stopped in the middle of a board, else None."""
        if self._size is None:
            return None
        width, height = self._size
        return (f"google2010: input ended in the middle of a {width}x{height} board "
                f"({len(self._rows)} of {height} rows read)")

    @staticmethod
    def decode(rows) -> Board:
        """A Board from the grid rows; the reader (``1``) is player 0."""
        height, width = len(rows), len(rows[0])
        cells = _empty_cells(width, height)
        heads = [None, None]
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch == "#":
                    cells[y + 1, x + 1] = WALL
                elif ch in "12":
                    p = int(ch) - 1
                    if heads[p] is not None:
                        raise ProtocolError(f"google2010 grid: player {ch} appears twice")
                    heads[p] = (y + 1) * (width + 2) + x + 1
                    cells[y + 1, x + 1] = TRAIL + p
                elif ch != " ":
                    raise ProtocolError(f"google2010 grid: unknown character {ch!r} "
                                        f"at x={x}, y={y}")
        if None in heads:
            raise ProtocolError(f"google2010 grid: no player {heads.index(None) + 1} head")
        return Board(cells, heads)

    def answer(self, move) -> str:
        return format_answer(self.protocol, move)


def first_free_move(rows, head: str = "1", free: str = " ") -> int:
    """A broken turn's answer, read leniently from its grid rows: the first move (0-3,
    north first) from the ``head`` character onto a ``free`` square, else 0 (north).

    >>> first_free_move(["# #", "#1 ", "###"]), first_free_move(["###", "#1?"])
    (0, 0)
    >>> first_free_move(["###", "#1 ", "###"])
    1
    """
    for y, row in enumerate(rows):
        x = row.find(head)
        if x < 0:
            continue
        for move, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            tx, ty = x + dx, y + dy
            if 0 <= ty < len(rows) and 0 <= tx < len(rows[ty]) and rows[ty][tx] == free:
                return move
        break
    return 0


class CodingameClient:
    """Reads CodinGame Tron turns and rebuilds the trails from the heads (K3)."""

    protocol = "codingame"

    def __init__(self, *, width: int = CODINGAME_SIZE[0], height: int = CODINGAME_SIZE[1]):
        self.width, self.height = width, height
        self.board: Board | None = None
        self._header = None
        self._lines: list[list[int]] = []
        self._me = None         # the reader's own index P, fixed by the first turn read
        self._turn = 0
        self._lost = False      # after a broken turn: pass over lines up to the next header
        self._broken = None     # a broken turn of known size: [N, P, {player: line}, read]
        self.fallback = None    # a move for a broken turn whose last line was just read

    def feed(self, line: str) -> Request | None:
        line = line.rstrip("\r\n")
        self.fallback = None
        if not line.strip():
            return None
        if self._lost and len(line.split()) != 2:
            self._broken_line(line)
            return None         # a player line of the broken turn: reported already
        self._broken = None     # a header: a broken turn shorter than it said gets no answer
        try:
            out = self._feed(line)
        except ProtocolError:
            if self._header is not None:    # a bad player line: the turn's size is known
                self._broken = [*self._header, dict(enumerate(self._lines)), len(self._lines)]
                self._broken_line(None)
            self._header, self._lines = None, []   # drop the turn; the board is unchanged
            # the player lines of a broken turn are passed over silently (they have
            # four numbers, a header two), so one broken turn is one error
            self._lost = True
            raise
        self._lost = False
        return out

    def _broken_line(self, line: str | None) -> None:
        """Count a line of a broken turn (keeping it if it reads; ``None``: the bad one).
        After its last, :attr:`fallback` is set: the server waits for an answer to the
        turn, and silence loses on time."""
        if self._broken is None:
            return
        n, me, good, read = self._broken
        if line is not None:
            try:
                fields = _int_fields(line, 4, "")
                if fields != [-1, -1, -1, -1]:
                    self._index(fields[0], fields[1], "start")
                    self._index(fields[2], fields[3], "head")
                good[read] = fields
            except ProtocolError:
                pass
        self._broken[3] = read = read + 1
        if read >= n:
            self._broken = None
            self.fallback = self._guess(me, good)
            self._turn += 1

    def _guess(self, me: int, good: dict) -> int:
        """A broken turn's answer: the first move (north first) onto a square free on the
        remembered board with the heads of the lines that read marked, else 0 (north)."""
        known = self.board is not None and me < self.board.n_players and self._seen[me]
        cells = (self.board.cells.copy() if self.board is not None
                 else _empty_cells(self.width, self.height))
        stride, flat = self.width + 2, cells.reshape(-1)
        for x0, y0, x1, y1 in good.values():
            if x0 >= 0:
                flat[self._index(x0, y0, "start")] = flat[self._index(x1, y1, "head")] = WALL
        if me in good and good[me][0] >= 0:
            head = self._index(good[me][2], good[me][3], "head")
        elif known and self.board.alive[me]:
            head = int(self.board.heads[me])
        else:
            return 0
        for move, step in enumerate((-stride, 1, stride, -1)):
            if flat[head + step] == FREE:
                return move
        return 0

    def _feed(self, line: str) -> Request | None:
        if self._header is None:
            n, me = _int_fields(line, 2, "codingame header 'N P'")
            if not 2 <= n <= 4 or not 0 <= me < n:     # the game has 2 to 4 players
                raise ProtocolError(f"codingame header: bad player count or index {quote(line)}")
            if self.board is not None and n != self.board.n_players:
                raise ProtocolError(f"codingame: player count changed from "
                                    f"{self.board.n_players} to {n} (header {quote(line)})")
            if self._me is not None and me != self._me:     # a seat is one player's all game
                raise ProtocolError(f"codingame: own index P changed from {self._me} to {me} "
                                    f"(header {quote(line)})")
            self._header, self._lines = (n, me), []
            return None
        fields = _int_fields(line, 4, "codingame player line 'X0 Y0 X1 Y1'")
        n, me = self._header
        if fields != [-1, -1, -1, -1]:
            self._index(fields[0], fields[1], "start")
            self._index(fields[2], fields[3], "head")
        elif len(self._lines) == me:       # the bot would be asked to move a dead cycle
            raise ProtocolError(f"codingame: your own line (player {me}) is -1 -1 -1 -1, a "
                                f"dead player's, but the server asks living players only")
        self._lines.append(fields)
        if len(self._lines) < n:
            return None
        board = self.update(self._lines)    # a refused turn is answered with a guess
        self._header, self._lines, self._me = None, [], me
        self._turn += 1
        return Request(board.copy(), me, self._turn - 1, None)

    def finish(self) -> str | None:
        """At end of input: a sentence if it stopped in the middle of a turn, else None."""
        if self._header is None:
            return None
        return (f"codingame: input ended in the middle of a turn "
                f"({len(self._lines)} of {self._header[0]} player lines read)")

    def _index(self, x: int, y: int, what: str) -> int:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ProtocolError(f"codingame: {what} ({x}, {y}) is off the "
                                f"{self.width}x{self.height} grid")
        return (y + 1) * (self.width + 2) + x + 1

    def update(self, players) -> Board:
        """Apply one turn's ``[x0, y0, x1, y1]`` lines to the remembered board (checked
        first: a bad turn changes nothing)."""
        n = len(players)
        self._check_turn(players)
        if self.board is None:
            self.board = Board(_empty_cells(self.width, self.height), np.zeros(n, np.int64),
                               alive=np.zeros(n, np.bool_), starts=np.zeros(n, np.int64))
            self._seen = np.zeros(n, np.bool_)
        board = self.board
        dying = {TRAIL + q for q, line in enumerate(players)        # their trails go now
                 if tuple(line) == (-1, -1, -1, -1) and board.alive[q]}
        missed = [self._missed_square(p, line, dying) for p, line in enumerate(players)]
        for p, (x0, y0, x1, y1) in enumerate(players):
            if (x0, y0, x1, y1) == (-1, -1, -1, -1):
                if board.alive[p]:  # died since last turn: its trail disappears
                    board.cells[board.cells == TRAIL + p] = FREE
                board.alive[p] = False
                continue
            start, head = self._index(x0, y0, "start"), self._index(x1, y1, "head")
            if self._seen[p]:
                board.facing[p] = _move_between(board.stride, board.heads[p], head)
            board.starts[p], board.heads[p] = start, head
            board.flat[start] = TRAIL + p
            board.flat[head] = TRAIL + p
            if missed[p] is not None:
                board.flat[missed[p]] = TRAIL + p
            board.alive[p] = True
            self._seen[p] = True
        return board

    def _check_turn(self, players) -> None:
        """A ProtocolError when one turn's lines cannot follow the remembered board: another
        player count, a player back after dying, a start square that moved, two living heads
        on one square (the second to move there died)."""
        board, n = self.board, len(players)
        if board is not None and board.n_players != n:
            raise ProtocolError(f"codingame: player count changed from {board.n_players} "
                                f"to {n}")
        heads: dict = {}
        for p, line in enumerate(players):
            if tuple(line) == (-1, -1, -1, -1):
                continue
            start, head = self._index(line[0], line[1], "start"), self._index(*line[2:], "head")
            if board is not None and self._seen[p] and not board.alive[p]:
                raise ProtocolError(f"codingame: player {p} came back after dying")
            if board is not None and self._seen[p] and start != board.starts[p]:
                # X0 Y0 is where the cycle started: a square of its trail all game
                raise ProtocolError(f"codingame: player {p}'s start changed from "
                                    f"{board.xy(int(board.starts[p]))} to ({line[0]}, {line[1]})")
            if head in heads:
                raise ProtocolError(f"codingame: players {heads[head]} and {p} both have their "
                                    f"head on ({line[2]}, {line[3]})")
            heads[head] = p

    def _missed_square(self, p: int, line, dying=frozenset()) -> int | None:
        """The square player ``p``'s head passed in a turn the client did not read (a
        broken one), when its head is now two squares from where it was last seen and
        only one square can be it: the one between (a straight line), or of the two
        corners of a diagonal step the only one that could be free then (free when last
        seen, or the trail of a player that died since: a value in ``dying``).  Else None."""
        board = self.board
        if tuple(line) == (-1, -1, -1, -1) or not self._seen[p] or not board.alive[p]:
            return None
        old, new = int(board.heads[p]), self._index(line[2], line[3], "head")
        ox, oy, nx, ny = *board.xy(old), *board.xy(new)
        if abs(nx - ox) + abs(ny - oy) != 2:
            return None
        if ox == nx or oy == ny:                    # two steps the same way
            squares = [board.index((ox + nx) // 2, (oy + ny) // 2)]
        else:
            squares = [board.index(nx, oy), board.index(ox, ny)]
        open_ = [c for c in squares if board.flat[c] == FREE or int(board.flat[c]) in dying]
        return open_[0] if len(open_) == 1 else None

    def answer(self, move) -> str:
        return format_answer(self.protocol, move)
