"""Negamax alpha-beta (tronlab.tron.search) against a plain-Python full minimax oracle,
the ref.c search, and the clock."""

import time
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import bench_board

from tronlab import Board
from tronlab.tron.maps import load_map
from tronlab.grid.reference import refc_search
from tronlab.tron.c_reference import reference_search
from tronlab.tron.search import WIN, Searcher, negamax

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
K1, K2 = 0.055, 0.194


# ---------------------------------------------------------------------------
# the oracle: plain Python, written independently of the kernels
# ---------------------------------------------------------------------------
def _neighbours(i, stride):
    return (i - stride, i + 1, i + stride, i - 1)


def _bfs(cells, start, stride):
    """Distances over free squares from a (blocked) start square."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        c = todo.popleft()
        for n in _neighbours(c, stride):
            if cells[n] == 0 and n not in dist:
                dist[n] = dist[c] + 1
                todo.append(n)
    return dist


def _fill_bound(cells, head, stride):
    dist = _bfs(cells, head, stride)
    odd = sum(1 for s, d in dist.items() if d % 2 == 1)
    even = sum(1 for s, d in dist.items() if d > 0 and d % 2 == 0)
    return 2 * even + 1 if odd > even else 2 * odd


def _oracle_eval(cells, me, opp, stride, kind):
    """Separated: 1000 * (fill difference); else the heuristic of `kind`."""
    mine = _bfs(cells, me, stride)
    if not any(n in mine and n != me for n in _neighbours(opp, stride)):
        return 1000 * (_fill_bound(cells, me, stride) - _fill_bound(cells, opp, stride)), True
    theirs = _bfs(cells, opp, stride)
    n = [0, 0]
    e = [0, 0]
    for s in set(mine) | set(theirs):
        if s in (me, opp):
            continue
        a, b = mine.get(s, 1 << 30), theirs.get(s, 1 << 30)
        if a == b:
            continue
        w = 0 if a < b else 1
        n[w] += 1
        e[w] += sum(1 for x in _neighbours(s, stride) if cells[x] == 0)
    if kind == "territory":
        return n[0] - n[1], False
    if kind == "edges":
        return (n[0] + e[0]) - (n[1] + e[1]), False
    return int(np.round(1000.0 * (K1 * (n[0] - n[1]) + K2 * (e[0] - e[1])))), False


def _oracle(cells, me, opp, stride, depth, kind, root=True, draw=0, ply=0, blind=False):
    """Full minimax over whole turns: I move, the opponent answers seeing my move.
    A side stuck ``ply`` plies from the root loses ``-WIN + ply``.  ``blind``: the
    opponent cannot pick the crash into my square unless it has no other move."""
    mine = [m for m in range(4) if cells[_neighbours(me, stride)[m]] == 0]
    theirs = [m for m in range(4) if cells[_neighbours(opp, stride)[m]] == 0]
    if not mine:
        return (draw if not theirs else -WIN + ply), {}
    if not root:
        v, sep = _oracle_eval(cells, me, opp, stride, kind)
        if sep or depth == 0:
            return v, {}
    per_move = {}
    for m in mine:
        t = _neighbours(me, stride)[m]
        worst = WIN - (ply + 1) if not theirs else None
        for n in theirs:
            u = _neighbours(opp, stride)[n]
            if u == t:
                if blind and len(theirs) > 1:
                    continue
                v = draw
            else:
                cells[t] = cells[u] = 1
                v, _ = _oracle(cells, t, u, stride, depth - 1, kind, root=False, draw=draw,
                               ply=ply + 2, blind=blind)
                cells[t] = cells[u] = 0
            worst = v if worst is None else min(worst, v)
        per_move[m] = worst
    return max(per_move.values()), per_move


def oracle(board, player, depth, kind, draw=0, blind=False):
    cells = [int(c) for c in board.flat]
    return _oracle(cells, int(board.heads[player]), int(board.heads[1 - player]),
                   board.stride, depth, kind, draw=draw, blind=blind)


@st.composite
def small_boards(draw, max_side=5):
    w = draw(st.integers(2, max_side))
    h = draw(st.integers(2, max_side))
    squares = [(x, y) for y in range(h) for x in range(w)]
    i, j = draw(st.lists(st.integers(0, len(squares) - 1), min_size=2, max_size=2, unique=True))
    density = draw(st.sampled_from([0.0, 0.1, 0.25]))
    rows = []
    for y in range(h):
        row = ""
        for x in range(w):
            k = y * w + x
            if k == i:
                row += "1"
            elif k == j:
                row += "2"
            else:
                row += "#" if draw(st.floats(0, 1)) < density else "."
        rows.append(row)
    return Board.from_ascii("\n".join(rows))


# ---------------------------------------------------------------------------
# hand-worked positions
# ---------------------------------------------------------------------------
def test_dead_end_is_avoided():
    b = Board.from_ascii("""
        #####
        #1..#
        ##.##
        #..2#
        #####
    """)
    assert negamax(b, 0, depth=1, evaluation="territory")[1] == 1


def test_no_legal_move_loses_and_both_stuck_draws():
    lost = Board.from_ascii("""
        1#.
        #..
        ..2
    """)
    assert negamax(lost, 0, depth=2) == (-WIN, -1)
    both = Board.from_ascii("""
        1#
        #2
    """)
    assert negamax(both, 0, depth=2) == (0, -1)


def test_head_on_collision_is_a_draw():
    # one free square between the heads: entering it is a draw, which beats the dead end
    b = Board.from_ascii("""
        1.2
        ###
    """)
    assert negamax(b, 0, depth=1) == (0, 1)


def test_opponent_stuck_is_a_win():
    b = Board.from_ascii("""
        1..#2
        ...##
    """)
    v, m = negamax(b, 0, depth=1)
    assert v == WIN - 1 and m in (1, 2)


def test_separated_position_scores_fill_difference():
    # separated at once: my moves all keep 4 squares, the opponent has 2 (one move then a square)
    b = Board.from_ascii("""
        1..#2
        ...##
        ...#.
    """)
    sep_oracle, _ = oracle(b, 0, 2, "territory")
    assert negamax(b, 0, depth=2, evaluation="territory")[0] == sep_oracle


# ---------------------------------------------------------------------------
# alpha-beta equals full minimax, whatever the ordering and table settings
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["territory", "edges", "linear"])
@settings(max_examples=100)
@given(board=small_boards(), depth=st.integers(1, 3), player=st.integers(0, 1))
def test_alphabeta_equals_minimax(kind, board, depth, player):
    want, per_move = oracle(board, player, depth, kind)
    for tt in (False, True):
        for ordering in (False, True):
            v, m = negamax(board, player, depth=depth, evaluation=kind, tt=tt, ordering=ordering)
            assert v == want, (tt, ordering, board.to_ascii())
            if per_move:
                assert per_move[m] == want
            else:
                assert m == -1


@settings(max_examples=60)
@given(board=small_boards(), depth=st.integers(1, 3), draw=st.sampled_from([-7, -1, 5]))
def test_alphabeta_equals_minimax_with_a_draw_value(board, depth, draw):
    want, _ = oracle(board, 0, depth, "territory", draw=draw)
    for tt in (False, True):
        assert negamax(board, 0, depth=depth, evaluation="territory", draw=draw, tt=tt)[0] == want


@settings(max_examples=80)
@given(board=small_boards(), depth=st.integers(1, 3), player=st.integers(0, 1),
       draw=st.sampled_from([-7, 0, 5]))
def test_alphabeta_equals_minimax_with_blind_collisions(board, depth, player, draw):
    want, per_move = oracle(board, player, depth, "territory", draw=draw, blind=True)
    for tt in (False, True):
        for ordering in (False, True):
            v, m = negamax(board, player, depth=depth, evaluation="territory", draw=draw,
                           crash="blind", tt=tt, ordering=ordering)
            assert v == want, (tt, ordering, board.to_ascii())
            if per_move:
                assert per_move[m] == want


def test_blind_opponent_cannot_aim_at_my_square():
    # entering the square between the heads: pessimistic, the opponent takes the
    # crash (a draw, 0); blind, it must turn away and I keep one square more
    b = Board.from_ascii("""
        ..#.
        1.2.
    """)
    assert negamax(b, 0, depth=1, evaluation="territory")[0] == 0
    assert negamax(b, 0, depth=1, evaluation="territory", crash="blind") == (1000, 1)


@pytest.mark.parametrize("tt", [False, True])
def test_blind_opponent_takes_the_crash_when_it_is_its_only_move(tt):
    # the one free square lies between the heads: both must enter it, and even a
    # blind opponent crashes into my square when nothing else is left (a draw)
    b = Board.from_ascii("1.2")
    want, per_move = oracle(b, 0, 2, "territory", draw=5, blind=True)
    assert want == 5 and per_move == {1: 5}
    assert negamax(b, 0, depth=2, evaluation="territory", draw=5, crash="blind", tt=tt) == (5, 1)


@settings(max_examples=15)
@given(board=small_boards(max_side=4), player=st.integers(0, 1))
def test_alphabeta_equals_minimax_depth4(board, player):
    want, _ = oracle(board, player, 4, "territory")
    assert negamax(board, player, depth=4, evaluation="territory")[0] == want
    plain = negamax(board, player, depth=4, evaluation="territory", tt=False, ordering=False)
    assert plain[0] == want


@settings(max_examples=40)
@given(board=small_boards(), depth=st.integers(1, 3))
def test_iterative_deepening_and_kept_table_give_minimax(board, depth):
    want, _ = oracle(board, 0, depth, "linear")
    s = Searcher(tt_bits=12)
    before = board.copy()
    if len(board.legal_moves(0)) <= 1:         # a forced move is played without a search
        assert s.search(board, 0, max_depth=depth) == (None, (board.legal_moves(0) or [-1])[0])
        assert s.last_stats["forced"] and s.last_stats["depth"] == 0
        return
    # no deadline: the deepening reaches ``depth`` or stops early only on a decided game,
    # whose value no deeper search changes - so the value must be the minimax value
    assert s.search(board, 0, max_depth=depth)[0] == want, (s.last_stats, board.to_ascii())
    # the same position again with the table kept: same value
    assert s.search_depth(board, 0, depth)[0] == want
    assert board == before and np.array_equal(board.cells, before.cells)


def _after(board, my_move, their_move, player=0):
    nb = board.copy()
    for p, mv in ((player, my_move), (1 - player, their_move)):
        nb.heads[p] = nb.heads[p] + nb.offsets[mv]
        nb.flat[nb.heads[p]] = 2 + p
    return nb


@settings(max_examples=40)
@given(board=small_boards(max_side=6), depth=st.integers(3, 3))
def test_kept_table_bounds_stay_correct_on_the_next_turn(board, depth):
    # the table filled by one search holds bounds for the positions of the next turn:
    # searching each of them with the same searcher must still give the minimax value
    s = Searcher(tt_bits=12)
    s.search_depth(board, 0, depth)
    for m in board.legal_moves(0):
        for n in board.legal_moves(1):
            if board.target(0, m) == board.target(1, n):
                continue
            nb = _after(board, m, n)
            if not nb.legal_moves(0):
                continue
            want, _ = oracle(nb, 0, depth - 1, "linear")
            assert s.search_depth(nb, 0, depth - 1)[0] == want


def test_table_reuse_between_turns_saves_nodes():
    path = SHARED / "maps/google2010/keyhole.txt"
    if not path.exists():
        pytest.skip("shared maps not available")
    b = load_map(str(path))
    fresh = Searcher(tt=True)
    kept = Searcher(tt=True)
    v1, m1 = kept.search(b, 0, max_depth=4)
    # play my move and the opponent's reply from the principal variation
    pv = kept.last_stats["pv"]
    nb = _after(b, pv[0], pv[1])
    fresh.search(nb, 0, max_depth=3)
    kept.search(nb, 0, max_depth=3)
    assert kept.last_stats["value"] == fresh.last_stats["value"]
    assert kept.last_stats["nodes"] < fresh.last_stats["nodes"]


# ---------------------------------------------------------------------------
# ref.c's search, exactly
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name, value, nodes", [("rand30x20", 35, 36), ("empty15", 0, 243),
                                                ("empty30x20", 0, 90)])
def test_reference_search_matches_c(name, value, nodes):
    # the C reference's boards ship with the repository (benchmarks/boards): this ran
    # only where ../shared/bench was beside the checkout, and CI skipped all three
    assert reference_search(bench_board(name), depth=6) == (value, 1, nodes)


def _ref_oracle(cells, pos, p, depth, alpha, beta, stride, count):
    """ref.c's negamax in plain Python (sequential plies, no collisions)."""
    count[0] += 1
    if depth == 0:
        a, b = _bfs(cells, pos[p], stride), _bfs(cells, pos[1 - p], stride)
        n = [0, 0]
        for s in set(a) | set(b):
            if s in pos:
                continue
            da, db = a.get(s, 1 << 30), b.get(s, 1 << 30)
            if da != db:
                n[0 if da < db else 1] += 1
        return n[0] - n[1]
    best = None
    for n in _neighbours(pos[p], stride):
        if cells[n]:
            continue
        cells[n] = 1
        old = pos[p]
        pos[p] = n
        v = -_ref_oracle(cells, pos, 1 - p, depth - 1, -beta, -alpha, stride, count)
        pos[p] = old
        cells[n] = 0
        best = v if best is None else max(best, v)
        alpha = max(alpha, v)
        if alpha >= beta:
            break
    return -10000 if best is None else best


@settings(max_examples=30)
@given(board=small_boards(), depth=st.integers(1, 5))
def test_reference_search_matches_python_twin(board, depth):
    cells = [int(c) for c in board.flat]
    count = [0]
    want = _ref_oracle(cells, [int(board.heads[0]), int(board.heads[1])], 0, depth,
                       -1000000, 1000000, board.stride, count)
    v, m, nodes = reference_search(board, depth=depth)
    assert (v, nodes) == (want, count[0])
    # the benchmark's plain-Python baseline computes the same search
    assert refc_search(board.flat.tolist(), int(board.heads[0]), int(board.heads[1]),
                       board.stride, depth) == (v, m, nodes)


# ---------------------------------------------------------------------------
# the deadline holds
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("budget", [0.05, 0.2, 0.5])
def test_deadline_holds_on_25x25(budget):
    path = SHARED / "maps/google2010/big-room.txt"
    if not path.exists():
        pytest.skip("shared maps not available")
    b = load_map(str(path))
    assert (b.width, b.height) == (25, 25)
    s = Searcher()
    s.search(b, 0, max_depth=2)             # compile outside the measurement
    t0 = time.perf_counter()
    v, m = s.search(b, 0, time=budget)
    took = time.perf_counter() - t0
    assert m in b.legal_moves(0)
    assert took < budget + 0.020, f"took {took:.4f} s for a {budget} s budget"
    assert s.last_stats["depth"] >= 1


def test_bad_arguments_are_clear():
    b = Board.from_ascii("1.2")
    with pytest.raises(ValueError, match="depth"):
        negamax(b, 0, depth=0)
    with pytest.raises(ValueError, match="evaluation"):
        negamax(b, 0, evaluation="magic")
    with pytest.raises(ValueError, match="player"):
        negamax(b, 2)
    with pytest.raises(TypeError, match="Board"):
        negamax("1.2", 0)
    with pytest.raises(ValueError, match="2-player"):
        negamax(Board.from_ascii("1.2.3"), 0)


def test_a_new_draw_value_empties_the_table():
    # entries scored with one draw value must not answer a search with another
    b = Board.from_ascii("""
        1....
        .....
        ....2
    """)
    s = Searcher(tt_bits=10)
    s.search(b, 0, max_depth=3)
    assert s.table.key.any()
    s.draw = 0                                  # unchanged: the table stays
    assert s.table.key.any()
    s.draw = -5
    assert not s.table.key.any()
    with pytest.raises(ValueError, match="draw"):
        s.draw = 1.5


def test_a_new_draw_value_never_reads_the_old_table():
    # contempt changes the draw value between moves: entries scored with the old value must not
    # answer the new search.  Here they would: with the old table kept the search plays 2.
    b = Board.from_ascii("""
        ######
        ###.1#
        #....#
        #....#
        #2.###
        ######
    """)
    s = Searcher(evaluation="territory", tt_bits=12, draw=0)
    s.search_depth(b, 0, 3)
    s.draw = -3
    fresh = Searcher(evaluation="territory", tt_bits=12, draw=-3)
    assert s.search_depth(b, 0, 3) == fresh.search_depth(b, 0, 3) == (0, 3, True)
