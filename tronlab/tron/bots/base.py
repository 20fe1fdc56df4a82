"""What every Tron bot shares: thinking time, stats, the multi-player fallback.

:class:`_Bot` is the base of the territory and search bots
(:mod:`tronlab.tron.bots.search`) and of ``nash`` and ``hybrid``
(:mod:`tronlab.tron.bots.nash`, :mod:`tronlab.tron.bots.hybrid`): a subclass
says how to :meth:`~_Bot.choose` a move in a two-player position with a real
choice, and the base does the rest.

Every bot takes ``time=`` (seconds per move; defaults to the rule set's usual
budget) and plans to answer within ``0.8 * time - 5 ms`` (room for Python and
the protocol), a quarter of that on a game's first move, whose clock may hold
the program's start-up.  Under a time bank (Light Riders: the server says before
each move how long the bot has, ``set_clock``) it plans 80% of
:func:`tronlab.tron.lightriders.move_time`: the time added a move plus the bank's
surplus shared over the rounds the game can still last (fewer when the game's turn
limit, ``start_game``'s ``max_turns``, ends it sooner), less a margin, so the
bank never runs dry; a bank that cannot grow (``start_game``'s ``time_bank`` no
more than the time added a move) is a limit a move: four fifths of it, less the margin.
A searching bot made with ``depth=D`` searches exactly D turns in a game with no clock,
and stops at half the engine's limit where one runs (:meth:`_Bot.depth_deadline`).
``bot.last_stats`` says what each move did (depth, nodes, evaluations per second,
time used); ``verbose=True`` also prints them to stderr, one line a move.

The two-player bots play 3-4 player games (CodinGame) with the multi-player
score.  Making a bot compiles (or loads from numba's cache) every kernel it
uses on a tiny board, so the first move is not charged for it (``start_game``
runs under the first move's time limit).
"""

from __future__ import annotations

import sys
import time as _time
from abc import ABC, abstractmethod

import numpy as np

from ..board import FREE, Board
from ..chambers import new_scratch
from ...jit.clock import NO_DEADLINE, deadline_after, now_ns
from ..lightriders import move_time, rounds_left
from ..evaluate import multi_score_kernel
from ..values import check_flag
from ...runner.registry import check_time, warm_up_wanted

#: a contest program (:meth:`_Bot.set_turn_start`) plans at most this share of the move's time,
#: less at least this margin (s), from the turn's first input line: 80 ms of CodinGame's 100
#: (in process ``nash`` and ``hybrid`` plan 95% less 2 ms: the arena allows twice the time)
CONTEST_SHARE, CONTEST_MARGIN = 0.85, 0.005
#: at a fixed depth under an engine's limit a move, the search stops at this share of the limit
#: (the arena's limit is twice ``--time``: the search then stops at ``--time``)
FIXED_DEPTH_SHARE = 0.5
#: a bot told the engine's limit a move (start_game's time_limit) plans at most this share of
#: it less this margin (s), whatever its own rule: ``nash`` plans 95% of its time, which the
#: arena's twice-the-time limit allows, but ``tronlab match`` holds it to the time itself
LIMIT_SHARE, LIMIT_MARGIN = 0.8, 0.005
DEFAULT_TIME = {"google2010": 1.0, "lightriders": 0.2, "codingame": 0.1}
_WARMUP = """
    1...
    ....
    ...2
"""


class _Bot(ABC):
    """Shared plumbing: time budget, stats, verbose output, multi-player fallback."""

    name = "bot"
    share, margin, floor = 0.8, 0.005, 0.005   # think share * time - margin, at least floor
    _clock = None          # (bank, seconds added a move) from set_clock, for the next move
    _turn_start = None     # now_ns() when the next move's input began (set_turn_start)
    _contest = False       # a contest program (set_turn_start heard): the contest's shares
    _rounds_left = 1       # rounds the game can still last (lightriders.rounds_left)
    _max_rounds = None     # the game's turn limit (start_game's max_turns), None: none
    _start_free = None     # (cells' shape, free squares) of the game's start, None: unknown
    _full_bank = None      # the game's whole bank (start_game's time_bank), None: unknown
    _limits = None          # the engine's (time_limit, first_time_limit) from start_game;
                            # None: no start_game heard, so no telling whether a clock runs
    _move_start = 0         # now_ns() when this move's clock started
    _move_limit = None      # the engine's limit for this move (s), None: none told
    depth = None            # a fixed search depth (turns, the searching bots); None: timed
    _time_from_limit = False  # ``time`` was taken from a game's time_limit (start_game)

    def __init__(self, *, time=None, verbose=False, rng=None):
        self.time = check_time(time)
        self.verbose = check_flag(verbose, "verbose")
        self.rules = None
        self.last_stats: dict = {}
        self._counts = None
        self._first = False

    # ---- hooks -------------------------------------------------------------
    def start_game(self, board, player, *, rules=None, time_limit=None, rng=None, time_bank=None,
                   first_time_limit=None, max_turns=None):
        self.rules = getattr(rules, "name", rules)
        self._max_rounds = None if max_turns is None else int(max_turns)
        self._start_free = (board.cells.shape, int((board.cells == FREE).sum()))
        self._limits = (time_limit, time_limit if first_time_limit is None else first_time_limit)
        self._full_bank = None if time_bank is None else float(time_bank[0])
        if self._time_from_limit:               # the last game's limit, not this bot's own
            self.time, self._time_from_limit = None, False
        if self.time is None and time_limit is not None:
            self.time, self._time_from_limit = float(time_limit), True
        self._first = True
        # a contest program hears its first turn's start just before start_game; a bot
        # that was one and now plays in process (no turn start pending) plans its own way
        self._contest = self._turn_start is not None
        if getattr(self, "searcher", None) is not None:     # a searching bot's: a new game
            self.searcher.reset()

    def warm_up(self):
        """Run every kernel once on a tiny board (compiles or loads the cache)."""
        b = Board.from_ascii(_WARMUP)
        self.choose(b, 0, deadline_after(0.05))
        self._multi(b, 0)

    def set_clock(self, time_left, time_per_move=None):
        """The server's clock for the next move (a time bank, as in Light Riders):
        seconds to the deadline and seconds added after each move (None: this
        bot's ``time``).  Heard once: the move after next is on ``time`` again
        unless the clock is set again."""
        per = time_per_move if time_per_move is not None else (self.time or 0.2)
        self._clock = (float(time_left), float(per))

    def set_turn_start(self, start_ns: int):
        """The next move's clock started at ``start_ns`` (:func:`~tronlab.jit.clock.now_ns`),
        when the turn's first input line was read.  Called by a contest program
        (:func:`tronlab.runner.stdio.run_stdio`) before each move: the deadline then counts
        from that moment, and the bot plans at most :data:`CONTEST_SHARE` of the time
        less :data:`CONTEST_MARGIN` (a busy machine must not make it late)."""
        self._turn_start = int(start_ns)
        self._contest = True

    def shares(self) -> tuple[float, float]:
        """``(share, margin)`` of the move's time this bot plans with: its own, or at
        most the contest's when it runs as a contest program."""
        if self._contest:
            return min(self.share, CONTEST_SHARE), max(self.margin, CONTEST_MARGIN)
        return self.share, self.margin

    # ---- moves -------------------------------------------------------------
    def urgency(self) -> float:
        """How many times the planned time this move deserves (1 here; ``nash``
        and ``hybrid`` give important decisions more, L6)."""
        return 1.0

    def budget(self) -> float:
        """Seconds to think this move: ``share`` (80%) of the time per move less
        ``margin`` (5 ms); a quarter of that on the first move of a game, whose
        clock may already include the program's start-up (imports, numba
        loading its cache).  Under a time bank (:meth:`set_clock`) ``share`` of
        :func:`~tronlab.tron.lightriders.move_time` (which keeps its own margin, and
        plans most of a bank that cannot grow), times :meth:`urgency`; the first move
        still thinks a quarter of the per-move rule, however full the bank."""
        t = self.time if self.time is not None else DEFAULT_TIME.get(self.rules, 1.0)
        bank, t = self._clock if self._clock is not None else (None, t)  # t: time added a move
        share, margin = self.shares()
        think = max(self.floor, share * t - margin)
        if self._first:
            think = max(self.floor, think / 4)
        if bank is None:
            return min(think, self._limit_cap())
        plan = max(0.001, share * move_time(bank, t, self._rounds_left,
                                            urgent=self.urgency(), full=self._full_bank))
        return min(plan, think) if self._first else plan

    def _limit_now(self):
        """The engine's limit (s) for the move about to be played, None: none told."""
        return None if self._limits is None else self._limits[1 if self._first else 0]

    def _limit_cap(self) -> float:
        """The most this move may plan under the engine's limit a move, if one was told
        (:data:`LIMIT_SHARE` of it less :data:`LIMIT_MARGIN`, at least ``floor``)."""
        limit = self._limit_now()
        if limit is None:
            return float("inf")
        return max(self.floor, LIMIT_SHARE * limit - LIMIT_MARGIN)

    def __call__(self, board: Board, player: int) -> int:
        if self._clock is not None:          # only a bank is shared over the rounds left
            self._rounds_left = self._rounds_left_on(board)
        try:
            return self._move(board, player)
        finally:
            self._clock = self._turn_start = None

    def _rounds_left_on(self, board: Board) -> int:
        """The rounds the game can still last from ``board`` (:func:`rounds_left`): the
        rounds played are read off the board (each fills two squares), not counted
        from calls, so a turn the bot was not asked (broken input) or a bot that took
        over mid-game (a StartingBot's worker) still knows the round."""
        free = int((board.cells == FREE).sum())
        played = 0
        if self._start_free is not None and self._start_free[0] == board.cells.shape:
            played = max(self._start_free[1] - free, 0) // 2
        return rounds_left(free, played, self._max_rounds)

    def _move(self, board: Board, player: int) -> int:
        t0 = _time.perf_counter()
        start = self._turn_start
        deadline = (deadline_after(self.budget()) if start is None
                    else start + int(self.budget() * 1e9))
        self._move_start = now_ns() if start is None else start
        self._move_limit = self._limit_now()
        self._first = False
        legal = board.legal_moves(player)
        self.last_stats = {"mode": "forced", "depth": 0, "nodes": 0}
        if not legal:
            move = int(board.facing[player]) if board.facing[player] >= 0 else 0
        elif len(legal) == 1:
            move = legal[0]
        elif board.n_players != 2 or not board.alive.all():
            move = self._multi(board, player)
        else:
            move = self.choose(board, player, deadline)
        self.last_stats["time"] = _time.perf_counter() - t0
        self.last_stats["move"] = int(move)
        if self.verbose:
            shown = {k: (round(v, 4) if isinstance(v, float) else v)
                     for k, v in self.last_stats.items() if k != "pv"}
            print(f"{self.name}: {shown}", file=sys.stderr, flush=True)
        return int(move)

    def depth_deadline(self, deadline: int) -> int:
        """The contested search's deadline: ``deadline`` (the move's budget) for a timed
        bot.  At a fixed :attr:`depth` none, so the search goes exactly that deep, unless
        the engine enforces a limit a move (then :data:`FIXED_DEPTH_SHARE` of it from the
        move's start, or ``deadline`` if later, so a deep search does not lose the game on
        time); a bot under a time bank or run as a contest program keeps ``deadline`` (its
        clock is the contest's), and so does one never told of its game (no ``start_game``:
        called by a student's ``py:`` file, say, under a clock it cannot see)."""
        if (self.depth is None or self._clock is not None or self._contest
                or self._limits is None):
            return deadline
        if self._move_limit is None:
            return NO_DEADLINE
        return max(deadline, self._move_start + int(FIXED_DEPTH_SHARE * self._move_limit * 1e9))

    @abstractmethod
    def choose(self, board, player, deadline) -> int:
        """The move to play (0-3) for a two-player position where ``player`` has
        more than one legal move; ``deadline`` is the clock's ns to answer by."""

    def _multi(self, board, player) -> int:
        """kootenpv's one-move lookahead (K2); works for 2-4 players."""
        s = self._scratch(board)
        if self._counts is None or self._counts.size != board.n_players:
            self._counts = np.zeros(board.n_players, np.int64)
        flat = board.flat.copy()
        heads = board.heads.copy()
        alive = board.alive.copy()
        head = heads[player]
        best, best_move = None, None
        for m in board.legal_moves(player):
            t = head + board.offsets[m]
            flat[t] = 2 + player
            heads[player] = t
            v = int(multi_score_kernel(flat, heads, alive, np.int64(player), np.int64(board.stride),
                                       s.owner, s.queue, self._counts, s.dist))
            flat[t] = 0
            heads[player] = head
            if best is None or v > best:
                best, best_move = v, m
        self.last_stats.update({"mode": "multi", "value": best})
        return best_move if best_move is not None else 0

    def _scratch(self, board):
        s = getattr(self, "_cs", None)
        if s is None or s.dist.size != board.flat.size:
            s = self._cs = new_scratch(board.flat.size)
        return s


def _warm(bot):
    """``bot`` (a factory's), warmed up (:meth:`_Bot.warm_up`) unless made inside
    :func:`~tronlab.runner.registry.no_warm_up`."""
    if warm_up_wanted():
        bot.warm_up()
    return bot
