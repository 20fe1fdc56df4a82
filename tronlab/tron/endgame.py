"""The endgame: filling one's own region for as long as possible (technique A8).

Once the players are separated (:func:`tronlab.tron.evaluate.is_separated`) the
opponent no longer matters: the winner is whoever makes more moves, so each
side wants the *longest path* from its head through its own region.  That is
NP-hard in general, but the regions of a contest map are small and a good
greedy filler is usually close to optimal.  a1k0n's endgame combines the two:

* try **every** sequence of the next ``d`` own moves (depth-first, explicit
  stack);
* finish each sequence with the greedy filler (:mod:`tronlab.tron.spacefill`, A1) and
  count the moves of the whole line;
* deepen ``d`` one move at a time while the clock allows (A6) and keep the
  first move of the best line of the last completed depth.

Two things stop the deepening early:

* a line reaching the checkerboard-parity bound (A10,
  :func:`tronlab.grid.parity.fill_bound_kernel`): nothing can be longer;
* a depth at which no line was cut short by the depth limit: every line was
  followed to its end, so the answer is exact.

Inside one depth, a line is abandoned as soon as its length so far plus the
parity bound of what is left cannot beat the best line found (branch and
bound).  Values are numbers of moves from the current position.
"""

from __future__ import annotations

import time as _time

import numpy as np

from .board import Board, check_board, check_head  # noqa: F401 - the doctests use Board
from ..jit.clock import clock_ns, search_deadline
from .spacefill import fill_length_kernel, new_scratch as new_filler_scratch
from ..grid.parity import fill_bound_kernel
from ..grid.ring import POTENTIAL_ARTICULATION
from ..jit.kernels import KernelTable, kernel
from .values import check_whole
from ..grid import guards
from . import search_guards

MAX_ENDGAME_DEPTH = 400

# stats fields; E_COST, E_COST_SEEN: ns, a node's expected work (given) and the most one took
E_NODES, E_LEAVES, E_PRUNED, E_ABORTED, E_COST, E_COST_SEEN = 0, 1, 2, 3, 4, 5
N_STATS = 6
TIMED_SIZE = 1024     # bigger boards: each node's work is timed (a leaf fills the whole region)
LEAF_PER_BOUND = 200  # first guess of a leaf's cost: this many parity bounds of the region
                      # (measured 60-150 on 100x100 to 300x300 maps)


def _endgame_guard(flat, head, stride, depth, target, deadline, pos, idx, first, seen, stack,
                   table, fs, stats):
    guards.on_grid(flat, stride, {"head": head}, seen=seen, stack=stack)
    guards.between("depth", depth, 0, min(pos.size, idx.size, first.size) - 1)
    guards.sized(fs, flat.size, new_filler_scratch, "spacefill.new_scratch", "fs")
    search_guards.filler_scratch(flat, table, *fs)   # the grid and head: checked above
    guards.long_enough(N_STATS, stats=stats)


@kernel(sig=("Tuple((i8, i8, b1, b1))(u1[::1], i8, i8, i8, i8, i8, i8[::1], i8[::1], i8[::1], "
             "u1[::1], i4[::1], u1[::1], FillerScratch, i8[::1])"), guard=_endgame_guard)
def endgame_kernel(flat, head, stride, depth, target, deadline, pos, idx, first, seen, stack,
                   table, fs, stats):
    """Best line of own moves: every sequence of up to ``depth`` moves from
    ``head``, each finished by the greedy filler; returns
    ``(moves, move, completed, cut)``: the length of the best line, its first
    move (-1 when there is none), whether the search finished before
    ``deadline`` and whether any line was cut by the depth limit (if not, the
    answer is exact).  Stops at once when a line reaches ``target`` (the parity
    bound).  ``flat`` is changed and restored.  On a board of more than
    :data:`TIMED_SIZE` squares, where one leaf (a greedy fill of the whole region)
    can take milliseconds, each node's work is timed and the search also stops when
    the most expensive node seen (``stats[E_COST]``, ``stats[E_COST_SEEN]``) would
    not fit before the deadline.

    Scratch: ``pos`` int64[depth + 1], ``idx`` and ``first`` int64[depth + 1];
    ``seen`` uint8[n], ``stack`` int32[n] (for the parity bound); ``table``
    the A2 ring table and ``fs`` the greedy filler's scratch
    (:func:`tronlab.tron.spacefill.new_scratch`); ``stats``
    int64[N_STATS] is added to.
    """
    # Why one long kernel: one explicit-stack loop (enter a square, finish the line with
    # the filler, back up) whose steps share the ply, the best line and the node count.
    offs = (np.uint64(0) - np.uint64(stride), np.uint64(1), np.uint64(stride),
            np.uint64(0) - np.uint64(1))
    best = 0
    best_move = -1
    cut = False
    nodes = stats[E_NODES]
    timed = flat.size > TIMED_SIZE
    pos[0] = head
    idx[0] = 0
    first[0] = -1
    ply = 0
    while True:
        k = idx[ply]
        if k < 4:
            idx[ply] = k + 1
            n = np.uint64(pos[ply]) + offs[k]
            if flat[n] != 0:
                continue
            # a move: enter square n
            flat[n] = 1
            ply += 1
            pos[ply] = n
            first[ply] = k if ply == 1 else first[ply - 1]
            idx[ply] = 0
            nodes += 1
            entered = clock_ns()
            cost = max(stats[E_COST], stats[E_COST_SEEN]) if timed else np.int64(0)
            if entered + cost >= deadline:         # a leaf can be slow: look every node
                for q in range(ply, 0, -1):
                    flat[pos[q]] = 0
                stats[E_NODES] = nodes
                stats[E_ABORTED] += 1
                return best, best_move, False, cut
            length = ply
            descend = False
            if ply == depth:
                stats[E_LEAVES] += 1
                more = fill_length_kernel(flat, np.int64(n), stride, table, fs.mark, fs.queue,
                                          fs.groups, fs.gpar, fs.gpend, fs.cur, fs.cand, fs.best,
                                          fs.trail)
                if more > 0:
                    cut = True
                length = ply + more
            else:
                bound, _, _ = fill_bound_kernel(flat, np.int64(n), stride, seen, stack)
                if bound == 0:
                    length = ply                    # a dead end: the line ends here
                elif ply + bound <= best:
                    stats[E_PRUNED] += 1            # cannot beat the best line
                else:
                    descend = True
            if timed:
                took = clock_ns() - entered
                if took > stats[E_COST_SEEN]:
                    stats[E_COST_SEEN] = took
            if not descend:
                if length > best or best_move < 0:
                    best = length
                    best_move = first[ply]
                flat[n] = 0
                ply -= 1
                if best >= target:
                    break
            continue
        # every move from pos[ply] tried
        if ply == 0:
            break
        flat[pos[ply]] = 0
        ply -= 1
    for q in range(ply, 0, -1):
        flat[pos[q]] = 0
    stats[E_NODES] = nodes
    return best, best_move, True, cut


class Endgame:
    """Iteratively deepened endgame solver for one player (A8).

    ``solve(board, player, *, time=None, deadline=None, max_depth=...)``
    returns ``(moves, move)``: the longest line found (moves from now) and its
    first move.  ``last_stats`` tells the depth reached, whether the answer is
    proved optimal, nodes and time.
    """

    def __init__(self):
        self._size = -1
        self.node_cost = 0          # ns: the most one node's work took last time (big boards)
        self.last_stats: dict = {}

    def _prepare(self, board):
        size = board.flat.size
        if size != self._size:
            self._size = size
            self.node_cost = 0
            self.seen = np.zeros(size, np.uint8)
            self.stack = np.zeros(size, np.int32)
            self.fs = new_filler_scratch(size)
            self.pos = np.zeros(MAX_ENDGAME_DEPTH + 1, np.int64)
            self.idx = np.zeros(MAX_ENDGAME_DEPTH + 1, np.int64)
            self.first = np.zeros(MAX_ENDGAME_DEPTH + 1, np.int64)

    def solve(self, board, player=0, *, time=None, deadline=None, max_depth=MAX_ENDGAME_DEPTH):
        player = check_head(check_board(board), player)
        max_depth = check_whole(max_depth, "max_depth", 1, MAX_ENDGAME_DEPTH)
        deadline = search_deadline(time, deadline)
        t0 = _time.perf_counter()
        self._prepare(board)
        flat = board.flat.copy()
        head = np.int64(board.heads[player])
        stride = np.int64(board.stride)
        t_bound = _time.perf_counter_ns()
        target, _, _ = fill_bound_kernel(flat, head, stride, self.seen, self.stack)
        t_bound = _time.perf_counter_ns() - t_bound
        stats = np.zeros(N_STATS, np.int64)
        stats[E_COST] = self.node_cost
        if not self.node_cost and flat.size > TIMED_SIZE:    # no measurement yet: a guess
            # from a second bound: the first call of a process also loads the kernel (10+ ms
            # where the bound takes 0.3 ms), and a guess 200 times that stopped at depth 0
            t_bound = _time.perf_counter_ns()
            fill_bound_kernel(flat, head, stride, self.seen, self.stack)
            stats[E_COST] = LEAF_PER_BOUND * (_time.perf_counter_ns() - t_bound)
        moves, move, depth, exact = 0, -1, 0, target == 0
        legal = board.legal_moves(player)
        if legal:
            move = legal[0]
        for d in range(1, max_depth + 1):
            if exact:
                break
            v, m, done, cut = endgame_kernel(flat, head, stride, np.int64(d), np.int64(target),
                                             np.int64(deadline), self.pos, self.idx, self.first,
                                             self.seen, self.stack, POTENTIAL_ARTICULATION,
                                             self.fs, stats)
            if not done:
                break
            moves, move, depth = int(v), int(m), d
            exact = moves >= target or not cut
        if stats[E_COST_SEEN]:
            self.node_cost = int(stats[E_COST_SEEN])
        if depth == 0 and len(legal) > 1:      # not even depth 1 fitted: the roomiest side
            move = self._roomiest(flat, head, stride, board.offsets, legal)
        self.last_stats = {"depth": depth, "moves": moves, "move": move, "bound": int(target),
                           "exact": bool(exact), "nodes": int(stats[E_NODES]),
                           "pruned": int(stats[E_PRUNED]), "time": _time.perf_counter() - t0}
        return moves, move

    def _roomiest(self, flat, head, stride, offsets, legal):
        """The legal move into the region with the largest parity bound."""
        best, best_move = -1, legal[0]
        for m in legal:
            n = head + offsets[m]
            flat[n] = 1
            bound, _, _ = fill_bound_kernel(flat, np.int64(n), stride, self.seen, self.stack)
            flat[n] = 0
            if bound > best:
                best, best_move = bound, m
        return best_move


def solve_endgame(board, player=0, *, time=None, max_depth=MAX_ENDGAME_DEPTH):
    """Longest line of own moves found from ``player``'s head: ``(moves, move)``, the
    number of moves of that line and its first move (0-3; -1 when boxed in).  The other
    players are walls.  ``time`` is a budget in seconds (None: until exact, or
    ``max_depth`` own moves searched exhaustively, 1-400, each line then finished by
    the greedy filler); the module docstring says how the search goes.

    >>> solve_endgame(Board.from_ascii('''
    ...     ....#2
    ...     .1..##
    ... '''), 0)        # all 7 free squares of the 2x4 room, starting right
    (7, 1)
    """
    return Endgame().solve(board, player, time=time, max_depth=max_depth)


# the kernels compile on first use; Python calls prefer ahead-of-time twins
_kernels = KernelTable(globals())
