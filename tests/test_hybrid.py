"""The hybrid search (matrix games where the heads can meet before the horizon, the
two-ply max-min elsewhere) against a plain recursive twin, the max-min cell
chooser against brute force, and the ``hybrid`` bot in games."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES, small_boards
from test_nash_search import facing_boards, lp_value

from tronlab import Board
from tronlab.nash.maximin import maximin_next_cell_kernel
from tronlab.nash.saddle import FILL, LOWER, SADDLE, UPPER, record_child_kernel
from tronlab.nash import NashSearcher
from tronlab.runner.engine import play
from tronlab.runner.registry import bot_names, get_bot
from tronlab.tron import nash_search as ts
from tronlab.tron.board import TRAIL
from tronlab.tron.evaluate import evaluate, is_separated
from tronlab.tron.mapgen import lightriders_board


def can_meet(board, turns):
    (x0, y0), (x1, y1) = board.head_xy(0), board.head_xy(1)
    d = abs(x0 - x1) + abs(y0 - y1)
    return d % 2 == 0 and d <= 2 * turns


def hybrid_value(board, me, turn, depth, draw, kind="territory"):
    """Reference: every cell searched; a matrix game (HiGHS) where the heads can
    meet within the remaining turns, the max-min of the cells elsewhere."""
    opp = 1 - me
    mine, theirs = board.legal_moves(me), board.legal_moves(opp)
    if turn > 0 and mine and theirs:
        if is_separated(board, (me, opp)) or turn == depth:
            return evaluate(board, me, kind=kind)
    win = ts.WIN - (turn + 1)
    rows, cols = mine or [None], theirs or [None]
    a = np.zeros((len(rows), len(cols)))
    for i, x in enumerate(rows):
        for j, y in enumerate(cols):
            if x is None or y is None:
                a[i, j] = draw if x is None and y is None else (-win if x is None else win)
                continue
            tx, ty = board.target(me, x), board.target(opp, y)
            if tx == ty:
                a[i, j] = draw
                continue
            child = board.copy()
            child.flat[tx], child.flat[ty] = TRAIL + me, TRAIL + opp
            child.heads[me], child.heads[opp] = tx, ty
            a[i, j] = hybrid_value(child, me, turn + 1, depth, draw, kind)
    if can_meet(board, depth - turn):
        return lp_value(a)
    return a.min(axis=1).max()


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.one_of(small_boards(max_players=2, max_density=0.4), facing_boards()),
       st.integers(1, 3), st.integers(0, 1), st.sampled_from([0.0, -1.0]))
def test_hybrid_search_equals_the_plain_twin(board, depth, me, draw):
    expected = hybrid_value(board, me, 0, depth, draw)
    for prune in (True, False):
        s = NashSearcher(evaluation="territory", draw=draw, hybrid=True, prune=prune)
        v, _, done = s.search_depth(board, me, depth)
        assert done and close(v, expected), (board, depth, v, expected)


def test_hybrid_counts_its_two_ply_nodes():
    far = Board.from_ascii("""
        ..........
        .1........
        ..........
        .........2
    """)   # distance 10: no meeting within 3 turns
    s = NashSearcher(hybrid=True)
    s.search(far, 0, max_depth=3)
    assert s.last_stats["twoply"] == s.last_stats["matrices"] > 0
    s = NashSearcher(hybrid=False)
    s.search(far, 0, max_depth=3)
    assert s.last_stats["twoply"] == 0


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(0, 2**32 - 1),
       st.sampled_from([(-np.inf, np.inf), (-1.0, 1.0), (0.0, 0.5), (-3.0, -2.0), (2.0, 3.5)]))
def test_maximin_chooser_against_brute_force(m, n, seed, window):
    """Cells revealed only as the chooser asks (as bounds when the true value is
    outside the window, fail-soft); the answer must be the max-min, or a correct
    bound outside the window."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(-3, 4, size=(m, n)).astype(float)
    lo, hi = np.full((4, 4), -np.inf), np.full((4, 4), np.inf)
    alpha, beta = window
    value = truth.min(axis=1).max()
    for _ in range(200):
        what, i, j, a, b = maximin_next_cell_kernel(lo, hi, m, n, alpha, beta)
        if what != FILL:
            break
        t = truth[i, j]
        if t <= a:      # a child searched with window (a, b) may only say "at most t"
            record_child_kernel(lo, hi, i, j, t, UPPER)
        elif t >= b:
            record_child_kernel(lo, hi, i, j, t, LOWER)
        else:
            record_child_kernel(lo, hi, i, j, t, SADDLE)
    else:
        pytest.fail("the chooser never finished")
    if what == SADDLE:
        assert a == value and alpha < value < beta
    elif what == LOWER:
        assert value >= a >= beta
    else:
        assert what == UPPER and value <= a <= alpha


def test_registered_and_plays_both_rule_sets():
    assert "hybrid" in bot_names()
    for rules, board in (("lightriders", lightriders_board(rng=3)),
                         ("google2010", Board.from_ascii("""
                             #########
                             #1......#
                             #...#...#
                             #......2#
                             #########
                         """))):
        bot = get_bot("hybrid", time=0.03)
        rec = play(board, [bot, get_bot("voronoi", time=0.03)], rules=rules, rng=1,
                   time_limit=0.5, max_turns=40)
        assert not {"timeout", "error", "illegal"} & set(rec.outcome.deaths)
        assert bot.last_stats["mode"] in ("hybrid", "endgame", "forced")


# ---- the bot's root matrix (tronlab.tron.root_matrix) ---------------------------------------

def test_root_matrix_equals_a_matrix_of_plain_negamax_cells():
    from tronlab.nash import solve_zero_sum
    from tronlab.tron.root_matrix import RootMatrixSearcher, can_collide, root_matrix_search
    from tronlab.tron.search import Searcher, negamax
    from tronlab.jit.clock import deadline_after
    board = Board.from_ascii("""
        .......
        1.2...#
        .......
    """)
    assert can_collide(board, 1)
    s = Searcher(evaluation="territory", draw=0)
    value, move, depth, strategy = root_matrix_search(s, board, 0, deadline=deadline_after(5),
                                                      max_depth=2)
    assert depth == 2
    rows, cols = board.legal_moves(0), board.legal_moves(1)
    a = np.zeros((len(rows), len(cols)))
    for i, x in enumerate(rows):
        for j, y in enumerate(cols):
            tx, ty = board.target(0, x), board.target(1, y)
            if tx == ty:
                continue                      # a crash: draw 0
            c = board.copy()
            c.flat[tx], c.flat[ty] = TRAIL, TRAIL + 1
            c.heads[0], c.heads[1] = tx, ty
            a[i, j] = negamax(c, 0, depth=2, evaluation="territory", draw=0)[0]
    game = solve_zero_sum(a)
    assert value == pytest.approx(game.value) and move == rows[int(np.argmax(game.row_strategy))]
    assert sum(strategy) == pytest.approx(1.0)
    far = Board.from_ascii("""
        1.........
        .........2
    """)
    assert not can_collide(far, 3)            # distance 10: the two-ply search answers
    r = RootMatrixSearcher(evaluation="territory")
    r.search(far, 0, deadline=deadline_after(0.05))
    assert r.last_stats["model"] == "two-ply"
    r.search(board, 0, deadline=deadline_after(0.05))
    assert r.last_stats["model"] == "matrix"
