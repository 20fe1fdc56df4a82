"""Small kernels of the Nash search and the compiled clock against oracles
written from their docstrings (sorted(), numpy, the OS clock).  Their callers'
tests see them only through search values, which a wrong move order or a
wrong bound index does not change."""

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from strategies import EXAMPLES, boards

from tronlab.jit import clock
from tronlab.nash.saddle import LOWER, SADDLE, UPPER, pure_bounds_kernel
from tronlab.tron import nash_search as ts
from tronlab.tron.nash_table import hint_cell_kernel

priors = st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5]), min_size=4, max_size=4)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_width=8, max_height=6, max_density=0.7), st.data(), priors, st.booleans(),
       st.integers(-1, 3))
def test_order_moves_is_a_stable_sort_of_the_legal_moves(board, data, prior, use_prior, first):
    head = int(board.heads[data.draw(st.integers(0, board.n_players - 1))])
    offs = board.offsets.astype(np.int64)
    legal = [m for m in range(4) if board.flat[head + offs[m]] == 0]
    if use_prior:
        want = sorted(legal, key=lambda m: -prior[m])          # sorted() is stable
    else:
        want = sorted(legal, key=lambda m: m != first)
    out = np.full(4, 9, np.int64)
    n = ts.order_moves_kernel(board.flat, np.int64(head), offs, np.asarray(prior, np.float64),
                              use_prior, np.int64(first), out)
    assert out[:n].tolist() == (want or [-1])
    assert ts.has_move_kernel(board.flat, np.int64(head), offs) == bool(legal)


bounds = st.sampled_from([-np.inf, -2.0, -1.0, 0.0, 0.5, 1.0, 3.0, np.inf])


@st.composite
def bound_matrices(draw):
    """``(lo, hi, m, n)``: a 4x4 table of which the kernel reads the top-left m x n."""
    lo = draw(arrays(np.float64, (4, 4), elements=bounds))
    hi = np.maximum(lo, draw(arrays(np.float64, (4, 4), elements=bounds)))
    return lo, hi, draw(st.integers(1, 4)), draw(st.integers(1, 4))


@settings(max_examples=5 * EXAMPLES, deadline=None)
@given(bound_matrices())
def test_pure_bounds_are_maximin_of_lower_and_minimax_of_upper_bounds(game):
    lo, hi, m, n = game
    rows, cols = lo[:m, :n].min(axis=1), hi[:m, :n].max(axis=0)
    want = (rows.max(), int(np.argmax(rows)), cols.min(), int(np.argmin(cols)))  # first best
    assert pure_bounds_kernel(lo, hi, np.int64(m), np.int64(n)) == want


@settings(max_examples=5 * EXAMPLES, deadline=None)
@given(bound_matrices(), st.sampled_from([SADDLE, LOWER, UPPER]), st.data())
def test_hint_cell_is_the_weakest_reply_in_the_proving_line(game, what, data):
    lo, hi, m, n = game
    i, j = data.draw(st.integers(0, m - 1)), data.draw(st.integers(0, n - 1))
    want = (i, j)
    if what == LOWER and lo[i, :n].min() < lo[i, j]:      # row i proved it: its lowest column
        want = (i, int(np.argmin(lo[i, :n])))
    if what == UPPER and hi[:m, j].max() > hi[i, j]:      # column j proved it: its highest row
        want = (int(np.argmax(hi[:m, j])), j)
    assert hint_cell_kernel(lo, hi, np.int64(m), np.int64(n), np.int64(what),
                            np.int64(i), np.int64(j)) == want


@pytest.mark.skipif(not hasattr(time, "clock_gettime_ns"), reason="no clock_gettime_ns")
def test_compiled_clock_reads_the_monotonic_clock():
    os_clock = getattr(time, "CLOCK_MONOTONIC", None)
    if os_clock != clock.CLOCK_MONOTONIC:
        pytest.skip("this system's CLOCK_MONOTONIC is not the one compiled in")
    clock._kernels.compile()
    now, expired = clock._kernels.jit("now_ns_kernel"), clock._kernels.jit("expired_kernel")
    for read in (now, clock.now_ns_kernel):         # the numba dispatcher, the Python call
        before = time.clock_gettime_ns(os_clock)
        got = read()
        assert before <= got <= time.clock_gettime_ns(os_clock)
    for ask in (expired, clock.expired_kernel):
        t = time.clock_gettime_ns(os_clock)
        assert ask(t) and ask(t - 10**9) and not ask(t + 10**12)
