"""Alpha-beta's inlined steps (:mod:`tronlab.tron.alphabeta`) against plain models written
from their docstrings, on random boards: move ordering, making and taking back a turn
(with its Zobrist key), giving up mid-search, and the bookkeeping when a child returns.

The search's tests see these steps only through search values, and a bug in any of them
can leave the value unchanged: a wrong order or a lost killer only slows the search, a
board not put back exactly or a stale key shows up in a later search, a principal
variation off by one changes the move order of the next iteration, not its value.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES, boards

from tronlab.tron import alphabeta as ab
from tronlab.tron import search_state as ss

two_player_boards = boards(min_players=2, max_players=2, max_width=8, max_height=6,
                           max_density=0.5)


def move_offsets(stride):
    """The kernel's four offsets (up, right, down, left) as wrapping uint64."""
    return tuple(np.uint64(o % 2**64) for o in (-stride, 1, stride, -1))


def free_moves(flat, head, stride):
    return [m for m, o in enumerate((-stride, 1, stride, -1)) if flat[head + o] == 0]


def zobrist_key(flat, zobrist, me, opp):
    """The position's key by its definition: every filled square, then the two heads."""
    key = 0
    for i in np.flatnonzero(flat):
        key ^= int(zobrist[0, i])
    return key ^ int(zobrist[1, me]) ^ int(zobrist[2, opp])


@settings(max_examples=EXAMPLES, deadline=None)
@given(two_player_boards, st.integers(0, 1), st.integers(0, 6), st.booleans(),
       st.integers(0, 7), st.integers(0, 3), st.integers(-1, 3), st.integers(-1, 3),
       st.booleans())
def test_order_moves_is_a_stable_sort_by_pv_table_killer(board, who, ply, on_pv, prev_len,
                                                         pv_move, table_move, killer, use_order):
    """The legal moves, sorted (stably, in move order) by: the previous principal variation's
    move when the node is on it (else the table's move) first, the killer second, the rest."""
    flat, stride = board.flat.copy(), board.stride
    head = int(board.heads[who])
    fr, lines = ss.new_frames(), ss.new_lines()
    fr.on_pv[ply] = on_pv
    lines.prev_pv[ply] = pv_move
    lines.killers[ply] = killer
    first = pv_move if on_pv and ply < prev_len else table_move
    rank = {first: 0, killer: 1} if killer != first else {first: 0}
    want = sorted(free_moves(flat, head, stride),
                  key=lambda m: rank.get(m, 2) if use_order else 0)
    n = ab.order_moves(flat, np.uint64(head), move_offsets(stride), fr, lines, np.int64(ply),
                       np.int64(table_move), np.int64(prev_len), use_order)
    assert fr.moves[ply, :n].tolist() == want
    assert (flat == board.flat).all()


@st.composite
def walks(draw):
    """A two-player board, a random Zobrist table and up to five turns both heads play
    (distinct free squares), as ``(board, zobrist, [(t, u), ...])``."""
    board = draw(two_player_boards)
    flat = board.flat.copy()
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    zobrist = rng.integers(1, 2**63, size=(3, flat.size), dtype=np.uint64)
    hm, ho = int(board.heads[0]), int(board.heads[1])
    turns = []
    for _ in range(draw(st.integers(1, 5))):
        offs = (-board.stride, 1, board.stride, -1)
        mine = [hm + offs[m] for m in free_moves(flat, hm, board.stride)]
        theirs = [ho + offs[m] for m in free_moves(flat, ho, board.stride)]
        pairs = [(t, u) for t in mine for u in theirs if t != u]
        if not pairs:
            break
        t, u = draw(st.sampled_from(pairs))
        flat[t] = flat[u] = 1
        turns.append((t, u))
        hm, ho = t, u
    return board, zobrist, turns


def play_walk(flat, fr, zobrist, board, turns):
    """Play ``turns`` at plies 1, 3, ... as the kernel does; check each new key against
    :func:`zobrist_key`.  Returns the boards and heads before each turn."""
    hm, ho = np.uint64(board.heads[0]), np.uint64(board.heads[1])
    fr.key[0] = ab.root_key(flat, zobrist, hm, ho)
    assert int(fr.key[0]) == zobrist_key(flat, zobrist, int(hm), int(ho))
    before = []
    for k, (t, u) in enumerate(turns):
        ply = 2 * k + 1
        before.append((flat.copy(), hm, ho))
        fr.target[ply - 1], fr.target[ply] = t, u
        ab.play_turn(flat, fr, np.int64(ply), zobrist, hm, ho, np.uint64(t), np.uint64(u))
        hm, ho = np.uint64(t), np.uint64(u)
        assert flat[t] and flat[u]
        assert int(fr.key[ply + 1]) == zobrist_key(flat, zobrist, t, u)
    return before, hm, ho


@settings(max_examples=EXAMPLES, deadline=None)
@given(walks())
def test_take_back_turn_restores_the_board_byte_for_byte(walk):
    board, zobrist, turns = walk
    flat, fr = board.flat.copy(), ss.new_frames()
    before, hm, ho = play_walk(flat, fr, zobrist, board, turns)
    for k in range(len(turns) - 1, -1, -1):
        hm, ho = (np.uint64(h) for h in ab.take_back_turn(flat, fr, np.int64(2 * k + 1), hm, ho))
        board_k, hm_k, ho_k = before[k]
        assert (int(hm), int(ho)) == (int(hm_k), int(ho_k))
        assert flat.tobytes() == board_k.tobytes()
        assert not fr.applied[2 * k + 1]
    # a turn that is not on the board: nothing to undo, the heads stay
    assert ab.take_back_turn(flat, fr, np.int64(1), hm, ho) == (hm, ho)
    assert flat.tobytes() == board.flat.tobytes()


@settings(max_examples=EXAMPLES, deadline=None)
@given(walks())
def test_take_back_all_restores_the_board_byte_for_byte(walk):
    """Giving up on entering the node after the last turn clears every turn above it."""
    board, zobrist, turns = walk
    flat, fr = board.flat.copy(), ss.new_frames()
    play_walk(flat, fr, zobrist, board, turns)
    ab.take_back_all(flat, fr, np.int64(2 * len(turns)))
    assert flat.tobytes() == board.flat.tobytes()


@settings(max_examples=3 * EXAMPLES, deadline=None)
@given(st.integers(0, 8), st.integers(0, 3), st.integers(-5, 5), st.integers(-5, 5),
       st.integers(-5, 5), st.integers(1, 5), st.integers(0, 5), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_update_keeps_best_raises_alpha_extends_pv_and_sets_the_killer(
        ply, m, v, best, alpha, width, child_len, use_order, seed):
    rng = np.random.default_rng(seed)
    fr, lines = ss.new_frames(), ss.new_lines()
    fr.best[:] = rng.integers(-5, 6, ss.MAX_PLY)
    fr.best_move[:] = rng.integers(-1, 4, ss.MAX_PLY)
    fr.alpha[:] = rng.integers(-5, 6, ss.MAX_PLY)
    fr.beta[:] = fr.alpha + rng.integers(1, 6, ss.MAX_PLY)
    fr.best[ply], fr.alpha[ply], fr.beta[ply] = best, alpha, alpha + width
    lines.killers[:] = rng.integers(-1, 4, ss.MAX_PLY)
    lines.pv[:] = rng.integers(0, 4, lines.pv.shape)
    lines.pv_len[:] = np.arange(ss.MAX_PLY) + rng.integers(0, 6, ss.MAX_PLY)
    lines.pv_len[ply + 1] = ply + 1 + child_len
    want = {name: getattr(fr, name).copy() for name in ("best", "best_move", "alpha", "beta")}
    want.update({name: getattr(lines, name).copy() for name in ("killers", "pv", "pv_len")})
    child_line = lines.pv[ply + 1, ply + 1:ply + 1 + child_len].tolist()
    if v > best:
        want["best"][ply], want["best_move"][ply] = v, m
    if v > alpha:                               # my line: this move, then the child's line
        want["alpha"][ply] = v
        want["pv"][ply, ply:ply + 1 + child_len] = [m] + child_line
        want["pv_len"][ply] = ply + 1 + child_len
        if v >= alpha + width and use_order:    # a cut-off: the ply's killer
            want["killers"][ply] = m
    ab.update_kernel(fr, lines, np.int64(ply), np.int64(m), np.int64(v), use_order)
    for name, array in want.items():
        got = getattr(fr, name) if hasattr(fr, name) else getattr(lines, name)
        assert (got == array).all(), name
