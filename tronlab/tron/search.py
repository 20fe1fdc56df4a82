"""Negamax alpha-beta search for two-player Tron under a real clock
(techniques H1, H2, H3, H4, H5, A5, A6).

The game tree
-------------
Tron turns are simultaneous.  Following zenzike's Haskell bot, a turn is
searched as two plies: I pick a move, then the opponent picks one *knowing
mine* (a pessimistic model: the opponent is granted perfect reactions).  Only
positions after whole turns are evaluated (even plies), so both players have
moved the same number of times.  If the opponent picks the square I picked,
both crash: a draw, worth ``draw`` to me (0 unless asked otherwise).  A
player with no free neighbour loses; if both have none, it is a draw.  A
loss found ``k`` plies from the root is worth ``-WIN + k`` to the loser (a win
``WIN - k`` to the winner): a lost bot holds out as long as it can, a winning
one finishes quickly.  The transposition table stores such values counted
from the node, not the root, so they stay right when reached at another ply.

Seeing my move lets the opponent choose the crash whenever a draw suits it,
which is what the pessimistic model (``crash="pessimistic"``, the default)
assumes.  In the real game it moves without knowing mine, so it cannot aim at
my square: ``crash="blind"`` drops the crash from its choices unless it is its
only move.  Neither model is the simultaneous game itself (a payoff table per
turn, solved for mixed strategies); each is a one-sided simplification that
alpha-beta can search.

Negamax (H1) writes minimax with one rule: a node's value is the best of the
*negated* values of its children, each value seen from the side to move.
Alpha-beta keeps a window ``(alpha, beta)`` of values that can still matter
and stops at a child whose value reaches ``beta`` (a cut-off): the parent will
never allow this line.  Values are fail-soft (a node may return a bound outside
the window).

Separation (H3, A5): once the heads are in different components the players
can no longer touch; the node is scored from fillable space
(:func:`tronlab.tron.evaluate.separated_score_kernel`) and not searched further.

Time (A6, H5)
-------------
:class:`Searcher` deepens one turn at a time against an *absolute* deadline.
The kernel reads the clock every :data:`CLOCK_EVERY` nodes (see
:mod:`tronlab.jit.clock`); when time is up it restores the board and reports the
iteration unfinished, which is thrown away: the move of the last *completed*
depth is played.  On a big board (more than :data:`TIMED_SIZE` squares) one
node's work - a separation test and an evaluation, each a walk over the whole
board - can take milliseconds (a chamber-tree evaluation of a 300x300 map takes
~10 ms on an idle core), so there the kernel reads the clock at every node,
times each node's work, and stops as soon as the most expensive node seen so
far (this move, or the previous move: ``stats[S_COST]``) would not fit before
the deadline.  When not even depth 1 finishes, :meth:`Searcher.search` answers
with the legal move into the square with the most free neighbours
(``benchmarks/lateness.py`` measures how late the bots answer per map size).

Ordering and reuse (H4)
-----------------------
Alpha-beta cuts more when good moves come first.  Three sources, tried in this
order: the principal variation of the previous iteration, the move stored in
the transposition table for this position, and the *killer* move that last
caused a cut-off at the same ply.  The transposition table is keyed by Zobrist
hashing (a random 64-bit number per filled square and per head square, XORed
together, updated incrementally) and kept by the :class:`Searcher` between
turns, so the positions searched for the last move give cut-offs for the next.

The kernel is one loop over an explicit stack of frames (no recursion): each
frame holds a node's window, its ordered moves and what was changed on the
board to get to its child.  Heads are unsigned inside (cheap indexing) and
handed to other modules' kernels as int64, so each cached kernel keeps one
signature.
"""

from __future__ import annotations

import time as _time

import numpy as np

from .board import Board
from .chambers import new_scratch
from ..jit.clock import NO_DEADLINE, clock_ns, deadline_after, now_ns
from ..jit.kernels import KernelTable, kernel
from .evaluate import (K1_DEFAULT, K2_DEFAULT, SEP_WEIGHT_DEFAULT, check_two_players,
                       check_weights, eval_code, heuristic_kernel, separated_score_kernel)
from ..grid.voronoi import territory_kernel

WIN = np.int64(1) << np.int64(40)       # value of a won game (far above any evaluation)
INF = np.int64(1) << np.int64(50)       # beyond every value: the initial window
MAX_DEPTH = 60                           # turns
MAX_PLY = 2 * MAX_DEPTH + 2
CLOCK_EVERY = 16                         # nodes between two looks at the clock (a power of 2)
TIMED_SIZE = 1024                        # boards with more squares look at every node and
                                         # time each node's work (see "Time" above)

# frame fields
F_ALPHA, F_BETA, F_BEST, F_BESTMOVE, F_IDX, F_N, F_M0 = 0, 1, 2, 3, 4, 5, 6
F_TARGET, F_APPLIED, F_ALPHA0, F_FROM_ME, F_FROM_OPP = 10, 11, 12, 13, 14
N_FIELDS = 15

# stats fields
S_NODES, S_EVALS, S_SEPARATED, S_TT_HITS, S_TT_CUTS, S_ABORTED = 0, 1, 2, 3, 4, 5
S_COST, S_COST_SEEN = 6, 7     # ns: a node's expected work (given), the most one took (seen)
N_STATS = 8

# collision models (see the module doc)
PESSIMISTIC, BLIND = 0, 1
CRASH_MODELS = {"pessimistic": PESSIMISTIC, "blind": BLIND}

# transposition-table bound flags
EXACT, LOWER, UPPER = 1, 2, 3


# ---------------------------------------------------------------------------
# the C reference search, line for line (for the benchmark against ref.c)
# ---------------------------------------------------------------------------
@kernel
def reference_search_kernel(flat, head0, head1, stride, depth, dist, owner, queue, frames, stats):
    """The search of ``bench/ref.c``: plain fail-soft alpha-beta negamax where
    player 0 moves, then player 1 on the changed board (no collisions, sequential
    plies), ``depth`` plies, moves in the order up, right, down, left, -10000 for
    a side with no move, leaves ``territory(side to move) - territory(other)``.

    ``flat`` is changed during the search and restored.  ``frames`` int64
    [depth + 1, N_FIELDS]; ``stats[S_NODES]`` gets the node count as ref.c counts
    it.  Returns ``(value, move)``.
    """
    loss = -10000
    inf = 1000000
    up = np.uint64(0) - np.uint64(stride)
    offs = (up, np.uint64(1), np.uint64(stride), np.uint64(0) - np.uint64(1))
    pos0 = np.uint64(head0)
    pos1 = np.uint64(head1)
    nodes = 1
    if depth == 0:
        n0, n1, _, _ = territory_kernel(flat, head0, head1, stride, dist, owner, queue)
        stats[S_NODES] = nodes
        return n0 - n1, -1
    frames[0, F_ALPHA] = -inf
    frames[0, F_BETA] = inf
    frames[0, F_BEST] = -inf
    frames[0, F_BESTMOVE] = -1
    frames[0, F_IDX] = 0
    ply = 0
    while True:
        k = frames[ply, F_IDX]
        if k < 4 and frames[ply, F_ALPHA] < frames[ply, F_BETA]:
            frames[ply, F_IDX] = k + 1
            src = pos0 if (ply & 1) == 0 else pos1
            n = src + offs[k]
            if flat[n] != 0:
                continue
            flat[n] = 1
            frames[ply, F_FROM_ME] = src
            if ply & 1:
                pos1 = n
            else:
                pos0 = n
            nodes += 1
            child = ply + 1
            if child == depth:                      # a leaf: evaluate for the side to move there
                if child & 1:
                    n0, n1, _, _ = territory_kernel(flat, np.int64(pos1), np.int64(pos0), stride,
                                                    dist, owner, queue)
                else:
                    n0, n1, _, _ = territory_kernel(flat, np.int64(pos0), np.int64(pos1), stride,
                                                    dist, owner, queue)
                v = -(n0 - n1)
                flat[n] = 0
                if ply & 1:
                    pos1 = src
                else:
                    pos0 = src
                if v > frames[ply, F_BEST]:
                    frames[ply, F_BEST] = v
                    frames[ply, F_BESTMOVE] = k
                if v > frames[ply, F_ALPHA]:
                    frames[ply, F_ALPHA] = v
                continue
            frames[child, F_ALPHA] = -frames[ply, F_BETA]
            frames[child, F_BETA] = -frames[ply, F_ALPHA]
            frames[child, F_BEST] = -inf
            frames[child, F_BESTMOVE] = -1
            frames[child, F_IDX] = 0
            ply = child
            continue
        # the node is finished
        val = frames[ply, F_BEST]
        if val == -inf:
            val = loss
        if ply == 0:
            stats[S_NODES] = nodes
            return val, frames[0, F_BESTMOVE]
        ply -= 1
        k = frames[ply, F_IDX] - 1
        src = np.uint64(frames[ply, F_FROM_ME])
        if ply & 1:
            flat[pos1] = 0
            pos1 = src
        else:
            flat[pos0] = 0
            pos0 = src
        v = -val
        if v > frames[ply, F_BEST]:
            frames[ply, F_BEST] = v
            frames[ply, F_BESTMOVE] = k
        if v > frames[ply, F_ALPHA]:
            frames[ply, F_ALPHA] = v


# ---------------------------------------------------------------------------
# the real search
# ---------------------------------------------------------------------------
@kernel
def _legal_count(flat, head, offs):
    c = 0
    for k in range(4):
        if flat[head + offs[k]] == 0:
            c += 1
    return c


@kernel(inline="always")
def _to_table(v, ply):
    """A won or lost value, counted from the root, as counted from this node."""
    if v >= WIN - MAX_PLY:
        return v + ply
    if v <= -WIN + MAX_PLY:
        return v - ply
    return v


@kernel(inline="always")
def _from_table(v, ply):
    """The inverse of :func:`_to_table` at ``ply``."""
    if v >= WIN - MAX_PLY:
        return v - ply
    if v <= -WIN + MAX_PLY:
        return v + ply
    return v


@kernel
def _update_kernel(frames, pv, pv_len, killers, ply, m, v, use_order):
    """A child of the node at ``ply`` reached by move ``m`` is worth ``v`` to
    this node's side: keep the best, raise alpha (extending the principal
    variation), remember a move that cuts off as the ply's killer."""
    if v > frames[ply, F_BEST]:
        frames[ply, F_BEST] = v
        frames[ply, F_BESTMOVE] = m
    if v > frames[ply, F_ALPHA]:
        frames[ply, F_ALPHA] = v
        pv[ply, ply] = m
        n = pv_len[ply + 1]
        for i in range(ply + 1, n):
            pv[ply, i] = pv[ply + 1, i]
        pv_len[ply] = max(n, ply + 1)
        if v >= frames[ply, F_BETA] and use_order:
            killers[ply] = m


@kernel(sig=("Tuple((i8, i8, b1))(u1[::1], i8, i8, i8, i8, i8, f8, f8, i8, i8, i8, b1, b1, i8, "
             "u8[:, ::1], u8[::1], i8[::1], i2[::1], i1[::1], i1[::1], i1[::1], i1[::1], i8, "
             "i1[:, ::1], i8[::1], i8[:, ::1], u8[::1], u1[::1], ChamberScratch, i8[::1])"))
def negamax_kernel(flat, me_head, opp_head, stride, depth, code, k1, k2, sep_weight, draw,
                   crash, use_tt, use_order, deadline, zobrist, tt_key, tt_val, tt_depth, tt_flag,
                   tt_move, killers, prev_pv, prev_pv_len, pv, pv_len, frames, keys, onpv,
                   cs, stats):
    """Depth-limited negamax alpha-beta over whole turns (see the module doc).

    ``depth`` is in turns (two plies each), at least 1.  ``code``, ``k1``,
    ``k2`` and ``sep_weight`` choose the evaluation (:mod:`tronlab.tron.evaluate`);
    ``draw`` is the value of a draw to me (0, or a little below to avoid
    draws).  ``use_tt`` and ``use_order`` switch the transposition table and move
    ordering on.  ``deadline``: absolute time in ns (:func:`tronlab.jit.clock.clock_ns`).

    Scratch and state: ``zobrist`` uint64[3, n] (filled square, my head, the
    opponent's head); the table ``tt_key`` uint64, ``tt_val`` int64,
    ``tt_depth`` int16, ``tt_flag`` int8, ``tt_move`` int8, all of one
    power-of-2 size; ``killers`` int8[MAX_PLY]; ``prev_pv`` int8[MAX_PLY] with
    ``prev_pv_len`` moves (the line to try first); ``pv`` int8[MAX_PLY, MAX_PLY]
    and ``pv_len`` int64[MAX_PLY] receive the new principal variation (row 0);
    ``frames`` int64[MAX_PLY, N_FIELDS]; ``keys`` uint64[MAX_PLY]; ``onpv``
    uint8[MAX_PLY]; ``cs`` the evaluations' scratch
    (:func:`tronlab.tron.chambers.new_scratch`); ``stats`` int64[N_STATS] is added to.

    Returns ``(value, move, completed)``.  When the deadline passes the board is
    restored and ``completed`` is False (value and move are then meaningless).
    """
    up = np.uint64(0) - np.uint64(stride)
    offs = (up, np.uint64(1), np.uint64(stride), np.uint64(0) - np.uint64(1))
    mask = np.uint64(tt_key.size - 1)
    hm = np.uint64(me_head)
    ho = np.uint64(opp_head)
    key = np.uint64(0)
    for i in range(flat.size):
        if flat[i] != 0:
            key ^= zobrist[0, i]
    keys[0] = key ^ zobrist[1, hm] ^ zobrist[2, ho]
    max_ply = 2 * depth
    nodes = stats[S_NODES]
    timed = flat.size > TIMED_SIZE
    every = 0 if timed else CLOCK_EVERY - 1
    entered = np.int64(0)
    frames[0, F_ALPHA] = -INF
    frames[0, F_BETA] = INF
    onpv[0] = 1 if prev_pv_len > 0 else 0
    ply = 0
    state = 0                   # 0: enter the node at ply, 1: try its next move, 2: return val
    val = np.int64(0)
    while True:
        if state == 0:
            # ---- enter: set the node up, or know its value at once ----
            nodes += 1
            pv_len[ply] = ply
            frames[ply, F_APPLIED] = 0
            if (nodes & every) == 0:
                entered = clock_ns()
                cost = max(stats[S_COST], stats[S_COST_SEEN]) if timed else np.int64(0)
                if entered + cost >= deadline:      # time is up, or this node would not fit
                    for q in range(ply - 1, 0, -1):
                        if frames[q, F_APPLIED]:
                            flat[frames[q - 1, F_TARGET]] = 0
                            flat[frames[q, F_TARGET]] = 0
                    stats[S_NODES] = nodes
                    stats[S_ABORTED] += 1
                    return np.int64(0), -1, False
            state = 1
            first = -1
            if (ply & 1) == 0:
                src = hm
                if _legal_count(flat, hm, offs) == 0:
                    val = draw if _legal_count(flat, ho, offs) == 0 else -WIN + ply
                    if ply == 0:
                        stats[S_NODES] = nodes
                        return val, -1, True
                    state = 2
                elif ply > 0:
                    sep, score = separated_score_kernel(flat, np.int64(hm), np.int64(ho), stride,
                                                        sep_weight, cs.dist,
                                                        cs.owner, cs.queue)
                    if sep:
                        stats[S_SEPARATED] += 1
                        val = score
                        state = 2
                    elif ply == max_ply:
                        stats[S_EVALS] += 1
                        val = heuristic_kernel(flat, np.int64(hm), np.int64(ho), stride, code,
                                           k1, k2, cs)
                        state = 2
                    if timed:
                        took = clock_ns() - entered
                        if took > stats[S_COST_SEEN]:
                            stats[S_COST_SEEN] = took
                if state == 1 and use_tt:
                    slot = keys[ply] & mask
                    if tt_key[slot] == keys[ply]:
                        stats[S_TT_HITS] += 1
                        first = tt_move[slot]
                        if ply > 0 and tt_depth[slot] >= depth - ply // 2:
                            tv = _from_table(tt_val[slot], ply)
                            fl = tt_flag[slot]
                            if (fl == EXACT or (fl == LOWER and tv >= frames[ply, F_BETA])
                                    or (fl == UPPER and tv <= frames[ply, F_ALPHA])):
                                stats[S_TT_CUTS] += 1
                                val = tv
                                state = 2
            else:
                src = ho
            if state == 1:
                # ---- order the legal moves: PV, table move, killer, the rest ----
                if not use_order:
                    first = -1
                elif onpv[ply] and ply < prev_pv_len:
                    first = prev_pv[ply]
                second = killers[ply] if use_order else -1
                n_moves = 0
                for j in range(6):
                    m = first if j == 0 else (second if j == 1 else j - 2)
                    if m < 0 or flat[src + offs[m]] != 0:
                        continue
                    dup = False
                    for i in range(n_moves):
                        if frames[ply, F_M0 + i] == m:
                            dup = True
                    if not dup:
                        frames[ply, F_M0 + n_moves] = m
                        n_moves += 1
                if n_moves == 0:            # only at odd plies: the opponent is stuck and loses
                    val = -WIN + ply
                    state = 2
                else:
                    frames[ply, F_N] = n_moves
                    frames[ply, F_IDX] = 0
                    frames[ply, F_BEST] = -INF
                    frames[ply, F_BESTMOVE] = -1
                    frames[ply, F_ALPHA0] = frames[ply, F_ALPHA]
            continue
        if state == 2:
            # ---- return: hand `val` to the parent and undo the move into it ----
            ply -= 1
            if frames[ply, F_APPLIED]:
                flat[hm] = 0
                flat[ho] = 0
                hm = np.uint64(frames[ply, F_FROM_ME])
                ho = np.uint64(frames[ply, F_FROM_OPP])
                frames[ply, F_APPLIED] = 0
            m = frames[ply, F_M0 + frames[ply, F_IDX] - 1]
            _update_kernel(frames, pv, pv_len, killers, np.int64(ply), m, -val, use_order)
            state = 1
            continue
        # ---- next: try the node's next move, or finish it ----
        idx = frames[ply, F_IDX]
        if idx >= frames[ply, F_N] or frames[ply, F_ALPHA] >= frames[ply, F_BETA]:
            val = frames[ply, F_BEST]
            if (ply & 1) == 0 and use_tt:
                slot = keys[ply] & mask
                tt_key[slot] = keys[ply]
                tt_val[slot] = _to_table(val, ply)
                tt_depth[slot] = depth - ply // 2
                tt_move[slot] = frames[ply, F_BESTMOVE]
                if val <= frames[ply, F_ALPHA0]:
                    tt_flag[slot] = UPPER
                elif val >= frames[ply, F_BETA]:
                    tt_flag[slot] = LOWER
                else:
                    tt_flag[slot] = EXACT
            if ply == 0:
                stats[S_NODES] = nodes
                return val, frames[0, F_BESTMOVE], True
            state = 2
            continue
        m = frames[ply, F_M0 + idx]
        frames[ply, F_IDX] = idx + 1
        child = ply + 1
        frames[child, F_ALPHA] = -frames[ply, F_BETA]
        frames[child, F_BETA] = -frames[ply, F_ALPHA]
        onpv[child] = 1 if (onpv[ply] and ply < prev_pv_len and prev_pv[ply] == m) else 0
        if (ply & 1) == 0:
            frames[ply, F_TARGET] = hm + offs[m]
            ply = child
            state = 0
            continue
        t = np.uint64(frames[ply - 1, F_TARGET])
        u = ho + offs[m]
        frames[ply, F_TARGET] = u
        if u == t:                          # both enter the same square: both crash, a draw
            if crash == BLIND and frames[ply, F_N] > 1:
                continue                    # the opponent cannot aim at my square: not a choice
            nodes += 1
            pv_len[child] = child
            _update_kernel(frames, pv, pv_len, killers, np.int64(ply), m, -draw, use_order)
            continue
        flat[t] = 1
        flat[u] = 1
        frames[ply, F_FROM_ME] = hm
        frames[ply, F_FROM_OPP] = ho
        frames[ply, F_APPLIED] = 1
        keys[child] = (keys[ply - 1] ^ zobrist[0, t] ^ zobrist[0, u]
                       ^ zobrist[1, hm] ^ zobrist[1, t] ^ zobrist[2, ho] ^ zobrist[2, u])
        hm = t
        ho = u
        ply = child
        state = 0


# ---------------------------------------------------------------------------
# Python side: the searcher object (state kept between moves) and wrappers
# ---------------------------------------------------------------------------
def _zobrist(size: int) -> np.ndarray:
    """Random 64-bit keys, fixed per board size (so tables survive between moves)."""
    rng = np.random.default_rng(0x7E0E + size)
    return rng.integers(0, np.iinfo(np.uint64).max, size=(3, size), dtype=np.uint64, endpoint=True)


class Searcher:
    """Negamax alpha-beta with iterative deepening, for one player of a 2-player game.

    Keeps its transposition table, killers and scratch between calls, so
    consecutive moves of one game reuse each other's work (H4); call
    :meth:`reset` for a new game.  After each :meth:`search`, ``last_stats``
    holds what happened (depth reached, nodes, evaluations, time, ...).

    Options (keyword-only): ``evaluation`` ('territory', 'edges', 'linear';
    see :mod:`tronlab.tron.evaluate`), ``k1``/``k2`` (linear weights),
    ``sep_weight``, ``draw`` (value of a draw to me: a small negative number
    makes the bot avoid head-on crashes in even positions), ``crash``
    ('pessimistic' or 'blind': may the opponent aim at my square; see the
    module doc), ``tt`` and
    ``ordering`` (switch the table and move ordering),
    ``tt_bits`` (table size 2**tt_bits entries).
    """

    def __init__(self, *, evaluation="linear", k1=K1_DEFAULT, k2=K2_DEFAULT,
                 sep_weight=SEP_WEIGHT_DEFAULT, draw=0, crash="pessimistic", tt=True,
                 ordering=True, tt_bits=20):
        self.code = eval_code(evaluation)
        if crash not in CRASH_MODELS:
            raise ValueError(f"crash must be one of {sorted(CRASH_MODELS)}, got {crash!r}")
        self.crash = CRASH_MODELS[crash]
        self.k1, self.k2, self.sep_weight = check_weights(k1, k2, sep_weight)
        self.tt, self.ordering = bool(tt), bool(ordering)
        self._draw = None
        self.draw = draw
        if not isinstance(tt_bits, int) or not 4 <= tt_bits <= 26:
            raise ValueError(f"tt_bits must be an int from 4 to 26, got {tt_bits!r}")
        n = 1 << tt_bits
        self.tt_key = np.zeros(n, np.uint64)
        self.tt_val = np.zeros(n, np.int64)
        self.tt_depth = np.zeros(n, np.int16)
        self.tt_flag = np.zeros(n, np.int8)
        self.tt_move = np.zeros(n, np.int8)
        self.killers = np.full(MAX_PLY, -1, np.int8)
        self.pv = np.zeros((MAX_PLY, MAX_PLY), np.int8)
        self.pv_len = np.zeros(MAX_PLY, np.int64)
        self.frames = np.zeros((MAX_PLY, N_FIELDS), np.int64)
        self.keys = np.zeros(MAX_PLY, np.uint64)
        self.onpv = np.zeros(MAX_PLY, np.uint8)
        self.scratch = None
        self.zobrist = None
        self.node_cost = 0          # ns: the most one node's work took last move (big boards)
        self.last_stats: dict = {}

    def reset(self) -> None:
        """Forget everything learned (call between games)."""
        self.tt_key[:] = 0
        self.killers[:] = -1
        self.node_cost = 0

    @property
    def draw(self) -> int:
        """The value of a draw to the searching player."""
        return self._draw

    @draw.setter
    def draw(self, value) -> None:
        # Table entries hold values scored with the draw value of their search: a new
        # draw value (a bot with contempt sets one every move) empties the table.
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                or abs(value) >= WIN:
            raise ValueError(f"draw must be an int value (0 = neutral), got {value!r}")
        if self._draw is not None and int(value) != self._draw:
            self.tt_key[:] = 0
        self._draw = int(value)

    def _prepare(self, board):
        size = board.flat.size
        if self.scratch is None or self.scratch.dist.size != size:
            self.scratch = new_scratch(size)
            self.zobrist = _zobrist(size)
            self.reset()

    def search_depth(self, board, player, depth, *, deadline=NO_DEADLINE, prev_pv=None,
                     stats=None):
        """One depth-limited search (``depth`` turns): ``(value, move, completed)``."""
        me, opp = check_two_players(board, player)
        if not isinstance(depth, (int, np.integer)) or not 1 <= depth <= MAX_DEPTH:
            raise ValueError(f"depth must be an int from 1 to {MAX_DEPTH} turns, got {depth!r}")
        self._prepare(board)
        s = self.scratch
        stats = np.zeros(N_STATS, np.int64) if stats is None else stats
        prev = np.zeros(MAX_PLY, np.int8)
        n_prev = 0
        if prev_pv is not None and self.ordering:
            n_prev = min(len(prev_pv), MAX_PLY)
            prev[:n_prev] = prev_pv[:n_prev]
        flat = board.flat.copy()
        v, m, done = negamax_kernel(
            flat, board.heads[me], board.heads[opp], np.int64(board.stride), np.int64(depth),
            np.int64(self.code), self.k1, self.k2, np.int64(self.sep_weight), np.int64(self.draw),
            np.int64(self.crash), self.tt, self.ordering,
            np.int64(deadline), self.zobrist, self.tt_key, self.tt_val, self.tt_depth, self.tt_flag,
            self.tt_move, self.killers, prev, np.int64(n_prev), self.pv, self.pv_len, self.frames,
            self.keys, self.onpv, s, stats)
        return int(v), int(m), bool(done)

    def search(self, board, player, *, time=None, deadline=None, max_depth=MAX_DEPTH):
        """Iterative deepening, one turn deeper each round, until ``max_depth``
        turns, a decided game, or the deadline (an absolute time from
        :func:`tronlab.jit.clock.deadline_after`; or ``time`` seconds from now).
        The last *completed* depth's move is returned: ``(value, move)``;
        ``move`` is -1 only when the player has no legal move.  With fewer than
        two legal moves there is nothing to choose and nothing is searched:
        ``value`` is ``None`` and ``last_stats["forced"]`` is true."""
        t0 = _time.perf_counter()
        if deadline is None:
            deadline = deadline_after(time)
        elif time is not None:
            raise ValueError("give time or deadline, not both")
        me, opp = check_two_players(board, player)
        legal = board.legal_moves(me)
        stats = np.zeros(N_STATS, np.int64)
        stats[S_COST] = self.node_cost
        value, move, depth, pv = None, (legal[0] if legal else -1), 0, None
        if len(legal) > 1:
            move = roomiest_move(board, me)
            for d in range(1, max_depth + 1):
                before = stats.copy()
                v, m, done = self.search_depth(board, me, d, deadline=deadline, prev_pv=pv,
                                               stats=stats)
                if not done:
                    break
                value, move, depth = v, m, d
                pv = self.pv[0, :self.pv_len[0]].copy()
                if abs(v) >= WIN - MAX_PLY or now_ns() >= deadline:
                    break
                if stats[S_EVALS] == before[S_EVALS] and stats[S_TT_CUTS] == before[S_TT_CUTS]:
                    # every line ended (crash or separation) before the depth limit:
                    # deeper searches would find the same
                    break
        if stats[S_COST_SEEN]:
            self.node_cost = int(stats[S_COST_SEEN])
        elapsed = _time.perf_counter() - t0
        nodes = int(stats[S_NODES])
        self.last_stats = {
            "depth": depth, "value": value, "move": move, "nodes": nodes,
            "forced": len(legal) <= 1,
            "evals": int(stats[S_EVALS]), "separated_leaves": int(stats[S_SEPARATED]),
            "tt_hits": int(stats[S_TT_HITS]), "tt_cuts": int(stats[S_TT_CUTS]),
            "node_ms": int(stats[S_COST_SEEN]) / 1e6,
            "time": elapsed, "nodes_per_s": nodes / elapsed if elapsed > 0 else 0.0,
            "evals_per_s": int(stats[S_EVALS]) / elapsed if elapsed > 0 else 0.0,
            "pv": [] if pv is None else [int(x) for x in pv],
        }
        return value, move


def roomiest_move(board, player) -> int:
    """The move played when not even a one-turn search fits in the time (a huge
    board): into the free square with the most free neighbours, away from squares
    the opponent can enter this turn; ties to the lower move number; -1 with no
    legal move.

    >>> roomiest_move(Board.from_ascii('''
    ...     #######
    ...     #.#....
    ...     #1.....
    ...     #.#..2.
    ...     #######
    ... '''), 0)
    1
    """
    flat, offs = board.flat, board.offsets
    near = {int(board.heads[q] + o) for q in range(board.n_players)
            if q != player and board.alive[q] for o in offs}
    best, best_move = None, -1
    for m in board.legal_moves(player):
        t = int(board.heads[player] + offs[m])
        score = (t not in near, sum(flat[t + o] == 0 for o in offs))
        if best is None or score > best:
            best, best_move = score, m
    return best_move


def negamax(board, player=0, *, depth=2, evaluation="linear", k1=K1_DEFAULT, k2=K2_DEFAULT,
            sep_weight=SEP_WEIGHT_DEFAULT, draw=0, crash="pessimistic", tt=True, ordering=True):
    """Fixed-depth negamax alpha-beta (``depth`` whole turns): ``(value, move)``.

    >>> b = Board.from_ascii('''
    ...     #####
    ...     #1..#
    ...     ##.##
    ...     #..2#
    ...     #####
    ... ''')
    >>> negamax(b, 0, depth=1, evaluation="territory")[1]   # right: down is a dead end
    1
    """
    s = Searcher(evaluation=evaluation, k1=k1, k2=k2, sep_weight=sep_weight, draw=draw,
                 crash=crash, tt=tt, ordering=ordering, tt_bits=16)
    v, m, _ = s.search_depth(board, player, depth)
    return v, m


def reference_search(board, *, depth=6):
    """ref.c's search from player 0 (see :func:`reference_search_kernel`):
    ``(value, move, nodes)``."""
    if not isinstance(board, Board) or board.n_players != 2:
        raise ValueError("reference_search needs a 2-player Board")
    if not isinstance(depth, int) or not 0 <= depth <= 40:
        raise ValueError(f"depth must be an int from 0 to 40, got {depth!r}")
    flat = board.flat.copy()
    s = new_scratch(flat.size)
    stats = np.zeros(N_STATS, np.int64)
    frames = np.zeros((depth + 1, N_FIELDS), np.int64)
    v, m = reference_search_kernel(flat, board.heads[0], board.heads[1], np.int64(board.stride),
                                   np.int64(depth), s.dist, s.owner, s.queue, frames, stats)
    return int(v), int(m), int(stats[S_NODES])


# the kernels compile on first use; Python calls prefer ahead-of-time twins
_kernels = KernelTable(globals())
