"""Checkerboard parity bound (A10) against exhaustive longest simple paths."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES, boards, small_boards

from tronlab import Board
from tronlab.grid import reference as ref
from tronlab.grid.flood import components
from tronlab.grid.parity import fill_bound, region_colours


def longest_path(board, start):
    """Oracle: the most moves of any simple path from ``start`` through free
    squares, by exhaustive depth-first search (explicit stack)."""
    flat = board.flat.copy()
    s = board.stride
    steps = (-s, 1, s, -1)
    best = 0
    stack = [(int(start), iter(steps))]
    while stack:
        sq, options = stack[-1]
        for step in options:
            nb = sq + step
            if flat[nb] == 0:
                flat[nb] = 1
                stack.append((nb, iter(steps)))
                best = max(best, len(stack) - 1)
                break
        else:
            stack.pop()
            if stack:
                flat[sq] = 0
    return best


def room(width, height, x, y):
    """An empty width x height room with player 0's head at (x, y) and player 1
    boxed in a separate one-square cell to the right."""
    cells = np.ones((height + 2, width + 4), np.uint8)
    cells[1:-1, 1:width + 1] = 0
    head0 = (y + 1) * (width + 4) + x + 1
    head1 = width + 4 + width + 2
    cells.flat[head0], cells.flat[head1] = 2, 3
    return Board(cells, [head0, head1])


def test_small_board_by_hand():
    board = Board.from_ascii("""
        1...
        ##.#
        2...
    """)
    # from (0,0), colour 0: reachable colour 1: (1,0) (3,0) (2,1) (1,2) (3,2); colour 0: (2,0) (2,2)
    assert fill_bound(board) == (5, 5, 2)
    assert longest_path(board, board.heads[0]) == 5


@pytest.mark.parametrize("length", range(2, 9))
def test_exact_on_corridors_from_an_end(length):
    board = room(length, 1, 0, 0)
    assert fill_bound(board).bound == longest_path(board, board.heads[0]) == length - 1


def test_not_exact_on_a_corridor_entered_in_the_middle():
    board = room(5, 1, 2, 0)
    assert longest_path(board, board.heads[0]) == 2
    assert fill_bound(board).bound == 4


@pytest.mark.parametrize("width, height", [(w, h) for w in range(2, 6) for h in range(2, 6)])
def test_exact_on_empty_rooms_from_any_square(width, height):
    for x in range(width):
        for y in range(height):
            board = room(width, height, x, y)
            assert fill_bound(board).bound == longest_path(board, board.heads[0]), (x, y)


def test_errors_are_clear():
    board = Board.from_ascii("1.2")
    with pytest.raises(ValueError, match="player 2"):
        fill_bound(board, 2)
    with pytest.raises(TypeError, match="Board"):
        fill_bound("1.2")
    with pytest.raises(ValueError, match="start"):
        fill_bound(board, start=-1)


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_boards(max_density=0.5), st.data())
def test_never_below_the_longest_path(board, data):
    p = data.draw(st.integers(0, board.n_players - 1))
    head = int(board.heads[p])
    got = fill_bound(board, p)
    assert got.bound >= longest_path(board, head)
    assert tuple(got) == ref.fill_bound(board.flat, head, board.stride)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(), st.data())
def test_counts_match_colours_of_the_flood(board, data):
    p = data.draw(st.integers(0, board.n_players - 1))
    got = fill_bound(board, p)
    assert tuple(got) == ref.fill_bound(board.flat, int(board.heads[p]), board.stride)
    # a colour independent of the kernel's: (x + y) % 2 over the reachable squares
    hx, hy = board.head_xy(p)
    reach = ref.bfs_distances(board.flat, int(board.heads[p]), board.stride)
    colours = [(x + y) % 2 for x, y in (board.xy(i) for i, d in enumerate(reach) if d > 0)]
    assert got.same == colours.count((hx + hy) % 2)
    assert got.other == len(colours) - got.same


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_density=0.7))
def test_region_colours(board):
    labels, counts = region_colours(board)
    want_labels, sizes = components(board)
    assert np.array_equal(labels, want_labels)
    assert counts.sum(axis=1).tolist() == sizes.tolist()
    assert counts.tolist() == ref.region_colours(board.flat, board.stride)
    for lab in range(1, len(counts)):
        ys, xs = np.nonzero(labels == lab)
        odd = int(np.sum((xs + ys) % 2))   # padded coordinates keep the parity
        assert counts[lab].tolist() == [len(xs) - odd, odd]
