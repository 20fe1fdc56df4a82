"""Distances and two-player Voronoi territory (A4, A7, H6) against independent oracles."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.csgraph
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES, bench_board, boards, grid_graph

from tronlab import Board
from tronlab.grid import reference as ref
from tronlab.grid.voronoi import (
    NEUTRAL, NOBODY, Territory, bfs_distances, bucket_distances, bucket_distances_kernel,
    new_scratch, owner_map, territory, territory_from_distances,
)

def nx_distances(board, player):
    """Oracle: networkx shortest path lengths from the head, as a padded array."""
    head = int(board.heads[player])
    lengths = nx.single_source_shortest_path_length(grid_graph(board, include=[head]), head)
    out = np.full(board.flat.size, -1)
    for sq, d in lengths.items():
        out[sq] = d
    return out.reshape(board.cells.shape)


def brute_territory(board, p=0, q=1):
    """Oracle: split by networkx distances, counted square by square."""
    d0, d1 = nx_distances(board, p).reshape(-1), nx_distances(board, q).reshape(-1)
    flat, s = board.flat, board.stride
    n, e = [0, 0], [0, 0]
    for i in np.flatnonzero(flat == 0):
        a = d0[i] if d0[i] >= 0 else 10**9
        b = d1[i] if d1[i] >= 0 else 10**9
        if a == b:
            continue
        who = 0 if a < b else 1
        n[who] += 1
        e[who] += sum(flat[i + k] == 0 for k in (-s, 1, s, -1))
    return Territory(n[0], n[1], e[0], e[1])


# ---- fixed boards -------------------------------------------------------------
@pytest.mark.parametrize("name, expected", [
    ("empty15", (102, 102, 378, 378)),
    ("empty30x20", (289, 289, 1107, 1107)),
    ("rand30x20", (237, 199, 700, 578)),
])
def test_matches_c_reference_boards(name, expected):
    board = bench_board(name)
    assert territory(board) == expected
    d0, d1 = bfs_distances(board, 0), bfs_distances(board, 1)
    assert territory_from_distances(board, d0, d1) == expected
    assert ref.territory(board.flat, *board.heads, board.stride) == expected


def test_small_board_by_hand():
    board = Board.from_ascii("""
        1.#.
        ....
        ...2
    """)
    # distances from 1: (1,0)=1 (0,1)=1 (1,1)=2 (0,2)=2 (2,1)=3 (1,2)=3 (3,0)=5 (3,1)=4 (2,2)=4
    # distances from 2: (3,1)=1 (2,2)=1 (2,1)=2 (1,2)=2 (3,0)=2 (1,1)=3 (0,2)=3 (0,1)=4 (1,0)=4
    # player 0: (1,0) (0,1) (1,1) (0,2); player 1: (3,1) (2,2) (2,1) (1,2) (3,0)
    t = territory(board)
    assert (t.n0, t.n1) == (4, 5)
    # free neighbours: (1,0):1 (0,1):2 (1,1):4 (0,2):2 -> 9
    #                  (3,1):2 (2,2):2 (2,1):3 (1,2):3 (3,0):1 -> 11
    assert (t.e0, t.e1) == (9, 11)
    owners = owner_map(board)
    assert owners[1, 1] == 0 and owners[3, 4] == 1     # the heads
    assert owners[1, 3] == NOBODY                      # the wall


def test_tie_square_is_neutral():
    board = Board.from_ascii("1.2")
    assert territory(board) == (0, 0, 0, 0)
    assert owner_map(board)[1, 2] == NEUTRAL


def test_separated_players_count_their_own_rooms():
    board = Board.from_ascii("""
        1..#..
        ...#.2
    """)
    assert territory(board)[:2] == (5, 3)


def test_bucket_dijkstra_with_costs_by_hand():
    board = Board.from_ascii("1..\n...\n..2")
    cost = np.ones(board.cells.shape, np.uint8)
    cost[1, 2] = 9    # (1, 0) is expensive: go round it
    d = bucket_distances(board, 0, cost=cost)
    assert d[1, 3] == 4 and d[1, 2] == 9 and d[2, 1] == 1


def test_errors_are_clear():
    board = Board.from_ascii("1.2")
    with pytest.raises(ValueError, match="player 5"):
        territory(board, (0, 5))
    with pytest.raises(ValueError, match="differ"):
        territory(board, (1, 1))
    with pytest.raises(TypeError, match="Board"):
        territory("1.2")
    with pytest.raises(ValueError, match="scratch"):
        territory(board, scratch=new_scratch(3))
    with pytest.raises(ValueError, match="255"):
        bucket_distances(board, cost=np.zeros(board.cells.shape))
    with pytest.raises(ValueError, match="shape"):
        territory_from_distances(board, np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="start"):
        bfs_distances(board, start=2)
    with pytest.raises(ValueError, match="start"):
        bucket_distances(board, start=10**6)


@pytest.mark.parametrize("value, error, words", [
    (1.5, ValueError, "cost must hold whole numbers, found 1.5"),
    (np.nan, ValueError, "cost must hold whole numbers, found nan"),
    (256, ValueError, "from 1 to 255, found 256"),
    ("x", TypeError, "cost must hold numbers"),
])
def test_bucket_costs_are_whole_numbers_1_to_255(value, error, words):
    board = Board.from_ascii("1.2")
    cost = np.ones(board.cells.shape, object if isinstance(value, str) else float)
    cost[1, 2] = value                  # numpy would cut 1.5 to 1 and NaN to 0
    if isinstance(value, str):
        cost = cost.astype(str)
    with pytest.raises(error, match=words):
        bucket_distances(board, cost=cost)


@pytest.mark.parametrize("value, words", [(2**31 + 2, "found 2147483650"),
                                          (2**30, "to 1073741823, found 1073741824"),
                                          (2.5, "dist1 must hold whole numbers, found 2.5")])
def test_distance_maps_are_whole_numbers_that_fit(value, words):
    board = Board.from_ascii("1.2")
    d0 = bfs_distances(board, 0).astype(np.int64 if isinstance(value, int) else float)
    d1 = bfs_distances(board, 1).astype(d0.dtype)
    d0[1, 2] = 5
    d1[1, 2] = value                    # an int32 cast would wrap 2**31 + 2 to negative
    with pytest.raises(ValueError, match=words):
        territory_from_distances(board, d0, d1)
    assert territory_from_distances(board, d0 * 0 + 1, d1 * 0 + 1) == (0, 0, 0, 0)


# ---- random boards --------------------------------------------------------------
@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(), st.data())
def test_bfs_matches_networkx_and_reference(board, data):
    p = data.draw(st.integers(0, board.n_players - 1))
    d = bfs_distances(board, p)
    assert np.array_equal(d, nx_distances(board, p))
    want = ref.bfs_distances(board.flat, int(board.heads[p]), board.stride)
    assert d.reshape(-1).tolist() == want


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_players=2))
def test_bucket_dijkstra_unit_costs_equals_bfs(board):
    assert np.array_equal(bucket_distances(board, 1), bfs_distances(board, 1))


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_players=2), st.integers(0, 2**32 - 1))
def test_bucket_dijkstra_matches_scipy(board, seed):
    rng = np.random.default_rng(seed)
    cost = rng.integers(1, 256, size=board.cells.shape).astype(np.uint8)
    got = bucket_distances(board, 0, cost=cost).reshape(-1)
    # oracle: scipy's Dijkstra on a directed graph, arc u->v weighs cost[v]
    flat, s, c = board.flat, board.stride, cost.reshape(-1)
    head = int(board.heads[0])
    rows, cols, w = [], [], []
    for u in [head, *np.flatnonzero(flat == 0)]:
        for v in (u - s, u + 1, u + s, u - 1):
            if flat[v] == 0:
                rows.append(u), cols.append(v), w.append(float(c[v]))
    graph = scipy.sparse.csr_matrix((w, (rows, cols)), shape=(flat.size, flat.size))
    want = scipy.sparse.csgraph.dijkstra(graph, indices=head)
    want = np.where(np.isinf(want), -1, want).astype(int)
    assert np.array_equal(got, want)
    assert got.tolist() == ref.dijkstra_distances(flat, head, s, c)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_players=2), st.integers(0, 2**32 - 1))
def test_bucket_dijkstra_settles_each_reached_square_once(board, seed):
    """The kernel's return value (no wrapper passes it on): the squares settled,
    the start included, i.e. the squares scipy reaches from the head."""
    rng = np.random.default_rng(seed)
    cost = rng.integers(1, 256, size=board.flat.size).astype(np.uint8)
    flat, s, head, size = board.flat, board.stride, int(board.heads[0]), board.flat.size
    rows, cols = [], []
    for u in [head, *np.flatnonzero(flat == 0)]:
        for v in (u - s, u + 1, u + s, u - 1):
            if flat[v] == 0:
                rows.append(u), cols.append(v)
    graph = scipy.sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(size, size))
    reached = int(np.count_nonzero(np.isfinite(
        scipy.sparse.csgraph.dijkstra(graph, indices=head, unweighted=True))))
    dist = np.empty(size, np.int32)
    settled = bucket_distances_kernel(flat, np.int64(head), np.int64(s), cost, dist,
                                      np.empty(256, np.int32), np.empty(4 * size + 1, np.int32),
                                      np.empty(4 * size + 1, np.int32))
    assert settled == reached == np.count_nonzero(dist >= 0)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(), st.data())
def test_territory_matches_networkx_split(board, data):
    p, q = data.draw(st.permutations(range(board.n_players)))[:2]
    t = territory(board, (p, q))
    assert t == brute_territory(board, p, q)
    assert t == ref.territory(board.flat, int(board.heads[p]), int(board.heads[q]), board.stride)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_players=2))
def test_h6_sign_of_distance_difference_equals_bfs_split(board):
    d0, d1 = bfs_distances(board, 0), bfs_distances(board, 1)
    assert territory_from_distances(board, d0, d1) == territory(board)
    assert territory_from_distances(board, d0, d1) == ref.territory_from_distances(
        board.flat, d0.reshape(-1), d1.reshape(-1), board.stride)


def split_by_distances(board, d0, d1):
    """Oracle for H6 with numpy masks: a free square is player 0's when d0 reaches
    it and d1 does not or is larger, player 1's the other way round."""
    flat, s = board.flat, board.stride
    d0, d1 = d0.reshape(-1), d1.reshape(-1)
    free = flat == 0
    mine = free & (d0 >= 0) & ((d1 < 0) | (d0 < d1))
    theirs = free & (d1 >= 0) & ((d0 < 0) | (d1 < d0))
    degree = np.zeros(flat.size, int)
    inner = np.arange(s, flat.size - s)
    for k in (-s, 1, s, -1):
        degree[inner] += flat[inner + k] == 0
    return Territory(int(mine.sum()), int(theirs.sum()), int(degree[mine].sum()),
                     int(degree[theirs].sum()))


def test_h6_a_free_start_at_distance_zero_is_its_players():
    board = Board.from_ascii("1...2")
    d0 = bfs_distances(board, start=board.index(1, 0))     # the row: -1 0 1 2 -1
    d1 = bfs_distances(board, start=board.index(3, 0))     # the row: -1 2 1 0 -1
    assert d0[1, 1:6].tolist() == [-1, 0, 1, 2, -1] and d1[1, 1:6].tolist() == [-1, 2, 1, 0, -1]
    assert territory_from_distances(board, d0, d1) == (1, 1, 1, 1)
    assert territory_from_distances(board, d0, d1) == split_by_distances(board, d0, d1)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_players=2), st.data())
def test_h6_matches_the_mask_oracle_from_free_starts(board, data):
    """Distance maps started on free squares (``start=``) hold a 0 on a free square."""
    free = np.flatnonzero(board.flat == 0).tolist()
    starts = [data.draw(st.sampled_from(free)) if free else None for _ in range(2)]
    d0, d1 = (bfs_distances(board, p, start=start) for p, start in enumerate(starts))
    assert territory_from_distances(board, d0, d1) == split_by_distances(board, d0, d1)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_players=2))
def test_owner_map_matches_reference_and_counts(board):
    scratch = new_scratch(board.flat.size)
    owners = owner_map(board, scratch=scratch)
    want = ref.owner_map(board.flat, int(board.heads[0]), int(board.heads[1]), board.stride)
    assert owners.reshape(-1).tolist() == want
    t = territory(board, scratch=scratch)   # scratch reuse gives the same answer
    assert (t.n0, t.n1) == (np.sum(owners == 0) - 1, np.sum(owners == 1) - 1)


def test_benchmark_script_reports_the_c_reference_results():
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    boards = [str(root / "benchmarks" / "boards" / f"{n}.txt") for n in ("empty15", "rand30x20")]
    args = [a for b in boards for a in ("--board", b)]
    script = root / "benchmarks" / "kernels.py"
    cmd = [sys.executable, str(script), *args, "--json", "--budget", "0.02"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=600)
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["board"] for r in rows] == ["empty15.txt", "rand30x20.txt"]
    empty15, rand = rows
    assert (rand["territory"], rand["edges"], rand["flood"]) == ([237, 199], [700, 578], 448)
    assert (rand["articulation_count"], rand["articulation_index_sum"]) == (39, 8787)
    assert (empty15["territory"], empty15["edges"], empty15["flood"]) == \
        ([102, 102], [378, 378], 223)
    for r in rows:
        for key in ("voronoi_us", "flood_us", "articulation_us", "python_voronoi_us",
                    "python_flood_us", "python_articulation_us"):
            assert r[key] > 0
