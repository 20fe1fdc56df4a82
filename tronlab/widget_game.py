"""A person against bots, one turn per key press, for the board widget (X1).

:class:`Game` wraps the shared step API (:class:`tronlab.tron.match.Match`): the person is
player 0 and answers through :meth:`Game.step`; a bot that raises or returns nonsense loses
instead of breaking the widget.

The bots keep a clock, as in :func:`tronlab.runner.engine.play`, whose seats and move
rules the game shares: each bot's calls run on its own worker thread, waited for the
``(first, later)`` limits of :func:`widget_clock` (5 s a move by default, the first move and
``start_game``, which may compile numba's kernels, at least a minute).  A bot stuck in a
loop times out instead of blocking the kernel: under Google 2010 and CodinGame rules it is
out, under Light Riders it is shut down and keeps going straight.  The clock is a guard, not
a thinking time: ``start_game`` hears ``time_limit=None``, so a searching bot thinks its own
``time``.  Without a clock (``time_limit=None``) the bots are asked in the kernel's thread.
"""

from __future__ import annotations

import numpy as np

from .runner.engine import _check_limit, _choose, _Seat, _start_seats
from .tron.board import Board
from .tron.values import is_whole

__all__ = ["Game", "default_board", "bot_label", "make_bot", "child_rngs", "seed_rng",
           "seed_or_rng", "game_setup", "widget_clock", "TIME_LIMIT", "FIRST_TURN_FLOOR"]

#: seconds a widget's bot has for a move (a guard against a bot stuck in a loop)
TIME_LIMIT = 5.0
#: seconds a widget's bot has at least for ``start_game`` and its first move, unless
#: ``first_time_limit`` says otherwise: a cold numba cache compiles a search's kernels then,
#: tens of seconds on a slow machine, and the bot must not be ruled out for it
FIRST_TURN_FLOOR = 60.0


def widget_clock(time_limit, first_time_limit, check=_check_limit):
    """``(first move's limit, later moves' limit)`` in seconds, or None (no clock): the
    first is three times a move's, at least :data:`FIRST_TURN_FLOOR`, unless given.
    ``check(name, value)`` checks each number (the capture widget passes its own)."""
    time_limit = check("time_limit", time_limit)
    first = check("first_time_limit", first_time_limit)
    if time_limit is None:
        if first is not None:
            raise ValueError("first_time_limit needs a time_limit (None: no clock at all)")
        return None
    return (max(3 * time_limit, FIRST_TURN_FLOOR) if first is None else first, time_limit)


def seed_rng(seed) -> np.random.Generator:
    """``seed`` as a Generator: a Generator as it is, a non-negative int seeds a new one."""
    if isinstance(seed, np.random.Generator):
        return seed
    if not is_whole(seed):
        raise TypeError(f"seed is an int or a numpy Generator, got {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed is a non-negative int or a numpy Generator, got {seed!r}")
    return np.random.default_rng(int(seed))


def seed_or_rng(seed, rng, *, default):
    """The one of ``seed`` and its other name ``rng`` that was given (``seed`` left at
    ``default``); both given is a TypeError."""
    if rng is None:
        return seed
    if seed is not default:
        raise TypeError(f"give seed or rng, not both (rng is seed's other name): got "
                        f"seed={seed!r} and rng={rng!r}")
    return rng


def child_rngs(rng: np.random.Generator, n: int) -> list:
    """``n`` independent Generators drawn from ``rng``: the same streams as
    ``rng.spawn(n)``, which needs numpy 1.25; this works from numpy 1.17 on (every
    BitGenerator keeps its ``SeedSequence`` in ``_seed_seq``, made public as
    ``seed_seq`` in 1.25)."""
    bits = rng.bit_generator
    seq = getattr(bits, "seed_seq", None) or getattr(bits, "_seed_seq", None)
    if not isinstance(seq, np.random.SeedSequence):      # e.g. a legacy-seeded MT19937
        seq = np.random.SeedSequence(int(rng.integers(2**63)))
    return [np.random.Generator(type(bits)(child)) for child in seq.spawn(n)]


def default_board(rules, rng, n_players: int = 2) -> Board:
    """A fresh start board for ``rules`` when the caller gives none."""
    if rules.name == "lightriders":
        from .tron.mapgen import lightriders_board
        return lightriders_board(rng=rng)
    if rules.name == "codingame":
        from .tron.mapgen import codingame_board
        return codingame_board(n_players, rng=rng)
    from .tron.mapgen import load_builtin
    return load_builtin("arena")


def game_setup(prev: dict, bot, rules, board, seed) -> tuple:
    """``BoardWidget.new_game``'s arguments resolved against the previous game's ``prev``:
    ``(bot, rules, rng, board, bots, fixed)``, ``fixed`` the board given (else None)."""
    from .tron.rules import get_rules

    bot = prev.get("bot", "hugger") if bot is None else bot
    if isinstance(bot, (list, tuple)) and not bot:     # was 'n_players must be at least 2'
        raise ValueError("bot is an empty list: give one bot per opponent, e.g. ['hugger'] "
                         "or, on a codingame board, up to three")
    rules = get_rules(prev.get("rules", "google2010") if rules is None else rules)
    rng = (prev.get("rng") or np.random.default_rng(0)) if seed is None else seed_rng(seed)
    if board is None:
        board = prev.get("board") if rules is prev.get("rules_obj") else None
    if board is None:
        n_bots = len(bot) if isinstance(bot, (list, tuple)) else 1
        board, fixed = default_board(rules, rng, n_bots + 1), None
    elif not isinstance(board, Board):
        raise TypeError(f"board must be a tronlab Board, got {type(board).__name__}")
    else:
        fixed = board
    rules.check(board)
    n = board.n_players
    bots = list(bot) if isinstance(bot, (list, tuple)) else [bot] * (n - 1)
    if len(bots) != n - 1:
        raise ValueError(f"this board has {n} players: give {n - 1} bot(s), got {len(bots)}")
    return bot, rules, rng, board, bots, fixed


def bot_label(bot) -> str:
    if isinstance(bot, str):
        return bot
    return str(getattr(bot, "name", None) or getattr(bot, "__name__", None) or type(bot).__name__)


def make_bot(bot, rng):
    if callable(bot):
        return bot
    if isinstance(bot, str):
        from .runner.registry import get_bot
        return get_bot(bot, rng=rng)
    raise TypeError(f"a bot is a registered name (str) or a callable bot(board, player), "
                    f"got {type(bot).__name__}")


class Game:
    """A person-vs-bots game on the shared step API (:class:`tronlab.tron.match.Match`),
    stepped one human move at a time; the person is player 0.  ``clock`` is
    :func:`widget_clock`'s ``(first, later)`` limits, or None."""

    def __init__(self, board: Board, bots, rules, rng, clock=None):
        from .tron.match import Match

        self.match = Match(board, rules)
        self.rules = self.match.rules
        self.names = ["you"] + [bot_label(b) for b in bots]
        rngs = child_rngs(rng, len(bots))
        self.limits = (None, None) if clock is None else tuple(clock)
        self.events: list[dict] = []
        # seat p's bot is seats[p].bot (the person's seat 0 is None)
        self.seats = [None] + [_Seat(make_bot(bot, r), p, r) for p, (bot, r) in
                               enumerate(zip(bots, rngs), start=1)]
        # start_game as play() calls it (a fault is charged at the bot's first move) under
        # the first move's limit, but telling the bot no clock: it thinks its own time
        _start_seats(self.seats[1:], board, self.rules, (None, None, None), None,
                     self.limits[0])

    @property
    def board(self) -> Board:
        return self.match.board

    @property
    def moves(self) -> list:
        return self.match.moves

    @property
    def turn(self) -> int:
        return self.match.turns

    def _ask_bot(self, player: int):
        """``(move, fault, note)`` for the step API, as :func:`~tronlab.runner.engine.play`
        asks a seat (its clock, passes, reversals and faults); a bot never breaks the game."""
        return _choose(self.seats[player], self.match, self.rules, self.limits, self.events)

    def close(self) -> None:
        """End the bots' worker threads (one still in a call that overran, in C code, is
        abandoned)."""
        for seat in self.seats[1:]:
            if seat.worker is not None:
                seat.worker.stop()
                seat.worker = None

    def step(self, human_move) -> dict:
        """One turn with the person's move (None once the person is out); returns the deaths."""
        deaths = {}
        turn = self.match.next_turn
        while not self.match.over and self.match.next_turn == turn:
            answers = {p: (human_move, None, None) if p == 0 else
                       self._ask_bot(p) for p in self.match.to_move()}
            deaths.update(self.match.step(answers).deaths)
        return deaths

    @property
    def over(self) -> bool:
        return self.match.over

    def outcome(self):
        return self.match.outcome()

    def record(self):
        return self.match.record(metadata={"names": list(self.names)}, events=self.events)
