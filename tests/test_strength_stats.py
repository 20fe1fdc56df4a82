"""The statistics of ``benchmarks/strength.py``'s table: the arena's, on known splits."""

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "strength.py"
_spec = importlib.util.spec_from_file_location("strength_bench", _PATH)
strength = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strength)


def test_the_benchmark_table_uses_the_arenas_statistics():
    """One sign test, one interval, one verdict: the arena's, which
    tests/test_arena.py checks against scipy."""
    from tronlab.arena import stats

    assert strength.sign_test is stats.sign_test
    assert strength.score_interval is stats.score_interval
    assert strength.verdict is stats.verdict


def test_verdicts_on_known_splits():
    # 11 wins to 6 losses is a coin's work more often than 1 time in 100 ...
    assert strength.sign_test(11, 6) == pytest.approx(0.3323, abs=1e-4)
    assert strength.verdict(11, 37, 6) == "unclear"
    # ... 24 to 2 is not, and neither is its mirror image
    assert strength.verdict(24, 28, 2) == "clear"
    assert strength.verdict(2, 28, 24) == "lost"
    # draws alone say nothing
    assert strength.verdict(0, 54, 0) == "unclear"
