"""Flood fill, raster components and their incremental update (A3) against networkx."""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES, bench_board, boards, grid_graph

from tronlab import Board
from tronlab.grid import reference as ref
from tronlab.grid.flood import Components, components, flood_fill
from tronlab.grid.ring import potential_articulation


def nx_flood(board, start):
    g = grid_graph(board, include=[start])
    return len(nx.node_connected_component(g, int(start))) - 1


def nx_regions(board):
    """Oracle: the set of regions, each a frozenset of flat indices."""
    return {frozenset(c) for c in nx.connected_components(grid_graph(board))}


def regions_of(labels, sizes):
    flat = labels.reshape(-1)
    out = set()
    for lab in range(1, len(sizes)):
        members = frozenset(int(i) for i in np.flatnonzero(flat == lab))
        assert len(members) == sizes[lab]
        if members:
            out.add(members)
    return out


@pytest.mark.parametrize("name, expected",
                         [("empty15", 223), ("empty30x20", 598), ("rand30x20", 448)])
def test_matches_c_reference_boards(name, expected):
    board = bench_board(name)
    assert flood_fill(board, 0) == expected
    assert ref.flood_fill(board.flat, int(board.heads[0]), board.stride) == expected


def test_small_boards_by_hand():
    board = Board.from_ascii("""
        1..#.
        ...#2
    """)
    assert flood_fill(board, 0) == 5
    assert flood_fill(board, 1) == 1
    assert flood_fill(board, start=board.index(1, 0)) == 4   # the start is not counted
    labels, sizes = components(board)
    assert sizes.tolist() == [0, 5, 1]
    assert labels[1, 2] == 1 and labels[1, 5] == 2 and labels[1, 4] == 0


def test_u_shape_needs_the_equivalence_table():
    # the two arms get different labels on the first row and meet at the bottom
    board = Board.from_ascii("""
        .#.#1
        .#.#2
        ...##
    """)
    labels, sizes = components(board)
    assert sizes.tolist() == [0, 7]
    assert labels[1, 1] == labels[1, 3] == 1


def test_errors_are_clear():
    board = Board.from_ascii("1.2")
    with pytest.raises(ValueError, match="player 3"):
        flood_fill(board, 3)
    with pytest.raises(TypeError, match="Board"):
        flood_fill(board.flat)
    with pytest.raises(ValueError, match="start"):
        flood_fill(board, start=10**6)
    comps = Components(board)
    with pytest.raises(ValueError, match="not free"):
        comps.fill(0, 0)
    with pytest.raises(ValueError, match="off the board"):
        comps.fill(5, 0)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(), st.data())
def test_flood_fill_matches_networkx(board, data):
    p = data.draw(st.integers(0, board.n_players - 1))
    head = int(board.heads[p])
    want = nx_flood(board, head)
    assert flood_fill(board, p) == want == ref.flood_fill(board.flat, head, board.stride)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_density=0.7))
def test_components_match_networkx(board):
    labels, sizes = components(board)
    assert regions_of(labels, sizes) == nx_regions(board)
    want_labels, want_sizes = ref.components(board.flat, board.stride)
    assert labels.reshape(-1).tolist() == want_labels and sizes.tolist() == want_sizes


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_density=0.4, max_width=12, max_height=10), st.integers(0, 2**32 - 1))
def test_incremental_fill_keeps_components_right(board, seed):
    """Fill free squares one by one in random order; after every fill the regions
    equal networkx's, and a fill of a non-potential-articulation square never
    recomputes."""
    rng = np.random.default_rng(seed)
    comps = Components(board)
    board = board.copy()
    free = [board.xy(i) for i in np.flatnonzero(board.flat == 0)]
    rng.shuffle(free)
    for x, y in free[: 25]:
        local = potential_articulation(board, x, y)
        board.cells[y + 1, x + 1] = 1
        again = comps.fill(x, y)
        assert again == local
        assert regions_of(comps.labels, comps.sizes) == nx_regions(board)
        assert comps.count == nx.number_connected_components(grid_graph(board))
    # the plain-Python twin agrees on the last fill's regions
    if free:
        x, y = free[min(len(free), 25) - 1]
        board.cells[y + 1, x + 1] = 0
        labels, sizes = ref.fill_square(board.flat, board.stride, board.index(x, y))
        assert regions_of(np.array(labels), sizes) == regions_of(comps.labels, comps.sizes)
