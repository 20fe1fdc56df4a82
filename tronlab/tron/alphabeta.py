"""The compiled alpha-beta search over whole turns: :func:`negamax_kernel` and
its named steps (techniques H1, H2, H4, A5, A6; the rules are in
:mod:`tronlab.tron.search`, the arrays in :mod:`tronlab.tron.search_state`).

The kernel is one loop over an explicit stack of frames (no recursion) with
three states: 0 *enter* a node (is its value known at once? else order its
moves), 1 try its *next* move (or finish it), and 2 *return* its value to the
parent.  (Plain ints: with named int constants numba.pycc fails to type the
state variable once another exported kernel inlines a function.)  The steps
below each do one thing and are inlined by numba (``inline="always"``), so the
loop reads as a list of named steps and runs as one function:

* :func:`out_of_time` and :func:`take_back_all`: the clock check, and putting
  the board back when the deadline has passed;
* :func:`known_value`: a lost, separated or depth-limit node at my turn;
* :func:`probe_table` and :func:`store_table`: the transposition table;
* :func:`order_moves`: principal variation, table move, killer, the rest;
* :func:`crash_is_a_choice`: the collision rule;
* :func:`late_reduction`: how many turns short a late move is searched (an
  option; a reduced move that comes back above alpha is searched again);
* :func:`play_turn` and :func:`take_back_turn`: both moves of a turn on the
  board (and the Zobrist key), and off again;
* :func:`update_kernel`: the bookkeeping when a child returns its value.

Heads are unsigned inside (cheap indexing) and handed to other modules'
kernels as int64, so each cached kernel keeps one signature.
"""

from __future__ import annotations

import numpy as np

from ..jit.clock import clock_ns
from ..jit.kernels import KernelTable, kernel
from . import search_guards
from .evaluate import heuristic_kernel, separated_value_kernel
from .search_state import (BLIND, CLOCK_EVERY, EXACT, INF, LOWER, MAX_PLY, S_ABORTED, S_COST,
                           S_COST_SEEN, S_EVALS, S_NODES, S_SEPARATED, S_TT_CUTS, S_TT_HITS,
                           TIMED_SIZE, UPPER, WIN)

# ---------------------------------------------------------------------------
# the steps
# ---------------------------------------------------------------------------
@kernel(inline="always")
def _free_count(flat, head, offs):
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


@kernel(inline="always")
def out_of_time(nodes, timed, deadline, stats):
    """The clock check, every :data:`CLOCK_EVERY` nodes (every node when
    ``timed``, a big board): ``(now, late)``, ``late`` when ``deadline`` (ns)
    has passed or, timed, when the costliest node's work (``stats[S_COST]``
    from the last move, ``stats[S_COST_SEEN]`` from this one) would not fit
    before it.  ``now`` is 0 when the clock was not read."""
    if not timed and (nodes & (CLOCK_EVERY - 1)) != 0:
        return np.int64(0), False
    now = clock_ns()
    cost = max(stats[S_COST], stats[S_COST_SEEN]) if timed else np.int64(0)
    return now, now + cost >= deadline


@kernel(inline="always")
def take_back_all(flat, fr, ply):
    """Clear every square the turns above ``ply`` filled (the search gives up)."""
    for q in range(ply - 1, 0, -1):
        if fr.applied[q]:
            flat[fr.target[q - 1]] = 0
            flat[fr.target[q]] = 0


@kernel(inline="always")
def known_value(flat, hm, ho, stride, ply, max_ply, offs, code, k1, k2, sep_weight, draw, cs,
                stats, timed, entered):
    """``(known, value)`` of the node at my turn at ``ply``: I am stuck (a loss,
    or a draw when the opponent is stuck too); the heads are separated (the
    fill score); the depth limit (the heuristic).  Not known otherwise.  When
    ``timed``, the work since ``entered`` (ns) raises ``stats[S_COST_SEEN]``."""
    if _free_count(flat, hm, offs) == 0:
        return True, (draw if _free_count(flat, ho, offs) == 0 else -WIN + ply)
    if ply == 0:
        return False, np.int64(0)
    known = False
    value = np.int64(0)
    sep, score = separated_value_kernel(flat, np.int64(hm), np.int64(ho), stride, sep_weight,
                                        code, cs)
    if sep:
        stats[S_SEPARATED] += 1
        known = True
        value = score
    elif ply >= max_ply:
        stats[S_EVALS] += 1
        known = True
        value = heuristic_kernel(flat, np.int64(hm), np.int64(ho), stride, code, k1, k2, cs)
    if timed:
        took = clock_ns() - entered
        if took > stats[S_COST_SEEN]:
            stats[S_COST_SEEN] = took
    return known, value


@kernel(inline="always")
def probe_table(tt, key, ply, depth_left, alpha, beta, stats):
    """Look the position up: ``(move, cut, value)``, ``move`` the stored best
    move (-1: no entry), ``cut`` when the entry, searched at least
    ``depth_left`` turns deep, settles the value in the window (not at the root)."""
    slot = key & np.uint64(tt.key.size - 1)
    if tt.key[slot] != key:
        return -1, False, np.int64(0)
    stats[S_TT_HITS] += 1
    move = tt.move[slot]
    if ply > 0 and tt.depth[slot] >= depth_left:
        v = _from_table(tt.value[slot], ply)
        fl = tt.flag[slot]
        if fl == EXACT or (fl == LOWER and v >= beta) or (fl == UPPER and v <= alpha):
            stats[S_TT_CUTS] += 1
            return move, True, v
    return move, False, np.int64(0)


@kernel(inline="always")
def store_table(tt, key, ply, depth_left, value, move, alpha0, beta):
    """Keep the node's value (an upper bound when it did not raise alpha, a
    lower bound when it cut off) and best move in its slot, replacing any entry."""
    slot = key & np.uint64(tt.key.size - 1)
    tt.key[slot] = key
    tt.value[slot] = _to_table(value, ply)
    tt.depth[slot] = depth_left
    tt.move[slot] = move
    if value <= alpha0:
        tt.flag[slot] = UPPER
    elif value >= beta:
        tt.flag[slot] = LOWER
    else:
        tt.flag[slot] = EXACT


@kernel(inline="always")
def order_moves(flat, src, offs, fr, lines, ply, table_move, prev_len, use_order):
    """Write the legal moves from ``src`` into ``fr.moves[ply]``: the previous
    principal variation's move when the node is on it (else the table's move),
    then the ply's killer, then the rest in move order.  Returns how many."""
    first = -1
    if use_order:
        first = lines.prev_pv[ply] if (fr.on_pv[ply] and ply < prev_len) else table_move
    second = lines.killers[ply] if use_order else -1
    n = 0
    for j in range(6):
        m = first if j == 0 else (second if j == 1 else j - 2)
        if m < 0 or flat[src + offs[m]] != 0:
            continue
        dup = False
        for i in range(n):
            if fr.moves[ply, i] == m:
                dup = True
        if not dup:
            fr.moves[ply, n] = m
            n += 1
    return n


@kernel(inline="always")
def crash_is_a_choice(crash, n_moves):
    """The collision rule: the opponent's move enters the square mine just
    entered, so both crash.  May it choose that?  Always in the pessimistic
    model; in the blind one only when it has no other move."""
    return crash != BLIND or n_moves == 1


@kernel(inline="always")
def play_turn(flat, fr, ply, zobrist, hm, ho, t, u):
    """Put the turn (my head ``hm`` to ``t``, the opponent's ``ho`` to ``u``)
    on the board below the odd ``ply`` and key the position it makes."""
    flat[t] = 1
    flat[u] = 1
    fr.from_me[ply] = hm
    fr.from_opp[ply] = ho
    fr.applied[ply] = 1
    fr.key[ply + 1] = (fr.key[ply - 1] ^ zobrist[0, t] ^ zobrist[0, u]
                       ^ zobrist[1, hm] ^ zobrist[1, t] ^ zobrist[2, ho] ^ zobrist[2, u])


@kernel(inline="always")
def take_back_turn(flat, fr, ply, hm, ho):
    """Undo :func:`play_turn` at ``ply`` if it was played: the heads before it."""
    if not fr.applied[ply]:
        return hm, ho
    flat[hm] = 0
    flat[ho] = 0
    fr.applied[ply] = 0
    return fr.from_me[ply], fr.from_opp[ply]


@kernel
def update_kernel(fr, lines, ply, m, v, use_order):
    """A child of the node at ``ply`` reached by move ``m`` is worth ``v`` to
    this node's side: keep the best, raise alpha (extending the principal
    variation), remember a move that cuts off as the ply's killer."""
    if v > fr.best[ply]:
        fr.best[ply] = v
        fr.best_move[ply] = m
    if v > fr.alpha[ply]:
        fr.alpha[ply] = v
        lines.pv[ply, ply] = m
        n = lines.pv_len[ply + 1]
        for i in range(ply + 1, n):
            lines.pv[ply, i] = lines.pv[ply + 1, i]
        lines.pv_len[ply] = max(n, ply + 1)
        if v >= fr.beta[ply] and use_order:
            lines.killers[ply] = m


@kernel(inline="always")
def late_reduction(late_from, idx, research, plies_left):
    """Late move reduction (LMR): 1 (search the move a turn short) for the
    move at index ``idx`` when it is the ``late_from``-th or a later one (0:
    never) of a node with at least five plies still to go, unless it is being
    searched again because its short search came back above alpha."""
    if late_from == 0 or idx < late_from or research != 0 or plies_left < 5:
        return 0
    return 1


@kernel(inline="always")
def root_key(flat, zobrist, hm, ho):
    """The Zobrist key of a position: filled squares, then the two heads."""
    key = np.uint64(0)
    for i in range(flat.size):
        if flat[i] != 0:
            key ^= zobrist[0, i]
    return key ^ zobrist[1, hm] ^ zobrist[2, ho]


# ---------------------------------------------------------------------------
# the search
# ---------------------------------------------------------------------------
@kernel(sig=("Tuple((i8, i8, b1))(u1[::1], i8, i8, i8, i8, i8, f8, f8, i8, i8, i8, b1, b1, i8, "
             "i8, u8[:, ::1], TransTable, SearchLines, i8, SearchFrames, ChamberScratch, "
             "i8[::1])"), guard=search_guards.negamax)
def negamax_kernel(flat, me_head, opp_head, stride, depth, code, k1, k2, sep_weight, draw,
                   crash, use_tt, use_order, reduce, deadline, zobrist, tt, lines, prev_len, fr,
                   cs, stats):
    """Depth-limited negamax alpha-beta over whole turns (see :mod:`tronlab.tron.search`).

    ``depth`` in turns (two plies each), at least 1; ``code``, ``k1``, ``k2``,
    ``sep_weight``: the evaluation (:mod:`tronlab.tron.evaluate`); ``draw``:
    a draw's value to me; ``crash``: the collision model; ``use_tt`` and
    ``use_order`` switch the table and move ordering on; ``reduce``: late move
    reductions from the move at this index on (0: none, :func:`late_reduction`);
    ``deadline``: absolute ns (:func:`tronlab.jit.clock.clock_ns`).  ``zobrist``
    uint64[3, n] keys (filled square, my head, the opponent's head); ``tt``, ``lines``
    (``prev_len`` moves of ``lines.prev_pv`` are the line to try first; row 0 of
    ``lines.pv`` receives the new one) and ``fr``: :mod:`tronlab.tron.search_state`;
    ``cs`` the evaluations' scratch; ``stats`` int64[N_STATS] is added to.

    Returns ``(value, move, completed)``.  When the deadline passes the board is
    restored and ``completed`` is False (value and move are then meaningless).
    """
    # Why one long kernel: the three states share the heads, the ply and the
    # node count in registers; every step with a name is inlined above.
    offs = (np.uint64(0) - np.uint64(stride), np.uint64(1), np.uint64(stride),
            np.uint64(0) - np.uint64(1))
    hm, ho = np.uint64(me_head), np.uint64(opp_head)
    fr.key[0] = root_key(flat, zobrist, hm, ho)
    nodes = stats[S_NODES]
    timed = flat.size > TIMED_SIZE
    entered = np.int64(0)
    fr.alpha[0], fr.beta[0] = -INF, INF
    fr.on_pv[0] = 1 if prev_len > 0 else 0
    fr.red[0] = 0
    ply = 0
    state = 0                   # enter
    val = np.int64(0)
    while True:
        if state == 0:                  # enter: set the node up, or know its value at once
            nodes += 1
            lines.pv_len[ply] = ply
            fr.applied[ply] = 0
            now, late = out_of_time(nodes, timed, deadline, stats)
            if now:
                entered = now
            if late:
                take_back_all(flat, fr, ply)
                stats[S_NODES] = nodes
                stats[S_ABORTED] += 1
                return np.int64(0), -1, False
            state = 2                   # return
            src = ho
            table_move = -1
            if (ply & 1) == 0:
                src = hm
                known, val = known_value(flat, hm, ho, stride, ply, 2 * (depth - fr.red[ply]),
                                         offs, code, k1, k2, sep_weight, draw, cs, stats, timed,
                                         entered)
                if known and ply == 0:
                    stats[S_NODES] = nodes
                    return val, -1, True
                if not known and use_tt:
                    table_move, known, val = probe_table(tt, fr.key[ply], ply,
                                                         depth - ply // 2 - fr.red[ply],
                                                         fr.alpha[ply], fr.beta[ply], stats)
                if known:
                    continue
            n = order_moves(flat, src, offs, fr, lines, ply, table_move, prev_len, use_order)
            if n == 0:                      # only at odd plies: the opponent is stuck and loses
                val = -WIN + ply
                continue
            fr.n_moves[ply], fr.next_move[ply] = n, 0
            fr.best[ply], fr.best_move[ply], fr.alpha0[ply] = -INF, -1, fr.alpha[ply]
            fr.research[ply] = 0
            state = 1                   # next
            continue
        if state == 2:                  # return: hand `val` to the parent, undo the move into it
            ply -= 1
            hm, ho = take_back_turn(flat, fr, ply, hm, ho)
            if fr.reduced[ply] and -val > fr.alpha[ply]:    # a late move looks good after all:
                fr.reduced[ply] = 0                         # search it again, full depth
                fr.research[ply] = 1
                fr.next_move[ply] -= 1
                state = 1
                continue
            update_kernel(fr, lines, np.int64(ply), fr.moves[ply, fr.next_move[ply] - 1], -val,
                          use_order)
            state = 1                   # next
            continue
        idx = fr.next_move[ply]             # NEXT: try the node's next move, or finish it
        if idx >= fr.n_moves[ply] or fr.alpha[ply] >= fr.beta[ply]:
            val = fr.best[ply]
            if (ply & 1) == 0 and use_tt:
                store_table(tt, fr.key[ply], ply, depth - ply // 2 - fr.red[ply], val,
                            fr.best_move[ply], fr.alpha0[ply], fr.beta[ply])
            if ply == 0:
                stats[S_NODES] = nodes
                return val, fr.best_move[0], True
            state = 2                   # return
            continue
        m = fr.moves[ply, idx]
        fr.next_move[ply] = idx + 1
        child = ply + 1
        r = late_reduction(reduce, idx, fr.research[ply], 2 * depth - ply - 2 * fr.red[ply])
        fr.research[ply] = 0
        fr.reduced[ply] = r
        fr.red[child] = fr.red[ply] + r
        fr.alpha[child], fr.beta[child] = -fr.beta[ply], -fr.alpha[ply]
        fr.on_pv[child] = 1 if (fr.on_pv[ply] and ply < prev_len
                                and lines.prev_pv[ply] == m) else 0
        if (ply & 1) == 0:                  # my move: the opponent answers at the next ply
            fr.target[ply] = hm + offs[m]
            ply = child
            state = 0                   # enter
            continue
        t, u = fr.target[ply - 1], ho + offs[m]
        fr.target[ply] = u
        if u == t:                          # both enter the same square: both crash, a draw
            if crash_is_a_choice(crash, fr.n_moves[ply]):
                nodes += 1
                lines.pv_len[child] = child
                update_kernel(fr, lines, np.int64(ply), m, -draw, use_order)
            continue
        play_turn(flat, fr, ply, zobrist, hm, ho, t, u)
        hm = t
        ho = u
        ply = child
        state = 0                   # enter


# the kernels compile on first use; Python calls prefer ahead-of-time twins
_kernels = KernelTable(globals())
