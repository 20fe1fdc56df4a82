"""The checkers of exercises 01-04 explain answers of the wrong kind with advice that fits the
answer asked for: a dict or set where counts go in order, a dict, set or generator where a
grid goes, a list, pair or float where a move goes, extra numbers beside a bound, a dict
from negamax; a distance grid whose undrawn border is wrong is named as such; negamax must
say None when there is no move.  Each case has a neighbour showing the right answer passes."""

from __future__ import annotations

import numpy as np
import pytest

import wrong_solutions as wrong
from tronlab.course import exercises
from tronlab.course.checker import PASSED, WRONG, WRONG_TYPE
from tronlab.grid import reference
from tronlab.grid.parity import fill_bound as package_fill_bound
from tronlab.grid.voronoi import bfs_distances as package_bfs_distances
from tronlab.tron.spacefill import greedy_move as package_greedy_move


def check(name, fn):
    return getattr(exercises, f"check_{name}")(fn)


def counts(board):
    n0, n1, _, _ = reference.territory(board.flat, int(board.heads[0]), int(board.heads[1]),
                                       board.stride)
    return n0, n1


def turn_counts(board, first):
    counts_, _ = reference.turn_order_territory(
        board.flat, [int(h) for h in board.heads], [bool(a) for a in board.alive], first,
        board.stride)
    return list(counts_)


# ---- 4. counts in order: not a dict, not a set -------------------------------------------

@pytest.mark.parametrize("name, fn, words", [
    ("territory", lambda b: dict(zip((0, 1), counts(b))), "not a dict"),
    ("territory", lambda b: dict(enumerate(counts(b))), "a dict gives its keys (0, 1)"),
    ("territory", lambda b: set(counts(b)), "not a set: a set has no order"),
    ("turn_order_territory", lambda b, f: dict(enumerate(turn_counts(b, f))), "not a dict"),
    ("turn_order_territory", lambda b, f: set(turn_counts(b, f)), "not a set"),
])
def test_counts_in_a_dict_or_set_are_the_wrong_kind(name, fn, words):
    result = check(name, fn)
    assert result.status == WRONG_TYPE, result.message
    assert words in result.hint and "as a tuple or list" in result.hint, result.message
    assert "swapped" not in result.message and "Expected" not in result.message


def test_counts_in_a_tuple_or_list_still_pass():
    assert check("territory", lambda b: list(counts(b))).status == PASSED
    assert check("turn_order_territory", lambda b, f: tuple(turn_counts(b, f))).status == PASSED


# ---- 5. the distance grid's padding border -------------------------------------------------

def _with_border_zero(board, player):
    d = package_bfs_distances(board, player).astype(np.int64)
    d[0, :] = 0
    return d


def _with_no_minus_one(board, player):
    d = package_bfs_distances(board, player).astype(np.int64)
    d[d < 0] = 0
    return d


@pytest.mark.parametrize("fn", [_with_border_zero, _with_no_minus_one])
def test_a_distance_grid_with_a_wrong_border_names_the_border(fn):
    result = check("bfs_distances", fn)
    assert result.status == WRONG, result.message
    assert "the padding border (board.cells[0, 0]) holds 0" in result.hint, result.message
    assert "(-1, -1)" not in result.message
    # the pictures draw the playing area only: the border shows up under the answer
    assert result.expected != result.got
    assert "not drawn: the padding border" in result.got


def _as(dtype, unreached=-1):
    def bfs_distances(board, player):
        d = package_bfs_distances(board, player).astype(np.float64)
        d[d < 0] = unreached
        return d.astype(dtype)
    return bfs_distances


def test_distances_with_inf_name_the_inf_and_narrow_ints_are_refused():
    """inf for unreached squares was told "yours has dtype float64", while floats with -1
    passed; int8 passed though it wraps round past 127 on a big board."""
    assert check("bfs_distances", _as(np.float64)).status == PASSED
    assert check("bfs_distances", _as(np.int32)).status == PASSED
    r = check("bfs_distances", _as(np.float64, np.inf))
    assert r.status == WRONG_TYPE and "holds inf" in r.hint and "with -1" in r.hint, r.message
    assert "yours has dtype float64" not in r.message
    for dtype in (np.int8, np.int16):
        r = check("bfs_distances", _as(dtype))
        assert r.status == WRONG_TYPE and f"dtype {np.dtype(dtype)}" in r.hint, r.message
        assert "int32 or wider" in r.hint, r.message


def test_the_package_distances_pass():
    assert check("bfs_distances", package_bfs_distances).status == PASSED


def test_a_label_grid_with_a_labelled_border_shows_it_under_the_picture():
    def components(board):
        labels = wrong.components_right_but_renamed(board)
        labels[-1, 3] = 5
        return labels
    result = check("components", components)
    assert result.status == WRONG and "the padding border (board.cells[4, 3])" in result.hint
    assert result.expected != result.got and "not drawn: the padding border" in result.got


# ---- 6. grids: not a dict, set or generator ------------------------------------------------

@pytest.mark.parametrize("name, fn, kind", [
    ("bfs_distances", lambda b, p: {}, "not a dict"),
    ("bfs_distances", lambda b, p: {(0, 0): 0}, "not a dict"),
    ("bfs_distances", lambda b, p: (int(v) for v in b.flat), "not a generator"),
    ("components", lambda b: {1, 2}, "not a set"),
    ("components", lambda b: iter([[0]]), "not a generator"),
])
def test_a_grid_that_is_no_array_is_named(name, fn, kind):
    result = check(name, fn)
    assert result.status == WRONG_TYPE, result.message
    assert "as a numpy array shaped like board.cells, " + kind in result.hint, result.message
    assert "shape ()" not in result.message


# ---- 7. moves and bounds get their own advice ----------------------------------------------

@pytest.mark.parametrize("fn, words", [
    (lambda b, p: [package_greedy_move(b, p)],
     "not a list of 1 value: if you collected the good moves, return the best of them"),
    (lambda b, p: b.xy(int(b.heads[p])), "a move is a direction, not the (x, y) square"),
    (lambda b, p: float(package_greedy_move(b, p)), "not a float"),
    (lambda b, p: np.array(b.legal_moves(p)), "not a numpy array of shape"),
])
def test_a_move_of_the_wrong_kind_gets_move_advice(fn, words):
    result = check("greedy_move", fn)
    assert result.status == WRONG_TYPE, result.message
    assert words in result.hint, result.message
    assert "int 0-3 (0 up, 1 right, 2 down, 3 left)" in result.hint
    for count_advice in ("len(...)", "use //", "count"):
        assert count_advice not in result.hint, result.message


def test_a_move_as_a_numpy_int_still_passes():
    # the package's function says -1 when boxed in; the exercise's bot answers a move (0)
    assert check("greedy_move", lambda b, p: np.int64(max(package_greedy_move(b, p), 0))).passed


def _bound_and_colours(board, player):
    bound, other, same = package_fill_bound(board, player)
    return bound, other, same


def test_a_bound_with_its_colour_counts_is_the_wrong_kind():
    result = check("fill_bound", _bound_and_colours)
    assert result.status == WRONG_TYPE, result.message
    assert "not a tuple of 3 values; leave out the colour counts" in result.hint
    assert "len(" not in result.hint


def test_a_float_bound_is_told_to_use_floor_division():
    result = check("fill_bound", lambda b, p: float(package_fill_bound(b, p).bound))
    assert result.status == WRONG_TYPE
    assert "whole number of moves, so use // rather than /" in result.hint
    assert "len(" not in result.hint
    assert check("fill_bound", lambda b, p: package_fill_bound(b, p).bound).passed


def test_counts_keep_their_count_advice():
    result = check("flood_fill", wrong.flood_returns_list)
    assert "if you collected squares, return len(...) of it" in result.hint


# ---- 8 and minor: negamax's pair -----------------------------------------------------------

def test_negamax_returning_a_dict_is_told_to_return_a_pair():
    def negamax(game, depth, alpha, beta):
        value, move = wrong.negamax_right(game, depth, alpha, beta)
        return {"value": value, "move": move}
    result = check("negamax", negamax)
    assert result.status == WRONG_TYPE, result.message
    assert "the pair (value, move) as a tuple or list, not a dict" in result.hint
    assert "string" not in result.hint


def test_negamax_pair_in_the_wrong_order_is_named_when_the_value_is_no_move():
    # on the "trap" board at depth 1 the value (-5) cannot be read as a move: before, the
    # hint said only "a move is 0, 1, 2 or 3"
    from tronlab import Board
    from tronlab.course import boards
    from tronlab.course.checker import Case, run_check
    from tronlab.course.ex_search import Negamax
    case = Case("trap", Board.from_ascii(boards.TINY_SEARCH["trap"]), (1,))
    result = run_check(Negamax(), wrong.negamax_move_value, cases=[case])
    assert result.status == WRONG_TYPE, result.message
    assert "(value, move): yours looks like (move, value)" in result.hint


def test_negamax_must_say_none_when_there_is_no_move():
    def negamax(game, depth, alpha, beta):
        value, move = wrong.negamax_right(game, depth, alpha, beta)
        return value, 0 if move is None else move
    result = check("negamax", negamax)
    assert result.status == WRONG, result.message
    assert result.case == "tiny: boxed in, depth 2"
    assert result.expected.startswith("move None") and result.got == "move 0 (up)"
    assert "return (game.LOSS, None)" in result.hint
    assert check("negamax", wrong.negamax_right).status == PASSED


# ---- a count is not True/False ---------------------------------------------------------------

@pytest.mark.parametrize("answer", [True, np.bool_(False)])
def test_true_or_false_as_a_count_is_named_as_such(answer):
    result = check("flood_fill", lambda board, player: answer)
    assert result.status == WRONG_TYPE and "not True/False" in result.hint, result.message
