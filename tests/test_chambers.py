"""Chamber trees with battlefronts (A12, A13): hand-worked boards, the plain-Python
oracle in chamber_oracle.py on random boards, and properties of the structure."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

import chamber_oracle as oracle
from strategies import EXAMPLES, boards
from tronlab.tron.board import Board
from tronlab.tron.chambers import (
    ChamberScore, chamber_counts_kernel, chamber_score, chamber_score_kernel, chamber_tree,
    new_scratch,
)
from tronlab.grid.voronoi import territory, territory_kernel

# a1k0n v. ecv257 (seed 000), in miniature.  Red (1) owns a room of 17 squares
# plus the doorway on its right.  Blue (2) sits in the next doorway: on its
# left the middle room, the battlefront; on its right two quiet rooms joined
# by a door.  Voronoi gives blue more (22 against 18), but blue can have only
# one side: the two right rooms (6 + 1 + 6 = 13) or the front (9).  Red keeps
# its room (16; the square before its door is a gate, and the one-square
# line through the door into the front is worth 2 + the 3 steps to it).
ECV257 = """
##################
#......#...#..#..#
#...1......2.....#
#......#...#..#..#
##################
"""

# The battlefront rule.  Blue (2) is in a quiet room of 13 squares; a chain of
# gates leads through the middle room to the front (2 squares next to the
# neutral column).  Filling the room first and fighting afterwards would count
# 13 + 4 = 17; the rule only allows "stay" (13) or "go now" (3 steps + 4 = 7).
# Red (1) is the mirror image with a room of 10.
FRONT = """
################
#....#...#.....#
#.1.........2..#
#....#...#.....#
################
"""

# A13.  Red's room is small (10 squares), the front beyond it worth 11: red
# goes now (3 steps + 3 gates + 8 squares of the middle room = 14); with
# penalize_battlefront the 7 squares of its room left behind count against it.
PENALTY = """
#################
#....#.......#..#
#.1............2#
#....#.......#..#
#################
"""


def ascii_chambers(board, tree):
    """Chamber ids as characters (0-9 then A-Z), '.' for none, for readable asserts."""
    rows = []
    for row in tree.chamber_of[1:-1, 1:-1]:
        rows.append("".join("." if v < 0 else "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v]
                            for v in row))
    return "\n".join(rows)


# ---------------------------------------------------------------------------
# hand-worked boards
# ---------------------------------------------------------------------------
def test_head_between_two_corridors_counts_one_side():
    # Player 1 can go left (3 squares) or right (4), never both.
    b = Board.from_ascii("""
        ...1....
        ########
        2.......
    """)
    t = chamber_tree(b, 0)
    # Rooms next to the head come first, in move order, each explored to the
    # end (depth first): right room (4,0) = 1, gates (5,0) = 2, (6,0) = 3,
    # room (7,0) = 4; then the left room (2,0) = 5, gate (1,0) = 6, room (0,0) = 7.
    # Edges: 1 + 2 + 2 + 1 on the right, 1 + 2 + 1 on the left.
    assert t.kind == ("head", "room", "gate", "gate", "room", "room", "gate", "room")
    assert list(t.parent) == [-1, 0, 1, 2, 3, 0, 5, 6]
    assert (t.n, t.e) == (4, 6)
    assert t.path == (0, 1, 2, 3, 4)
    assert tuple(t.value[5]) == (3, 4)
    assert not t.touches_front.any()
    assert territory(b).n0 == 7          # Voronoi adds both sides up


def test_ecv257_voronoi_favours_blue_chambers_favour_red():
    b = Board.from_ascii(ECV257)
    v = territory(b)
    assert (v.n0, v.n1) == (18, 22)
    red, blue = chamber_tree(b, 0), chamber_tree(b, 1)
    assert red.n == 16 and blue.n == 13
    # blue's two options hang off its head: the front room and the quiet line
    front_room = [c for c in blue.children(0) if blue.touches_front[c]]
    assert len(front_room) == 1 and blue.size[front_room[0]] == 9
    assert blue.battlefront[front_room[0]] and front_room[0] not in blue.path
    assert not blue.battlefront[blue.path[1]]
    assert [blue.kind[c] for c in blue.path] == ["head", "room", "gate", "gate", "gate", "room"]
    assert sum(int(blue.size[c]) for c in blue.path) == 13
    assert ascii_chambers(b, blue) == "\n".join([
        "..................",
        "........666.11.55.",
        "........666.12345.",
        "........666.11.55.",
        "..................",
    ])
    s = chamber_score(b, 0)
    assert (s.n_me, s.n_opp) == (16, 13) and s.score > 0
    linear_voronoi = 0.055 * (v.n0 - v.n1) + 0.194 * (v.e0 - v.e1)
    assert linear_voronoi < 0


def test_battlefront_is_exclusive_with_the_current_chamber():
    b = Board.from_ascii(FRONT)
    blue = chamber_tree(b, 1)
    assert blue.path == (0, 1)                      # stays in its room
    assert (blue.size[1], blue.n) == (13, 13)
    gate = blue.children(1)
    assert len(gate) == 1 and blue.kind[gate[0]] == "gate"
    assert blue.battlefront[gate[0]]
    assert blue.value[gate[0], 0] == 4              # (10,2), (9,2), (8,2) + one front square
    assert blue.step[gate[0], 0] == 3               # entrance (12,1) -> (10,1): 3 squares
    red = chamber_tree(b, 0)
    assert red.n == 10 and red.path == (0, 1)
    # the cut vertices of each side, with the neutral column treated as wall
    assert [b.xy(i) for i in np.flatnonzero(blue.cut_mask)] == [(8, 2), (9, 2), (10, 2)]
    assert [b.xy(i) for i in np.flatnonzero(red.cut_mask)] == [(4, 2), (5, 2), (6, 2)]
    # gates (10,2), (9,2), (8,2), then the two front squares behind (8,2)
    assert [(p, c, b.xy(v) if v >= 0 else None) for p, c, v in blue.links] == [
        (0, 1, None), (1, 2, (10, 2)), (2, 3, (9, 2)), (3, 4, (8, 2)), (4, 5, (8, 2)),
        (4, 6, (8, 2))]


def test_penalize_battlefront_counts_the_room_given_up():
    b = Board.from_ascii(PENALTY)
    plain = chamber_tree(b, 0)
    assert plain.n == 14 and plain.size[1] == 10
    assert [plain.kind[c] for c in plain.path] == ["head", "room", "gate", "gate", "gate", "room"]
    assert plain.step[plain.path[2], 0] == 3
    penal = chamber_tree(b, 0, penalize_battlefront=True)
    assert penal.n == 14 - (10 - 3)
    assert penal.path == plain.path
    s0, s1 = chamber_score(b, 0), chamber_score(b, 0, penalize_battlefront=True)
    assert (s0.n_me, s1.n_me) == (14, 7) and s1.score < s0.score
    # blue walks up, left and down round its head into the door: 3 + 2 gates
    # + 11 front squares; its one-square rooms leave nothing behind
    assert s0.n_opp == s1.n_opp == 16


def test_ring_around_the_head_is_one_line():
    # Player 1's squares form a path around its head, (2,1) ... (1,2): every
    # inner square is a cut vertex.  Exploring depth first follows the whole
    # ring from the first room, so the line is all 7 squares (= Voronoi).
    b = Board.from_ascii("""
        .....
        .1...
        .....
        ...2.
    """)
    t = chamber_tree(b, 0)
    assert ascii_chambers(b, t) == "\n".join(["432..", "5.1..", "67...", "....."])
    assert (t.n, t.e) == (7, 18) == (territory(b).n0, territory(b).e0)
    assert t.path == tuple(range(8))


def test_no_cut_vertex_gives_voronoi_counts():
    b = Board.from_ascii("""
        .....#....
        ..1..#....
        .....#..2.
    """)
    s = chamber_score(b, 0)
    v = territory(b)
    assert (s.n_me, s.e_me, s.n_opp, s.e_opp) == (v.n0, v.e0, v.n1, v.e1)


def test_score_is_the_linear_form_and_swaps_sign():
    b = Board.from_ascii(ECV257)
    s = chamber_score(b, 0, k1=1.0, k2=0.0)
    assert s.score == pytest.approx(16 - 13)
    t = chamber_score(b, 1, k1=1.0, k2=0.0)
    assert (t.n_me, t.n_opp) == (13, 16) and t.score == pytest.approx(-3)
    d = chamber_score(b, 0)
    assert d.score == pytest.approx(0.055 * (d.n_me - d.n_opp) + 0.194 * (d.e_me - d.e_opp))


def test_trapped_head_has_nothing():
    b = Board.from_ascii("""
        1#...
        ##.2.
    """)
    t = chamber_tree(b, 0)
    assert len(t) == 1 and (t.n, t.e) == (0, 0) and t.path == (0,)


# ---------------------------------------------------------------------------
# the oracle on random boards
# ---------------------------------------------------------------------------
def assert_same_as_oracle(board, player, penalize, literal=0):
    tree = chamber_tree(board, player, penalize_battlefront=penalize, literal=literal)
    heads = [int(board.heads[player]), int(board.heads[1 - player])]
    chambers, where, cuts = oracle.chamber_tree(board.flat, heads, 0, board.stride,
                                                penalize=penalize, literal=literal)
    assert len(tree) == len(chambers)
    for c, ch in enumerate(chambers):
        assert tree.kind[c] == ch["kind"], c
        assert tree.parent[c] == ch["parent"], c
        assert tree.entrance[c] == ch["entrance"], c
        assert (tree.size[c], tree.edges[c]) == (ch["n"], ch["e"]), c
        assert bool(tree.touches_front[c]) == ch["front"], c
        assert tuple(tree.step[c]) == ch["step"], c
        assert tuple(tree.value[c]) == ch["value"], c
        assert bool(tree.battlefront[c]) == ch["value_front"], c
        assert tree.choice[c] == ch["choice"], c
    expect = np.full(board.flat.size, -1)
    for sq, c in where.items():
        expect[sq] = c
    assert np.array_equal(tree.chamber_of.reshape(-1), expect)
    assert set(np.flatnonzero(tree.cut_mask)) == cuts
    return tree


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(min_players=2, max_players=2, max_width=20, max_height=20, max_density=0.5))
def test_kernel_matches_oracle(board):
    for penalize in (False, True):
        for player in (0, 1):
            assert_same_as_oracle(board, player, penalize)
        got = chamber_score(board, 0, penalize_battlefront=penalize)
        want = oracle.chamber_counts(board.flat, [int(h) for h in board.heads], board.stride,
                                     penalize=penalize)
        assert tuple(got[:4]) == want


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(min_players=2, max_players=2, max_width=20, max_height=20, max_density=0.5))
def test_structure_properties(board):
    tree = chamber_tree(board)
    v = territory(board)
    owned = tree.owner.reshape(-1) == 0
    owned &= board.flat == 0
    ids = tree.chamber_of.reshape(-1)
    # every square the player owns is in exactly one chamber, nothing else is
    assert np.array_equal(ids >= 0, owned)
    assert tree.size.sum() == v.n0 and tree.edges.sum() == v.e0
    # gates are single cut vertices; rooms hold no cut vertex and are connected
    cut = tree.cut_mask.reshape(-1)
    for c in range(1, len(tree)):
        squares = np.flatnonzero(ids == c)
        assert len(squares) == tree.size[c] >= 1
        if tree.kind[c] == "gate":
            assert len(squares) == 1 and cut[squares[0]]
        else:
            assert not cut[squares].any()
            assert tree.entrance[c] in squares
        assert 0 <= tree.parent[c] < c
    # the value is a line through the tree: never more than the territory
    assert 0 <= tree.n <= v.n0
    assert tree.value[0, 0] == tree.n
    if not cut.any():
        # then every chamber is a room hanging off the head, one per piece of
        # territory (pieces only touch through the head): the line takes the best
        assert all(k == "room" for k in tree.kind[1:])
        assert all(p == 0 for p in tree.parent[1:])
        if len(tree) == 2:
            assert (tree.n, tree.e) == (v.n0, v.e0)


def maze(width, height, seed):
    """A perfect maze (a tree of corridors) on odd squares, as ASCII rows, by a
    randomised depth-first walk; player 1 at the top-left cell, player 2 walled
    off in an extra column on the right."""
    rng = np.random.default_rng(seed)
    w, h = 2 * width - 1, 2 * height - 1
    grid = [["#"] * w for _ in range(h)]
    grid[0][0] = "."
    stack, seen = [(0, 0)], {(0, 0)}
    while stack:
        x, y = stack[-1]
        nexts = [(x + dx, y + dy) for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2))
                 if 0 <= x + dx < w and 0 <= y + dy < h and (x + dx, y + dy) not in seen]
        if not nexts:
            stack.pop()
            continue
        nx_, ny_ = nexts[rng.integers(len(nexts))]
        grid[(y + ny_) // 2][(x + nx_) // 2] = "."
        grid[ny_][nx_] = "."
        seen.add((nx_, ny_))
        stack.append((nx_, ny_))
    grid[0][0] = "1"
    rows = ["".join(r) + "#." for r in grid]
    rows[-1] = rows[-1][:-1] + "2"
    return "\n".join(rows)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(2, 8), st.integers(2, 8), st.integers(0, 2**32 - 1))
def test_in_a_tree_of_corridors_the_line_is_the_farthest_square(width, height, seed):
    """Every inner square of a tree is a cut vertex, so with K2 = 0 the chamber
    value is the longest path from the head: its farthest square (plain BFS)."""
    b = Board.from_ascii(maze(width, height, seed))
    flat, stride = b.flat, b.stride
    dist = {int(b.heads[0]): 0}
    todo = [int(b.heads[0])]
    for sq in todo:
        for nb in (sq - stride, sq + 1, sq + stride, sq - 1):
            if flat[nb] == 0 and nb not in dist:
                dist[nb] = dist[sq] + 1
                todo.append(nb)
    tree = chamber_tree(b, 0, k1=1.0, k2=0.0)
    assert tree.n == max(dist.values())
    assert not tree.battlefront.any()


# ---------------------------------------------------------------------------
# kernels, scratch and errors
# ---------------------------------------------------------------------------
@njit
def _score_loop(flat, h0, h1, stride, reps, k1, k2, flags, s):
    total = 0.0
    for _ in range(reps):
        total += chamber_score_kernel(flat, h0, h1, stride, k1, k2, flags, s)
    return total


def test_score_kernel_runs_inside_compiled_code_with_reused_scratch():
    b = Board.from_ascii(ECV257)
    s = new_scratch(b.flat.size)
    one = chamber_score(b, 0, scratch=s).score
    total = _score_loop(b.flat, b.heads[0], b.heads[1], np.int64(b.stride), 5, 0.055, 0.194,
                        np.int64(0), s)
    assert total == pytest.approx(5 * one)
    n0, n1, e0, e1 = chamber_counts_kernel(b.flat, b.heads[0], b.heads[1], np.int64(b.stride),
                                           0.055, 0.194, np.int64(0), s)
    assert (n0, n1) == (16, 13)
    assert chamber_score(b, 0, scratch=s)[:4] == (n0, n1, e0, e1)


def test_counts_come_in_the_order_territory_uses():
    # each territory is a room without a cut vertex (the head is a wall for that search) and
    # touches no front: each tree is one room whose value is the Voronoi count, and the
    # kernels return both in territory_kernel's order (n0, n1, e0, e1)
    b = Board.from_ascii("""
        1..#....
        ...#....
        ...#...2
    """)
    s = new_scratch(b.flat.size)
    args = (b.flat, b.heads[0], b.heads[1], np.int64(b.stride))
    counts = chamber_counts_kernel(*args, 0.055, 0.194, np.int64(0), s)
    voronoi = territory_kernel(*args, s.dist, s.owner, s.queue)
    assert tuple(counts) == tuple(voronoi)
    assert counts[:2] == (3 * 3 - 1, 3 * 4 - 1)     # sizes first, then the edge counts


def test_wrappers_reject_bad_input():
    b = Board.from_ascii(ECV257)
    with pytest.raises(TypeError, match="Board"):
        chamber_score("not a board")
    with pytest.raises(ValueError, match="player 2 does not exist"):
        chamber_score(b, 2)
    with pytest.raises(TypeError, match="player must be an int"):
        chamber_tree(b, "red")
    with pytest.raises(ValueError, match="must differ"):
        chamber_score(b, 0, opponent=0)
    with pytest.raises(ValueError, match="finite"):
        chamber_score(b, 0, k1=float("nan"))
    with pytest.raises(ValueError, match=">= 0"):
        chamber_tree(b, 0, k2=-1)
    with pytest.raises(ValueError, match="both 0"):
        chamber_score(b, 0, k1=0, k2=0.0)
    with pytest.raises(TypeError, match="k1 must be a number"):
        chamber_score(b, 0, k1="big")
    with pytest.raises(ValueError, match="scratch"):
        chamber_score(b, 0, scratch=new_scratch(10))
    s = new_scratch(b.flat.size)            # before: only 'dist' was measured
    with pytest.raises(ValueError, match=r"scratch must be chambers\.new_scratch"):
        chamber_score(b, 0, scratch=s._replace(region=s.region[:2]))
    three = Board.from_ascii("1.2.3")
    with pytest.raises(ValueError, match="which opponent"):
        chamber_score(three, 0)
    assert isinstance(chamber_score(three, 0, opponent=2), ChamberScore)


def test_each_cached_kernel_has_one_signature():
    # numba can crash loading a cached function compiled for several types
    import tronlab.tron.chamber_build as build
    import tronlab.tron.chambers as mod
    b = Board.from_ascii(ECV257)
    chamber_tree(b, 1, penalize_battlefront=True)
    chamber_score(b, 0)
    for name in ("chamber_values_kernel", "chamber_counts_kernel"):
        assert len(getattr(mod, name).signatures) <= 1, name
    for name in ("chamber_tree_kernel", "_new_chamber", "_new_gate", "_grow_room"):
        assert len(getattr(build, name).signatures) <= 1, name
