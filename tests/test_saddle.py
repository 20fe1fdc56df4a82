"""Saddle-point pruning with windows (L2), game-free: a driver plays the search,
answering each cell from a hidden matrix as a fail-soft search would."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from strategies import EXAMPLES

from tronlab.nash import saddle, solve_zero_sum
from tronlab.nash.saddle import FILL, LOWER, SADDLE, SOLVE, UPPER

games = st.integers(1, 4).flatmap(lambda m: st.integers(1, 4).flatmap(
    lambda n: arrays(np.float64, (m, n), elements=st.integers(-3, 3).map(float))))
windows = st.sampled_from([(-np.inf, np.inf), (-1.0, 1.0), (0.0, 0.5), (-2.5, -2.0), (1.5, 9.0)])


def drive(a, alpha, beta, prune, rng):
    """Search the hidden matrix ``a`` cell by cell as ``next_cell_kernel`` asks;
    a cell searched with window (lo, hi) answers like a fail-soft search: exact
    inside the window, else a (random, valid) bound beyond it."""
    m, n = a.shape
    lo, hi = np.full((m, n), -np.inf), np.full((m, n), np.inf)
    record = saddle.record_child_kernel
    for _ in range(10 * m * n * (m + n)):
        what, i, j, x, y = saddle.next_cell_kernel(lo, hi, m, n, alpha, beta, prune)
        if what != FILL:
            return what, x, lo, hi
        v = a[i, j]
        if v >= y:
            record(lo, hi, i, j, rng.uniform(y, v), LOWER)
        elif v <= x:
            record(lo, hi, i, j, rng.uniform(v, x), UPPER)
        else:
            record(lo, hi, i, j, v, SADDLE)
    raise AssertionError("the search does not end")


@settings(max_examples=5 * EXAMPLES, deadline=None)
@given(games, windows, st.booleans(), st.integers(0, 2**32 - 1))
def test_answers_are_right_for_the_window(a, window, prune, seed):
    alpha, beta = window
    true = solve_zero_sum(a).value
    what, value, lo, hi = drive(a, alpha, beta, prune, np.random.default_rng(seed))
    if what == SADDLE:
        assert value == pytest.approx(true, abs=1e-12)
    elif what == LOWER:
        assert prune and value >= beta and true >= value - 1e-12
    elif what == UPPER:
        assert prune and value <= alpha and true <= value + 1e-12
    else:
        assert what == SOLVE and (lo == hi).all()
        np.testing.assert_array_equal(lo, a)
    if not prune:
        assert what in (SADDLE, SOLVE) and (lo == hi).all()      # the plain full search


def test_a_saddle_point_saves_cells():
    a = np.array([[3.0, 5.0, 4.0], [1.0, 9.0, 9.0], [2.0, 9.0, 9.0]])
    what, value, lo, hi = drive(a, -np.inf, np.inf, True, np.random.default_rng(0))
    assert (what, value) == (SADDLE, 3.0)
    assert np.isinf(lo).sum() > 0         # some cells were never searched


def test_record_child_merges_bounds():
    lo, hi = np.full((1, 1), -np.inf), np.full((1, 1), np.inf)
    saddle.record_child_kernel(lo, hi, 0, 0, 2.0, LOWER)
    saddle.record_child_kernel(lo, hi, 0, 0, 5.0, UPPER)
    assert (lo[0, 0], hi[0, 0]) == (2.0, 5.0)
    saddle.record_child_kernel(lo, hi, 0, 0, 3.0, SADDLE)
    assert (lo[0, 0], hi[0, 0]) == (3.0, 3.0)


def test_record_child_keeps_the_tighter_bound():
    # a cell searched again with another window may come back with a weaker bound:
    # the bounds already known stay (max of the lower bounds, min of the upper ones)
    lo, hi = np.full((1, 1), -np.inf), np.full((1, 1), np.inf)
    saddle.record_child_kernel(lo, hi, 0, 0, 4.0, LOWER)
    saddle.record_child_kernel(lo, hi, 0, 0, 2.0, LOWER)
    saddle.record_child_kernel(lo, hi, 0, 0, 7.0, UPPER)
    saddle.record_child_kernel(lo, hi, 0, 0, 9.0, UPPER)
    assert (lo[0, 0], hi[0, 0]) == (4.0, 7.0)


def test_a_bound_equal_to_the_window_edge_settles_like_alpha_beta():
    # as in alpha-beta a value >= beta fails high and one <= alpha fails low, the
    # equality included: the node ends at once instead of searching more cells
    inf = np.inf
    lo, hi = np.array([[2.0, 5.0]]), np.full((1, 2), inf)
    assert saddle.next_cell_kernel(lo, hi, 1, 2, -inf, 2.0, True) == (LOWER, 0, 0, 2.0, 2.0)
    lo, hi = np.full((2, 1), -inf), np.array([[1.0], [-3.0]])
    assert saddle.next_cell_kernel(lo, hi, 2, 1, 1.0, inf, True) == (UPPER, 0, 0, 1.0, 1.0)
    # one cell's bound at the edge makes it a candidate to settle the node
    lo, hi = np.array([[2.0]]), np.array([[inf]])
    assert saddle.targets_kernel(lo, hi, 0, 0, -inf, 2.0) == (True, 2.0, inf)
    lo, hi = np.array([[-inf]]), np.array([[1.0]])
    assert saddle.targets_kernel(lo, hi, 0, 0, 1.0, inf) == (True, -inf, 1.0)
