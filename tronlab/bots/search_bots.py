"""Territory and search bots: ``voronoi``, ``multivoronoi``, ``minimax``, ``chamber``.

From the simplest to the contest winner's recipe:

``voronoi``       one move of lookahead: the move after which I am nearer the
                  most squares (A4), separated positions scored by fillable space.
``multivoronoi``  kootenpv's 78-line CodinGame bot (K2): one move of lookahead
                  on the 2-4 player turn-order territory (K1).
``minimax``       negamax alpha-beta over whole turns (H1, H2, A5) with the
                  Voronoi count at the leaves, iterative deepening under the
                  clock (A6); once separated, one move of lookahead finished
                  by the greedy filler (A1).
``chamber``       a1k0n's bot: the same search with the chamber-tree evaluation
                  (A12; ``penalize_battlefront=True`` for A13) and, once
                  separated, the endgame solver (A8).

The search bots value a draw (a head-on crash) at ``draw=-1``, a hair below
an even position: between a crash and an equal game they keep playing (they
still take the crash when every other line looks worse).

Every bot takes ``time=`` (seconds per move; defaults to the rule set's usual
budget) and keeps to it: it plans to answer within ``0.8 * time - 5 ms`` to
leave room for Python and the protocol, and within a quarter of that on the
first move of a game, whose clock may include the program's start-up.  After every move ``bot.last_stats``
says what it did (depth, nodes, evaluations per second, time used); with
``verbose=True`` it also prints them to stderr, one line a move.

The two-player bots play 3-4 player games (CodinGame) with the multi-player
score.  Making a bot compiles (or loads from numba's cache) every kernel it
uses on a tiny board, so the first move is not charged for it (``start_game``
runs under the first move's time limit).
"""

from __future__ import annotations

import sys
import time as _time

import numpy as np

from ..board import Board
from ..chambers import new_scratch
from ..clock import deadline_after, now_ns
from ..endgame import Endgame
from ..evaluate import (K1_DEFAULT, K2_DEFAULT, SEP_WEIGHT_DEFAULT, TERRITORY, evaluate_kernel,
                        is_separated, multi_score_kernel)
from ..search import Searcher
from . import register

DEFAULT_TIME = {"google2010": 1.0, "lightriders": 0.2, "codingame": 0.1}
_WARMUP = """
    1...
    ....
    ...2
"""


def _check_time(time):
    if time is None:
        return None
    if isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0:
        raise ValueError(f"time must be a positive number of seconds per move, got {time!r}")
    return float(time)


class _Bot:
    """Shared plumbing: time budget, stats, verbose output, multi-player fallback."""

    name = "bot"

    def __init__(self, *, time=None, verbose=False, rng=None):
        self.time = _check_time(time)
        self.verbose = bool(verbose)
        self.rules = None
        self.last_stats: dict = {}
        self._counts = None
        self._first = False

    # ---- hooks -------------------------------------------------------------
    def start_game(self, board, player, *, rules=None, time_limit=None, rng=None):
        self.rules = getattr(rules, "name", rules)
        if self.time is None and time_limit is not None:
            self.time = float(time_limit)
        self._first = True

    def warm_up(self):
        """Run every kernel once on a tiny board (compiles or loads the cache)."""
        b = Board.from_ascii(_WARMUP)
        self.choose(b, 0, deadline_after(0.05))
        self._multi(b, 0)

    # ---- moves -------------------------------------------------------------
    def budget(self) -> float:
        """Seconds to think this move: 80% of the time per move less 5 ms; a
        quarter of that on the first move of a game, whose clock may already
        include the program's start-up (imports, numba loading its cache)."""
        t = self.time if self.time is not None else DEFAULT_TIME.get(self.rules, 1.0)
        think = max(0.005, 0.8 * t - 0.005)
        return max(0.005, think / 4) if self._first else think

    def __call__(self, board: Board, player: int) -> int:
        t0 = _time.perf_counter()
        deadline = deadline_after(self.budget())
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

    def choose(self, board, player, deadline) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

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


class VoronoiBot(_Bot):
    """One move of lookahead on Voronoi territory (A4).

    Two guards a bare territory count lacks: a move into a square the opponent
    can also enter this turn risks a head-on crash, so it is worth at most
    ``draw`` (a draw is bad for the side ahead, which then keeps clear); and
    once the players are separated territory says nothing about how to fill,
    so the bot plays the greedy filler's best first move (A1, as ``minimax``).
    """

    name = "voronoi"

    def __init__(self, *, draw=-1, time=None, verbose=False, rng=None):
        super().__init__(time=time, verbose=verbose, rng=rng)
        if isinstance(draw, bool) or not isinstance(draw, (int, np.integer)):
            raise ValueError(f"draw must be an int (squares; 0 = neutral), got {draw!r}")
        self.draw = int(draw)
        self.endgame = Endgame()

    def warm_up(self):
        super().warm_up()
        apart = Board.from_ascii(_WARMUP.replace("....", ".##.").replace("...2", ".#.2"))
        self.endgame.solve(apart, 0, max_depth=1)

    def choose(self, board, player, deadline):
        if is_separated(board):
            _, move = self.endgame.solve(board, player, deadline=deadline, max_depth=1)
            self.last_stats.update({"mode": "endgame", **self.endgame.last_stats})
            return move
        s = self._scratch(board)
        flat = board.flat.copy()
        me, opp = board.heads[player], board.heads[1 - player]
        contested = {opp + off for off in board.offsets}
        best, best_move = None, None
        for m in board.legal_moves(player):
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


class SearchBot(_Bot):
    """Negamax alpha-beta under the clock, with an evaluation and an endgame."""

    name = "search"

    def __init__(self, *, evaluation="territory", time=None, depth=None, endgame_depth=None,
                 k1=K1_DEFAULT, k2=K2_DEFAULT, draw=-1, contempt=0.0, crash="pessimistic",
                 predict=False, matrix=0, tt=True, ordering=True, verbose=False, rng=None):
        super().__init__(time=time, verbose=verbose, rng=rng)
        if isinstance(matrix, bool) or not isinstance(matrix, int) or matrix < 0:
            raise ValueError(f"matrix must be an int >= 0 (squares between the heads), "
                             f"got {matrix!r}")
        self.matrix = matrix
        if (isinstance(contempt, bool) or not isinstance(contempt, (int, float))
                or not 0 <= contempt <= 1):
            raise ValueError(f"contempt must be a number from 0 to 1, got {contempt!r}")
        self.contempt = float(contempt)
        self.draw = draw
        self.searcher = Searcher(evaluation=evaluation, k1=k1, k2=k2, draw=draw, crash=crash,
                                 tt=tt, ordering=ordering)
        self.predict = bool(predict)
        self.rival = Searcher(evaluation=evaluation, k1=k1, k2=k2, draw=draw, crash=crash,
                              tt=tt, ordering=ordering, tt_bits=16) if self.predict else None
        self.endgame = Endgame()
        if depth is not None and (not isinstance(depth, int) or depth < 1):
            raise ValueError(f"depth must be a positive int (turns) or None, got {depth!r}")
        self.depth = depth
        if endgame_depth is not None and (not isinstance(endgame_depth, int) or endgame_depth < 1):
            raise ValueError(f"endgame_depth must be a positive int or None, got {endgame_depth!r}")
        self.endgame_depth = endgame_depth

    def start_game(self, board, player, *, rules=None, time_limit=None, rng=None):
        super().start_game(board, player, rules=rules, time_limit=time_limit, rng=rng)
        self.searcher.reset()
        if self.rival is not None:
            self.rival.reset()

    def warm_up(self):
        super().warm_up()
        apart = Board.from_ascii(_WARMUP.replace("....", ".##.").replace("...2", ".#.2"))
        self.endgame.solve(apart, 0, max_depth=2)
        if self.matrix:
            self._equilibrium_move(np.array([[1.0, -1.0], [-1.0, 1.0]]), [0, 1])

    def choose(self, board, player, deadline):
        if is_separated(board):
            kw = {} if self.endgame_depth is None else {"max_depth": self.endgame_depth}
            value, move = self.endgame.solve(board, player, deadline=deadline, **kw)
            self.last_stats.update({"mode": "endgame", **self.endgame.last_stats})
            return move
        kw = {} if self.depth is None else {"max_depth": self.depth}
        self.searcher.draw = self.draw_value(board, player)
        if self.matrix and self._near(board, player, self.matrix):
            return self._matrix_move(board, player, deadline)
        contested = self._contested(board, player)
        if not (self.predict and contested):
            value, move = self.searcher.search(board, player, deadline=deadline, **kw)
            self.last_stats.update({"mode": "search", **self.searcher.last_stats})
            return move
        # the heads share a free neighbour: a head-on crash is possible this turn
        start = now_ns()
        span = max(0, deadline - start)
        value, move = self.searcher.search(board, player, deadline=start + span // 2, **kw)
        self.last_stats.update({"mode": "search", **self.searcher.last_stats})
        target = int(board.heads[player] + board.offsets[move])
        if target not in contested:
            return move
        # would the opponent, searching from its side, enter the same square?
        opp = 1 - player
        _, theirs = self.rival.search(board, opp, deadline=start + 3 * span // 4, **kw)
        self.last_stats["predicted"] = int(theirs)
        if theirs < 0 or int(board.heads[opp] + board.offsets[theirs]) != target:
            return move
        blocked = board.copy()
        blocked.cells.reshape(-1)[target] = 1
        if not blocked.legal_moves(player):
            return move
        v2, m2 = self.searcher.search(blocked, player, deadline=deadline, **kw)
        self.last_stats["avoided"] = bool(v2 > self.searcher.draw)
        return m2 if v2 > self.searcher.draw else move

    @staticmethod
    def _near(board, player, reach):
        """Are the heads at most ``reach`` squares apart (rows plus columns)?"""
        (x0, y0), (x1, y1) = board.xy(board.heads[player]), board.xy(board.heads[1 - player])
        return abs(x0 - x1) + abs(y0 - y1) <= reach

    def _matrix_move(self, board, player, deadline):
        """Close to the opponent, where a move it *sees* is worth the most, treat
        the first turn as what it is, a simultaneous game: search every pair
        (my move, its move) a turn shallower and play the move an equilibrium
        of that payoff table favours (a pure saddle point when there is one)."""
        kw = {} if self.depth is None else {"max_depth": self.depth}
        value, move = self.searcher.search(board, player, deadline=deadline,
                                           max_depth=1)   # a fallback answer at once
        stats = dict(self.searcher.last_stats)
        opp = 1 - player
        mine, theirs = board.legal_moves(player), board.legal_moves(opp)
        if len(mine) < 2 or not theirs:
            self.last_stats.update({"mode": "search", **stats})
            return move
        depth = 1
        limit = kw.get("max_depth", 60)
        nodes = stats.get("nodes", 0)
        for d in range(2, limit + 1):
            table = np.zeros((len(mine), len(theirs)))
            done = True
            for i, m in enumerate(mine):
                t = int(board.heads[player] + board.offsets[m])
                for j, u in enumerate(theirs):
                    w = int(board.heads[opp] + board.offsets[u])
                    if t == w:
                        table[i, j] = self.searcher.draw
                        continue
                    child = board.copy()
                    child.flat[t] = 2 + player
                    child.flat[w] = 2 + opp
                    child.heads[player] = t
                    child.heads[opp] = w
                    st = np.zeros(8, np.int64)
                    v, _, ok = self.searcher.search_depth(child, player, d - 1, deadline=deadline,
                                                          stats=st)
                    nodes += int(st[0])
                    if not ok:
                        done = False
                        break
                    table[i, j] = v
                if not done:
                    break
            if not done:
                break
            move, value, depth = self._equilibrium_move(table, mine) + (d,)
            if now_ns() >= deadline:
                break
        self.last_stats.update({"mode": "matrix", "depth": depth, "value": value,
                                "nodes": nodes})
        return move

    @staticmethod
    def _equilibrium_move(table, mine):
        """My move from a zero-sum payoff table (rows mine, I maximise): the
        pure max-min move when it is a saddle point, else the move the optimal
        mixed strategy plays most often (solved as a small linear program)."""
        a = np.clip(table, -1e9, 1e9) / 1e6
        row_min = a.min(axis=1)
        lower = row_min.max()
        upper = a.max(axis=0).min()
        if upper - lower <= 1e-9:
            i = int(row_min.argmax())
            return mine[i], int(table[i].min())
        from scipy.optimize import linprog
        r, c = a.shape
        # variables x_1..x_r, v: maximise v with (x A)_j >= v for every column j
        cost = np.zeros(r + 1)
        cost[-1] = -1.0
        a_ub = np.hstack([-a.T, np.ones((c, 1))])
        res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(c), A_eq=[[1.0] * r + [0.0]], b_eq=[1.0],
                      bounds=[(0, 1)] * r + [(None, None)], method="highs")
        if not res.success:
            i = int(row_min.argmax())
            return mine[i], int(table[i].min())
        i = int(np.argmax(res.x[:r]))
        return mine[i], int(round(res.x[-1] * 1e6))

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

    @staticmethod
    def _contested(board, player):
        """Free squares both heads can enter this turn."""
        flat = board.flat
        mine = {int(board.heads[player] + o) for o in board.offsets}
        return {int(board.heads[1 - player] + o) for o in board.offsets
                if flat[board.heads[1 - player] + o] == 0} & mine


class MinimaxBot(SearchBot):
    """Alpha-beta with the Voronoi count (A5); a greedy one-move filler when separated."""

    name = "minimax"

    def __init__(self, *, evaluation="territory", endgame_depth=1, **options):
        super().__init__(evaluation=evaluation, endgame_depth=endgame_depth, **options)


class ChamberBot(SearchBot):
    """a1k0n's recipe: alpha-beta + chamber-tree evaluation (A12) + endgame solver (A8)."""

    name = "chamber"

    def __init__(self, *, penalize_battlefront=False, **options):
        options.setdefault("evaluation", "chamber-a13" if penalize_battlefront else "chamber")
        super().__init__(**options)


def _warm(bot):
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
