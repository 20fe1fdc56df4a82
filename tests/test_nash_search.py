"""The simultaneous-move Nash search (L1-L3, L5, L6) against a plain full-matrix
search written independently: Board copies, the rules as games.md states them,
every cell searched, each matrix solved by scipy's HiGHS."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog
from strategies import EXAMPLES, small_boards

from tronlab import Board, lightriders_board
from tronlab.tron.board import TRAIL
from tronlab.tron.evaluate import evaluate, is_separated
from tronlab.nash import NashSearcher, choose_move, nash_search, stats_by_name
from tronlab.tron import nash_search as ts


def lp_value(a):
    """Oracle: value of the zero-sum game ``a`` (rows maximise) by linprog.  Not
    rescaled, with tight tolerances: wins are worth 2**24 and a difference of 1
    must survive (HiGHS's default tolerances are 1e-7 of the scaled problem)."""
    m, n = a.shape
    tight = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
    res = linprog(np.r_[np.zeros(m), -1.0], A_ub=np.hstack([-a.T, np.ones((n, 1))]),
                  b_ub=np.zeros(n), A_eq=np.r_[np.ones(m), 0.0][None], b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs", options=tight)
    assert res.status == 0
    return res.x[-1]


def full_matrix_value(board, me, turn, depth, draw, counts=None):
    """Reference: value for ``me`` with every cell of every matrix searched.
    ``counts`` (a dict) adds up nodes, leaves (separated, or evaluated at the
    depth limit), matrices, and matrices with a saddle point (a pure
    equilibrium: maximin equals minimax)."""
    counts = {} if counts is None else counts
    counts["nodes"] = counts.get("nodes", 0) + 1
    opp = 1 - me
    mine, theirs = board.legal_moves(me), board.legal_moves(opp)
    if turn > 0 and mine and theirs:
        separated = is_separated(board, (me, opp))
        if separated or turn == depth:
            key = "separated_leaves" if separated else "evals"
            counts[key] = counts.get(key, 0) + 1
            return evaluate(board, me, kind="territory")   # separated score or territory
    win = ts.WIN - (turn + 1)
    rows, cols = mine or [None], theirs or [None]
    a = np.zeros((len(rows), len(cols)))
    for i, x in enumerate(rows):
        for j, y in enumerate(cols):
            if x is None or y is None:
                a[i, j] = draw if x is None and y is None else (-win if x is None else win)
                continue
            tx, ty = board.target(me, x), board.target(opp, y)
            if tx == ty:                        # head-on: both die
                a[i, j] = draw
                continue
            child = board.copy()
            child.flat[tx], child.flat[ty] = TRAIL + me, TRAIL + opp
            child.heads[me], child.heads[opp] = tx, ty
            a[i, j] = full_matrix_value(child, me, turn + 1, depth, draw, counts)
    counts["matrices"] = counts.get("matrices", 0) + 1
    # within 1e-9: the children's values come from HiGHS and carry float noise (a cell
    # worth 198.6875 read 198.68750000000006), the kernel's own solver is exact there
    if close(a.min(axis=1).max(), a.max(axis=0).min()):
        counts["saddle"] = counts.get("saddle", 0) + 1
    return lp_value(a)


@st.composite
def facing_boards(draw):
    """Open boards (4x3 to 6x5, few walls) with the heads two steps apart, so
    that both can enter the same square: the matrices are mixed more often."""
    width, height = draw(st.integers(4, 6)), draw(st.integers(3, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    cells = np.ones((height + 2, width + 2), np.uint8)
    cells[1:-1, 1:-1] = rng.random((height, width)) < draw(st.floats(0, 0.2))
    x0, y0 = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
    dx, dy = draw(st.sampled_from([(2, 0), (0, 2), (1, 1), (-1, 1), (-2, 0), (0, -2)]))
    x1, y1 = min(max(x0 + dx, 0), width - 1), min(max(y0 + dy, 0), height - 1)
    if (x1, y1) == (x0, y0):
        x1 = (x0 + 2) % width
    stride = width + 2
    heads = [(y0 + 1) * stride + x0 + 1, (y1 + 1) * stride + x1 + 1]
    for p, h in enumerate(heads):
        cells.flat[h] = TRAIL + p
    return Board(cells, heads)


def close(a, b):
    """Equal within 1e-9, relative for win-scale values (2**24)."""
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_boards(max_players=2, max_density=0.4), st.integers(1, 3), st.integers(0, 1),
       st.sampled_from([0.0, -1.0]))
def test_pruned_search_equals_full_matrix_search(board, depth, me, draw):
    expected = full_matrix_value(board, me, 0, depth, draw)
    searcher = NashSearcher(draw=draw)
    for prior in (None, np.array([[0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1]])):
        v, strategy, done = searcher.search_depth(board, me, depth, prior=prior)
        assert done and close(v, expected), (board, v, expected)
    for prune, ordering in ((False, False), (True, False), (False, True)):
        v, _ = nash_search(board, me, depth=depth, draw=draw, prune=prune, ordering=ordering)
        assert close(v, expected)


@settings(max_examples=EXAMPLES, deadline=None)
@given(facing_boards(), st.integers(1, 3), st.integers(0, 1), st.sampled_from([0.0, -1.0]))
def test_pruned_search_equals_full_matrix_search_heads_close(board, depth, me, draw):
    expected = full_matrix_value(board, me, 0, depth, draw)
    v, strategy, done = NashSearcher(draw=draw).search_depth(board, me, depth)
    assert done and close(v, expected), (board, v, expected)
    v, _ = nash_search(board, me, depth=depth, draw=draw, prune=False, ordering=False)
    assert close(v, expected)


def test_known_positions():
    corridor = Board.from_ascii("""
        #.####
        #1...2
        ######
    """)
    assert nash_search(corridor, 0, depth=3) == (0.0, 1)      # the dead end loses, right draws
    trapped = Board.from_ascii("""
        1#
        .2
    """)
    # I can only go down, into the only square the opponent can enter too: a draw
    assert nash_search(trapped, 0, depth=1) == (0.0, 2)
    v, move = nash_search(Board.from_ascii("1#.2"), 0, depth=1)
    assert (v, move) == (-(ts.WIN - 1), -1)                    # no move: lost in one turn


def test_mixed_root_strategy():
    # Both heads face the two squares between them; entering the same one is a
    # crash (a draw), the other splits the board.  Each picks a square.
    board = Board.from_ascii("""
        ###.###
        #1...2#
        ###.###
    """)
    s = NashSearcher(draw=0)
    v, strategy, done = s.search_depth(board, 0, 2)
    assert done
    assert close(v, full_matrix_value(board, 0, 0, 2, 0.0))
    for p in strategy:
        assert abs(p.sum() - 1) < 1e-9 and (p >= 0).all()


@settings(max_examples=EXAMPLES // 2, deadline=None)     # the reference solves with HiGHS
@given(st.integers(0, 2**32 - 1), st.integers(1, 3), st.integers(0, 12))
def test_statistics_count_what_the_full_search_does(seed, depth, turns):
    """Without pruning or ordering the kernel's nodes, leaf evaluations,
    matrices and saddle points are those of the reference; with pruning every
    matrix is settled by a saddle point, a cut or a solve (pruning does not
    always visit fewer nodes: a null-window test can need a second search)."""
    rng = np.random.default_rng(seed)
    board = lightriders_board(rng=rng)
    for _ in range(turns):                              # a few random turns in
        moves = [board.legal_moves(p) for p in (0, 1)]
        if not all(moves) or is_separated(board, (0, 1)):
            break
        step = [int(rng.choice(m)) for m in moves]
        targets = [board.target(p, step[p]) for p in (0, 1)]
        if targets[0] == targets[1]:
            break
        for p in (0, 1):
            board.flat[targets[p]], board.heads[p] = TRAIL + p, targets[p]
    counts = {}
    expected = full_matrix_value(board, 0, 0, depth, -1.0, counts)
    stats = np.zeros(ts.N_STATS, np.int64)
    plain = NashSearcher(prune=False, ordering=False, table=False, draw=-1.0)
    v, _, _ = plain.search_depth(board, 0, depth, stats=stats)
    assert close(v, expected)
    got = {k: int(stats[ts.STAT_NAMES.index(k)])
           for k in ("nodes", "evals", "separated_leaves", "matrices", "saddle")}
    assert got == {k: counts.get(k, 0) for k in got}
    assert stats[ts.S_SOLVED] == counts["matrices"] - counts.get("saddle", 0)
    pruned = np.zeros(ts.N_STATS, np.int64)
    NashSearcher(draw=-1.0).search_depth(board, 0, depth, stats=pruned)
    assert (pruned[ts.S_SADDLE] + pruned[ts.S_SOLVED] + pruned[ts.S_CUTS]
            == pruned[ts.S_MATRICES])


def test_saddle_pruning_skips_cells_and_counts():
    board = lightriders_board(x=3, y=7)
    stats_on = np.zeros(ts.N_STATS, np.int64)
    stats_off = np.zeros(ts.N_STATS, np.int64)
    v_on, _, _ = NashSearcher().search_depth(board, 0, 3, stats=stats_on)
    v_off, _, _ = NashSearcher(prune=False).search_depth(board, 0, 3, stats=stats_off)
    assert close(v_on, v_off)
    assert stats_on[ts.S_SKIPPED] > 0 and stats_off[ts.S_SKIPPED] == 0
    assert stats_on[ts.S_NODES] < stats_off[ts.S_NODES]
    assert (stats_on[ts.S_SADDLE] + stats_on[ts.S_SOLVED] + stats_on[ts.S_CUTS]
            == stats_on[ts.S_MATRICES])


def test_iterative_deepening_under_a_deadline():
    board = lightriders_board(x=2, y=5)
    s = NashSearcher()
    s.search(board, 1, max_depth=1)     # load the kernels first: alone in a fresh process
    value, move = s.search(board, 1, time=0.1)    # loading them took 0.55 s of the 0.1
    st_ = s.last_stats
    assert move in board.legal_moves(1)
    # a limit, not a speed check: the search stops at its 0.1 s deadline on this open
    # board; 1 s leaves room for a loaded machine
    assert st_["depth"] >= 2 and st_["time"] < 1.0
    assert 0 <= st_["saddle_share"] <= 1 and st_["nodes"] > 0
    assert abs(sum(st_["strategy"]) - 1) < 1e-3


def test_root_decision_sampling_is_seeded():
    p = [0.0, 0.3, 0.7, 0.0]
    a = [choose_move(p, rng=np.random.default_rng(7)) for _ in range(5)]
    b = [choose_move(p, rng=np.random.default_rng(7)) for _ in range(5)]
    assert a == b and set(a) <= {1, 2}
    draws = [choose_move(p, rng=g) for g in [np.random.default_rng(1)] for _ in range(400)]
    assert 0.6 < draws.count(2) / 400 < 0.8
    assert choose_move(p) == 2
    with pytest.raises(ValueError, match="a strategy is 4 probabilities"):
        choose_move([0, 0, 0, 0])


def test_bad_arguments():
    board = Board.from_ascii("1..2")
    with pytest.raises(ValueError, match="a two-player search needs a 2-player Board, this "
                                         "one has 3 players"):
        nash_search(Board.from_ascii("1.2.3"), 0)
    with pytest.raises(ValueError, match="depth must be an int from 1 to 48"):
        nash_search(board, 0, depth=0)
    with pytest.raises(ValueError, match="unknown evaluation 'nonsense'"):
        NashSearcher(evaluation="nonsense")
    with pytest.raises(TypeError, match="expected a tronlab Board, got str"):
        nash_search("1..2", 0)


@settings(max_examples=EXAMPLES // 2, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4))
def test_table_carries_exact_bounds_to_the_next_move(seed, depth):
    """After a ``depth``-turn search, the position after the equilibrium's joint move searched
    ``depth - 1`` turns with the same table sits at the depth the bounds were
    proved for: the value is a fresh search's, from fewer evaluations."""
    rng = np.random.default_rng(seed)
    board = lightriders_board(rng=rng)
    s = NashSearcher(draw=-1.0)
    _, strategy, _ = s.search_depth(board, 0, depth)
    step = [choose_move(strategy[p]) for p in (0, 1)]     # a cell the search filled exactly
    for p in (0, 1):
        t = board.target(p, step[p])
        board.flat[t], board.heads[p] = TRAIL + p, t
    fresh, reused = np.zeros(ts.N_STATS, np.int64), np.zeros(ts.N_STATS, np.int64)
    want, _, _ = NashSearcher(draw=-1.0, table=False).search_depth(board, 0, depth - 1,
                                                                   stats=fresh)
    got, _, _ = s.search_depth(board, 0, depth - 1, stats=reused)
    assert close(got, want)
    assert reused[ts.S_TABLE] > 0 and reused[ts.S_EVALS] <= fresh[ts.S_EVALS]


def test_table_counts_wins_from_the_node():
    from tronlab.tron.nash_table import from_table_kernel, to_table_kernel
    win_in_3 = ts.WIN - 3                       # 3 turns from the root, 1 from a node at ply 2
    assert to_table_kernel(win_in_3, 2) == ts.WIN - 1
    assert from_table_kernel(ts.WIN - 1, 5) == ts.WIN - 6
    assert to_table_kernel(-win_in_3, 2) == -(ts.WIN - 1)
    assert to_table_kernel(123.0, 7) == 123.0 and from_table_kernel(-np.inf, 3) == -np.inf


def test_stats_array_is_checked():
    with pytest.raises(ValueError, match="N_STATS"):
        NashSearcher().search_depth(lightriders_board(x=2, y=3), 0, 1,
                                    stats=np.zeros(13, np.int64))


def test_stats_by_name_reads_each_count_at_its_index():
    board = lightriders_board(x=3, y=7)
    stats = np.zeros(ts.N_STATS, np.int64)
    NashSearcher().search_depth(board, 0, 3, stats=stats)
    named = stats_by_name(stats)
    assert list(named) == list(ts.STAT_NAMES)
    for name, index in (("nodes", ts.S_NODES), ("matrices", ts.S_MATRICES),
                        ("saddle", ts.S_SADDLE), ("cuts", ts.S_CUTS), ("solved", ts.S_SOLVED)):
        assert named[name] == stats[index] and type(named[name]) is int
    assert named["saddle"] + named["cuts"] + named["solved"] == named["matrices"] > 0
    s = NashSearcher()
    s.search(board, 0, max_depth=2)
    assert set(named) <= set(s.last_stats)            # last_stats holds the same names
    with pytest.raises(ValueError, match="N_STATS"):
        stats_by_name(np.zeros(13, np.int64))


def test_reset_forgets_everything_a_game_taught():
    """A searcher reset between games does exactly the work of a new one: no hint, bound or
    killer move of the last game orders the next game's search."""
    used = NashSearcher()
    for seed in (1, 2):                                   # two positions: the killers fill up
        used.search_depth(lightriders_board(rng=np.random.default_rng(seed)), 0, 5)
    assert (used.ns.killers >= 0).any()
    used.reset()
    board = lightriders_board(rng=np.random.default_rng(3))
    fresh, again = np.zeros(ts.N_STATS, np.int64), np.zeros(ts.N_STATS, np.int64)
    want = NashSearcher().search_depth(board, 0, 5, stats=fresh)
    got = used.search_depth(board, 0, 5, stats=again)
    assert close(got[0], want[0]) and np.array_equal(got[1], want[1])
    assert np.array_equal(again, fresh)


def test_move_order_sorts_by_prior_and_keeps_ties_in_move_order():
    b = Board.from_ascii("""
        ...
        .1.
        ..2
    """)
    head, offs = np.int64(b.heads[0]), b.offsets.astype(np.int64)
    out = np.empty(4, np.int64)

    def order(prior, use_prior, first):
        n = ts.order_moves_kernel(b.flat, head, offs, np.asarray(prior, np.float64),
                                  use_prior, np.int64(first), out)
        return out[:n].tolist()

    assert order([0.1, 0.4, 0.1, 0.4], True, -1) == [1, 3, 0, 2]
    assert order([0.25] * 4, True, -1) == [0, 1, 2, 3]
    assert order([0.0] * 4, False, 2) == [2, 0, 1, 3]
    assert order([0.0] * 4, False, -1) == [0, 1, 2, 3]


def meet_oracle(a, b, stride, turns):
    """Brute force on an open plane: is there a square both heads can stand on
    after the same number t <= turns of steps (Manhattan distance at most t and
    of t's parity, for each)?"""
    (ay, ax), (by, bx) = divmod(a, stride), divmod(b, stride)
    for t in range(1, turns + 1):
        for y in range(min(ay, by) - t, max(ay, by) + t + 1):
            for x in range(min(ax, bx) - t, max(ax, bx) + t + 1):
                da, db = abs(y - ay) + abs(x - ax), abs(y - by) + abs(x - bx)
                if da <= t and db <= t and da % 2 == t % 2 and db % 2 == t % 2:
                    return True
    return False


def test_can_meet_is_the_brute_force_meeting_test():
    stride = 9
    for a in (2 * stride + 3, 4 * stride + 4):
        for b in range(stride, 8 * stride):
            if b % stride in (0, stride - 1) or b == a:
                continue
            for turns in range(0, 5):
                got = ts.can_meet_kernel(np.int64(a), np.int64(b), np.int64(stride),
                                         np.int64(turns))
                assert got == meet_oracle(a, b, stride, turns), (a, b, turns)
