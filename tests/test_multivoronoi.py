"""Turn-order multi-player Voronoi (K1) against the literal round-by-round
expansion and a networkx (distance, turn position) oracle."""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES, boards, grid_graph

from tronlab import Board
from tronlab.grid import reference as ref
from tronlab.grid.multivoronoi import NOBODY, turn_order_territory, turn_order_territory_kernel
from tronlab.grid.voronoi import owner_map


def nx_owner(board, first):
    """Oracle: each free square goes to the living player with the smallest
    (networkx distance from its head, position in the turn order)."""
    n = board.n_players
    heads = [int(h) for h in board.heads]
    g = grid_graph(board, include=[h for p, h in enumerate(heads) if board.alive[p]])
    dist = {p: nx.single_source_shortest_path_length(g, heads[p])
            for p in range(n) if board.alive[p]}
    owner = np.full(board.flat.size, NOBODY)
    for i in np.flatnonzero(board.flat == 0):
        options = [(d[i], (p - first) % n, p) for p, d in dist.items() if i in d]
        if options:
            owner[i] = min(options)[2]
    for p in dist:
        owner[heads[p]] = p
    return owner


def test_turn_order_breaks_ties():
    board = Board.from_ascii("1.2")
    assert turn_order_territory(board, first=0).counts.tolist() == [1, 0]
    assert turn_order_territory(board, first=1).counts.tolist() == [0, 1]


def test_four_players_in_a_row():
    board = Board.from_ascii("1..2..3..4")
    # round 1 in turn order: player 0 claims x=1, player 1 both x=2 and x=4,
    # player 2 x=5 and x=7, player 3 x=8; round 2 finds nothing left
    r = turn_order_territory(board)
    assert r.counts.tolist() == [1, 2, 2, 1]
    assert r.owner[1, 2] == 0 and r.owner[1, 3] == 1
    board = Board.from_ascii("1...2")
    assert turn_order_territory(board, first=0).counts.tolist() == [2, 1]
    assert turn_order_territory(board, first=1).counts.tolist() == [1, 2]


def test_dead_players_claim_nothing():
    board = Board.from_ascii("1..B..3")
    r = turn_order_territory(board, first=0)
    assert r.counts.tolist() == [2, 0, 2]
    assert r.owner[1, 4] == NOBODY       # the dead head stays blocked, unowned


def test_two_players_differ_from_neutral_voronoi_only_on_ties():
    board = Board.from_ascii("""
        1....
        .....
        ....2
    """)
    two = owner_map(board)
    multi = turn_order_territory(board).owner
    ties = two == 2
    assert ties.any()
    assert np.array_equal(multi[~ties], two[~ties])


def test_errors_are_clear():
    board = Board.from_ascii("1.2")
    with pytest.raises(ValueError, match="first"):
        turn_order_territory(board, first=2)
    with pytest.raises(TypeError, match="first"):
        turn_order_territory(board, first=0.5)
    with pytest.raises(TypeError, match="Board"):
        turn_order_territory(None)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(dead=True), st.data())
def test_matches_oracles(board, data):
    first = data.draw(st.integers(0, board.n_players - 1))
    r = turn_order_territory(board, first=first)
    want_counts, want_owner = ref.turn_order_territory(
        board.flat, [int(h) for h in board.heads], board.alive.tolist(), first, board.stride)
    assert r.owner.reshape(-1).tolist() == want_owner
    assert r.counts.tolist() == want_counts
    assert np.array_equal(r.owner.reshape(-1), nx_owner(board, first))


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(dead=True), st.data())
def test_kernel_returns_the_squares_claimed(board, data):
    """The kernel's own return value: squares claimed in all, the heads not counted
    (the literal expansion of the reference says how many)."""
    first = data.draw(st.integers(0, board.n_players - 1))
    size = board.flat.size
    owner, counts = np.empty(size, np.uint8), np.zeros(board.n_players, np.int64)
    claimed = turn_order_territory_kernel(
        board.flat, np.ascontiguousarray(board.heads, np.int64), board.alive.copy(),
        np.int64(first), np.int64(board.stride), owner, np.empty(size, np.int32), counts)
    want_counts, _ = ref.turn_order_territory(
        board.flat, [int(h) for h in board.heads], board.alive.tolist(), first, board.stride)
    assert claimed == sum(want_counts) == counts.sum()
