"""Territory and search bots: ``voronoi``, ``multivoronoi``, ``minimax``, ``chamber``.

From the simplest to the contest winner's recipe:

``voronoi``       one move of lookahead: the move after which I am nearer the
                  most squares (A4); a square the opponent can also enter this
                  turn is worth at most a draw; once separated, the greedy
                  filler's move (A1).
``multivoronoi``  kootenpv's 78-line CodinGame bot (K2): one move of lookahead
                  on the 2-4 player turn-order territory (K1).
``minimax``       negamax alpha-beta over whole turns (H1, H2, A5) with the
                  Voronoi count at the leaves, iterative deepening under the
                  clock (A6); once separated, one move of lookahead finished
                  by the greedy filler (A1).
``chamber``       a1k0n's bot: the same search with the chamber-tree evaluation
                  (A12; ``penalize_battlefront=True`` for A13, ``literal=F``
                  for the write-up's literal readings, see
                  :mod:`tronlab.tron.chambers`) and, once separated, the
                  endgame solver (A8).

The search bots value a draw (a head-on crash) at ``draw=-1``, a hair below
an even position: between a crash and an equal game they keep playing (they
still take the crash when every other line looks worse).  ``contempt=c`` (0 to
1) also takes ``c`` times the static evaluation off the draw value, so a bot
that is ahead avoids crashes more and one that is behind seeks them;
``crash="blind"`` searches with an opponent that cannot aim at my square (see
:mod:`tronlab.tron.search`).  Both are options: on the 2010 maps neither changed the
results measurably (``benchmarks/strength.py``).  Nor did ``reduce=1`` (late
move reductions, see :mod:`tronlab.tron.search`): three turns deeper, and level
with ``chamber`` over 554 games.

Every bot takes ``time=`` (seconds per move; defaults to the rule set's usual
budget) and plans to answer within ``0.8 * time - 5 ms`` (room for Python and
the protocol), a quarter of that on a game's first move, whose clock may hold
the program's start-up.  Under a time bank (Light Riders: the server says before
each move how long the bot has, ``set_clock``) it plans 80% of
:func:`tronlab.tron.lightriders.move_time`: the time added a move plus the bank's
surplus shared over the rounds the game can still last, less a margin, so the
bank never runs dry; a bank that cannot grow (``start_game``'s ``time_bank`` no
more than the time added a move) is a limit a move: four fifths of it, less the margin.
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
from ..chambers import chamber_flags, new_scratch
from ...jit.clock import deadline_after, now_ns
from ..endgame import Endgame
from ..lightriders import move_time
from ..evaluate import (CHAMBER, K1_DEFAULT, K2_DEFAULT, SEP_WEIGHT_DEFAULT, TERRITORY,
                        evaluate_kernel, is_separated, multi_score_kernel)
from ..search import Searcher
from ..values import check_flag, check_number, is_whole
from ...runner.registry import check_time, register, warm_up_wanted

#: a contest program (:meth:`_Bot.set_turn_start`) plans at most this share of the move's time,
#: less at least this margin (s), from the turn's first input line: 80 ms of CodinGame's 100
#: (in process ``nash`` and ``hybrid`` plan 95% less 2 ms: the arena allows twice the time)
CONTEST_SHARE, CONTEST_MARGIN = 0.85, 0.005
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
    _rounds_left = 1       # rounds the game can still last (half the free squares, plus one)
    _full_bank = None      # the game's whole bank (start_game's time_bank), None: unknown

    def __init__(self, *, time=None, verbose=False, rng=None):
        self.time = check_time(time)
        self.verbose = check_flag(verbose, "verbose")
        self.rules = None
        self.last_stats: dict = {}
        self._counts = None
        self._first = False

    # ---- hooks -------------------------------------------------------------
    def start_game(self, board, player, *, rules=None, time_limit=None, rng=None, time_bank=None):
        self.rules = getattr(rules, "name", rules)
        self._full_bank = None if time_bank is None else float(time_bank[0])
        if self.time is None and time_limit is not None:
            self.time = float(time_limit)
        self._first = True
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
            return think
        plan = max(0.001, share * move_time(bank, t, self._rounds_left,
                                            urgent=self.urgency(), full=self._full_bank))
        return min(plan, think) if self._first else plan

    def __call__(self, board: Board, player: int) -> int:
        if self._clock is not None:          # only a bank is shared over the rounds left
            self._rounds_left = int((board.cells == FREE).sum()) // 2 + 1
        try:
            return self._move(board, player)
        finally:
            self._clock = self._turn_start = None

    def _move(self, board: Board, player: int) -> int:
        t0 = _time.perf_counter()
        start = self._turn_start
        deadline = (deadline_after(self.budget()) if start is None
                    else start + int(self.budget() * 1e9))
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


class _EndgameBot(_Bot):
    """A two-player bot that, once the players are separated, plays the endgame
    solver's move (A8), searching at most ``endgame_depth`` moves deep (None: until
    the parity bound or the deadline; 1: the greedy filler's best first move, A1)."""

    def __init__(self, *, endgame_depth=None, time=None, verbose=False, rng=None):
        super().__init__(time=time, verbose=verbose, rng=rng)
        if endgame_depth is not None and (not is_whole(endgame_depth) or endgame_depth < 1):
            raise ValueError(f"endgame_depth must be a positive int or None, got {endgame_depth!r}")
        self.endgame_depth = None if endgame_depth is None else int(endgame_depth)
        self.endgame = Endgame()

    def warm_up(self):
        super().warm_up()
        apart = Board.from_ascii(_WARMUP.replace("....", ".##.").replace("...2", ".#.2"))
        self.endgame.solve(apart, 0, max_depth=2)

    def endgame_move(self, board, player, deadline):
        """The endgame solver's move when the players are separated, else None."""
        if not is_separated(board):
            return None
        kw = {} if self.endgame_depth is None else {"max_depth": self.endgame_depth}
        _, move = self.endgame.solve(board, player, deadline=deadline, **kw)
        self.last_stats.update({"mode": "endgame", **self.endgame.last_stats})
        return move

    def choose(self, board, player, deadline):
        """The endgame solver's move once the players are apart, else :meth:`contested_move`'s."""
        move = self.endgame_move(board, player, deadline)
        return move if move is not None else self.contested_move(board, player, deadline)

    @abstractmethod
    def contested_move(self, board, player, deadline) -> int:
        """The move (0-3) while the heads can still meet."""


class VoronoiBot(_EndgameBot):
    """One move of lookahead on Voronoi territory (A4).

    Two guards a bare territory count lacks: a move into a square the opponent
    can also enter this turn risks a head-on crash, so it is worth at most
    ``draw`` (a draw is bad for the side ahead, which then keeps clear); and
    once the players are separated territory says nothing about how to fill,
    so the bot plays the greedy filler's best first move (A1, as ``minimax``).
    """

    name = "voronoi"

    def __init__(self, *, draw=-1, time=None, verbose=False, rng=None):
        super().__init__(endgame_depth=1, time=time, verbose=verbose, rng=rng)
        if not is_whole(draw):
            raise ValueError(f"draw must be an int (squares; 0 = neutral), got {draw!r}")
        self.draw = int(draw)

    def contested_move(self, board, player, deadline):
        s = self._scratch(board)
        flat = board.flat.copy()
        me, opp = board.heads[player], board.heads[1 - player]
        contested = {opp + off for off in board.offsets}
        best, best_move = None, None
        for m in board.legal_moves(player):
            if best is not None and now_ns() >= deadline:    # a huge board, a loaded machine
                break
            t = me + board.offsets[m]
            flat[t] = 2 + player
            v = int(evaluate_kernel(flat, t, opp, np.int64(board.stride), np.int64(TERRITORY),
                                    K1_DEFAULT, K2_DEFAULT, np.int64(SEP_WEIGHT_DEFAULT), s))
            flat[t] = 0
            if t in contested:
                v = min(v, self.draw)
            if best is None or v > best:
                best, best_move = v, m
        self.last_stats.update({"mode": "territory", "depth": 1, "value": best})
        return best_move


class MultiVoronoiBot(_Bot):
    """kootenpv's bot (K2): one move of lookahead on turn-order territory."""

    name = "multivoronoi"

    def choose(self, board, player, deadline):
        return self._multi(board, player)


class SearchBot(_EndgameBot):
    """Negamax alpha-beta under the clock, with an evaluation and an endgame."""

    name = "search"

    def __init__(self, *, evaluation="territory", time=None, depth=None, endgame_depth=None,
                 k1=K1_DEFAULT, k2=K2_DEFAULT, sep_weight=SEP_WEIGHT_DEFAULT, draw=-1, contempt=0.0,
                 crash="pessimistic", tt=True, ordering=True, reduce=0, verbose=False, rng=None):
        super().__init__(endgame_depth=endgame_depth, time=time, verbose=verbose, rng=rng)
        self.contempt = check_number(contempt, "contempt", 0, high=1)
        self.draw = draw
        self.searcher = Searcher(evaluation=evaluation, k1=k1, k2=k2, sep_weight=sep_weight,
                                 draw=draw, crash=crash, tt=tt, ordering=ordering, reduce=reduce)
        if depth is not None and (not is_whole(depth) or depth < 1):
            raise ValueError(f"depth must be a positive int (turns) or None, got {depth!r}")
        self.depth = None if depth is None else int(depth)

    def contested_move(self, board, player, deadline):
        kw = {} if self.depth is None else {"max_depth": self.depth}
        self.searcher.draw = self.draw_value(board, player)
        value, move = self.searcher.search(board, player, deadline=deadline, **kw)
        self.last_stats.update({"mode": "search", **self.searcher.last_stats})
        return move

    def draw_value(self, board, player):
        """The value of a draw in this move's search: ``draw``, less ``contempt``
        times the static evaluation of the position (a draw throws a lead away
        and rescues a deficit)."""
        if not self.contempt:
            return self.draw
        s = self._scratch(board)
        me, opp = board.heads[player], board.heads[1 - player]
        static = int(evaluate_kernel(board.flat, me, opp, np.int64(board.stride),
                                     np.int64(self.searcher.code), self.searcher.k1,
                                     self.searcher.k2, np.int64(self.searcher.sep_weight), s))
        return self.draw - int(round(self.contempt * static))


class MinimaxBot(SearchBot):
    """Alpha-beta with the Voronoi count (A5); a greedy one-move filler when separated."""

    name = "minimax"

    def __init__(self, *, evaluation="territory", endgame_depth=1, **options):
        super().__init__(evaluation=evaluation, endgame_depth=endgame_depth, **options)


class ChamberBot(SearchBot):
    """a1k0n's recipe: alpha-beta + chamber-tree evaluation (A12) + endgame solver (A8)."""

    name = "chamber"

    def __init__(self, *, penalize_battlefront=False, literal=0, **options):
        flags = chamber_flags(penalize_battlefront, literal)
        options.setdefault("evaluation", CHAMBER + flags)
        super().__init__(**options)


def _warm(bot):
    if warm_up_wanted():
        bot.warm_up()
    return bot


@register("voronoi", description="one move of lookahead on Voronoi territory (A4)")
def make_voronoi(*, rng=None, time=None, verbose=False, draw=-1):
    return _warm(VoronoiBot(draw=draw, time=time, verbose=verbose, rng=rng))


@register("multivoronoi",
          description="kootenpv's 2-4 player bot: one move on turn-order territory (K1, K2)")
def make_multivoronoi(*, rng=None, time=None, verbose=False):
    return _warm(MultiVoronoiBot(time=time, verbose=verbose, rng=rng))


@register("minimax", description="alpha-beta + Voronoi evaluation under the clock (A5, A6, H1-H5)")
def make_minimax(*, rng=None, time=None, **options):
    return _warm(MinimaxBot(time=time, rng=rng, **options))


@register("chamber", description="a1k0n's bot: alpha-beta + chamber trees + endgame (A8, A12)")
def make_chamber(*, rng=None, time=None, **options):
    return _warm(ChamberBot(time=time, rng=rng, **options))
