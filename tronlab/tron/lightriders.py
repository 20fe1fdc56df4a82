"""The Light Riders protocol (riddles.io), both directions.

Server side: :func:`lightriders_settings` writes the ``settings`` lines in the
contest's order (``player_names``, ``your_bot``, ``timebank``,
``time_per_move``, ``your_botid``, ``field_width``, ``field_height``, and
``max_rounds`` when there is one); :func:`lightriders_state` one round
(``update game round r`` counting from 0, the field, ``action move <bank ms>``).

Client side: :class:`LightRidersClient` reads those lines back.  Every
setting is checked as it arrives: a bad one (``your_botid 7``,
``field_width abc``, a negative size or time) raises
:class:`~tronlab.tron.protocol.ProtocolError` naming it and is not kept, so
the program reports bad input and plays on with the default (a ``your_botid``
that changes once a round was played is refused too: it keeps its own).  A round is
answered from its own field: an ``action move`` with no field line since the last
one (missing, or garbled into another ``update``) is bad input too, answered
``pass``, not a move on the last round's field.  Players keep
their ids 0 and 1; walls and trails both arrive as ``x``; each player's facing
is carried from round to round (from how its head moved; p0 starts facing
right, p1 left) so the bot knows which move would be a reverse.

Time: the number in ``action move`` is the time bank, and the bank is the
deadline for this answer.  After it, bank = min(max(bank - used, 0) +
time_per_move, timebank).  :func:`move_time` is how long a bot should plan to
think with a given bank (the request's ``time_left``), sharing the bank's surplus
over the :func:`rounds_left` (fewer when ``settings max_rounds`` ends the game early).

>>> from tronlab.tron.mapgen import lightriders_board
>>> print(lightriders_settings(lightriders_board(x=2, y=5), 1), end="")
settings player_names player0,player1
settings your_bot player1
settings timebank 10000
settings time_per_move 200
settings your_botid 1
settings field_width 16
settings field_height 16
"""

from __future__ import annotations

import numpy as np

from .board import FREE, MAX_SIDE, TRAIL, WALL, Board

LIGHTRIDERS_SIZE = (16, 16)
LIGHTRIDERS_TIMEBANK_MS = 10000
LIGHTRIDERS_TIME_PER_MOVE_MS = 200
MAX_FIELD_SIDE = MAX_SIDE       # a field side beyond this is refused as bad input


def _protocol():
    from . import protocol      # ProtocolError and quote live there; imported late (cycle)
    return protocol


def give_contest_facings(board: Board) -> Board:
    """Give a board without facings (a map file has none) the contest's: player 0
    faces right, player 1 left (Light Riders' 'keep going straight' needs them);
    facings the board has are kept.  Returns ``board``, changed in place."""
    for p, facing in enumerate((1, 3)[:board.n_players]):
        if board.facing[p] < 0:
            board.facing[p] = facing
    return board


def lightriders_field(board: Board) -> str:
    """The ``update game field`` tokens: row-major, ``.`` empty, ``x`` wall, ``0``/``1`` heads."""
    inner = board.cells[1:-1, 1:-1]
    tokens = np.where(inner == FREE, ".", "x").astype("<U1")
    for p in range(board.n_players):
        x, y = board.head_xy(p)
        if board.alive[p] and board.inside(x, y):
            tokens[y, x] = str(p)
    return ",".join(tokens.reshape(-1))


def lightriders_settings(board: Board, player: int, *, timebank_ms: int = LIGHTRIDERS_TIMEBANK_MS,
                         time_per_move_ms: int = LIGHTRIDERS_TIME_PER_MOVE_MS,
                         max_rounds: int | None = None) -> str:
    """The ``settings`` lines sent once at the start of a game, in the contest's order."""
    player = _protocol()._check_player(board, player)
    names = ",".join(f"player{p}" for p in range(board.n_players))
    lines = [f"settings player_names {names}",
             f"settings your_bot player{player}",
             f"settings timebank {int(timebank_ms)}",
             f"settings time_per_move {int(time_per_move_ms)}",
             f"settings your_botid {player}",
             f"settings field_width {board.width}",
             f"settings field_height {board.height}"]
    if max_rounds is not None:
        lines.append(f"settings max_rounds {int(max_rounds)}")
    return "\n".join(lines) + "\n"


def lightriders_state(board: Board, player: int, *, round: int, time_ms: int) -> str:
    """One round (``round`` counts from 0): round number, field, ``action move <bank ms>``."""
    _protocol()._check_player(board, player)
    return (f"update game round {int(round)}\n"
            f"update game field {lightriders_field(board)}\n"
            f"action move {int(time_ms)}\n")


MOVE_MARGIN = 0.02     # seconds move_time keeps back for reading and writing
#: the share of a bank that cannot grow (a limit a move) move_time plans, less the margin:
#: an answer past the bank shuts the bot down, and planning all of it, a loaded machine's
#: slowest answers came within 30 ms of a 180 ms bank in the arena
FIXED_SHARE = 0.8


def move_time(bank: float, time_per_move: float, rounds_left: int, *,
              margin: float = MOVE_MARGIN, urgent: float = 1.0,
              full: float | None = None) -> float:
    """Seconds to plan for this move with ``bank`` seconds on the clock.

    The time added each move, plus the bank's surplus over it shared out over
    the ``rounds_left`` the game can still last (so the bank never runs dry
    however long the game goes), less ``margin`` for reading and writing;
    never more than half the bank.  An important decision (``urgent`` > 1, L6)
    gets ``urgent`` times that, but never more than a third of the bank.

    ``full`` is the game's whole bank (``settings timebank``; None: unknown).
    When it is no more than ``time_per_move`` nothing can accumulate (the bank
    is full again before every move, as when the arena tells a program its
    limit a move as its bank): :data:`FIXED_SHARE` of the whole bank less
    ``margin`` is planned, however many rounds are left, and ``urgent`` adds nothing.

    >>> round(move_time(10.0, 0.2, 98), 3)   # a fresh bank, 98 rounds still to play
    0.28
    >>> round(move_time(10.0, 0.2, 98, urgent=2), 3)   # the heads can meet soon
    0.58
    >>> round(move_time(0.1, 0.2, 50), 3)    # an almost empty bank: half of it, less the margin
    0.03
    >>> round(move_time(0.1, 0.2, 50, urgent=2), 3)   # a third of it at most
    0.03
    >>> round(move_time(0.18, 0.18, 50, full=0.18), 3)   # a bank that cannot grow
    0.124
    """
    if full is not None and full <= time_per_move:
        return max(FIXED_SHARE * bank - margin, min(0.001, bank / 4))
    spare = max(bank - time_per_move, 0.0) / max(int(rounds_left), 1)
    think = min(time_per_move + spare, bank / 2) - margin
    if urgent > 1:
        think = max(think, min(urgent * (think + margin), bank / 3) - margin)
    return max(think, min(0.001, bank / 4))


def rounds_left(free: int, played: int = 0, max_rounds: int | None = None) -> int:
    """The rounds a Light Riders game can still last, this one included: each round
    fills two free squares, so at most half the ``free`` squares plus one; with a
    turn limit (``settings max_rounds``) also at most ``max_rounds - played``, where
    ``played`` rounds are over (the round to play is round ``played``, counting from 0).
    At least 1.  :func:`move_time` shares a bank's surplus over them.

    >>> rounds_left(254)                           # a fresh 16x16 field
    128
    >>> rounds_left(254, 97, max_rounds=100)       # rounds 97, 98 and 99 are left
    3
    """
    left = int(free) // 2 + 1
    if max_rounds is not None:
        left = min(left, int(max_rounds) - int(played))
    return max(left, 1)


# (setting name, smallest allowed value, largest) for the numeric settings
_NUMERIC = {"timebank": (0, None), "time_per_move": (0, None), "your_botid": (0, 1),
            "field_width": (1, MAX_FIELD_SIDE), "field_height": (1, MAX_FIELD_SIDE),
            "max_rounds": (0, None)}


def check_setting(name: str, value: str) -> int | str:
    """The value of ``settings name value`` (an int for numeric settings); raises
    ProtocolError naming the setting when the value is not allowed."""
    pr = _protocol()
    if name not in _NUMERIC:
        return value
    low, high = _NUMERIC[name]
    if not pr._is_int(value):       # int() also reads '1_000', '٣' and 5000 digits (slowly)
        raise pr.ProtocolError(f"lightriders settings {name}: expected a whole number "
                               f"(ASCII digits, 18 at most), got {pr.quote(value)}")
    number = int(value)
    if number < low or (high is not None and number > high):
        span = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise pr.ProtocolError(f"lightriders settings {name}: {number} is out of range "
                               f"(must be {span}); keeping {name} "
                               f"{_DEFAULTS.get(name, 'unset')}")
    return number


_DEFAULTS = {"timebank": LIGHTRIDERS_TIMEBANK_MS, "time_per_move": LIGHTRIDERS_TIME_PER_MOVE_MS,
             "your_botid": 0, "field_width": LIGHTRIDERS_SIZE[0],
             "field_height": LIGHTRIDERS_SIZE[1]}


class LightRidersClient:
    """Reads Light Riders settings and rounds; keeps facings between rounds."""

    protocol = "lightriders"

    def __init__(self):
        self.settings: dict[str, int | str] = dict(_DEFAULTS)
        self.round = 0
        self.board: Board | None = None
        self._field: str | None = None

    def feed(self, line: str):
        """Read one line; returns a Request after ``action move``, else None."""
        pr = _protocol()
        parts = line.split()
        if not parts:
            return None
        if parts[0] == "settings":
            if len(parts) != 3:
                raise pr.ProtocolError(f"lightriders: a settings line is 'settings NAME VALUE', "
                                       f"got {pr.quote(line.strip())}")
            value = check_setting(parts[1], parts[2])
            if parts[1] == "your_botid" and self.board is not None and value != self.player:
                # a rider is one bot's all game: answering for the other steers nothing
                raise pr.ProtocolError(f"lightriders settings your_botid: changed from "
                                       f"{self.player} to {value} after round {self.round}; "
                                       f"keeping your_botid {self.player}")
            self.settings[parts[1]] = value
            return None
        if parts[:3] == ["update", "game", "round"]:
            r = pr._int_fields(" ".join(parts[3:]), 1, "lightriders round")[0]
            if r < 0:
                raise pr.ProtocolError(f"lightriders round: {r} is negative (rounds count from 0)")
            self.round = r
            return None
        if parts[:3] == ["update", "game", "field"]:
            self._field = None      # the last round's field is stale now, whatever comes
            if len(parts) != 4:
                raise pr.ProtocolError(f"lightriders: a field line is 'update game field' and "
                                       f"one word of comma-separated tokens, got "
                                       f"{pr.quote(line.strip())}")
            self._field = parts[3]
            return None
        if parts[0] == "update":
            return None  # other updates (e.g. player data) carry nothing we need
        if parts[:2] == ["action", "move"] and len(parts) == 3:
            field, self._field = self._field, None     # each round sends its own field
            ms = pr._int_fields(parts[2], 1, "lightriders time bank")[0]
            if ms < 0:
                raise pr.ProtocolError(f"lightriders time bank: {ms} ms is negative")
            if field is None:
                raise pr.ProtocolError("lightriders: 'action move' with no field to move on "
                                       "(before any 'update game field', none since the "
                                       "last 'action move', or its line was bad)")
            board = self.decode(field)
            return pr.Request(board, self.player, self.round, ms / 1000.0)
        raise pr.ProtocolError(f"lightriders: unexpected line {pr.quote(line.strip())}")

    @staticmethod
    def between_turns(line: str) -> bool:
        """Whether ``line`` belongs to no round (a ``settings`` line, sent once before the
        game): a contest program starts the round's clock at its first line, not there."""
        return line.split()[:1] == ["settings"]

    @property
    def player(self) -> int:
        return int(self.settings["your_botid"])

    @property
    def time_per_move(self) -> float:
        """Seconds added to the bank after each move (``settings time_per_move``)."""
        return int(self.settings["time_per_move"]) / 1000.0

    @property
    def time_bank(self) -> tuple[float, float]:
        """``(bank, per_move)`` in seconds, as the settings told them (else the contest's),
        what the engine tells a ``start_game`` that takes ``time_bank``."""
        return int(self.settings["timebank"]) / 1000.0, self.time_per_move

    @property
    def max_turns(self) -> int | None:
        """The turn limit (``settings max_rounds``), None when the server sent none."""
        rounds = self.settings.get("max_rounds")
        return None if rounds is None else int(rounds)

    def decode(self, field: str) -> Board:
        """A Board from the field tokens; facings carried over from the last round.
        A field without both heads is a ProtocolError: the game ends when a rider dies."""
        pr = _protocol()
        width, height = int(self.settings["field_width"]), int(self.settings["field_height"])
        tokens = field.split(",")
        if len(tokens) != width * height:
            raise pr.ProtocolError(f"lightriders field: {len(tokens)} tokens, expected "
                                   f"{width}x{height} = {width * height}")
        cells = pr._empty_cells(width, height)
        stride = width + 2
        heads, alive = [0, 0], [False, False]
        for i, tok in enumerate(tokens):
            y, x = divmod(i, width)
            if tok == "x":
                cells[y + 1, x + 1] = WALL
            elif tok in ("0", "1"):
                p = int(tok)
                if alive[p]:
                    raise pr.ProtocolError(f"lightriders field: player {p} appears twice")
                heads[p], alive[p] = (y + 1) * stride + x + 1, True
                cells[y + 1, x + 1] = TRAIL + p
            elif tok != ".":
                raise pr.ProtocolError(f"lightriders field: unknown token {pr.quote(tok)} "
                                       f"at x={x}, y={y}")
        if not all(alive):
            # the game ends when a rider dies, so a field the bot must move on has both
            missing = alive.index(False)
            raise pr.ProtocolError(f"lightriders field: no player {missing} head (no token "
                                   f"'{missing}'; the game goes on only while both ride): "
                                   f"update game field {pr.quote(field)}")
        facing = [1, 3]  # the contest: p0 starts facing right, p1 left
        old = self.board
        if old is not None and old.stride == stride:
            for p in range(2):
                if alive[p] and old.alive[p]:
                    moved = pr._move_between(stride, old.heads[p], heads[p])
                    facing[p] = moved if moved >= 0 else int(old.facing[p])
        board = Board(cells, heads, alive=alive, facing=facing)
        self.board = board.copy()
        return board

    def answer(self, move) -> str:
        return _protocol().format_answer(self.protocol, move)
