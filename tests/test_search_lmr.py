"""Late move reductions in the alpha-beta kernel (tronlab.tron.alphabeta) against a
plain-Python twin of the same reduced search, and the reductions' guards."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tronlab import Board
from tronlab.tron.search import WIN, Searcher

from test_search import _neighbours, _oracle_eval, oracle, small_boards

INF = 1 << 50


@st.composite
def mid_boards(draw):
    """4x4 to 6x6 boards with a few walls: big enough for reductions to matter."""
    w, h = draw(st.integers(4, 6)), draw(st.integers(4, 6))
    cells = [["#" if draw(st.integers(0, 9)) == 0 else "." for _ in range(w)] for _ in range(h)]
    a, b = draw(st.lists(st.integers(0, w * h - 1), min_size=2, max_size=2, unique=True))
    cells[a // w][a % w], cells[b // w][b % w] = "1", "2"
    return Board.from_ascii("\n".join("".join(row) for row in cells))


def _rule(late_from, idx, plies_left):
    """The reduction, in turns, of the move at ``idx`` of a node with ``plies_left``."""
    return int(late_from > 0 and idx >= late_from and plies_left >= 5)


def lmr_reference(board, player, depth, kind, late_from, draw=0):
    """Fail-soft negamax alpha-beta over whole turns, moves in move order, no table,
    with late move reductions: a reduced move that comes back above alpha is
    searched again in full.  Returns ``(value, move)``."""
    cells = [int(c) for c in board.flat]
    stride = board.stride

    def legal(h):
        return [m for m in range(4) if cells[_neighbours(h, stride)[m]] == 0]

    def mine_node(hm, ho, ply, red, alpha, beta):
        mine = legal(hm)
        if not mine:
            return (draw if not legal(ho) else -WIN + ply), -1
        if ply > 0:
            v, sep = _oracle_eval(cells, hm, ho, stride, kind)
            if sep or ply >= 2 * (depth - red):
                return v, -1
        best, best_move = -INF, -1
        for idx, m in enumerate(mine):
            if alpha >= beta:
                break
            t = _neighbours(hm, stride)[m]
            r = _rule(late_from, idx, 2 * depth - ply - 2 * red)
            v = -their_node(hm, ho, t, ply + 1, red + r, -beta, -alpha)
            if r and v > alpha:
                v = -their_node(hm, ho, t, ply + 1, red, -beta, -alpha)
            if v > best:
                best, best_move = v, m
            alpha = max(alpha, v)
        return best, best_move

    def their_node(hm, ho, t, ply, red, alpha, beta):
        theirs = legal(ho)
        if not theirs:
            return -WIN + ply
        best = -INF
        for idx, m in enumerate(theirs):
            if alpha >= beta:
                break
            u = _neighbours(ho, stride)[m]
            r = _rule(late_from, idx, 2 * depth - ply - 2 * red)
            if u == t:
                v = -draw
            else:
                cells[t] = cells[u] = 1
                v = -mine_node(t, u, ply + 1, red + r, -beta, -alpha)[0]
                if r and v > alpha:
                    v = -mine_node(t, u, ply + 1, red, -beta, -alpha)[0]
                cells[t] = cells[u] = 0
            best = max(best, v)
            alpha = max(alpha, v)
        return best

    me, opp = int(board.heads[player]), int(board.heads[1 - player])
    return mine_node(me, opp, 0, 0, -INF, INF)


def _plain(board, player, depth, kind, late_from, draw=0):
    s = Searcher(evaluation=kind, tt=False, ordering=False, reduce=late_from, draw=draw,
                 tt_bits=8)
    v, m, done = s.search_depth(board, player, depth)
    assert done
    return v, m


@settings(max_examples=200, deadline=None)
@given(board=st.one_of(small_boards(max_side=5), mid_boards()), depth=st.integers(1, 5),
       player=st.integers(0, 1),
       late_from=st.integers(1, 3), draw=st.sampled_from([-3, 0]))
def test_reduced_search_equals_its_python_twin(board, depth, player, late_from, draw):
    want = lmr_reference(board, player, depth, "territory", late_from, draw=draw)
    got = _plain(board, player, depth, "territory", late_from, draw=draw)
    assert got == want, board.to_ascii()


@settings(max_examples=60, deadline=None)
@given(board=small_boards(max_side=5), depth=st.integers(1, 2), player=st.integers(0, 1))
def test_nothing_is_reduced_within_two_turns(board, depth, player):
    # fewer than five plies to go: every move is searched in full, the value is minimax's
    want, _ = oracle(board, player, depth, "linear")
    for late_from in (1, 2):
        assert _plain(board, player, depth, "linear", late_from)[0] == want


def test_reductions_shrink_the_tree():
    b = Board.from_ascii("""
        ..................
        ..................
        ....1.............
        ..................
        ..........#.......
        .......#..........
        ..................
        .............2....
        ..................
    """)
    nodes = {}
    for code in (0, 1):
        s = Searcher(evaluation="chamber", reduce=code, tt_bits=14)
        stats = np.zeros(8, np.int64)
        assert s.search_depth(b, 0, 7, stats=stats)[2]
        nodes[code] = int(stats[0])
    assert nodes[1] < nodes[0] / 2, nodes


def test_bad_reduction_options_are_clear():
    for bad, error in (("lots", TypeError), (4, ValueError), (-1, ValueError), (True, TypeError)):
        with pytest.raises(error, match=r"reduce must be an int from 0 to 3 \(0: no late "
                                        r"move reductions\), got "):
            Searcher(reduce=bad)
