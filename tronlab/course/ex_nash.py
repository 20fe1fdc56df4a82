"""Exercise of notebook 09: solve small zero-sum games (L1).

``solve_game(payoff) -> (value, row_strategy)``: the row player picks a row, the
column player a column, at the same time; the column player pays
``payoff[i][j]``.  The row player maximises.  The answer is the game's value and
an optimal mixed strategy for the row player (probabilities, one per row).

The checker tries 2x2 and 3x3 games, named ones first (matching pennies, a
saddle point, a dominated row, rock-paper-scissors...) then seeded random
integer games.  A value must equal the package's solver
(:func:`tronlab.nash.solve_zero_sum`, itself checked against HiGHS) within
1e-6; a strategy must be a probability vector that *guarantees* the value:
against every column it earns at least ``value - 1e-6``.  The first failing
matrix is named and printed; hints come from recomputing the answer with a
typical mistake (:func:`mistake_value`) and seeing whether it matches.
"""

from __future__ import annotations

import numpy as np

from ..nash.zero_sum import solve_zero_sum
from .checker import (BAD_ARGUMENT, CRASH, NOT_IMPLEMENTED, PASSED, TIMEOUT, WRONG, WRONG_TYPE,
                      CheckResult)
from .learner import bad_function_message, describe_value as _kind, is_stub, where as _where
from .timelimit import call_with_time_limit

__all__ = ["check_solve_game", "GAMES", "game_cases", "mistake_value"]

TOL = 1e-6

#: named games the checker tries first (rows maximise)
GAMES = {
    "matching pennies": [[1, -1], [-1, 1]],
    "a saddle point": [[1, 4], [2, 3]],
    "a saddle point where the closed form divides by zero": [[3, 1], [4, 2]],
    "a dominated row": [[1, 2], [0, -1]],
    "mixed 2x2, value not 0": [[2, -1], [-1, 1]],
    "all the same": [[5, 5], [5, 5]],
    "rock-paper-scissors": [[0, -1, 1], [1, 0, -1], [-1, 1, 0]],
    "3x3 with a saddle point": [[4, 2, 5], [1, 0, 3], [6, 1, 2]],
    "3x3 with a dominated row and column": [[3, -1, 7], [-1, 2, 7], [-2, -2, 6]],
    "3x3 mixed over all rows": [[0, 2, -1], [-1, 0, 3], [2, -2, 0]],
}


def game_cases(n_random: int = 40, seed: int = 9):
    """``[(label, matrix)]``: the named games, then seeded random 2x2 and 3x3 integer games."""
    rng = np.random.default_rng(seed)
    cases = [(name, np.array(m, float)) for name, m in GAMES.items()]
    for k in range(n_random):
        size = 2 if k % 2 == 0 else 3
        cases.append((f"random {k} ({size}x{size})",
                      rng.integers(-4, 5, size=(size, size)).astype(float)))
    return cases


def mistake_value(payoff, mistake: str) -> float:
    """The value a typical mistake gives.  ``"pure"``: the best row minimum (no mixing);
    ``"closed-form"``: the 2x2 indifference formula used even where a saddle point or a
    dominated line exists; ``"column"``: the game solved for the column player as if it
    maximised (the value of ``-payoff.T``, sign kept); ``"transposed"``: rows and
    columns swapped (``payoff.T``, rows still maximising)."""
    a = np.asarray(payoff, float)
    if mistake == "pure":
        return float(a.min(axis=1).max())
    if mistake == "closed-form":
        if a.shape != (2, 2):
            return float("nan")
        den = a[0, 0] - a[0, 1] - a[1, 0] + a[1, 1]
        if den == 0:
            return float("nan")
        return float((a[0, 0] * a[1, 1] - a[0, 1] * a[1, 0]) / den)
    if mistake == "column":
        return float(solve_zero_sum(-a.T).value)
    if mistake == "transposed":
        return float(solve_zero_sum(a.T).value)
    raise ValueError(f"unknown mistake {mistake!r}")


def has_saddle(a) -> tuple[int, int] | None:
    """A pure saddle point ``(row, column)``, or None."""
    low, high = a.min(axis=1), a.max(axis=0)
    if low.max() == high.min():
        return int(np.argmax(low)), int(np.argmin(high))
    return None


_HINTS = {
    "pure": ("you gave the best row's smallest entry: that is what the row player gets "
             "with one fixed row. Without a saddle point the row player does better by "
             "mixing: find probabilities that make the column player indifferent"),
    "column": ("this is the column player's view: the rows maximise. payoff[i][j] is what "
               "the row player receives"),
    "transposed": ("rows and columns are swapped: payoff[i] is row i, the row player's "
                   "choice"),
}


def _hint(a, value) -> str:
    """Why ``value`` is wrong for ``a``: a known mistake, else the saddle point or closed form."""
    saddle = has_saddle(a)
    if saddle is not None and a.shape == (2, 2) and np.isclose(value, mistake_value(a, "closed-form")):
        i, j = saddle
        return (f"this game has a saddle point at row {i}, column {j} (the largest row minimum "
                f"equals the smallest column maximum, {a[i, j]:g}): the value is that entry. "
                f"The closed form's indifference only holds when neither player has a pure "
                f"best line; check for a saddle point first")
    for mistake, text in _HINTS.items():
        if mistake == "pure" and saddle is not None:
            continue
        if np.isclose(value, mistake_value(a, mistake), atol=TOL):
            return text
    if saddle is not None:
        i, j = saddle
        return (f"this game has a saddle point at row {i}, column {j}: row {i}'s smallest "
                f"entry equals column {j}'s largest ({a[i, j]:g}), so neither player mixes")
    if a.shape == (2, 2):
        return ("no saddle point here: the row player mixes p, 1 - p so the column player "
                "is indifferent, p*a + (1-p)*c = p*b + (1-p)*d; the value is "
                "(a*d - b*c) / (a - b - c + d)")
    return ("drop dominated rows and columns first; then solve the linear program: maximise v "
            "with sum(p) = 1, p >= 0 and p @ payoff[:, j] >= v for every column j")


def _as_answer(value, m: int):
    """``(float, array[m])`` or a sentence saying what is wrong with the answer."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        return None, f"return a pair (value, row_strategy), got {_kind(value)}"
    v, given = value
    try:
        if isinstance(v, (str, bytes)):
            raise TypeError("text, not a number")
        v = float(v)
    except (TypeError, ValueError):
        return None, f"the value must be a number, got {_kind(v)}"
    try:
        p = np.asarray(given)
        if p.dtype.kind in "USV":            # text ('0.5'), not numbers
            raise TypeError("text, not numbers")
        p = p.astype(float).reshape(-1)
    except (TypeError, ValueError):
        return None, f"the row strategy must be {m} numbers, got {_kind(given)}"
    if p.size != m:
        return None, (f"the row strategy has one probability per row ({m} rows), "
                      f"got {p.size} numbers")
    if not np.isfinite(v) or not np.all(np.isfinite(p)):
        return None, "the value and the probabilities must be finite numbers"
    return (v, p), None


def _show(a) -> str:
    return "\n".join("    [" + ", ".join(f"{x:>3g}" for x in row) + "]" for row in a)


def _result(status, n, label, a, headline, *, expected=None, got=None, hint=None):
    passed = status == PASSED
    parts = [f"solve_game: FAILED on game {n + 1} ({label}), after {n} passed.", headline,
             "The call: solve_game(payoff) with payoff =", _show(a)]
    if expected is not None:
        parts += ["Expected:", "    " + expected]
    if got is not None:
        parts += ["Got:", "    " + got]
    if hint:
        parts.append(f"Hint: {hint}")
    return CheckResult("solve_game", passed, status, "\n".join(parts), n, case=label,
                       expected=expected, got=got, hint=hint, details={"payoff": a.tolist()})


def _judge(a, v, p):
    """None if ``(v, p)`` is right for ``a``, else ``(expected, got, hint)``."""
    want = solve_zero_sum(a)
    if not np.isclose(v, want.value, atol=TOL, rtol=0):
        return (f"value {want.value:.6g} (row strategy {np.round(want.row_strategy, 4).tolist()})",
                f"value {v:.6g}", _hint(a, v))
    if np.any(p < -TOL) or not np.isclose(p.sum(), 1.0, atol=TOL):
        return ("probabilities: each >= 0, adding up to 1",
                f"{np.round(p, 6).tolist()} (sum {p.sum():.6g})",
                "the row strategy is how often to play each row: no negative entries, and "
                "they add up to 1")
    earns = p @ a
    j = int(np.argmin(earns))
    if earns[j] < want.value - TOL:
        return (f"a strategy earning at least {want.value:.6g} against every column",
                f"{np.round(p, 6).tolist()}, which earns only {earns[j]:.6g} against column {j}",
                "the value is right but the strategy does not guarantee it: the column player "
                f"answers with column {j}. The optimal mix makes every column the column player "
                f"uses pay the same")
    return None


def check_solve_game(solve_game, *, time_limit=None):
    """Check ``solve_game(payoff) -> (value, row_strategy)`` on 2x2 and 3x3 zero-sum games."""
    problem = bad_function_message("solve_game", solve_game)
    if problem:
        return CheckResult("solve_game", False, BAD_ARGUMENT,
                           f"solve_game: cannot check this. {problem}", hint=problem)
    limit = 10.0 if time_limit is None else time_limit
    stub = is_stub(solve_game)
    cases = game_cases()
    for n, (label, a) in enumerate(cases):
        given = a.copy()
        outcome = call_with_time_limit(lambda: solve_game(given), limit)
        if outcome.kind == "timeout":
            return _result(TIMEOUT, n, label, a, f"solve_game did not finish within {limit:g} s.",
                           hint="is there a loop that never ends (a pivot that never improves)?")
        if outcome.kind == "raised":
            err = outcome.error
            if isinstance(err, NotImplementedError):
                return CheckResult("solve_game", False, NOT_IMPLEMENTED,
                                   "solve_game: not implemented yet. Write its body, then run "
                                   "this cell again.", n)
            where = _where(err, outcome.frames)
            return _result(CRASH, n, label, a, f"solve_game crashed with {type(err).__name__}: "
                           f"{err}" + (f"\n  at {where}" if where else ""),
                           hint="read the line above and try this matrix by hand")
        if outcome.kind in ("exited", "unsendable"):
            return _result(CRASH, n, label, a, f"solve_game did not return normally: "
                           f"{outcome.detail}.", hint="do not call sys.exit() or os._exit() in "
                           "your function; return the answer")
        if outcome.value is None and (stub or (stub is None and n == 0)):
            return CheckResult("solve_game", False, NOT_IMPLEMENTED,
                               "solve_game: not implemented yet. Write its body, then run this "
                               "cell again.", n)
        answer, why = _as_answer(outcome.value, a.shape[0])
        if answer is None and "finite" in why and has_saddle(a) is not None:
            why += (". This game has a saddle point, where the 2x2 closed form's denominator "
                    "can be 0: check for a saddle point first")
        if answer is None:
            return _result(WRONG_TYPE, n, label, a, "solve_game returned the wrong kind of "
                           "answer.", got=_kind(outcome.value), hint=why)
        wrong = _judge(a, *answer)
        if wrong is not None:
            expected, got, hint = wrong
            return _result(WRONG, n, label, a, "solve_game gave a wrong answer.",
                           expected=expected, got=got, hint=hint)
    return CheckResult("solve_game", True, PASSED,
                       f"solve_game: all {len(cases)} games passed. Well done!", len(cases))
