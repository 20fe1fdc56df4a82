"""Built-in, random and contest maps (tronlab.tron.mapgen) and map-file errors
(tronlab.tron.maps)."""

import os

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import EXAMPLES
from tronlab.tron.board import FREE, TRAIL, WALL, Board, BoardError
from tronlab.tron.mapgen import (builtin_maps, builtin_path, codingame_board, heads_connected,
                            lightriders_board, load_builtin, random_map)
from tronlab.tron.maps import format_map, load_map, parse_map

SHARED_MAPS = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "maps", "google2010")


# ---- oracles ------------------------------------------------------------------------------------

def free_graph(board):
    """networkx graph over (x, y): free squares plus the heads, 4-neighbour edges."""
    W, H = board.width, board.height
    heads = {board.head_xy(p) for p in range(board.n_players)}
    nodes = {(x, y) for x in range(W) for y in range(H) if board.at(x, y) == FREE} | heads
    g = nx.grid_2d_graph(W, H).subgraph(nodes).copy()
    g.remove_edges_from([(a, b) for a, b in list(g.edges) if a in heads and b in heads])
    return g


def connected_oracle(board):
    a, b = board.head_xy(0), board.head_xy(1)
    return nx.has_path(free_graph(board), a, b)


def is_point_symmetric(board):
    W, H = board.width, board.height
    for y in range(H):
        for x in range(W):
            if (board.at(x, y) == WALL) != (board.at(W - 1 - x, H - 1 - y) == WALL):
                return False
    (x0, y0), (x1, y1) = board.head_xy(0), board.head_xy(1)
    return (x1, y1) == (W - 1 - x0, H - 1 - y0)


def test_oracles_can_fail():
    assert not is_point_symmetric(parse_map("3 2\n1 #\n  2\n"))
    assert is_point_symmetric(parse_map("3 2\n1 #\n# 2\n"))
    assert not connected_oracle(Board.from_ascii("1#2"))
    assert connected_oracle(parse_map("3 2\n1#2\n   \n"))
    assert not heads_connected(Board.from_ascii("1#2.\n.#.."))
    assert not heads_connected(Board.from_ascii("12"))      # touching heads, nowhere to go
    assert not connected_oracle(Board.from_ascii("12"))


# ---- built-in maps ------------------------------------------------------------------------------

def test_at_least_six_builtin_maps():
    names = builtin_maps()
    assert len(names) >= 6
    assert {"arena", "two-rooms", "spiral", "pillars", "cross"} <= set(names)


@pytest.mark.parametrize("name", builtin_maps())
def test_builtin_map_is_fair_and_connected(name):
    board = load_builtin(name)
    assert 13 <= board.width <= 25 and 13 <= board.height <= 25
    assert board.n_players == 2
    assert is_point_symmetric(board)
    assert connected_oracle(board)
    assert heads_connected(board)
    # every free square can be reached: no dead pockets in a hand-drawn map
    assert nx.number_connected_components(free_graph(board)) == 1
    assert load_map(name) == board and load_map(name + ".txt") == board
    text = open(builtin_path(name), encoding="utf-8").read()
    assert format_map(board) == text


def test_builtin_lookup_errors():
    assert builtin_path("no-such-map") is None and builtin_path(3) is None
    with pytest.raises(ValueError, match="no built-in map 'nope'; built-in maps: arena"):
        load_builtin("nope")
    with pytest.raises(BoardError, match="no such map file or built-in map"):
        load_map("nope")


def test_an_unenclosed_builtin_map_exists():
    assert any(load_builtin(n).at(0, 0) != WALL or load_builtin(n).at(1, 0) != WALL
               for n in builtin_maps())


# ---- random maps --------------------------------------------------------------------------------

@st.composite
def map_specs(draw):
    border = draw(st.booleans())
    low = 5 if border else 3            # smaller maps may have no connected mirrored starts
    return (draw(st.integers(low, 25)), draw(st.integers(low, 25)), border)


@settings(max_examples=EXAMPLES)
@given(map_specs(), st.floats(0.0, 0.35), st.integers(0, 2**32 - 1))
def test_random_map_fair_connected_deterministic(spec, density, seed):
    width, height, border = spec
    board = random_map(width, height, density=density, border=border, rng=seed)
    assert (board.width, board.height, board.n_players) == (width, height, 2)
    assert is_point_symmetric(board)
    assert connected_oracle(board)
    assert board.alive.all() and board.heads[0] != board.heads[1]
    if border:
        assert all(board.at(x, y) == WALL for x in range(width) for y in (0, height - 1))
        assert all(board.at(x, y) == WALL for y in range(height) for x in (0, width - 1))
    again = random_map(width, height, density=density, border=border,
                       rng=np.random.default_rng(seed))
    assert again == board
    assert np.array_equal(board.cells, again.cells)


def test_random_map_density_and_variety():
    empty = random_map(10, 8, density=0.0, rng=1)
    assert empty.free_count() == 8 * 6 - 2
    boards = [random_map(15, 15, rng=s) for s in range(6)]
    assert len({b.to_ascii() for b in boards}) == 6
    walls = np.mean([np.count_nonzero(b.cells[2:-2, 2:-2] == WALL) / 13 ** 2 for b in boards])
    assert 0.07 < walls < 0.25        # density 0.15 for a square and its mirror together


def test_random_map_errors():
    with pytest.raises(ValueError, match="no room for two heads"):
        random_map(3, 3, rng=0)
    with pytest.raises(ValueError, match=r"density is a fraction in \[0, 1\)"):
        random_map(9, 9, density=1.0, rng=0)
    with pytest.raises(ValueError, match="no connected point-symmetric starts found on 5 random"):
        random_map(9, 9, density=0.95, rng=0, tries=5)
    with pytest.raises(ValueError, match="width must be at least 3"):
        random_map(2, 9, rng=0)
    with pytest.raises(TypeError, match="height must be an int"):
        random_map(9, 9.5, rng=0)
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
        random_map(9, 9, rng="seed")
    assert random_map(2, 2, border=False, density=0.0, rng=0).free_count() == 2


# ---- contest boards -----------------------------------------------------------------------------

@settings(max_examples=EXAMPLES)
@given(st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_codingame_board(n, seed):
    b = codingame_board(n, rng=seed)
    assert (b.width, b.height, b.n_players) == (30, 20, n)
    assert len(set(b.heads.tolist())) == n
    assert b.free_count() == 600 - n
    assert np.count_nonzero(b.cells[1:-1, 1:-1] == WALL) == 0
    assert b == codingame_board(n, rng=seed)
    m = codingame_board(2, rng=seed, mirrored=True)
    (x0, y0), (x1, y1) = m.head_xy(0), m.head_xy(1)
    assert (x1, y1) == (29 - x0, 19 - y0)


def test_codingame_board_given_starts_and_errors():
    b = codingame_board(3, starts=[(0, 0), (29, 19), (5, 7)])
    assert [b.head_xy(p) for p in range(3)] == [(0, 0), (29, 19), (5, 7)]
    assert b.at(5, 7) == TRAIL + 2
    with pytest.raises(ValueError, match="2 to 4 players"):
        codingame_board(5)
    with pytest.raises(ValueError, match="distinct"):
        codingame_board(2, starts=[(1, 1), (1, 1)])
    with pytest.raises(ValueError, match=r"start \(30, 0\) is off the 30x20 grid"):
        codingame_board(2, starts=[(30, 0), (1, 1)])
    with pytest.raises(ValueError, match="3 starts for 2 players"):
        codingame_board(2, starts=[(0, 0), (1, 1), (2, 2)])
    with pytest.raises(ValueError, match="mirrored starts are for 2 players"):
        codingame_board(3, mirrored=True)


@settings(max_examples=EXAMPLES)
@given(st.integers(0, 2**32 - 1))
def test_lightriders_board(seed):
    b = lightriders_board(rng=seed)
    (x, y), (x1, y1) = b.head_xy(0), b.head_xy(1)
    assert 1 <= x <= 6 and 1 <= y <= 14 and (x1, y1) == (15 - x, y)
    assert b.facing.tolist() == [1, 3] and (b.width, b.height) == (16, 16)
    assert b.free_count() == 254


def test_lightriders_board_given_and_errors():
    b = lightriders_board(x=3, y=9)
    assert b.head_xy(0) == (3, 9) and b.head_xy(1) == (12, 9)
    with pytest.raises(ValueError, match=r"x in 1..6 and y in 1..14, got \(7, 9\)"):
        lightriders_board(x=7, y=9)


# ---- the contest maps and map-file errors -------------------------------------------------------

def shared_maps():
    if not os.path.isdir(SHARED_MAPS):
        return []
    return sorted(f for f in os.listdir(SHARED_MAPS) if f.endswith(".txt"))


@pytest.mark.skipif(not shared_maps(), reason=f"contest maps not found at {SHARED_MAPS}")
@pytest.mark.parametrize("name", shared_maps() or ["none"])
def test_contest_map_loads_and_round_trips(name):
    path = os.path.join(SHARED_MAPS, name)
    board = load_map(path)
    text = open(path, encoding="utf-8").read()
    assert board.n_players == 2 and board.alive.all()
    assert format_map(board) == text
    assert parse_map(format_map(board)) == board


@pytest.mark.parametrize("text, message", [
    ("3 2\n1 2\n # \n", None),
    ("4 2\n1  2\n #\n", "ragged rows: row 1 has 2 characters, header says width 4"),
    ("3 1\n1x2\n", "unknown character 'x' at x=1, y=0"),
    ("3 1\n1  \n", "needs both players 1 and 2"),
    ("3 1\n  2\n", "needs both players 1 and 2"),
    ("3 1\n1 1\n", "player 1 appears twice"),
    ("3 1\n   \n", r"no players \(heads are written 1 and 2\)$"),   # before: 1, 2, 3, 4
    ("2 1\n12\n", "nothing but walls"),
    ("3 x\n1 2\n", "first line must be 'W H'"),
    ("3\n1 2\n", "first line must be 'W H'"),
    ("", "empty file"),
    ("0 3\n", "is empty"),
    ("3 3\n1 2", "header says 3 rows but only 1 follow"),
    ("3 1\n1 2\nextra\n", "non-empty line"),
])
def test_parse_map_messages(text, message):
    if message is None:
        assert parse_map(text).n_players == 2
        return
    with pytest.raises(BoardError, match=message):
        parse_map(text, name="m.txt")
