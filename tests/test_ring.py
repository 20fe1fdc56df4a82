"""The A2 potential-articulation table against brute force on every 3x3 ring."""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from strategies import EXAMPLES, boards, grid_graph

from tronlab import Board
from tronlab.grid import reference as ref
from tronlab.grid.ring import (
    POTENTIAL_ARTICULATION, RING_DXDY, is_potential_articulation, make_table,
    potential_articulation, ring_code, runs,
)


def local_split(code):
    """Brute force on the 3x3 window: count the connected pieces of the window's
    free squares that hold a free orthogonal neighbour of the centre, once with
    the centre free and once without it; the centre is a potential articulation
    point when taking it out leaves more pieces."""
    free = {(1 + dx, 1 + dy) for i, (dx, dy) in enumerate(RING_DXDY) if code >> i & 1}
    orth = {(1, 0), (2, 1), (1, 2), (0, 1)} & free
    window = nx.grid_2d_graph(3, 3)

    def pieces(squares):
        g = window.subgraph(squares)
        return sum(1 for c in nx.connected_components(g) if c & orth)

    return pieces(free) > pieces(free | {(1, 1)})


def test_table_has_256_entries_and_is_built_from_the_definition():
    assert POTENTIAL_ARTICULATION.shape == (256,) and POTENTIAL_ARTICULATION.dtype == np.uint8
    assert np.array_equal(POTENTIAL_ARTICULATION, make_table())


@pytest.mark.parametrize("code", range(256))
def test_every_ring_against_3x3_brute_force(code):
    want = local_split(code)
    assert bool(POTENTIAL_ARTICULATION[code]) == want
    assert ref.potential_articulation(code) == want


def test_known_rings():
    assert not is_potential_articulation(0)          # nothing free around
    assert not is_potential_articulation(0xFF)       # open floor
    assert is_potential_articulation(0b00010001)     # N and S only: a vertical corridor
    assert not is_potential_articulation(0b00000111)  # N, NE, E: a corner of a room
    assert not is_potential_articulation(0b00000010)  # only a diagonal square
    assert runs(0b10000011) == [[7, 0, 1]]
    assert sum(POTENTIAL_ARTICULATION) == sum(local_split(c) for c in range(256))


def test_ring_code_bit_order_on_a_board():
    board = Board.from_ascii("""
        #..
        .1#
        #.2
    """)
    # N free (bit 0), NE free (1), E wall, SE head, S free (4), SW wall, W free (6), NW wall
    assert ring_code(board, 1, 1) == 0b01010011
    assert potential_articulation(board, 1, 1)        # W and S are split from N
    with pytest.raises(ValueError, match="off"):
        ring_code(board, 3, 0)
    with pytest.raises(ValueError, match="0-255"):
        is_potential_articulation(256)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_density=0.4))
def test_non_potential_squares_are_never_cut_vertices(board):
    cuts = set(nx.articulation_points(grid_graph(board)))
    potential = 0
    for i in np.flatnonzero(board.flat == 0):
        x, y = board.xy(i)
        if potential_articulation(board, x, y):
            potential += 1
        else:
            assert i not in cuts, (x, y)
    assert potential >= len(cuts)
