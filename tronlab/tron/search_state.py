"""The arrays the alpha-beta search works in, each named for what it holds.

:func:`tronlab.tron.alphabeta.negamax_kernel` walks the game tree on an
explicit stack: one entry per ply in each array of :class:`Frames`.  It keeps
the transposition table in the five arrays of :class:`TransTable` and the lines
it orders moves by in :class:`Lines`.  All three are NamedTuples of numpy
arrays, passed to the kernel as one argument each (numba reads them as
tuples), made once by :func:`new_frames`, :func:`new_table` and
:func:`new_lines` and reused for every search.

Also here: the values (``WIN``, ``INF``), the depth limits, the indices of the
``stats`` array the kernel adds to, the collision models and the table's bound
flags.

>>> fr = new_frames()
>>> fr.alpha.shape, fr.moves.shape, fr.target.dtype
((122,), (122, 4), dtype('uint64'))
>>> t = new_table(4)
>>> t.key.size, t.value.dtype, t.depth.dtype
(16, dtype('int64'), dtype('int16'))
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit.kernels import sig_type

WIN = np.int64(1) << np.int64(40)       # value of a won game (far above any evaluation)
INF = np.int64(1) << np.int64(50)       # beyond every value: the initial window
MAX_DEPTH = 60                           # turns
MAX_PLY = 2 * MAX_DEPTH + 2
CLOCK_EVERY = 16                         # nodes between two looks at the clock (a power of 2)
TIMED_SIZE = 1024                        # boards with more squares look at every node and
                                         # time each node's work (see tronlab.tron.search)

# indices into the stats array (int64[N_STATS], added to by the kernel)
S_NODES, S_EVALS, S_SEPARATED, S_TT_HITS, S_TT_CUTS, S_ABORTED = 0, 1, 2, 3, 4, 5
S_COST, S_COST_SEEN = 6, 7     # ns: a node's expected work (given), the most one took (seen)
N_STATS = 8

# collision models (see tronlab.tron.search)
PESSIMISTIC, BLIND = 0, 1
CRASH_MODELS = {"pessimistic": PESSIMISTIC, "blind": BLIND}

# transposition-table bound flags
EXACT, LOWER, UPPER = 1, 2, 3


class Frames(NamedTuple):
    """The search's stack: entry ``ply`` of each array belongs to the node at ``ply``."""
    alpha: np.ndarray       # int64[MAX_PLY] the window's lower end (raised as children return)
    beta: np.ndarray        # int64[MAX_PLY] the window's upper end
    alpha0: np.ndarray      # int64[MAX_PLY] alpha on entry (to flag the table entry)
    best: np.ndarray        # int64[MAX_PLY] the best child value so far
    best_move: np.ndarray   # int64[MAX_PLY] the move that gave it (-1: none yet)
    moves: np.ndarray       # int64[MAX_PLY, 4] the legal moves, in the order they are tried
    n_moves: np.ndarray     # int64[MAX_PLY] how many
    next_move: np.ndarray   # int64[MAX_PLY] index in ``moves`` of the next one to try
    target: np.ndarray      # uint64[MAX_PLY] the square the node's side moves into
    applied: np.ndarray     # uint8[MAX_PLY] the turn below this (odd) ply is on the board
    from_me: np.ndarray     # uint64[MAX_PLY] my head before that turn
    from_opp: np.ndarray    # uint64[MAX_PLY] the opponent's head before that turn
    key: np.ndarray         # uint64[MAX_PLY] Zobrist key of the position (even plies)
    on_pv: np.ndarray       # uint8[MAX_PLY] the node lies on the previous principal variation
    red: np.ndarray         # int64[MAX_PLY] turns cut from the depth on the way to the node (LMR)
    reduced: np.ndarray     # uint8[MAX_PLY] the move being tried here is searched a turn short
    research: np.ndarray    # uint8[MAX_PLY] the next move is a reduced one tried again in full


def new_frames() -> Frames:
    """Zeroed frames for the deepest search (:data:`MAX_PLY` plies)."""
    i8 = [np.zeros(MAX_PLY, np.int64) for _ in range(5)]
    return Frames(*i8, np.zeros((MAX_PLY, 4), np.int64), np.zeros(MAX_PLY, np.int64),
                  np.zeros(MAX_PLY, np.int64), np.zeros(MAX_PLY, np.uint64),
                  np.zeros(MAX_PLY, np.uint8), np.zeros(MAX_PLY, np.uint64),
                  np.zeros(MAX_PLY, np.uint64), np.zeros(MAX_PLY, np.uint64),
                  np.zeros(MAX_PLY, np.uint8), np.zeros(MAX_PLY, np.int64),
                  np.zeros(MAX_PLY, np.uint8), np.zeros(MAX_PLY, np.uint8))


class TransTable(NamedTuple):
    """The transposition table: slot ``key & (size - 1)`` of each array, one power-of-2 size."""
    key: np.ndarray         # uint64 the full Zobrist key stored there (0: empty)
    value: np.ndarray       # int64 the value, wins and losses counted from the node
    depth: np.ndarray       # int16 turns searched below the node
    flag: np.ndarray        # int8 EXACT, LOWER (true value >= value) or UPPER bound
    move: np.ndarray        # int8 the best move found there


def new_table(bits: int) -> TransTable:
    """An empty table of ``2**bits`` slots."""
    n = 1 << bits
    return TransTable(np.zeros(n, np.uint64), np.zeros(n, np.int64), np.zeros(n, np.int16),
                      np.zeros(n, np.int8), np.zeros(n, np.int8))


class Lines(NamedTuple):
    """The move lines the search orders by and reports."""
    killers: np.ndarray     # int8[MAX_PLY] the move that last caused a cut-off at each ply
    prev_pv: np.ndarray     # int8[MAX_PLY] the previous iteration's principal variation
    pv: np.ndarray          # int8[MAX_PLY, MAX_PLY] row p: the best line found from ply p
    pv_len: np.ndarray      # int64[MAX_PLY] where row p of ``pv`` ends


def new_lines() -> Lines:
    return Lines(np.full(MAX_PLY, -1, np.int8), np.zeros(MAX_PLY, np.int8),
                 np.zeros((MAX_PLY, MAX_PLY), np.int8), np.zeros(MAX_PLY, np.int64))


# for kernel signatures (tronlab.jit.kernels)
sig_type("SearchFrames", new_frames)
sig_type("TransTable", lambda: new_table(1))
sig_type("SearchLines", new_lines)
