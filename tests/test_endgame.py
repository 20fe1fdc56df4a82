"""The endgame solver (tronlab.tron.endgame, A8) against exhaustive longest paths."""

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tronlab import Board
from tronlab.tron.endgame import Endgame, solve_endgame
from tronlab.tron.spacefill import fill_length


def longest_path(board, player):
    """Exhaustive: the most moves from the head, and every first move achieving it."""
    w, h = board.width, board.height
    free = {(x, y) for y in range(h) for x in range(w) if board.is_free(x, y)}
    steps = ((0, -1), (1, 0), (0, 1), (-1, 0))
    best = {}
    hx, hy = board.head_xy(player)
    for m, (dx, dy) in enumerate(steps):
        start = (hx + dx, hy + dy)
        if start not in free:
            continue
        top = 0
        stack = [(start, frozenset([start]))]
        while stack:
            (x, y), used = stack.pop()
            top = max(top, len(used))
            for ex, ey in steps:
                nb = (x + ex, y + ey)
                if nb in free and nb not in used:
                    stack.append((nb, used | {nb}))
        best[m] = top
    return (max(best.values()) if best else 0), best


@st.composite
def regions(draw, max_free=11):
    """A separated 2-player board: player 1's region of walls and free squares,
    player 2 walled in a corner of its own."""
    w = draw(st.integers(2, 5))
    h = draw(st.integers(2, 16 // w))
    n = w * h
    head = draw(st.integers(0, n - 1))
    density = draw(st.sampled_from([0.0, 0.2, 0.35]))
    bits = draw(st.lists(st.floats(0, 1), min_size=n, max_size=n))
    rows = []
    for y in range(h):
        row = "".join("1" if y * w + x == head else "#" if bits[y * w + x] < density else "."
                      for x in range(w))
        rows.append(row + ("#2" if y == 0 else "##"))
    rows.append("#" * (w + 2))
    b = Board.from_ascii("\n".join(rows))
    return b


@settings(max_examples=150)
@given(board=regions())
def test_solver_finds_the_longest_fill(board):
    want, per_move = longest_path(board, 0)
    got, move = solve_endgame(board, 0)
    assert got == want, board.to_ascii()
    if per_move:
        assert per_move[move] == want
    else:
        assert move == -1


def test_greedy_alone_is_not_enough_but_the_search_is():
    # the greedy filler alone falls short of the longest fill here; the search finds it
    b = Board.from_ascii("""
        ...#.
        .1...
        #...#
        ####2
    """)
    want, _ = longest_path(b, 0)
    assert fill_length(b, 0) < want == 10
    s = Endgame()
    assert s.solve(b, 0)[0] == want
    assert s.last_stats["exact"]


def test_stops_at_the_parity_bound():
    b = Board.from_ascii("""
        1.........#2
        ..........##
        ..........##
        ..........##
        ..........##
        ..........##
        ..........##
    """)
    s = Endgame()
    moves, move = s.solve(b, 0, time=1.0)
    # an open 10x7 room from a corner: 69 free squares, and a fill of all of them exists
    assert moves == 69 == s.last_stats["bound"]
    assert s.last_stats["exact"]
    # the first iteration's filler already reaches the bound: the deepening stops there
    # instead of running on to max_depth (or to the 1 s budget)
    assert s.last_stats["depth"] == 1 and s.last_stats["nodes"] == 1


def test_deadline_holds_on_a_big_region():
    # the head sits in a doorway between two rooms: the parity bound counts both rooms,
    # a path can only fill one, so the deepening never stops by itself
    rows = ["." * 25 for _ in range(25)]
    rows[12] = "#" * 12 + "1" + "#" * 12
    board = Board.from_ascii("\n".join(rows) + "\n" + "#" * 24 + "2")
    s = Endgame()
    s.solve(board, 0, time=0.01)            # compile first
    for budget in (0.02, 0.1):
        t0 = time.perf_counter()
        moves, move = s.solve(board, 0, time=budget)
        assert time.perf_counter() - t0 < budget + 0.05
        assert move in board.legal_moves(0)
        assert not s.last_stats["exact"]
    assert s.last_stats["depth"] >= 3       # 0.1 s reaches depth 3 even on a busy machine


def test_no_move_and_bad_arguments():
    b = Board.from_ascii("""
        1#.
        ##2
    """)
    assert solve_endgame(b, 0) == (0, -1)
    with pytest.raises(TypeError, match="Board"):
        solve_endgame("1.", 0)
    with pytest.raises(ValueError, match="player"):
        solve_endgame(b, 5)
    with pytest.raises(ValueError, match="max_depth"):
        solve_endgame(b, 0, max_depth=0)
    with pytest.raises(ValueError, match="time"):
        Endgame().solve(b, 0, time=-1)


def _kernel_args(board):
    """The arguments Endgame.solve gives endgame_kernel, for ``board``'s player 0."""
    import numpy as np

    from tronlab.grid.ring import POTENTIAL_ARTICULATION
    from tronlab.tron.endgame import MAX_ENDGAME_DEPTH, N_STATS, new_filler_scratch
    size = board.flat.size
    frames = [np.zeros(MAX_ENDGAME_DEPTH + 1, np.int64) for _ in range(3)]
    return [board.flat.copy(), int(board.heads[0]), board.stride, 2, 5, 0, *frames,
            np.zeros(size, np.uint8), np.zeros(size, np.int32), POTENTIAL_ARTICULATION,
            new_filler_scratch(size), np.zeros(N_STATS, np.int64)]


def test_the_endgame_guard_checks_the_border_once_and_refuses_what_it_did(monkeypatch):
    # it checked the grid's border twice a call (its own check, then the filler's)

    from tronlab.grid import guards
    from tronlab.tron.endgame import _endgame_guard
    board = Board.from_ascii("""
        1....
        .....
        ....2
    """)
    real, borders = guards.padded_grid, []
    monkeypatch.setattr(guards, "padded_grid", lambda *a: borders.append(a) or real(*a))
    args = _kernel_args(board)
    _endgame_guard(*args)
    assert len(borders) == 1
    monkeypatch.undo()
    opened = args[0].copy()
    opened[0] = 0
    refused = [(0, opened, "border squares are all blocked"),
               (1, 0, "head 0 is on the border"),
               (12, args[12]._replace(mark=args[12].mark[:-1]), "fs must be spacefill.new_scratch"),
               (12, args[12]._replace(mark=args[12].mark + 1), "mark must be all zero")]
    for i, value, message in refused:
        wrong = list(args)
        wrong[i] = value
        with pytest.raises(ValueError, match=message):
            _endgame_guard(*wrong)
