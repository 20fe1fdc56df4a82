"""Simultaneous-move search for two-player Tron valued by Nash equilibria
(techniques L1, L2, L3, L5, L6; after the Light Riders write-up,
"Lightriders-AI").

The game tree
-------------
Under the Google 2010 and Light Riders rules both players move at once.  A
node is a position; its children are the *joint* moves: every move of mine
(the rows) against every move of the opponent (the columns).  That gives a
payoff matrix, each cell the value of the position after that pair of moves,
and the node is worth the value of that zero-sum matrix game
(:func:`tronlab.nash.zero_sum.solve_zero_sum_kernel`, L1) - what I can
guarantee with a mixed strategy when neither side sees the other's move.

* A player without a free neighbour has one move, "dead" (it crashes).
* A cell is *terminal* when somebody dies: one dies, the other wins; both die
  (both dead, or both enter the same square) is a draw.  Swapping squares
  cannot happen here: each enters the other's head, which is never a legal
  move.  A game won after ``t`` turns is worth ``WIN - t`` (quick wins, slow
  losses); a draw is worth ``draw``.
* Once the heads cannot meet (separated) a non-root node is a leaf worth the
  separated score of :func:`tronlab.tron.evaluate.separated_value_kernel`; at the
  depth limit a node is worth the heuristic evaluation (territory by default,
  :func:`tronlab.tron.evaluate.heuristic_kernel`, L3).  Values are for me.

Saddle-point pruning (L2)
-------------------------
Cells are searched one at a time, terminal ones first (they are free); after
each one :func:`tronlab.nash.saddle.next_cell_kernel` says whether the cells
known so far settle the node (a saddle point) and otherwise which cell to
search next and with what window.  Checking a saddle candidate worth ``a``
only needs each cell of its row shown ``>= a`` and each of its column
``<= a``: an alpha-beta question, so such cells are searched with a null
window and come back as bounds.  Every node therefore has a window
``(alpha, beta)`` and may answer with a bound outside it (fail-soft); each cell
keeps a lower and an upper bound.  The root's window is infinite, so its value
is exact; a mixed node has every cell searched exactly before it is solved.

Move order (L6)
---------------
At the root the moves are tried by the probabilities of the previous
iteration's equilibrium.  Deeper, a hint table keyed by the Zobrist hash of the
position keeps the most likely pair of moves of the last search of that
position; those moves go first (a node cut by a row keeps that row and its
weakest column: the reply that refutes it first if a deeper search does).
Where the table has no hint, the moves that last settled a node at the same
turn go first (killers).  Good moves first make the first candidate a saddle
point more often.

Reuse (L6)
----------
The same table keeps the value bounds each search proved, with the depth it
searched (:mod:`tronlab.tron.nash_table`): a cell searched twice (a null-window
proof, then exactly) evaluates its leaves once, and the next move's shallow
iterations mostly read the bounds the last move's deep one proved.  Measured
on 99 consecutive positions of three Light Riders games, 6 turns deep:
240,878 evaluations without table and killers, 159,115 with the table,
121,366 with both (chamber's alpha-beta: 97,967), the same moves; at 75 ms a
move the search now reaches as deep as chamber's (7.2 turns v 7.3, was 6.6).

The kernel walks the tree with an explicit stack (one frame per turn:
``lo``, ``hi``, ``window``, ``moves``, ``counts``, ``cell``, ``heads``,
``keys`` in a :class:`NashScratch`), no recursion, and allocates nothing.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit.clock import clock_ns
from ..jit.kernels import KernelTable, kernel, sig_type
from ..nash import maximin, saddle, zero_sum
from ..nash.saddle import FILL, LOWER, SADDLE, SOLVE, UPPER
from . import search_guards
from .evaluate import heuristic_kernel, separated_value_kernel
from .nash_table import FINAL, MAX_DEPTH, WIN, hint_cell_kernel, probe_kernel, store_kernel

CLOCK_EVERY = 16            # nodes between two looks at the clock (a power of 2)
TIMED_SIZE = 1024           # bigger boards: the clock at every node, each node's work timed

# stats fields
(S_NODES, S_EVALS, S_SEPARATED, S_MATRICES, S_SADDLE, S_SOLVED, S_CELLS, S_TERMINAL,
 S_SKIPPED, S_HINTS, S_ABORTED, S_CUTS, S_TWOPLY, S_COST, S_COST_SEEN, S_TABLE) = range(16)
N_STATS = 16
STAT_NAMES = ("nodes", "evals", "separated_leaves", "matrices", "saddle", "solved", "cells",
              "terminal_cells", "skipped_cells", "hint_hits", "aborted", "cuts", "twoply",
              "node_cost_ns", "node_ns", "table_hits")



class NashScratch(NamedTuple):
    """Per-turn frames and scratch of :func:`nash_search_kernel` (:func:`new_scratch`)."""
    lo: np.ndarray         # float64[MAX_DEPTH + 1, 4, 4] lower bounds of the cells
    hi: np.ndarray         # float64[MAX_DEPTH + 1, 4, 4] upper bounds (equal: exact)
    window: np.ndarray     # float64[MAX_DEPTH + 1, 2] each node's (alpha, beta)
    moves: np.ndarray      # int64[MAX_DEPTH + 1, 2, 4] rows' and columns' moves (-1: dead)
    counts: np.ndarray     # int64[MAX_DEPTH + 1, 2] number of rows and columns
    cell: np.ndarray       # int64[MAX_DEPTH + 1, 2] the cell being searched below
    heads: np.ndarray      # int64[MAX_DEPTH + 1, 2] both heads at each turn
    keys: np.ndarray       # uint64[MAX_DEPTH + 1] Zobrist keys
    row: np.ndarray        # float64[4] solver output
    col: np.ndarray        # float64[4]
    tab: np.ndarray        # solver scratch (zero_sum.new_scratch(4, 4))
    idx: np.ndarray
    twoply: np.ndarray     # bool[MAX_DEPTH + 1] the node at each turn is valued two-ply
    killers: np.ndarray    # int64[MAX_DEPTH + 1, 2] each turn's last proving moves (-1: none)


def new_scratch() -> NashScratch:
    d = MAX_DEPTH + 1
    z = zero_sum.new_scratch(4, 4)
    return NashScratch(np.zeros((d, 4, 4)), np.zeros((d, 4, 4)), np.zeros((d, 2)),
                       np.zeros((d, 2, 4), np.int64), np.zeros((d, 2), np.int64),
                       np.zeros((d, 2), np.int64), np.zeros((d, 2), np.int64),
                       np.zeros(d, np.uint64), np.zeros(4), np.zeros(4), z.tableau, z.index,
                       np.zeros(d, np.bool_), np.full((d, 2), -1, np.int64))


def _scratch_layout(_size):
    return new_scratch()


def _guard(*args):
    search_guards.nash_search(_scratch_layout, MAX_DEPTH, N_STATS, *args)


sig_type("NashScratch", new_scratch)      # for kernel signatures (tronlab.jit.kernels)


# ---------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------
@kernel
def order_moves_kernel(flat, head, offs, prior, use_prior, first, out):
    """Write the legal moves of ``head`` into ``out``: by ``prior`` (float64[4],
    by move code) from the most likely down when ``use_prior``, else ``first``
    first; ties in move order.  ``-1`` alone (the dead move) when there is none.
    Returns how many entries."""
    n = 0
    for m in range(4):
        if flat[head + offs[m]] == 0:
            out[n] = m
            n += 1
    if n == 0:
        out[0] = -1
        return 1
    for a in range(1, n):           # insertion sort by the key, stable
        m = out[a]
        key = prior[m] if use_prior else (1.0 if m == first else 0.0)
        b = a
        while b > 0:
            o = out[b - 1]
            if (prior[o] if use_prior else (1.0 if o == first else 0.0)) >= key:
                break
            out[b] = o
            b -= 1
        out[b] = m
    return n


@kernel
def has_move_kernel(flat, head, offs):
    """Does ``head`` have a free neighbour?"""
    for m in range(4):
        if flat[head + offs[m]] == 0:
            return True
    return False


@kernel
def can_meet_kernel(a, b, stride, turns):
    """Can heads ``a`` and ``b`` enter one square on the same turn within
    ``turns`` turns?  Only if their grid distance is even and at most
    ``2 * turns`` (each step changes a head's checkerboard colour)."""
    d = abs(a % stride - b % stride) + abs(a // stride - b // stride)
    return d % 2 == 0 and d <= 2 * turns


@kernel
def fill_terminal_kernel(lo, hi, moves, m, n, hm, ho, offs, turns, draw):
    """Value the cells where somebody dies (``turns`` = turns played after the
    joint move) and mark the others unknown; returns how many were terminal."""
    count = 0
    for i in range(m):
        for j in range(n):
            a = moves[0, i]
            b = moves[1, j]
            lo[i, j] = -np.inf
            hi[i, j] = np.inf
            if a < 0 or b < 0 or hm + offs[a] == ho + offs[b]:
                count += 1
                v = draw
                if a < 0 and b >= 0:
                    v = -(WIN - turns)
                elif b < 0 and a >= 0:
                    v = WIN - turns
                lo[i, j] = v
                hi[i, j] = v
    return count


@kernel(sig=("Tuple((f8, b1))(u1[::1], i8, i8, i8, i8, i8, f8, f8, i8, f8, b1, b1, b1, b1, b1, i8, "
             "f8[:, ::1], u8[:, ::1], u8[::1], i8[:, ::1], f8[:, ::1], i8[::1], f8[:, ::1], "
             "NashScratch, ChamberScratch, i8[::1])"), guard=_guard)
def nash_search_kernel(flat, me, opp, stride, depth, code, k1, k2, sep_weight, draw, prune,
                       order, hybrid, table, killers, deadline, prior, zobrist, hint_key, hint_move,
                       bounds, left, strategy, ns, cs, stats):
    """Value for ``me`` of a ``depth``-turn simultaneous search (module doc).

    ``prune``/``order`` switch L2 and L6.  ``hybrid``: a node whose heads
    cannot meet before the depth limit (:func:`can_meet_kernel`) is valued by
    the two-ply model instead of the matrix game
    (:func:`tronlab.nash.maximin.maximin_next_cell_kernel`).  ``prior`` float64[2, 4]: root move
    probabilities by move code for me and the opponent (``prior[p, 0] < 0``:
    none).  ``zobrist`` uint64[3, n]; the table (:mod:`tronlab.tron.nash_table`)
    ``hint_key`` uint64[2**b], ``hint_move`` int64[2**b, 2], ``bounds``
    float64[2**b, 2], ``left`` int64[2**b]; ``table`` switches its bounds on
    (the hints follow ``order``); ``killers``: where the table has no hint, try
    first the moves that last settled a node at the same turn; ``strategy``
    float64[2, 4] receives the root equilibrium by move code; ``ns`` a
    :class:`NashScratch`, ``cs`` the evaluations' scratch
    (:func:`tronlab.tron.chambers.new_scratch`); ``stats`` int64[N_STATS] is
    added to.  ``flat`` is changed and restored.  Returns
    ``(value, completed)``: False when ``deadline`` (ns) passed first.
    """
    # Why one long kernel: one explicit-stack loop whose three states (enter a node,
    # search its next cell, hand a value up) share the frame variables.
    offs = (np.int64(-stride), np.int64(1), np.int64(stride), np.int64(-1))
    mask = np.uint64(hint_key.size - 1)
    key = np.uint64(0)
    for i in range(flat.size):
        if flat[i] != 0:
            key ^= zobrist[0, i]
    ns.keys[0] = key ^ zobrist[1, me] ^ zobrist[2, opp]
    ns.heads[0, 0] = me
    ns.heads[0, 1] = opp
    ns.window[0, 0] = -np.inf
    ns.window[0, 1] = np.inf
    ply = np.int64(0)      # np.int64: a bare 0 is a literal to numba, a second signature
    state = 0                   # 0: enter the node at ply, 1: its next cell, 2: return val
    val = 0.0
    kind = np.int64(SADDLE)               # what val is: exact (SADDLE), a LOWER or an UPPER bound
    timed = flat.size > TIMED_SIZE         # big boards: see tronlab.tron.search, "Time"
    every = 0 if timed else CLOCK_EVERY - 1
    entered = np.int64(0)
    while True:
        hm = ns.heads[ply, 0]
        ho = ns.heads[ply, 1]
        if state == 0:
            stats[S_NODES] += 1
            if (stats[S_NODES] & every) == 0:
                entered = clock_ns()
                cost = max(stats[S_COST], stats[S_COST_SEEN]) if timed else np.int64(0)
                if entered + cost >= deadline:     # time is up, or this node would not fit
                    for q in range(ply, 0, -1):
                        flat[ns.heads[q, 0]] = 0
                        flat[ns.heads[q, 1]] = 0
                    stats[S_ABORTED] += 1
                    return 0.0, False
            state = 1
            slot = ns.keys[ply] & mask
            if table and ply > 0:
                hit, val, kind, final = probe_kernel(hint_key, bounds, left, ns.keys[ply], slot,
                                                     ply, depth - ply, ns.window[ply, 0],
                                                     ns.window[ply, 1])
                if hit:         # a separated leaf read back still counts as one
                    stats[S_SEPARATED if final else S_TABLE] += 1
                    state = 2
                    continue
            if ply > 0 and has_move_kernel(flat, hm, offs) and has_move_kernel(flat, ho, offs):
                sep, score = separated_value_kernel(flat, hm, ho, stride, sep_weight, code, cs)
                kind = np.int64(SADDLE)
                if sep:
                    stats[S_SEPARATED] += 1
                    val = float(score)
                    state = 2
                elif ply == depth:
                    stats[S_EVALS] += 1
                    val = float(heuristic_kernel(flat, hm, ho, stride, code, k1, k2, cs))
                    state = 2
                if state == 2 and table:
                    store_kernel(hint_key, hint_move, bounds, left, ns.keys[ply], slot, ply,
                                 FINAL if sep else np.int64(0), val, kind)
                if timed:
                    took = clock_ns() - entered
                    if took > stats[S_COST_SEEN]:
                        stats[S_COST_SEEN] = took
            if state == 1:
                h0 = -1
                h1 = -1
                slot = ns.keys[ply] & mask
                if order and ply > 0 and hint_key[slot] == ns.keys[ply]:
                    stats[S_HINTS] += 1
                    h0 = hint_move[slot, 0]
                    h1 = hint_move[slot, 1]
                if killers and h0 < 0:
                    h0 = ns.killers[ply, 0]
                if killers and h1 < 0:
                    h1 = ns.killers[ply, 1]
                mv = ns.moves[ply]
                m = order_moves_kernel(flat, hm, offs, prior[0], order and ply == 0 and
                                       prior[0, 0] >= 0, h0, mv[0])
                n = order_moves_kernel(flat, ho, offs, prior[1], order and ply == 0 and
                                       prior[1, 0] >= 0, h1, mv[1])
                ns.counts[ply, 0] = m
                ns.counts[ply, 1] = n
                ns.twoply[ply] = hybrid and not can_meet_kernel(hm, ho, stride, depth - ply)
                if ns.twoply[ply]:
                    stats[S_TWOPLY] += 1
                stats[S_TERMINAL] += fill_terminal_kernel(ns.lo[ply], ns.hi[ply], mv, m, n,
                                                          hm, ho, offs, ply + 1, draw)
        elif state == 1:
            m = ns.counts[ply, 0]
            n = ns.counts[ply, 1]
            if ns.twoply[ply]:
                what, i, j, a, b = maximin_next_cell_kernel(  # noqa: F821
                    ns.lo[ply], ns.hi[ply], m, n, ns.window[ply, 0], ns.window[ply, 1])
            else:
                what, i, j, a, b = next_cell_kernel(  # noqa: F821
                    ns.lo[ply], ns.hi[ply], m, n, ns.window[ply, 0], ns.window[ply, 1], prune)
            if what == FILL:
                ns.cell[ply, 0] = i
                ns.cell[ply, 1] = j
                ns.window[ply + 1, 0] = a
                ns.window[ply + 1, 1] = b
                t0 = hm + offs[ns.moves[ply, 0, i]]
                t1 = ho + offs[ns.moves[ply, 1, j]]
                flat[t0] = 1
                flat[t1] = 1
                ns.keys[ply + 1] = (ns.keys[ply] ^ zobrist[0, t0] ^ zobrist[0, t1] ^ zobrist[1, hm]
                                    ^ zobrist[1, t0] ^ zobrist[2, ho] ^ zobrist[2, t1])
                ply += 1
                ns.heads[ply, 0] = t0
                ns.heads[ply, 1] = t1
                stats[S_CELLS] += 1
                state = 0
                continue
            stats[S_MATRICES] += 1
            ns.row[:] = 0.0
            ns.col[:] = 0.0
            kind = what
            if what != SOLVE:
                stats[S_SADDLE if what == SADDLE else S_CUTS] += 1
                for r in range(m):
                    for c in range(n):
                        if ns.lo[ply, r, c] == -np.inf and ns.hi[ply, r, c] == np.inf:
                            stats[S_SKIPPED] += 1
                val = a
                ns.row[i] = 1.0
                ns.col[j] = 1.0
            else:
                stats[S_SOLVED] += 1
                kind = np.int64(SADDLE)
                val = solve_zero_sum_kernel(ns.lo[ply], m, n, ns.row,  # noqa: F821
                                            ns.col, ns.tab, ns.idx)
                i = np.argmax(ns.row[:m])
                j = np.argmax(ns.col[:n])
            slot = ns.keys[ply] & mask
            if table:
                store_kernel(hint_key, hint_move, bounds, left, ns.keys[ply], slot, ply,
                             depth - ply, val, kind)
            if killers and what != UPPER:
                ns.killers[ply, 0] = ns.moves[ply, 0, i]
            if killers and what != LOWER:
                ns.killers[ply, 1] = ns.moves[ply, 1, j]
            if hint_key[slot] != ns.keys[ply] or left[slot] <= depth - ply:
                hint_key[slot] = ns.keys[ply]
                i, j = hint_cell_kernel(ns.lo[ply], ns.hi[ply], m, n, what, i, j)
                hint_move[slot, 0] = ns.moves[ply, 0, i]
                hint_move[slot, 1] = ns.moves[ply, 1, j]
            if ply == 0:
                strategy[:] = 0.0
                for r in range(m):
                    if ns.moves[0, 0, r] >= 0:
                        strategy[0, ns.moves[0, 0, r]] = ns.row[r]
                for c in range(n):
                    if ns.moves[0, 1, c] >= 0:
                        strategy[1, ns.moves[0, 1, c]] = ns.col[c]
            state = 2
        else:
            if ply == 0:
                return val, True
            flat[hm] = 0
            flat[ho] = 0
            ply -= 1
            record_child_kernel(  # noqa: F821
                ns.lo[ply], ns.hi[ply], ns.cell[ply, 0], ns.cell[ply, 1], val, kind)
            state = 1


# the kernels compile on first use (tronlab.jit.kernels)
_kernels = KernelTable(globals(), uses={"solve_zero_sum_kernel": zero_sum,
                                        "next_cell_kernel": saddle,
                                        "record_child_kernel": saddle,
                                        "maximin_next_cell_kernel": maximin})
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir
