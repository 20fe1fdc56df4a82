"""The statistics of ``benchmarks/strength.py``'s table, checked against scipy."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

scipy_stats = pytest.importorskip("scipy.stats")

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "strength.py"
_spec = importlib.util.spec_from_file_location("strength_bench", _PATH)
strength = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strength)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 60), st.integers(0, 60))
def test_sign_test_is_scipys_exact_binomial_test(wins, losses):
    if wins + losses == 0:
        assert strength.sign_test(0, 0) == 1.0
        return
    want = scipy_stats.binomtest(wins, wins + losses, 0.5, alternative="two-sided").pvalue
    assert strength.sign_test(wins, losses) == pytest.approx(want, rel=1e-9, abs=1e-15)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40))
def test_score_interval_is_the_normal_interval_of_the_points_plus_two_wins_and_losses(w, d, l):
    if w + d + l == 0:
        assert strength.score_interval(0, 0, 0) == (0.0, 0.0)
        return
    points = np.array([1.0] * w + [0.5] * d + [0.0] * l)
    padded = np.concatenate([points, [1.0, 1.0, 0.0, 0.0]])
    mean, half = strength.score_interval(w, d, l)
    assert mean == pytest.approx(points.mean())
    assert half == pytest.approx(1.96 * padded.std() / np.sqrt(padded.size))


def test_verdicts_on_known_splits():
    # 11 wins to 6 losses is a coin's work more often than 1 time in 100 ...
    assert strength.sign_test(11, 6) == pytest.approx(0.3323, abs=1e-4)
    assert strength.verdict(11, 37, 6) == "unclear"
    # ... 24 to 2 is not, and neither is its mirror image
    assert strength.verdict(24, 28, 2) == "clear"
    assert strength.verdict(2, 28, 24) == "lost"
    # draws alone say nothing
    assert strength.verdict(0, 54, 0) == "unclear"
