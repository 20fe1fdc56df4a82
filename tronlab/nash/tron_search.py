"""Simultaneous-move search for two-player Tron valued by Nash equilibria
(techniques L1, L2, L3, L5, L6; after the Light Riders write-up, seed 004,
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
  separated score of :func:`tronlab.evaluate.separated_score_kernel`; at the
  depth limit a node is worth the heuristic evaluation (territory by default,
  :func:`tronlab.evaluate.heuristic_kernel`, L3).  Values are for me.

Saddle-point pruning (L2)
-------------------------
If a cell is the smallest of its row and the largest of its column, the game
has a pure equilibrium and that cell is its value, whatever the cells not yet
searched hold.  So cells are searched one at a time: terminal cells first
(they are free), then, of the cells that could still be such a saddle point
(no smaller value known in its row, no larger in its column), the one with the
fewest unknown cells in its row and column gets its next unknown cell searched.
When the candidate has none left the node is done.  Without a candidate the
next cell in move-order (anti-diagonals from the top left) is searched.  The
check runs after every cell, so a full matrix (and any 1xN or Nx1 one) ends
by a saddle point when it has one, and otherwise goes to the solver.

Move order (L6)
---------------
At the root the moves are tried by the probabilities of the previous
iteration's equilibrium.  Deeper, a hint table keyed by the Zobrist hash of the
position keeps the most likely pair of moves of the last search of that
position; those moves go first.  Good moves first make the first candidate a
saddle point more often.

The kernel walks the tree with an explicit stack (one frame per turn:
``pay``, ``filled``, ``moves``, ``counts``, ``cell``, ``heads``, ``keys`` in a
:class:`NashScratch`), no recursion, and allocates nothing.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._jit import KernelTable, kernel
from ..clock import clock_ns
from ..evaluate import heuristic_kernel, separated_score_kernel
from . import zero_sum

WIN = float(1 << 24)        # a won game: far above any evaluation
MAX_DEPTH = 48              # turns
CLOCK_EVERY = 16            # nodes between two looks at the clock (a power of 2)

# stats fields
(S_NODES, S_EVALS, S_SEPARATED, S_MATRICES, S_SADDLE, S_SOLVED, S_CELLS, S_TERMINAL,
 S_SKIPPED, S_HINTS, S_ABORTED) = range(11)
N_STATS = 11
STAT_NAMES = ("nodes", "evals", "separated_leaves", "matrices", "saddle", "solved", "cells",
              "terminal_cells", "skipped_cells", "hint_hits", "aborted")

# what _next_cell_kernel asks for
FILL, SADDLE, SOLVE = 0, 1, 2


class NashScratch(NamedTuple):
    """Per-turn frames and scratch of :func:`nash_search_kernel` (:func:`new_scratch`)."""
    pay: np.ndarray        # float64[MAX_DEPTH + 1, 4, 4] payoff matrices
    filled: np.ndarray     # uint8[MAX_DEPTH + 1, 4, 4] which cells are known
    moves: np.ndarray      # int64[MAX_DEPTH + 1, 2, 4] rows' and columns' moves (-1: dead)
    counts: np.ndarray     # int64[MAX_DEPTH + 1, 2] number of rows and columns
    cell: np.ndarray       # int64[MAX_DEPTH + 1, 2] the cell being searched below
    heads: np.ndarray      # int64[MAX_DEPTH + 1, 2] both heads at each turn
    keys: np.ndarray       # uint64[MAX_DEPTH + 1] Zobrist keys
    row: np.ndarray        # float64[4] solver output
    col: np.ndarray        # float64[4]
    tab: np.ndarray        # solver scratch (zero_sum.new_scratch(4, 4))
    idx: np.ndarray


def new_scratch() -> NashScratch:
    d = MAX_DEPTH + 1
    z = zero_sum.new_scratch(4, 4)
    return NashScratch(np.zeros((d, 4, 4)), np.zeros((d, 4, 4), np.uint8),
                       np.zeros((d, 2, 4), np.int64), np.zeros((d, 2), np.int64),
                       np.zeros((d, 2), np.int64), np.zeros((d, 2), np.int64),
                       np.zeros(d, np.uint64), np.zeros(4), np.zeros(4), z.tableau, z.index)


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
def fill_terminal_kernel(pay, filled, moves, m, n, hm, ho, offs, turns, draw):
    """Mark and value the cells where somebody dies (``turns`` = turns played
    after the joint move); returns how many."""
    count = 0
    for i in range(m):
        for j in range(n):
            a = moves[0, i]
            b = moves[1, j]
            filled[i, j] = 0
            if a < 0 or b < 0 or hm + offs[a] == ho + offs[b]:
                filled[i, j] = 1
                count += 1
                if a < 0 and b >= 0:
                    pay[i, j] = -(WIN - turns)
                elif b < 0 and a >= 0:
                    pay[i, j] = WIN - turns
                else:
                    pay[i, j] = draw
    return count


@kernel
def next_cell_kernel(pay, filled, m, n, prune):
    """``(what, i, j)``: ``FILL`` cell (i, j) next, ``SADDLE`` at (i, j) is the
    value, or ``SOLVE`` the full matrix (see the module doc)."""
    best = 1 << 20
    bi = -1
    bj = -1
    for i in range(m):
        for j in range(n):
            if filled[i, j] == 0 or not (prune or bi < 0):
                continue
            a = pay[i, j]
            unknown = 0
            ok = True
            for k in range(n):
                if filled[i, k] == 0:
                    unknown += 1
                elif pay[i, k] < a:
                    ok = False
            for k in range(m):
                if filled[k, j] == 0:
                    unknown += 1
                elif pay[k, j] > a:
                    ok = False
            if ok and unknown < best:
                best = unknown
                bi = i
                bj = j
    if prune and bi >= 0:
        if best == 0:
            return SADDLE, bi, bj
        for k in range(n):
            if filled[bi, k] == 0:
                return FILL, bi, k
        for k in range(m):
            if filled[k, bj] == 0:
                return FILL, k, bj
    for s in range(m + n - 1):      # anti-diagonals: the first moves of both first
        for i in range(max(0, s - n + 1), min(m, s + 1)):
            if filled[i, s - i] == 0:
                return FILL, i, s - i
    if bi >= 0 and best == 0:
        return SADDLE, bi, bj
    return SOLVE, 0, 0


@kernel
def nash_search_kernel(flat, me, opp, stride, depth, code, k1, k2, sep_weight, draw, prune,
                       order, deadline, prior, zobrist, hint_key, hint_move, strategy, ns, cs,
                       stats):
    """Value for ``me`` of a ``depth``-turn simultaneous search (module doc).

    ``prune``/``order`` switch L2 and L6.  ``prior`` float64[2, 4]: root move
    probabilities by move code for me and the opponent (``prior[p, 0] < 0``:
    none).  ``zobrist`` uint64[3, n]; the hint table ``hint_key`` uint64[2**b],
    ``hint_move`` int64[2**b, 2]; ``strategy`` float64[2, 4] receives the root
    equilibrium by move code; ``ns`` a :class:`NashScratch`, ``cs`` the
    evaluations' scratch (:func:`tronlab.chambers.new_scratch`); ``stats``
    int64[N_STATS] is added to.  ``flat`` is changed and restored.  Returns
    ``(value, completed)``: False when ``deadline`` (ns) passed first.

    Over 80 lines: one explicit-stack loop whose three states (enter a node,
    search its next cell, hand a value up) share the frame variables.
    """
    offs = (np.int64(-stride), np.int64(1), np.int64(stride), np.int64(-1))
    mask = np.uint64(hint_key.size - 1)
    key = np.uint64(0)
    for i in range(flat.size):
        if flat[i] != 0:
            key ^= zobrist[0, i]
    ns.keys[0] = key ^ zobrist[1, me] ^ zobrist[2, opp]
    ns.heads[0, 0] = me
    ns.heads[0, 1] = opp
    ply = 0
    state = 0                   # 0: enter the node at ply, 1: its next cell, 2: return val
    val = 0.0
    while True:
        hm = ns.heads[ply, 0]
        ho = ns.heads[ply, 1]
        if state == 0:
            stats[S_NODES] += 1
            if (stats[S_NODES] & (CLOCK_EVERY - 1)) == 0 and clock_ns() >= deadline:
                for q in range(ply, 0, -1):
                    flat[ns.heads[q, 0]] = 0
                    flat[ns.heads[q, 1]] = 0
                stats[S_ABORTED] += 1
                return 0.0, False
            state = 1
            if ply > 0 and has_move_kernel(flat, hm, offs) and has_move_kernel(flat, ho, offs):
                sep, score = separated_score_kernel(flat, hm, ho, stride, sep_weight, cs.dist,
                                                    cs.owner, cs.queue)
                if sep:
                    stats[S_SEPARATED] += 1
                    val = float(score)
                    state = 2
                elif ply == depth:
                    stats[S_EVALS] += 1
                    val = float(heuristic_kernel(flat, hm, ho, stride, code, k1, k2, cs))
                    state = 2
            if state == 1:
                h0 = -1
                h1 = -1
                slot = ns.keys[ply] & mask
                if order and ply > 0 and hint_key[slot] == ns.keys[ply]:
                    stats[S_HINTS] += 1
                    h0 = hint_move[slot, 0]
                    h1 = hint_move[slot, 1]
                mv = ns.moves[ply]
                m = order_moves_kernel(flat, hm, offs, prior[0], order and ply == 0 and
                                       prior[0, 0] >= 0, h0, mv[0])
                n = order_moves_kernel(flat, ho, offs, prior[1], order and ply == 0 and
                                       prior[1, 0] >= 0, h1, mv[1])
                ns.counts[ply, 0] = m
                ns.counts[ply, 1] = n
                stats[S_TERMINAL] += fill_terminal_kernel(ns.pay[ply], ns.filled[ply], mv, m, n,
                                                          hm, ho, offs, ply + 1, draw)
        elif state == 1:
            m = ns.counts[ply, 0]
            n = ns.counts[ply, 1]
            what, i, j = next_cell_kernel(ns.pay[ply], ns.filled[ply], m, n, prune)
            if what == FILL:
                ns.cell[ply, 0] = i
                ns.cell[ply, 1] = j
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
            if what == SADDLE:
                stats[S_SADDLE] += 1
                for a in range(m):
                    for b in range(n):
                        stats[S_SKIPPED] += 1 - ns.filled[ply, a, b]
                val = ns.pay[ply, i, j]
                ns.row[i] = 1.0
                ns.col[j] = 1.0
            else:
                stats[S_SOLVED] += 1
                val = solve_zero_sum_kernel(ns.pay[ply], m, n, ns.row,  # noqa: F821
                                            ns.col, ns.tab, ns.idx)
                i = np.argmax(ns.row[:m])
                j = np.argmax(ns.col[:n])
            slot = ns.keys[ply] & mask
            hint_key[slot] = ns.keys[ply]
            hint_move[slot, 0] = ns.moves[ply, 0, i]
            hint_move[slot, 1] = ns.moves[ply, 1, j]
            if ply == 0:
                strategy[:] = 0.0
                for a in range(m):
                    if ns.moves[0, 0, a] >= 0:
                        strategy[0, ns.moves[0, 0, a]] = ns.row[a]
                for b in range(n):
                    if ns.moves[0, 1, b] >= 0:
                        strategy[1, ns.moves[0, 1, b]] = ns.col[b]
            state = 2
        else:
            if ply == 0:
                return val, True
            flat[hm] = 0
            flat[ho] = 0
            ply -= 1
            ns.pay[ply, ns.cell[ply, 0], ns.cell[ply, 1]] = val
            ns.filled[ply, ns.cell[ply, 0], ns.cell[ply, 1]] = 1
            state = 1


# the kernels compile on first use (tronlab._jit)
_kernels = KernelTable(globals(), uses={"solve_zero_sum_kernel": zero_sum})
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir
