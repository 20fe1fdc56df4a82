"""The A11 exercise checker: the solution passes, a stub is 'not implemented', each
planted mistake gets the hint that names it, a missed or invented square is named, and
wrong kinds of answer are explained.  The checker's own mistake variants are checked too:
with no mistake switched on they equal networkx's articulation points.  The last board is
deep enough that a recursive search passes Python's recursion limit, as the exercise warns."""

from __future__ import annotations

import itertools
import sys

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings

from tronlab.course.checker import CRASH, NOT_IMPLEMENTED, PASSED, WRONG, WRONG_TYPE
from tronlab.course.ex_articulation import (ArticulationPoints, check_articulation_points,
                                            tarjan_variant)
from tronlab.tron.board import FREE

from strategies import EXAMPLES, boards


def solution(board):
    """A plain recursive-free Hopcroft-Tarjan over (x, y) squares."""
    return tarjan_variant(board)


def networkx_cuts(board):
    free = board.cells == FREE
    g = nx.Graph()
    for y, x in zip(*np.nonzero(free)):
        g.add_node((x - 1, y - 1))
        for dx, dy in ((1, 0), (0, 1)):
            if free[y + dy, x + dx]:
                g.add_edge((x - 1, y - 1), (x - 1 + dx, y - 1 + dy))
    return set(nx.articulation_points(g))


@settings(max_examples=EXAMPLES)
@given(board=boards())
def test_the_variant_without_mistakes_is_networkx(board):
    assert tarjan_variant(board) == networkx_cuts(board)


def test_the_solution_passes_and_a_stub_is_not_implemented():
    r = check_articulation_points(solution)
    assert r.status == PASSED and r.checked >= 50, r.message

    def articulation_points(board):
        pass
    assert check_articulation_points(articulation_points).status == NOT_IMPLEMENTED


def test_a_root_never_counted_is_named():
    """A search that leaves out every root (the first free square of each region in reading
    order) was told "squares that touch only at a corner are not neighbours"."""
    def articulation_points(board):
        free, roots, seen = board.cells == FREE, set(), set()
        for y, x in zip(*np.nonzero(free)):
            if (x, y) in seen:
                continue
            roots.add((x - 1, y - 1))
            todo = [(x, y)]
            seen.add((x, y))
            while todo:
                a, b = todo.pop()
                for nb in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                    if free[nb[1], nb[0]] and nb not in seen:
                        seen.add(nb)
                        todo.append(nb)
        return networkx_cuts(board) - roots
    r = check_articulation_points(articulation_points)
    assert r.status == WRONG and "can be a cut vertex too" in r.hint, r.hint


@pytest.mark.parametrize("mistake, words", [
    ({"root_rule": False}, "DFS root"),
    ({"strict": True}, ">=, not >"),
    ({"diagonal": True}, "corner"),
    ({"shared_children": True}, "afresh for each search"),
])
def test_planted_mistakes_get_their_hint(mistake, words):
    r = check_articulation_points(lambda board: tarjan_variant(board, **mistake))
    assert r.status == WRONG and words in r.hint, r.message


def test_missed_and_invented_squares_are_named():
    def misses_one(board):
        cuts = sorted(tarjan_variant(board))
        return set(cuts[1:])
    r = check_articulation_points(misses_one)
    assert r.status == WRONG and "was missed" in r.hint and "low" in r.hint, r.message

    def invents_one(board):
        cuts = tarjan_variant(board)
        free = [board.xy(i) for i in np.flatnonzero(board.flat == FREE)]
        extra = [sq for sq in free if sq not in cuts][-1]
        return cuts | {extra}
    r = check_articulation_points(invents_one)
    assert r.status == WRONG and "is not a cut vertex" in r.hint, r.message

    def with_heads(board):
        return tarjan_variant(board) | {board.xy(int(board.heads[0]))}
    r = check_articulation_points(with_heads)
    assert r.status == WRONG and "only free squares" in r.hint


def test_wrong_kinds_of_answer():
    r = check_articulation_points(lambda board: board.cells == 0)
    assert r.status == WRONG_TYPE and "not a mask" in r.hint
    r = check_articulation_points(lambda board: 3)
    assert r.status == WRONG_TYPE and "not how many there are (3)" in r.hint
    r = check_articulation_points(lambda board: {(99, 0)})
    assert r.status == WRONG_TYPE and "is not a square" in r.hint


def test_squares_given_as_y_x_are_named_as_swapped():
    def transposed(board):
        return {(y, x) for x, y in tarjan_variant(board)}
    # the first board is a 7x1 corridor: (y, x) is off it, (x, y) on it
    r = check_articulation_points(transposed)
    assert r.status == WRONG_TYPE and "tiny: a corridor" in r.case, r.message
    assert "(0, 2) is not a square of this 7x1 board, but (2, 0) is" in r.hint, r.message
    assert "did you return (y, x)?" in r.hint

    # on a square board (y, x) is on the board: the answer is wrong, and says why
    def transposed_when_square(board):
        return transposed(board) if board.width == board.height else tarjan_variant(board)
    r = check_articulation_points(transposed_when_square)
    assert r.status == WRONG and "swapped" in r.hint and "(y, x)" in r.hint, r.message

    # an answer off the board either way keeps the plain message
    r = check_articulation_points(lambda board: {(99, 0)})
    assert r.status == WRONG_TYPE and "(y, x)" not in r.hint, r.message


def test_a_failure_draws_both_answers():
    r = check_articulation_points(lambda board: tarjan_variant(board, strict=True))
    assert "Expected:" in r.message and "Got:" in r.message
    assert r.expected.splitlines()[0] != r.got.splitlines()[0]


def recursive_solution(board):
    """A right Hopcroft-Tarjan written recursively: one Python call per square of depth."""
    free = board.cells == FREE
    disc, low, cuts = {}, {}, set()

    def visit(square, parent):
        disc[square] = low[square] = len(disc)
        children = 0
        x, y = square
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            nxt = (x + dx, y + dy)
            if not free[nxt[1] + 1, nxt[0] + 1]:
                continue
            if nxt not in disc:
                children += 1
                visit(nxt, square)
                low[square] = min(low[square], low[nxt])
                if parent is not None and low[nxt] >= disc[square]:
                    cuts.add(square)
            elif nxt != parent:
                low[square] = min(low[square], disc[nxt])
        if parent is None and children > 1:
            cuts.add(square)

    for y in range(board.height):
        for x in range(board.width):
            if free[y + 1, x + 1] and (x, y) not in disc:
                visit((x, y), None)
    return cuts


def test_a_recursive_search_fails_on_the_deep_board_with_a_hint_to_use_a_stack():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)             # Python's default, as in a fresh notebook kernel
    try:
        r = check_articulation_points(recursive_solution)
    finally:
        sys.setrecursionlimit(old)
    assert r.status == CRASH and r.case.startswith("deep:"), r.message
    assert r.checked >= 60                  # every smaller board passed
    assert "RecursionError" in r.message and "explicit stack" in r.hint, r.message
    assert "without end" not in r.hint
    # the big board is described in words, not drawn row by row
    assert len(r.message.splitlines()) < 10


def test_a_recursive_search_with_room_to_recurse_passes():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(10_000)
    try:
        assert check_articulation_points(recursive_solution).status == PASSED
    finally:
        sys.setrecursionlimit(old)


def _dfs_depth(free, order, start):
    """The deepest a depth-first search from ``start`` goes (squares on its stack)."""
    seen, stack, deepest = {start}, [(start, iter(order))], 1
    while stack:
        (y, x), todo = stack[-1]
        for dy, dx in todo:
            nxt = (y + dy, x + dx)
            if free[nxt] and nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(order)))
                deepest = max(deepest, len(stack))
                break
        else:
            stack.pop()
    return deepest


def test_the_deep_board_is_deeper_than_the_recursion_limit_from_any_start_and_order():
    deep = [c for c in ArticulationPoints().cases() if c.label.startswith("deep:")]
    assert len(deep) == 1
    board = deep[0].board
    free = board.cells == FREE
    h, w = board.height, board.width
    starts = [(1, 2), (h // 2, w // 2), (h // 2 + 1, w // 2 + 1), (h, 1), (h // 3, w // 4)]
    for order in itertools.permutations(((-1, 0), (0, 1), (1, 0), (0, -1))):
        for start in starts:
            assert _dfs_depth(free, order, start) > 1100, (order, start)
