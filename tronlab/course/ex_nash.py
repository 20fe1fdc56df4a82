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
typical mistake (:func:`mistake_value`) and seeing whether it matches.  The
generic checker (:func:`tronlab.course.checker.run_check`) runs the learner's
function: a time limit, crashes and odd answers reported in a sentence, and a
payoff matrix written into is caught.
"""

from __future__ import annotations

import numpy as np

from ..nash.zero_sum import solve_zero_sum
from .checker import Case, Exercise, Failure, WrongType, run_check
from .learner import describe_value as _kind
from .progress import recorded

__all__ = ["check_solve_game", "SolveGame", "GAMES", "game_cases", "mistake_value"]

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
    if mistake == "upper":
        return float(a.max(axis=0).min())
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
    "upper": ("you gave the smallest column maximum: that is what the column player concedes "
              "with one fixed column, an upper bound on the value. The row player is "
              "guaranteed the largest row minimum; without a saddle point the two differ and "
              "the value lies between them: find the mix that makes the column player "
              "indifferent"),
    "column": ("this is the column player's view: the rows maximise. payoff[i][j] is what "
               "the row player receives"),
    "transposed": ("rows and columns are swapped: payoff[i] is row i, the row player's "
                   "choice"),
}


def _hint(a, value) -> str:
    """Why ``value`` is wrong for ``a``: a known mistake, else the saddle point or closed form."""
    saddle = has_saddle(a)
    if (saddle is not None and a.shape == (2, 2)
            and np.isclose(value, mistake_value(a, "closed-form"))):
        i, j = saddle
        return (f"this game has a saddle point at row {i}, column {j} (the largest row minimum "
                f"equals the smallest column maximum, {a[i, j]:g}): the value is that entry. "
                f"The closed form's indifference only holds when neither player has a pure "
                f"best line; check for a saddle point first")
    for mistake, text in _HINTS.items():
        if mistake in ("pure", "upper") and saddle is not None:
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
        if np.ndim(v) == 1 and np.ndim(given) == 0:
            return None, (f"the pair is (value, row_strategy), the value first: yours looks "
                          f"like (row_strategy, value), with {_kind(v)} first")
        return None, f"the value must be a number, got {_kind(v)}"
    try:
        p = np.asarray(given)
        if p.dtype.kind in "USV" or p.ndim == 0:    # text ('0.5'), one number or None
            raise TypeError("not a sequence of numbers")
        p = p.astype(float).reshape(-1)
    except (TypeError, ValueError):
        what = "None" if given is None else _kind(given)
        return None, f"the row strategy must be {m} numbers, got {what}"
    if p.size != m:
        return None, (f"the row strategy has one probability per row ({m} rows), "
                      f"got {p.size} number{'' if p.size == 1 else 's'}")
    if not np.isfinite(v) or not np.all(np.isfinite(p)):
        return None, "the value and the probabilities must be finite numbers"
    return (v, p), None


def _show(a) -> str:
    return "\n".join("    [" + ", ".join(f"{x:>3g}" for x in row) + "]" for row in a)


def _judge(a, v, p):
    """None if ``(v, p)`` is right for ``a``, else ``(expected, got, hint)`` (numbers shown
    without a minus on zero: ``+ 0.0`` turns -0.0 into 0.0)."""
    want = solve_zero_sum(a)
    v, p = v + 0.0, p + 0.0
    if not np.isclose(v, want.value, atol=TOL, rtol=0):
        return (f"value {want.value + 0.0:.6g} (row strategy "
                f"{(np.round(want.row_strategy, 4) + 0.0).tolist()})",
                f"value {v:.6g}", _hint(a, v))
    if np.any(p < -TOL) or not np.isclose(p.sum(), 1.0, atol=TOL):
        return ("probabilities: each >= 0, adding up to 1",
                f"{(np.round(p, 6) + 0.0).tolist()} (sum {p.sum():.6g})",
                "the row strategy is how often to play each row: no negative entries, and "
                "they add up to 1")
    earns = p @ a
    j = int(np.argmin(earns))
    if earns[j] < want.value - TOL:
        saddle = has_saddle(a)
        how = ("The optimal mix makes every column the column player uses pay the same"
               if saddle is None else
               f"This game has a saddle point at row {saddle[0]}, column {saddle[1]}: play row "
               f"{saddle[0]} every time, the strategy "
               f"{np.eye(len(a), dtype=int)[saddle[0]].tolist()}")
        return (f"a strategy earning at least {want.value + 0.0:.6g} against every column",
                f"{(np.round(p, 6) + 0.0).tolist()}, which earns only {earns[j] + 0.0:.6g} "
                f"against column {j}",
                "the value is right but the strategy does not guarantee it: the column player "
                f"answers with column {j}. {how}")
    return None


class SolveGame(Exercise):
    """L1 for the generic checker: a case's ``board`` is the payoff matrix (a float array),
    and the learner's function gets a copy of it, in a child process under the time limit,
    like every other exercise."""
    function = "solve_game"
    parameters = ("payoff",)
    returns = "a pair (value, row_strategy): a number and one probability per row"
    noun = "game"
    hint = "try this matrix by hand: saddle point first, then the mixed strategy"

    def cases(self):
        return [Case(label, a) for label, a in game_cases()]

    def call(self, student, case, context):
        return student(context["board"])

    def describe_case(self, case):
        return "solve_game(payoff)"

    def show_input(self, case):
        return ["The call: solve_game(payoff) with payoff =", _show(case.board)]

    def timeout_hint(self, case):
        return ("a 2x2 or 3x3 game takes a few milliseconds: is there a loop that never ends "
                "(a while loop waiting for probabilities to become exactly equal, say, or one "
                "that never moves on to the next guess of the supports)?")

    def changed_input(self, case, context):
        if np.array_equal(case.board, context["board"]):
            return None
        return ("solve_game changed the payoff matrix it was given.",
                "do not write into payoff (a reduction that deletes or rescales lines, say): "
                "work on a copy, a = np.array(payoff, float)")

    def convert(self, value, case):
        answer, why = _as_answer(value, case.board.shape[0])
        if answer is None:
            if "finite" in why and has_saddle(case.board) is not None:
                why += (". This game has a saddle point, where the 2x2 closed form's "
                        "denominator can be 0: check for a saddle point first")
            raise WrongType(why)
        return answer

    def judge(self, case, got, context):
        wrong = _judge(case.board, *got)
        return None if wrong is None else Failure(*wrong)


@recorded
def check_solve_game(solve_game, *, time_limit=None):
    """Check ``solve_game(payoff) -> (value, row_strategy)`` on 2x2 and 3x3 zero-sum games."""
    return run_check(SolveGame(), solve_game, time_limit=time_limit)
