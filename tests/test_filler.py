"""The greedy space filler (A1): hand-worked boards, brute-force longest paths on
tiny regions, the parity bound, and a networkx re-derivation of every choice."""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from strategies import EXAMPLES, boards, small_boards
from tronlab.tron.board import Board
from tronlab.tron.spacefill import (
    fill_length, fill_length_kernel, fill_path, greedy_move, new_scratch, sides_kernel,
)
from tronlab.grid.parity import fill_bound
from tronlab.grid.ring import POTENTIAL_ARTICULATION

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3


def longest_path(board, player=0):
    """Exhaustive longest path (in moves) from a head over free squares."""
    flat = board.flat.tolist()
    offsets = [int(o) for o in board.offsets]

    def walk(sq):
        best = 0
        for off in offsets:
            nb = sq + off
            if flat[nb] == 0:
                flat[nb] = 1
                best = max(best, 1 + walk(nb))
                flat[nb] = 0
        return best

    return walk(int(board.heads[player]))


def free_graph(flat, stride):
    g = nx.Graph()
    free = [i for i, v in enumerate(flat) if v == 0]
    g.add_nodes_from(free)
    for i in free:
        for j in (i + 1, i + stride):
            if flat[j] == 0:
                g.add_edge(i, j)
    return g


def colour(sq, stride):
    return (sq // stride + sq % stride) % 2


def path_bound(other, same):
    return 2 * same + 1 if other > same else 2 * other


def candidate_values(board, player=0):
    """For each legal move: (space, cut, free neighbours) derived with networkx:
    the sides are the components of the free graph without the target."""
    flat = board.flat.tolist()
    stride = board.stride
    out = {}
    for move in board.legal_moves(player):
        t = int(board.heads[player] + board.offsets[move])
        g = free_graph(flat, stride)
        g.remove_node(t)
        nbrs = [t + int(o) for o in board.offsets if flat[t + int(o)] == 0]
        sides = {frozenset(nx.node_connected_component(g, u)) for u in nbrs}
        best = 1
        for side in sides:
            same = sum(colour(s, stride) == colour(t, stride) for s in side)
            best = max(best, 1 + path_bound(len(side) - same, same))
        out[move] = (best, len(sides) >= 2, len(nbrs))
    return out


# ---------------------------------------------------------------------------
# hand-worked boards
# ---------------------------------------------------------------------------
def test_hugs_the_wall():
    # up and down have one free neighbour each, right has three: up first
    b = Board.from_ascii("""
        #....
        .1...
        #....
        ....2
    """)
    assert greedy_move(b) == UP


def test_junction_takes_the_bigger_side():
    # Up the corridor into the T at (3,0): the left arm holds 3 squares, the
    # right arm 5.
    b = Board.from_ascii("""
        .........
        ###1#####
        ###a###2#
    """)
    assert fill_path(b) == [UP] + [RIGHT] * 5
    mirrored = Board.from_ascii("""
        .........
        #####1###
        #2###a###
    """)
    assert fill_path(mirrored) == [UP] + [LEFT] * 5


def test_does_not_enter_a_cut_vertex_when_a_safe_square_exists():
    # Right of the head, (2,1) is the only way into the pocket (2,0): a cut
    # vertex.  Left (0,1) and down (1,2) are safe; left has more walls.
    b = Board.from_ascii("""
        ##.###
        .1....
        ......
        ....2.
    """)
    values = candidate_values(b)
    assert values[RIGHT][1] and not values[LEFT][1] and not values[DOWN][1]
    assert greedy_move(b) == LEFT
    assert fill_length(b) == longest_path(b)


def test_forced_through_a_cut_vertex_keeps_the_bigger_side():
    # The head's only move is into the junction (2,1); from there the filler
    # must pick the long arm (right, 5 squares) over the short one (left, 1).
    b = Board.from_ascii("""
        ##.#####
        #..1....
        ########
        ######2#
    """)
    assert fill_path(b) == [RIGHT, RIGHT, RIGHT, RIGHT]
    c = Board.from_ascii("""
        ####.###
        #.1.....
        ########
        #2######
    """)
    # left is 1 square; right leads to the junction (4,1) and then the
    # 3-square arm; up at (4,0) is a dead end of 1
    assert fill_path(c) == [RIGHT, RIGHT, RIGHT, RIGHT, RIGHT]
    assert fill_length(c) == longest_path(c) == 5


@pytest.mark.parametrize("text", [
    # straight corridor entered from an end
    "1......#2",
    # L-shaped and snake corridors
    """
    1....#
    ####.#
    ####.#
    2....#
    """,
    """
    1.....
    #####.
    ......
    .#####
    .....2
    """,
    # 2xN rooms entered at a corner
    """
    1.......
    ........
    #######2
    """,
    # empty rectangles entered at a corner
    """
    1....
    .....
    .....
    .....
    ###2#
    """,
    """
    1...
    ....
    ....
    ....
    ....
    ###2
    """,
    # a room behind a corridor
    """
    1...####
    ###.####
    ###.....
    ###.....
    ###....2
    """,
])
def test_reaches_the_longest_path_on_corridors_and_rooms(text):
    b = Board.from_ascii(text)
    assert fill_length(b) == longest_path(b)


def test_boxed_in():
    b = Board.from_ascii("""
        #1#
        ###
        2..
    """)
    assert greedy_move(b) == -1 and fill_length(b) == 0 and fill_path(b) == []


def test_a_dead_players_move_is_made_from_its_head_as_documented():
    b = Board.from_ascii("""
        .1...
        ##.##
        ...2.
    """)
    alive = (greedy_move(b), fill_path(b), fill_length(b))
    b.alive[0] = False                  # the alive flags are not read
    assert (greedy_move(b), fill_path(b), fill_length(b)) == alive
    assert alive[0] == RIGHT and alive[2] == len(alive[1]) > 0


# ---------------------------------------------------------------------------
# properties on random boards
# ---------------------------------------------------------------------------
def walk(board, player, moves):
    """Replay moves; every one must enter a free square.  Returns the squares."""
    flat = board.flat.copy()
    sq = int(board.heads[player])
    squares = []
    for m in moves:
        sq += int(board.offsets[m])
        assert flat[sq] == 0, "the filler moved into a blocked square"
        flat[sq] = 1
        squares.append(sq)
    # boxed in at the end
    assert all(flat[sq + int(o)] != 0 for o in board.offsets)
    return squares


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_width=20, max_height=20, dead=True))
def test_never_moves_into_a_wall_while_a_free_square_exists(board):
    for p in range(board.n_players):
        move = greedy_move(board, p)
        legal = [m for m in range(4)
                 if board.flat[board.heads[p] + board.offsets[m]] == 0]
        if legal:
            assert move in legal
        else:
            assert move == -1


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_width=20, max_height=20))
def test_fill_is_a_real_path_within_the_parity_bound(board):
    before = board.flat.copy()
    path = fill_path(board, 0)
    assert np.array_equal(board.flat, before)
    walk(board, 0, path)
    assert len(path) == fill_length(board, 0)
    assert len(path) <= fill_bound(board, 0).bound


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_boards(max_players=2))
def test_never_longer_than_the_longest_path(board):
    n = fill_length(board, 0)
    best = longest_path(board, 0)
    assert n <= best
    # a filler that wastes half the region would be broken
    assert n >= (best + 1) // 2


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_width=12, max_height=10, max_players=2))
def test_every_choice_matches_a_networkx_rederivation(board):
    """Each move of a whole fill: best parity space, then not a cut vertex,
    then fewest free neighbours, then move order - recomputed with networkx."""
    b = board.copy()
    for _ in range(12):
        values = candidate_values(b, 0)
        move = greedy_move(b, 0)
        if not values:
            assert move == -1
            return
        key = {m: (-v[0], v[1], v[2], m) for m, v in values.items()}
        assert move == min(key, key=key.get), (b.to_ascii(), values, move)
        # never into a cut vertex when a non-cut square offers as much space
        if values[move][1]:
            assert all(v[1] or v[0] < values[move][0] for v in values.values())
        target = int(b.heads[0] + b.offsets[move])
        b.cells.reshape(-1)[target] = 2
        b.heads[0] = target


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_width=20, max_height=20, max_players=2), st.integers(0, 10**6))
def test_sides_kernel_matches_networkx_components(board, pick):
    """Block a free square; its neighbours' sides and their colour counts, both
    with the full search and with the early stop given the region's totals."""
    flat = board.flat.copy()
    free = np.flatnonzero(flat == 0)
    if len(free) == 0:
        return
    t = int(free[pick % len(free)])
    g = free_graph(flat.tolist(), board.stride)
    region = nx.node_connected_component(g, t) - {t}
    g.remove_node(t)
    flat[t] = 1
    stride = board.stride
    want = {}
    for k, off in enumerate(board.offsets):
        u = t + int(off)
        if flat[u] == 0:
            side = nx.node_connected_component(g, u)
            ones = sum(colour(x, stride) for x in side)
            want[k] = (len(side) - ones, ones, frozenset(side))
    n_sides = len({w[2] for w in want.values()})
    s = new_scratch(flat.size)
    totals = (sum(1 - colour(x, stride) for x in region), sum(colour(x, stride) for x in region))
    for full in (True, False):
        out = np.full((4, 2), -7, np.int32)
        got = sides_kernel(flat, np.int64(t), np.int64(stride), np.int64(full),
                           np.int64(totals[0]), np.int64(totals[1]),
                           s.mark, s.queue, s.groups, s.gpar, s.gpend, out)
        assert got == n_sides
        for k in range(4):
            if k in want:
                assert tuple(out[k]) == want[k][:2]
            else:
                assert tuple(out[k]) == (-7, -7)
        assert not s.mark.any()


# ---------------------------------------------------------------------------
# kernels and errors
# ---------------------------------------------------------------------------
@njit
def _total(flat, heads, stride, table, s):
    total = 0
    for h in heads:
        total += fill_length_kernel(flat, h, stride, table, s.mark, s.queue, s.groups, s.gpar,
                                    s.gpend, s.cur, s.cand, s.best, s.trail)
    return total


def test_fill_length_kernel_runs_in_compiled_code_and_restores_the_grid():
    b = Board.from_ascii("""
        1.........
        ..........
        ..##......
        ..........
        .........2
    """)
    s = new_scratch(b.flat.size)
    before = b.flat.copy()
    one = fill_length(b, 0, scratch=s)
    total = _total(b.flat, b.heads[:1].repeat(3), np.int64(b.stride), POTENTIAL_ARTICULATION, s)
    assert total == 3 * one and np.array_equal(b.flat, before)
    assert not s.mark.any()
    assert one == 46                         # 50 - 2 heads - 2 walls: every square


def test_start_square_and_errors():
    b = Board.from_ascii("""
        1..#
        ...2
    """)
    # from (2,0) (blocked like a head): (1,0), (1,1), (0,1) or the like, 3 moves
    assert fill_length(b, start=b.index(2, 0)) == 3
    assert greedy_move(b, start=b.index(2, 0)) in (LEFT, DOWN)
    with pytest.raises(TypeError, match="Board"):
        fill_length("1..")
    with pytest.raises(ValueError, match="player 5 does not exist"):
        greedy_move(b, 5)
    with pytest.raises(TypeError, match="player must be an int"):
        fill_path(b, 0.5)
    with pytest.raises(ValueError, match="not a flat index"):
        fill_length(b, start=0)
    with pytest.raises(ValueError, match="scratch"):
        fill_length(b, scratch=new_scratch(3))
    short = new_scratch(b.flat.size)        # before: only 'mark' was measured, and the
    short = short._replace(queue=short.queue[:3])   # fill wrote past a 3-square queue
    with pytest.raises(ValueError, match=r"scratch must be spacefill\.new_scratch"):
        fill_length(b, scratch=short)


# ---------------------------------------------------------------------------
# the bot
# ---------------------------------------------------------------------------
def test_filler_bot_is_registered_and_outlasts_random_when_walled_off():
    import tronlab.tron.bots.filler  # noqa: F401  (registers "filler")
    from tronlab.runner.registry import describe, get_bot
    from tronlab.runner.engine import play

    assert "greedy" in describe("filler")
    # Two equal separated rooms: the filler fills its room, random soon traps
    # itself; the filler must never lose and must win most seeds.
    b = Board.from_ascii("""
        ......#......
        ......#......
        ..1...#...2..
        ......#......
        ......#......
    """)
    wins = 0
    for seed in range(6):
        record = play(b, [get_bot("filler"), get_bot("random")], rng=seed)
        assert record.outcome.winner in (0, None)
        wins += record.outcome.winner == 0
        assert record.outcome.deaths[0] in (None, "wall", "trail")
    assert wins >= 5


def test_filler_bot_plays_every_rule_set_without_suicide():
    import tronlab.tron.bots.filler  # noqa: F401
    from tronlab.runner.registry import get_bot
    from tronlab.runner.engine import play
    from tronlab.tron.mapgen import codingame_board, lightriders_board

    for rules, board in (("codingame", codingame_board(3, rng=1)),
                         ("lightriders", lightriders_board(rng=2))):
        record = play(board, [get_bot("filler") for _ in range(board.n_players)],
                      rules=rules, rng=0, max_turns=600)
        assert record.outcome.turns > 20


def test_each_cached_kernel_has_one_signature():
    # numba can crash loading a cached function compiled for several types
    import tronlab.tron.spacefill as mod
    from tronlab.tron.bots.filler import FillerBot
    b = Board.from_ascii("""
        1...#
        ..#.2
    """)
    fill_length(b), greedy_move(b), fill_path(b, start=b.index(1, 1)), FillerBot()(b, 1)
    for name in ("sides_kernel", "choose_move_kernel", "greedy_move_kernel",
                 "fill_length_kernel"):
        assert len(getattr(mod, name).signatures) <= 1, name
