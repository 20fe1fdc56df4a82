"""Zero-sum matrix games (L1) against scipy's HiGHS linear programs, certificates and
known games."""

import numpy as np
import pytest
import scipy.sparse
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.optimize import linprog
from strategies import EXAMPLES

from tronlab.nash import ZeroSumSolution, solve_zero_sum
from tronlab.nash import zero_sum as zs

TOL = 1e-9


def highs_value(payoff):
    """Oracle: the row player's LP  max v  s.t.  x^T A >= v, sum x = 1, x >= 0."""
    return highs_values([np.asarray(payoff, float)])[0]


def highs_values(games):
    """Oracle for many games in one LP: the games sit in independent blocks
    (block k: ``x_k`` and ``v_k``), so maximising the sum of the ``v_k`` maximises
    each one.  One HiGHS call instead of thousands of ~1 ms calls."""
    cols, ub_rows, eq_rows = 0, [], []
    c, bounds, value_col = [], [], []
    n_ub = 0
    for k, a in enumerate(games):
        m, n = a.shape
        x0, v = cols, cols + m
        for j in range(n):          # v_k - sum_i x_i a[i, j] <= 0
            ub_rows += [(n_ub + j, x0 + i, -a[i, j]) for i in range(m)] + [(n_ub + j, v, 1.0)]
        n_ub += n
        eq_rows += [(k, x0 + i, 1.0) for i in range(m)]
        c += [0.0] * m + [-1.0]
        bounds += [(0, None)] * m + [(None, None)]
        value_col.append(v)
        cols += m + 1

    def sparse(entries, n_rows):
        r, q, d = zip(*entries)
        return scipy.sparse.csr_array((d, (r, q)), shape=(n_rows, cols))

    res = linprog(c, A_ub=sparse(ub_rows, n_ub), b_ub=np.zeros(n_ub),
                  A_eq=sparse(eq_rows, len(games)), b_eq=np.ones(len(games)),
                  bounds=bounds, method="highs")
    assert res.status == 0, res.message
    return res.x[value_col]


def check_certificate(a, sol, tol=TOL):
    """The strategies are probability vectors that guarantee the value."""
    a = np.asarray(a, float)
    scale = max(1.0, np.abs(a).max())
    for p, size in ((sol.row_strategy, a.shape[0]), (sol.column_strategy, a.shape[1])):
        assert p.shape == (size,)
        assert (p >= 0).all() and abs(p.sum() - 1) <= tol
    assert (sol.row_strategy @ a >= sol.value - tol * scale).all()
    assert (a @ sol.column_strategy <= sol.value + tol * scale).all()


# ---- known games ----------------------------------------------------------------
def test_matching_pennies():
    s = solve_zero_sum([[1, -1], [-1, 1]])
    assert isinstance(s, ZeroSumSolution)
    assert s.value == pytest.approx(0, abs=TOL)
    np.testing.assert_allclose(s.row_strategy, [0.5, 0.5], atol=TOL)
    np.testing.assert_allclose(s.column_strategy, [0.5, 0.5], atol=TOL)


def test_rock_paper_scissors():
    s = solve_zero_sum([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert s.value == pytest.approx(0, abs=TOL)
    np.testing.assert_allclose(s.row_strategy, [1 / 3] * 3, atol=TOL)
    np.testing.assert_allclose(s.column_strategy, [1 / 3] * 3, atol=TOL)


@pytest.mark.parametrize("a, value", [
    ([[7]], 7),
    ([[1, 5, -2]], -2),                  # a row: the column player takes the minimum
    ([[1], [5], [-2]], 5),               # a column: the row player takes the maximum
    ([[3, 1], [4, 2]], 2),               # a saddle point
    ([[2, 0], [0, 1]], 2 / 3),           # 2x2 mixed: (ad - bc) / (a - b - c + d)
    ([[3, 3, 3], [3, 3, 3]], 3),         # constant
    ([[4, 0, 9], [0, 4, 9], [1, 1, 0]], 2),  # column 2 and then row 2 are dominated
])
def test_small_games_by_hand(a, value):
    s = solve_zero_sum(a)
    assert s.value == pytest.approx(value, abs=TOL)
    check_certificate(a, s)


def test_large_game_uses_the_simplex():
    a = np.random.default_rng(3).normal(size=(9, 7))
    s = solve_zero_sum(a)
    assert s.value == pytest.approx(highs_value(a), abs=TOL)
    check_certificate(a, s)


# ---- bad input ------------------------------------------------------------------
TWO_D, EMPTY, FINITE = "payoff must be 2-D", "payoff is empty", "payoff has NaN or infinite"
REAL = "payoff must hold real numbers"


@pytest.mark.parametrize("bad, error, words", [
    ([], ValueError, TWO_D), ([[]], ValueError, EMPTY), (np.zeros((0, 3)), ValueError, EMPTY),
    ([1, 2, 3], ValueError, TWO_D), (5, ValueError, TWO_D),
    (np.zeros((2, 2, 2)), ValueError, TWO_D),
    ([[1, np.nan]], ValueError, FINITE), ([[np.inf, 1]], ValueError, FINITE),
    ([[1, 2], [3]], ValueError, "payoff must be a rectangular 2-D array"),
    ([["a", "b"]], TypeError, REAL), ([[1 + 2j]], TypeError, REAL),
    ([[True, False]], TypeError, REAL), ([[None, 1]], TypeError, REAL),
])
def test_bad_input_is_refused(bad, error, words):
    with pytest.raises(error, match=words):
        solve_zero_sum(bad)


# ---- properties -----------------------------------------------------------------
small_ints = st.integers(1, 4).flatmap(
    lambda m: st.integers(1, 4).flatmap(
        lambda n: arrays(np.int64, (m, n), elements=st.integers(-2, 2))))


@settings(max_examples=5 * EXAMPLES, deadline=None)
@given(small_ints)
def test_integer_games_against_highs(a):
    s = solve_zero_sum(a)
    assert s.value == pytest.approx(highs_value(a), abs=TOL)
    check_certificate(a, s)


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_ints, st.integers(0, 3), st.integers(0, 3))
def test_duplicate_lines_and_constant_games(a, i, j):
    a = np.vstack([a, a[i % a.shape[0]]])           # a repeated row
    a = np.hstack([a, a[:, [j % a.shape[1]]]])      # a repeated column
    for game in (a, np.full_like(a, a[0, 0])):
        s = solve_zero_sum(game)
        assert s.value == pytest.approx(highs_value(game), abs=TOL)
        check_certificate(game, s)


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_ints, st.floats(-5, 5), st.floats(0.1, 10))
def test_shift_scale_and_transpose(a, shift, scale):
    v = solve_zero_sum(a).value
    assert solve_zero_sum(a + shift).value == pytest.approx(v + shift, abs=TOL)
    assert solve_zero_sum(a * scale).value == pytest.approx(v * scale, abs=TOL * scale)
    swapped = solve_zero_sum(-a.T)                  # the column player's view of the game
    assert swapped.value == pytest.approx(-v, abs=TOL)
    check_certificate(-a.T, swapped)


# ---- many games -----------------------------------------------------------------
def random_games(count, seed=0):
    """Random and degenerate games of 1x1 to 4x4: integers, reals, constants,
    repeated lines, big entries, and mixed games without a saddle point."""
    rng = np.random.default_rng(seed)
    games = []
    for k in range(count):
        m, n = rng.integers(1, 5, size=2)
        kind = k % 6
        if kind == 0:
            a = rng.integers(-2, 3, size=(m, n)).astype(float)
        elif kind == 1:
            a = rng.normal(size=(m, n))
        elif kind == 2:
            a = np.full((m, n), float(rng.integers(-3, 4)))
        elif kind == 3:
            a = rng.integers(-2, 3, size=(m, n)).astype(float)
            a = np.vstack([a, a[rng.integers(m)]])[:, np.r_[0:n, rng.integers(n)]]
        elif kind == 4:
            a = rng.uniform(-1e6, 1e6, size=(m, n)).round()
        else:
            a = rng.normal(size=(max(m, 2), max(n, 2)))
        games.append(a)
    return games


@pytest.mark.slow
def test_ten_thousand_games_against_highs():
    games = random_games(10_000)
    ours = [solve_zero_sum(a) for a in games]
    theirs = np.concatenate([highs_values(games[i:i + 1000]) for i in range(0, len(games), 1000)])
    for a, s, v in zip(games, ours, theirs):
        scale = max(1.0, np.abs(a).max())
        assert abs(s.value - v) <= TOL * scale, (a, s, v)
        check_certificate(a, s)


# ---- the kernel from compiled code ------------------------------------------------
def test_kernel_callable_from_compiled_code():
    from numba import njit

    solve = zs.solve_zero_sum_kernel

    @njit
    def total_value(games, sizes, row, col, tab, idx):
        t = 0.0
        for k in range(games.shape[0]):
            t += solve(games[k], sizes[k, 0], sizes[k, 1], row, col, tab, idx)
        return t

    games = np.zeros((3, 4, 4))
    games[0, :2, :2] = [[1, -1], [-1, 1]]                      # 0
    games[1, :3, :3] = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]    # 0
    games[2, :2, :3] = [[3, 1, 4], [4, 2, 5]]                  # 2
    sizes = np.array([[2, 2], [3, 3], [2, 3]], np.int64)
    s = zs.new_scratch(4, 4)
    row, col = np.zeros(4), np.zeros(4)
    assert total_value(games, sizes, row, col, s.tableau, s.index) == pytest.approx(2, abs=TOL)
    np.testing.assert_allclose(col[:3], [0, 1, 0])             # the last game's saddle point
