"""Hypothesis strategies for random boards, shared by the test modules.

``boards()`` draws a size (3x3 up to 30x20 by default), 2-4 players, a wall
density and a numpy seed, then scatters walls and a few trail squares and puts
the heads on distinct squares.  The seed keeps drawing fast on big boards;
hypothesis still shrinks size, density and player count.

    from strategies import boards, EXAMPLES
    @settings(max_examples=EXAMPLES, deadline=None)
    @given(boards(max_players=2))
    def test_something(board): ...

``EXAMPLES`` is 100 when the environment variable ``CI`` is set, else 40.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

from tronlab.tron.board import FREE, TRAIL, WALL, Board
from tronlab.tron.maps import load_map

#: examples per property test: derandomized in CI (the same boards every run, see conftest.py);
#: 100 keeps the suite inside CI's 20 minutes on two cores
EXAMPLES = 100 if os.environ.get("CI") else 40

#: the C reference's boards ship with the repository (benchmarks/boards)
BENCH_BOARDS = Path(__file__).resolve().parents[1] / "benchmarks" / "boards"


def B(text, facing=None):
    """A board from ASCII, with each player's facing (Light Riders) when given."""
    b = Board.from_ascii(text)
    if facing is not None:
        b.facing[:] = facing
    return b


def bench_board(name):
    """One of the C reference's boards (empty15, empty30x20, rand30x20) as a Board.
    They are part of the repository, so a missing one fails the test (it used to skip it)."""
    path = BENCH_BOARDS / f"{name}.txt"
    assert path.is_file(), f"{path} is missing: the benchmark boards ship with the repository"
    return load_map(path)


@st.composite
def boards(draw, *, min_width=3, max_width=30, min_height=3, max_height=20,
           min_players=2, max_players=4, max_density=0.6, dead=False):
    """A random Board.  Walls cover about ``density`` of the squares (drawn up to
    ``max_density``); some blocked squares are trails of a player instead of
    walls.  With ``dead=True`` some players may be dead (at least one alive)."""
    width = draw(st.integers(min_width, max_width))
    height = draw(st.integers(min_height, max_height))
    n_players = draw(st.integers(min_players, min(max_players, width * height)))
    density = draw(st.floats(0.0, max_density))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    cells = np.full((height + 2, width + 2), WALL, np.uint8)
    inner = np.where(rng.random((height, width)) < density, WALL, FREE).astype(np.uint8)
    trail = (inner == WALL) & (rng.random((height, width)) < 0.3)
    inner[trail] = TRAIL + rng.integers(0, n_players, size=int(trail.sum()))
    cells[1:-1, 1:-1] = inner
    stride = width + 2
    squares = rng.choice(width * height, size=n_players, replace=False)
    heads = [(int(s) // width + 1) * stride + int(s) % width + 1 for s in squares]
    for p, h in enumerate(heads):
        cells.flat[h] = TRAIL + p
    alive = np.ones(n_players, bool)
    if dead:
        alive = rng.random(n_players) < 0.7
        alive[rng.integers(n_players)] = True
    return Board(cells, heads, alive)


def small_boards(**kw):
    """Boards small enough for brute force (up to 5x4 by default)."""
    kw.setdefault("max_width", 5)
    kw.setdefault("max_height", 4)
    return boards(**kw)


def grid_graph(board, *, include=()):
    """networkx graph of the free squares (nodes are flat indices), 4-neighbour
    edges; squares in ``include`` (e.g. heads) join the graph even if blocked,
    linked to their free neighbours only."""
    import networkx as nx

    flat = board.flat
    g = nx.Graph()
    free = [int(i) for i in np.flatnonzero(flat == FREE)]
    g.add_nodes_from(free)
    for i in free:
        for j in (i + 1, i + board.stride):
            if flat[j] == FREE:
                g.add_edge(i, j)
    for s in include:
        s = int(s)
        g.add_node(s)
        for j in (s - board.stride, s + 1, s + board.stride, s - 1):
            if flat[j] == FREE:
                g.add_edge(s, j)
    return g
