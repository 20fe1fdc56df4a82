"""The AOT twins behind the matrix-game solver and the capture bots' kernels.

Each wrapper is called with the twins loaded (every call's argument types
checked, ``TRONLAB_AOT_CHECK=1``) and with numba, on random payoff matrices and
random ownership grids; the answers must be equal.  The kernels' own oracles
live in tests/test_zero_sum.py and tests/capture/.
"""

import numpy as np
from aot_support import with_and_without
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES

from tronlab.capture.enclosure import enclose, neutral_region
from tronlab.capture.lshapes import best_l_shape, closed_gain
from tronlab.capture.opponent import predict
from tronlab.capture.paths import search_paths
from tronlab.capture.rects import scan_rectangles
from tronlab.nash.zero_sum import solve_zero_sum

SEEDS = st.integers(0, 2**32 - 1)


def _matrix_values(rng):
    out = []
    for _ in range(4):
        m, n = (int(v) for v in rng.integers(1, 6, size=2))
        s = solve_zero_sum(rng.integers(-3, 4, size=(m, n)).astype(float))
        out.append((s.value, s.row_strategy.tolist(), s.column_strategy.tolist()))
    return out


@settings(max_examples=max(5, EXAMPLES // 4), deadline=None)
@given(seed=SEEDS)
def test_solve_zero_sum_agrees_with_and_without_twins(aot_build, seed):
    fast, slow = with_and_without(aot_build, lambda: _matrix_values(np.random.default_rng(seed)))
    assert fast == slow


def _grid(rng):
    """A random small ownership grid (-1 neutral, 0/1 owned) and a square of player 0."""
    h, w = (int(v) for v in rng.integers(4, 10, size=2))
    owner = rng.choice(np.array([-1, -1, 0, 1], np.int8), size=(h, w))
    x, y = int(rng.integers(w)), int(rng.integers(h))
    owner[y, x] = 0
    return owner, (x, y)


def _capture_values(rng):
    owner, (x, y) = _grid(rng)
    h, w = owner.shape
    ox, oy = int(rng.integers(w)), int(rng.integers(h))
    new, taken = enclose(owner, 0, x, y)
    paths = search_paths(owner, 0, (x, y), max_nodes=400)
    return [sorted(neutral_region(owner, ox, oy)), new.tolist(), taken,
            closed_gain(owner, 0, x, y), tuple(best_l_shape(owner, 0, (x, y), max_len=6)),
            tuple(scan_rectangles(owner, 0, (x, y))),
            predict(owner, [((ox, oy), (1, 0), 0)], rounds=4).paths,
            paths._replace(seconds=0.0)]


@settings(max_examples=max(5, EXAMPLES // 4), deadline=None)
@given(seed=SEEDS)
def test_capture_wrappers_agree_with_and_without_twins(aot_build, seed):
    fast, slow = with_and_without(aot_build, lambda: _capture_values(np.random.default_rng(seed)))
    assert fast == slow
