"""Contest stdin/stdout protocols, both directions (techniques E3, K3).

Three Tron contests talked to their bots through text on stdin/stdout (the Google AI
Challenge 2010, CodinGame Tron and Light Riders). This module turns a
:class:`~tronlab.tron.board.Board` into the text a contest server would send, reads that
text back into a ``Board`` the way a contest program would, and converts moves to and
from the answer words. Everything here is plain text processing: no processes, no
clocks. :mod:`tronlab.runner.stdio` runs a tronlab bot behind the client side,
:mod:`tronlab.runner.external` runs an outside program behind the server side.

Server side (what tronlab sends an external program)
    :func:`encode_state` gives one turn's input; :func:`lightriders_settings`
    the Light Riders preamble; :func:`parse_answer` reads the reply and raises
    :class:`ProtocolError` quoting it when it is not a move.

Client side (what a tronlab bot running as a contest program reads)
    :func:`make_client` returns a small object fed one input line at a time
    (``client.feed(line)``); when a turn's input is complete it returns a
    :class:`Request` ``(board, player, turn, time_left)`` and the bot's move goes
    back out through ``client.answer(move)``.  A line that breaks the protocol
    raises :class:`ProtocolError` and the client drops the half-read turn, so the
    next turn is read afresh; a Google 2010 or CodinGame turn dropped after a good
    header still wants an answer, and once its last line is read ``client.fallback``
    holds a guess for it (else None).  ``client.finish()`` at end of input says
    whether a turn was cut short.  The Google 2010 and CodinGame clients live in
    :mod:`tronlab.tron.clients`, the Light Riders one in :mod:`tronlab.tron.lightriders`.

Who is who on the client's board
    * ``google2010``: the reader is always player 0 and the opponent player 1
      (the server writes the reader as ``1``), so the bot is called with
      ``player=0``.  Trails arrive as ``#`` and become walls.
    * ``codingame``: players keep their contest indices ``0..N-1`` and the bot
      is called with its own index ``P``, so "lower players moved first this
      turn" keeps its meaning.  No grid is sent: the client remembers every head
      it has seen and marks those squares as the owner's trail; when a player's
      line turns to ``-1 -1 -1 -1`` its whole trail is removed (K3).
    * ``lightriders``: players keep their ids 0 and 1 (``your_botid``); rounds
      count from 0 and the request's ``time_left`` is the time bank, the
      deadline of the answer.  The client and the server side live in
      :mod:`tronlab.tron.lightriders` (re-exported here).

Answers: Google 2010 digits ``1`` north, ``2`` east, ``3`` south, ``4`` west;
CodinGame ``UP RIGHT DOWN LEFT``; Light Riders ``up right down left pass``
(``pass`` = keep going straight, read as ``None``).  Answers are matched after
stripping surrounding whitespace and ignoring case; anything else is bad output.

>>> from tronlab.tron.board import Board
>>> b = Board.from_ascii('''
...     #####
...     #1a2#
...     #####
... ''')
>>> text = google2010_state(b, 1)   # player 1 reads itself as '1'
>>> print(text, end="")
5 3
#####
#2#1#
#####
>>> client = make_client("google2010")
>>> request = [client.feed(line) for line in text.splitlines(True)][-1]
>>> request.player, request.board.head_xy(0)   # the reader is player 0, head at (3, 1)
(0, (3, 1))
>>> parse_answer("codingame", "LEFT"), format_answer("google2010", "left")
(3, '4')
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .board import FREE, MOVE_NAMES, WALL, Board, parse_move

PROTOCOLS = ("google2010", "codingame", "lightriders")

CODINGAME_SIZE = (30, 20)

_QUOTE_MAX = 60


class ProtocolError(ValueError):
    """Text that does not follow a contest protocol (input or answer)."""


def check_protocol(protocol: str) -> str:
    """Return ``protocol`` if it is one of :data:`PROTOCOLS`, else raise ValueError."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; use one of {', '.join(PROTOCOLS)}")
    return protocol


def quote(text: str, limit: int = _QUOTE_MAX) -> str:
    """``repr`` of ``text`` cut to ``limit`` characters, for error messages.  A
    program's line that its reader cut (:class:`tronlab.runner.program.CutLine`, whose
    ``cut_at`` is the cap in bytes) is said to be longer than the cap: its own length
    is the cap's, not the line's."""
    cut_at = getattr(text, "cut_at", None)
    if cut_at is not None:
        return (repr(str(text)[:limit]) + f"... (a line longer than {cut_at} bytes, "
                f"cut there)")
    if len(text) > limit:
        return repr(text[:limit]) + f"... ({len(text)} characters)"
    return repr(text)


# ---- answers ------------------------------------------------------------------------

_G2010_DIGITS = {"1": 0, "2": 1, "3": 2, "4": 3}
_CG_WORDS = ("UP", "RIGHT", "DOWN", "LEFT")


def format_answer(protocol: str, move) -> str:
    """The answer line (without newline) a contest program prints for ``move``.

    ``move`` is 0-3 or a move name; for Light Riders ``None`` means ``pass``.
    """
    check_protocol(protocol)
    if move is None:
        if protocol == "lightriders":
            return "pass"
        raise ValueError(f"{protocol} has no 'pass' answer: a move is required")
    m = parse_move(move)
    if protocol == "google2010":
        return str(m + 1)
    if protocol == "codingame":
        return _CG_WORDS[m]
    return MOVE_NAMES[m]


def parse_answer(protocol: str, text: str):
    """Read one answer line: 0-3, or ``None`` for a Light Riders ``pass``.

    Raises :class:`ProtocolError` quoting the text when it is not a valid answer.
    """
    check_protocol(protocol)
    word = text.strip()
    if protocol == "google2010":
        if word in _G2010_DIGITS:
            return _G2010_DIGITS[word]
        expected = "a digit 1-4 (1 north, 2 east, 3 south, 4 west)"
    elif protocol == "codingame":
        if word.upper() in _CG_WORDS:
            return _CG_WORDS.index(word.upper())
        expected = "UP, RIGHT, DOWN or LEFT"
    else:
        low = word.lower()
        if low in MOVE_NAMES:
            return MOVE_NAMES.index(low)
        if low in ("pass", "no_moves"):      # the contest's engine read no_moves as pass
            return None
        expected = "up, right, down, left or pass"
    raise ProtocolError(f"expected {expected}, got {quote(text)}")


# ---- server side: board -> text ----------------------------------------------------

def _check_player(board: Board, player: int) -> int:
    if not 0 <= int(player) < board.n_players:
        raise ValueError(f"player {player} does not exist on a {board.n_players}-player board")
    return int(player)


def google2010_state(board: Board, player: int) -> str:
    """One Google 2010 turn as the server writes it for ``player``.

    ``W H`` then ``H`` rows: ``#`` wall or trail, space empty, ``1`` the reader's
    head, ``2`` the opponent's head.
    """
    if board.n_players != 2:
        raise ValueError(f"google2010 is a 2-player game, this board has {board.n_players} players")
    player = _check_player(board, player)
    inner = board.cells[1:-1, 1:-1]
    chars = np.where(inner == FREE, " ", "#").astype("<U1")
    for p, mark in ((player, "1"), (1 - player, "2")):
        x, y = board.head_xy(p)
        if board.inside(x, y):
            chars[y, x] = mark
    rows = ["".join(r) for r in chars]
    return f"{board.width} {board.height}\n" + "\n".join(rows) + "\n"


def codingame_state(board: Board, player: int) -> str:
    """One CodinGame Tron turn for ``player``: ``N P`` then ``X0 Y0 X1 Y1`` per player."""
    player = _check_player(board, player)
    lines = [f"{board.n_players} {player}"]
    for p in range(board.n_players):
        if board.alive[p]:
            x0, y0 = board.xy(board.starts[p])
            x1, y1 = board.head_xy(p)
            lines.append(f"{x0} {y0} {x1} {y1}")
        else:
            lines.append("-1 -1 -1 -1")
    return "\n".join(lines) + "\n"


def codingame_board_problem(board: Board) -> str | None:
    """Why a CodinGame program cannot be shown ``board``, or None when it can.

    The protocol sends no grid, only each player's start and head: a program plays on the
    contest's empty 30x20 board and rebuilds the trails from the heads it was told.  A
    board of another size, or one with walls or trails besides the heads when the game
    starts, would be played blind: a move the program reads as legal runs into a wall it
    was never shown.

    >>> from tronlab.tron.mapgen import codingame_board, load_builtin
    >>> codingame_board_problem(codingame_board(3, rng=1)) is None
    True
    >>> print(codingame_board_problem(load_builtin("arena"))[:60])
    the board is 15x15 with 56 squares blocked besides the heads
    """
    heads = {int(board.heads[p]) for p in range(board.n_players) if board.alive[p]}
    blocked = int(np.count_nonzero(board.cells[1:-1, 1:-1] != FREE)) - len(heads)
    size = (board.width, board.height)
    if size == CODINGAME_SIZE and blocked == 0:
        return None
    what = [f"{board.width}x{board.height}"] if size != CODINGAME_SIZE else []
    what += [f"with {blocked} square{'s' * (blocked != 1)} blocked besides the heads"
             ] if blocked else []
    return (f"the board is {' '.join(what)}, and the CodinGame protocol sends no grid, only "
            f"the heads: a program sees the contest's empty {CODINGAME_SIZE[0]}x"
            f"{CODINGAME_SIZE[1]} board")


def encode_state(protocol: str, board: Board, player: int, *, turn: int = 0,
                 time_ms: int = 0) -> str:
    """One turn's server input for ``player`` in ``protocol`` (``turn`` counts from 0)."""
    check_protocol(protocol)
    if protocol == "google2010":
        return google2010_state(board, player)
    if protocol == "codingame":
        return codingame_state(board, player)
    return lightriders_state(board, player, round=turn, time_ms=time_ms)


# ---- client side: text -> board -----------------------------------------------------

class Request(NamedTuple):
    """A complete turn read by a client: ask ``bot(board, player)`` for a move."""

    board: Board
    player: int
    turn: int
    time_left: float | None  # seconds until this answer's deadline, when the server says


def _is_int(text: str) -> bool:
    """True for a whole number in ASCII digits (``int`` also takes ``'٣'``, ``'1_0'``)."""
    digits = text[1:] if text[:1] in "+-" else text
    return 0 < len(digits) <= 18 and digits.isascii() and digits.isdigit()


def _int_fields(line: str, count: int, what: str) -> list[int]:
    parts = line.split()
    if len(parts) != count or not all(_is_int(p) for p in parts):
        raise ProtocolError(f"{what}: expected {count} whole numbers, got {quote(line)}")
    return [int(p) for p in parts]


def _empty_cells(width: int, height: int) -> np.ndarray:
    cells = np.full((height + 2, width + 2), WALL, dtype=np.uint8)
    cells[1:-1, 1:-1] = FREE
    return cells


def _move_between(stride: int, before: int, after: int) -> int:
    """The move (0-3) that takes a head from ``before`` to ``after``, or -1."""
    delta = int(after) - int(before)
    for m, off in enumerate((-stride, 1, stride, -1)):
        if delta == off:
            return m
    return -1


def make_client(protocol: str):
    """A fresh client (one per game) for ``protocol``; see the module docstring."""
    check_protocol(protocol)
    from .clients import CodingameClient, Google2010Client
    return {"google2010": Google2010Client, "codingame": CodingameClient,
            "lightriders": LightRidersClient}[protocol]()


def __getattr__(name):   # the Google 2010 and CodinGame clients live in tronlab.tron.clients
    if name in ("Google2010Client", "CodingameClient"):
        from . import clients
        return getattr(clients, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# the Light Riders part lives in its own module; its names are part of this one's API
from .lightriders import (LIGHTRIDERS_SIZE, LIGHTRIDERS_TIME_PER_MOVE_MS,  # noqa: E402,F401
                          LIGHTRIDERS_TIMEBANK_MS, LightRidersClient, lightriders_field,
                          lightriders_settings, lightriders_state, move_time)
