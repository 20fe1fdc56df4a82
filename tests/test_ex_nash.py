"""The L1 exercise checker (solve_game): a right solution passes, a stub is 'not
implemented', each planted mistake fails on the first matrix that exposes it with
the hint that names it, strategies that do not guarantee the value are caught,
and wrong kinds of answer are explained.  The checker's expected values come from
the package's solver; here they are also checked against HiGHS."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from tronlab.course.checker import (BAD_ARGUMENT, CHANGED_INPUT, CRASH, NOT_IMPLEMENTED, PASSED,
                                     TIMEOUT, WRONG, WRONG_TYPE)
from tronlab.course.ex_nash import check_solve_game, game_cases, has_saddle, mistake_value


def lp_solve(a):
    """Value and row strategy by HiGHS: maximise v, p @ a[:, j] >= v, sum(p) = 1."""
    a = np.asarray(a, float)
    m, n = a.shape
    res = linprog(np.r_[np.zeros(m), -1.0], A_ub=np.hstack([-a.T, np.ones((n, 1))]),
                  b_ub=np.zeros(n), A_eq=np.r_[np.ones(m), 0.0][None], b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs")
    return float(res.x[-1]), res.x[:m]


def closed_form_always(a):
    a = np.asarray(a, float)
    if a.shape != (2, 2):
        return lp_solve(a)
    den = a[0, 0] - a[0, 1] - a[1, 0] + a[1, 1]
    p = (a[1, 1] - a[1, 0]) / den
    return (a[0, 0] * a[1, 1] - a[0, 1] * a[1, 0]) / den, [p, 1 - p]


def pure(a):
    a = np.asarray(a, float)
    i = int(np.argmax(a.min(axis=1)))
    return float(a[i].min()), np.eye(a.shape[0])[i]


def column_bound(a):
    """The smallest column maximum: the column player's pure bound, not the value."""
    a = np.asarray(a, float)
    return float(a.max(axis=0).min()), np.full(len(a), 1 / len(a))


def column_player(a):
    v, _ = lp_solve(-np.asarray(a, float).T)
    return v, np.full(len(a), 1 / len(a))


def transposed(a):
    v, _ = lp_solve(np.asarray(a, float).T)
    return v, np.full(len(a), 1 / len(a))


def right_value_uniform_strategy(a):
    v, _ = lp_solve(a)
    return v, np.full(len(a), 1 / len(a))


def test_expected_values_agree_with_highs():
    from tronlab.nash import solve_zero_sum
    for label, a in game_cases():
        assert abs(solve_zero_sum(a).value - lp_solve(a)[0]) < 1e-9, label


def test_the_lp_solution_passes():
    r = check_solve_game(lp_solve)
    assert r.status == PASSED and r.passed and r.checked == len(game_cases()), r.message


def test_a_stub_is_not_implemented():
    def solve_game(payoff):
        raise NotImplementedError
    assert check_solve_game(solve_game).status == NOT_IMPLEMENTED

    def solve_game(payoff):
        pass
    assert check_solve_game(solve_game).status == NOT_IMPLEMENTED


@pytest.mark.parametrize("wrong, game, words", [
    (pure, "matching pennies", "mixing"),
    # before: the general 2x2 hint, silent about the bound given
    (column_bound, "matching pennies", "smallest column maximum"),
    (closed_form_always, "a saddle point", "saddle point at row 1, column 0"),
    (column_player, "matching pennies", None),       # 0 there too: caught on a later game
    (transposed, "a saddle point", "swapped"),
    (right_value_uniform_strategy, "a saddle point", "does not guarantee"),
])
def test_planted_mistakes_fail_on_the_first_matrix_that_shows_them(wrong, game, words):
    r = check_solve_game(wrong)
    assert r.status == WRONG, r.message
    if words is None:
        assert "column player's view" in r.hint, r.message
        return
    assert r.case == game and words in r.hint, r.message
    assert "payoff =" in r.message and "Expected:" in r.message and "Got:" in r.message


def test_a_value_a_little_off_is_wrong():
    # the value is exact up to HiGHS's rounding: 1e-4 off is a wrong value, even with the
    # optimal strategy beside it
    def off(a):
        v, p = lp_solve(a)
        return v + 1e-4, p
    r = check_solve_game(off)
    assert r.status == WRONG and r.case == game_cases()[0][0], r.message


def test_closed_form_dividing_by_zero_is_pointed_at_the_saddle_point():
    def solve_game(payoff):
        a = np.asarray(payoff, float)
        if a.shape == (2, 2) and has_saddle(a) is None or a.shape != (2, 2):
            return lp_solve(a)
        with np.errstate(all="ignore"):
            den = np.float64(a[0, 0] - a[0, 1] - a[1, 0] + a[1, 1])
            v = (a[0, 0] * a[1, 1] - a[0, 1] * a[1, 0]) / den
        return v, [0.5, 0.5]
    r = check_solve_game(solve_game)
    assert r.status in (WRONG, WRONG_TYPE) and "saddle point" in r.hint, r.message


def test_mistake_values_differ_from_the_truth_where_the_hints_need_them():
    a = np.array([[1.0, 4.0], [2.0, 3.0]])
    assert has_saddle(a) == (1, 0)
    assert mistake_value(a, "closed-form") == 2.5 and lp_solve(a)[0] == pytest.approx(2.0)
    pennies = np.array([[1.0, -1.0], [-1.0, 1.0]])
    assert mistake_value(pennies, "pure") == -1 and has_saddle(pennies) is None


@pytest.mark.parametrize("answer, words", [
    (lambda a: 0.5, "pair (value, row_strategy)"),
    (lambda a: (0.0, [1.0]), "one probability per row"),
    (lambda a: ("zero", [0.5, 0.5]), "must be a number"),
    (lambda a: (lp_solve(a)[0], [1.5, -0.5] if len(a) == 2 else lp_solve(a)[1]), ">= 0"),
])
def test_wrong_kinds_of_answer_are_explained(answer, words):
    r = check_solve_game(answer)
    assert r.status in (WRONG_TYPE, WRONG) and words in (r.hint or "") + (r.expected or ""), \
        r.message


@pytest.mark.parametrize("strategy, got", [
    (None, "got None"), (1.0, "got float 1.0"), ([1.0], "got 1 number"),
])
def test_a_strategy_that_is_not_one_number_a_row_says_what_it_is(strategy, got):
    # before: None and a single number were read as "1 numbers" (None as nan)
    r = check_solve_game(lambda a: (lp_solve(a)[0], strategy))
    assert r.status == WRONG_TYPE and r.hint.endswith(got), r.message


def test_crash_and_bad_argument():
    def solve_game(payoff):
        return 1 / 0
    r = check_solve_game(solve_game)
    assert r.status == CRASH and "ZeroDivisionError" in r.message
    assert check_solve_game(None).status == BAD_ARGUMENT


def test_a_generator_is_the_wrong_kind_of_answer_not_a_sys_exit():
    def solve_game(payoff):
        return (x for x in range(2))
    r = check_solve_game(solve_game)
    assert r.status == WRONG_TYPE and "pair (value, row_strategy)" in r.hint, r.message
    assert "generator" in r.got and "sys.exit" not in r.message


def test_sys_exit_and_an_endless_loop_are_named():
    def solve_game(payoff):
        import sys
        sys.exit(1)
    r = check_solve_game(solve_game)
    assert r.status == CRASH and "called sys.exit() (SystemExit: 1)" in r.message, r.message
    assert "sys.exit() would end the whole program" in r.hint

    def solve_game(payoff):
        while True:
            pass
    r = check_solve_game(solve_game, time_limit=0.5)
    assert r.status == TIMEOUT and "did not finish within 0.5 s" in r.message, r.message


def test_a_function_that_writes_into_the_payoff_matrix_is_caught():
    def solve_game(payoff):
        v, p = lp_solve(payoff)
        payoff -= payoff.min()            # "normalise" in place: the caller's matrix changes
        return v, p
    r = check_solve_game(solve_game)
    assert r.status == CHANGED_INPUT and "changed the payoff matrix" in r.message, r.message
    assert r.case == "matching pennies" and "payoff =" in r.message and "copy" in r.hint


def test_solve_game_is_in_progress_and_has_hints(tmp_path, monkeypatch):
    from tronlab.course import hint, progress
    monkeypatch.setenv("TRONLAB_PROGRESS", str(tmp_path / "progress.json"))
    assert progress().state("solve_game") == "not tried"
    assert check_solve_game(lp_solve).passed
    assert progress().state("solve_game") == "passed"
    assert "saddle point" in hint("solve_game").text
    assert "guarantee" in hint("solve_game", 3).text


def test_a_zero_is_shown_without_a_minus():
    # before: a value or a probability of -0.0 was printed as "value -0" / "[-0.0, 1.0]"
    r = check_solve_game(lambda a: (-0.0, lp_solve(a)[1]))
    assert r.status == WRONG and "value 0\n" in r.message + "\n" and "-0" not in r.message, \
        r.message
    r = check_solve_game(lambda a: (lp_solve(a)[0], [-0.0] + [1.0] + [0.0] * (len(a) - 2)))
    assert "-0" not in r.message, r.message


def test_a_strategy_that_misses_a_saddle_point_is_told_to_play_the_saddle_row():
    # before: "the optimal mix makes every column ... pay the same", advice for a mixed game
    r = check_solve_game(right_value_uniform_strategy)
    assert r.status == WRONG and r.case == "a saddle point", r.message
    assert "play row 1 every time, the strategy [0, 1]" in r.hint, r.message
    assert "pay the same" not in r.hint
    r = check_solve_game(lambda a: (lp_solve(a)[0], np.full(len(a), 1 / len(a)))
                         if has_saddle(a) is None else lp_solve(a))
    assert r.status == WRONG and "pay the same" in r.hint, r.message   # a mixed game


def test_a_pair_in_the_wrong_order_is_named():
    # before: "the value must be a number, got a numpy array of shape (2,)"
    r = check_solve_game(lambda a: lp_solve(a)[::-1])
    assert r.status == WRONG_TYPE and "looks like (row_strategy, value)" in r.hint, r.message


def test_an_endless_loop_gets_a_hint_about_games_not_squares():
    """Before: the generic time-out hint asked about 'a square visited again and again', on
    a payoff matrix."""
    def endless(payoff):
        while True:
            pass

    result = check_solve_game(endless, time_limit=0.5)
    assert result.status == "timeout" and "did not finish within 0.5 s" in result.message
    assert "square" not in result.hint and "2x2 or 3x3 game" in result.hint, result.hint
