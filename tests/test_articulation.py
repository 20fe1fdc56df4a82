"""Articulation points (A11) against networkx and plain-Python Hopcroft-Tarjan."""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from strategies import EXAMPLES, bench_board, boards, grid_graph

from tronlab import Board
from tronlab.grid import reference as ref
from tronlab.grid.articulation import articulation_points, new_scratch


def squares(board, mask):
    return sorted(board.xy(i) for i in np.flatnonzero(mask))


def test_corridor_inner_squares_are_cut_vertices():
    board = Board.from_ascii("1....2")
    count, mask = articulation_points(board)
    assert count == 2 and squares(board, mask) == [(2, 0), (3, 0)]


def test_open_room_has_none():
    board = Board.from_ascii("""
        1...
        ....
        ...2
    """)
    assert articulation_points(board)[0] == 0


def test_neck_between_two_rooms():
    board = Board.from_ascii("""
        1..#..
        ......
        ...#.2
    """)
    count, mask = articulation_points(board)
    # the neck and the squares either side of it, whose only way on it is
    assert squares(board, mask) == [(2, 1), (3, 1), (4, 1)] and count == 3


def test_rand30x20_matches_c_reference():
    board = bench_board("rand30x20")
    count, mask = articulation_points(board)
    # ref.c indexes the file grid (y * W + x); the board pads it by one more square
    xy = [board.xy(i) for i in np.flatnonzero(mask)]
    assert (count, sum(y * board.width + x for x, y in xy)) == (39, 8787)


def test_empty15_has_none():
    assert articulation_points(bench_board("empty15"))[0] == 0


def test_errors_are_clear():
    board = Board.from_ascii("1.2")
    with pytest.raises(TypeError, match="Board"):
        articulation_points(board.cells)
    with pytest.raises(ValueError, match="scratch"):
        articulation_points(board, scratch=new_scratch(4))


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_density=0.45))
def test_matches_networkx(board):
    count, mask = articulation_points(board)
    want = set(nx.articulation_points(grid_graph(board)))
    got = set(int(i) for i in np.flatnonzero(mask))
    assert got == want and count == len(want)
    assert ref.articulation_points(board.flat, board.stride) == want


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_width=6, max_height=5))
def test_matches_definition_by_removal(board):
    """Brute force: a square is a cut vertex iff removing it adds components."""
    scratch = new_scratch(board.flat.size)
    _, mask = articulation_points(board, scratch=scratch)
    base = nx.number_connected_components(grid_graph(board))
    for i in np.flatnonzero(board.flat == 0):
        trial = board.copy()
        trial.flat[i] = 1
        comps = nx.number_connected_components(grid_graph(trial))
        # removing a square that was its own component lowers the count
        assert mask.reshape(-1)[i] == (comps > base), board.xy(i)
