"""Exercises of notebook 06, learning the evaluation (A9).

``separation_sample(record) -> (dn, de, moves0, moves1)`` or None
    the regression point of one game: territory differences on the first board where
    both players are alive and apart, and the moves each made from there on;
``fit_weights(records) -> (k1, k2)`` or None
    least squares through the origin over the games that separate (None: none does).

Both are checked against :mod:`tronlab.tron.learn`: the first on hand-made and seeded
games, the second on seeded games, last on games that never separate.  A wrong fit, with
the learner's ``separation_sample`` given, names the first record whose features differ;
a wrong sample is shown worked out line by line.  The hints that name the usual mistakes
are in :mod:`tronlab.course.ex_learning_hints`, the games in
:mod:`tronlab.course.ex_learning_games`.
"""

from __future__ import annotations

import contextlib
import functools

import numpy as np

from ..runner.records import GameRecord
from ..tron import learn
from ..tron.values import is_whole
from .answers import reject_text, reject_unordered
from .ex_learning_games import (checker_games, hand_games, package_sample, package_samples,
                                 sample_games, scripted)
from .ex_learning_hints import (SAMPLE_TIMEOUT_HINT, falls_off_end, fit_hint, fit_timeout_hint,
                                 forgotten_return_hint, none_unpacked_hint, sample_hint,
                                 sample_steps)
from .progress import recorded
from .checker import (BAD_ARGUMENT, Case, CheckResult, Exercise, Failure, WrongType, draw,
                      is_stub, run_check)
from .learner import (crash_phrase, describe_value, learner_frame, returns_value, short_repr,
                      signature_problem, where)
from .timelimit import call_each, call_with_time_limit, check_time_limit

__all__ = ["check_separation_sample", "check_fit_weights", "scripted", "sample_games",
           "your_weights"]


#: what the checker sees when the learner's function returns None on purpose ("no sample",
#: "no fit"): the generic checker reads a bare None as a forgotten ``return``
NO_SAMPLE = "no sample"
NO_FIT = "no fit"


def _copy(record: GameRecord) -> GameRecord:
    return GameRecord.from_dict(record.to_dict())


def _as_sample(value):
    if value is None or value is NO_SAMPLE:
        return None
    reject_text(value, "None or a tuple (dn, de, moves0, moves1) of 4 ints")
    reject_unordered(value, "the 4 ints (dn, de, moves0, moves1)")
    try:
        items = tuple(value)
    except TypeError:
        raise WrongType("return None or a tuple (dn, de, moves0, moves1) of 4 ints") from None
    if len(items) != 4:
        raise WrongType(f"return a tuple of 4 ints (dn, de, moves0, moves1), got {len(items)} "
                        f"values")
    out = []
    for name, v in zip(("dn", "de", "moves0", "moves1"), items):
        if not is_whole(v):
            raise WrongType(f"{name} must be an int, got {type(v).__name__}")
        out.append(int(v))
    return tuple(out)


def _as_weights(value) -> tuple[float, float]:
    """``(k1, k2)`` as floats from a sequence of two numbers, else :class:`WrongType`."""
    if isinstance(value, np.ndarray) and value.shape in ((2, 1), (1, 2)):
        raise WrongType(f"return 2 numbers (k1, k2), not an array of shape {value.shape}: "
                        f"lstsq gives a solution shaped like its y, so with y as a column "
                        f"(shape (n, 1)) the weights come as a column too; pass y as a 1-d "
                        f"array (y.ravel()) or return float(k[0, 0]), float(k[1, 0])")
    try:
        items = list(value)
    except TypeError:
        raise WrongType(f"return the weights, a sequence of 2 floats (k1, k2), not "
                        f"{short_repr(value)}") from None
    if len(items) != 2:
        raise WrongType(f"return the weights, a sequence of 2 floats (k1, k2), not "
                        f"{len(items)} values")
    if any(isinstance(k, (str, bytes)) for k in items):
        raise WrongType(f"k1 and k2 must be numbers, not strings: got {short_repr(value)}")
    for name, k in zip(("k1", "k2"), items):
        if isinstance(k, np.ndarray) and k.size == 1 and k.ndim > 0:
            raise WrongType(f"{name} is a numpy array of shape {k.shape}, not a number: with y "
                            f"as a column (shape (n, 1)) lstsq gives the weights as a column "
                            f"too; pass y as a 1-d array (y.ravel()), or take float(k[0, 0])")
    try:
        return float(items[0]), float(items[1])
    except (TypeError, ValueError):
        raise WrongType(f"return the weights, a sequence of 2 floats (k1, k2), not "
                        f"{short_repr(value)}") from None


def _is_lstsq_result(value) -> bool:
    """True for what ``numpy.linalg.lstsq`` returns: (solution, residuals, rank, s)."""
    return (isinstance(value, tuple) and len(value) == 4
            and isinstance(value[0], np.ndarray) and value[0].ndim == 1)


def _expected(record):
    s = package_sample(record)
    return None if s is None else (s.dn, s.de, s.moves0, s.moves1)


class SeparationSample(Exercise):
    function = "separation_sample"
    parameters = ("record",)
    returns = "None, or a tuple (dn, de, moves0, moves1) of ints"
    noun = "game"          # each case is a whole game record, not one of its boards
    drawn_as = "; the game starts from this board"
    hint = ("find the first board of record.boards() where both players are alive and apart, "
            "take territory() there, and count the moves each player made after it")

    def cases(self):
        games = hand_games() + list(checker_games(30, 6))
        return [Case(label, rec.start, (rec,)) for label, rec in games]

    def call(self, student, case, context):
        value = student(_copy(case.args[0]))
        # None is an answer (no separation) unless the function cannot return anything else
        forgot = returns_value(student) is False
        if value is None:
            context["falls_off"] = falls_off_end(student)     # None after its last line?
        return NO_SAMPLE if value is None and not forgot and not is_stub(student) else value

    def none_hint(self, case):
        return ("separation_sample has no `return` with a value, so it returns None for every "
                "game, yet these players separate: return (dn, de, moves0, moves1) at the end")

    def timeout_hint(self, case):
        return SAMPLE_TIMEOUT_HINT

    def crash_hint(self, case, err):
        if isinstance(err, TypeError) and "'method' object" in str(err):
            return ("a method used without calling it: record.boards is one, so call it, "
                    "record.boards(), for the list of boards")
        return None

    def describe_case(self, case):
        return f"separation_sample(record)   # {case.label}"

    def convert(self, value, case):
        return _as_sample(value)

    def expected(self, case):
        return _expected(case.args[0])

    def diagnose(self, case, got, want):
        return sample_hint(case.args[0], got, want)

    def judge(self, case, got, context):
        failure = super().judge(case, got, context)
        if failure is not None and got is None and context.get("falls_off"):
            failure = failure._replace(hint=forgotten_return_hint(context["falls_off"]))
        steps = sample_steps(case.args[0]) if failure is not None else []
        if steps:
            failure = failure._replace(expected="\n".join([failure.expected, *steps]))
        return failure


class FitWeights(Exercise):
    function = "fit_weights"
    parameters = ("records",)
    returns = "a pair of floats (k1, k2)"
    noun = "test"
    hint = ("turn every record that separates into (dn, de, moves0 - moves1), then solve the "
            "least-squares problem for k1, k2 with numpy.linalg.lstsq")

    def __init__(self, separation_sample=None, time_limit=None):
        self.learner_sample = separation_sample
        if time_limit is not None:
            self.time_limit = check_time_limit(time_limit, "time_limit")

    def cases(self):
        games = list(checker_games(60, 11))
        never = [(lab, rec) for lab, rec in games if package_sample(rec) is None]
        return [Case(f"{len(part)} games from seed 11{what}", part[0][1].start,
                     ([rec for _, rec in part],), {"labels": [lab for lab, _ in part]})
                for part, what in ((games[:30], ""), (games, ""),
                                   (never, " that never separate"))]

    @staticmethod
    def no_fit(case) -> bool:
        """Whether no game of ``case`` separates: nothing to fit, the answer is None."""
        return not package_samples(case.args[0])

    def no_fit_hint(self, case) -> str:
        return (f"none of these {len(case.args[0])} games separates, so there is no row to "
                f"fit: return None when you have no samples (before calling lstsq)")

    def call(self, student, case, context):
        value = student([_copy(r) for r in case.args[0]])
        return NO_FIT if value is None and self.no_fit(case) else value

    def crash_hint(self, case, err):
        if self.no_fit(case):
            return self.no_fit_hint(case)
        return none_unpacked_hint(case.args[0], err)

    def timeout_hint(self, case):
        return fit_timeout_hint(case.args[0])

    def none_hint(self, case):
        """None where games separate: a missing ``return`` (the usual hint), unless the
        learner's ``separation_sample`` (given) finds no separation in any of the games."""
        if self.learner_sample is None:
            return None
        records = case.args[0]
        calls = [functools.partial(_learner_sample, self.learner_sample, r) for r in records]
        with contextlib.closing(call_each(calls, self.time_limit)) as outcomes:
            if not all(o.kind == "value" and o.value == ("value", None) for o in outcomes):
                return None
        apart = len(package_samples(records))
        return (f"your separation_sample returned None for all {len(records)} games, yet "
                f"{apart} of them separate, so fit_weights had no row to fit and rightly "
                f"returned None: make separation_sample pass check_separation_sample first")

    def describe_case(self, case):
        return f"fit_weights(records)   # {case.label}"

    def show_input(self, case):
        return [f"The call: {self.describe_case(case)}"]      # no board: it gets records

    def convert(self, value, case):
        if value is NO_FIT:
            return None
        reject_text(value, "two numbers (k1, k2)")
        reject_unordered(value, "the weights (k1, k2)")
        if _is_lstsq_result(value):
            raise WrongType("return the weights, a sequence of 2 floats (k1, k2); "
                            "numpy.linalg.lstsq returns a tuple (solution, residuals, rank, "
                            "singular values) whose first item is the solution: "
                            "k1, k2 = np.linalg.lstsq(x, y, rcond=None)[0]")
        weights = _as_weights(value)
        if not all(np.isfinite(weights)):
            raise WrongType("the weights must be finite numbers (a division by zero?)")
        return weights

    def expected(self, case):
        if self.no_fit(case):
            return None
        fit = learn.fit_weights(package_samples(case.args[0]))
        return fit.k1, fit.k2

    def judge(self, case, got, context):
        want = self.expected(case)
        if want is None:
            return None if got is None else Failure(
                "None (no game separates: nothing to fit)",
                f"k1 = {got[0]:.6f}, k2 = {got[1]:.6f}", self.no_fit_hint(case))
        if np.allclose(got, want, rtol=1e-6, atol=1e-9):
            return None
        return Failure(f"k1 = {want[0]:.6f}, k2 = {want[1]:.6f}",
                       f"k1 = {got[0]:.6f}, k2 = {got[1]:.6f}", self._why(case, got))

    def _why(self, case, got) -> str:
        records = case.args[0]
        if self.learner_sample is not None:
            why = self._learner_features_differ(case.options["labels"], records)
            if why is not None:
                return why
        return fit_hint(records, got, self.expected(case)) or self.hint

    def _learner_features_differ(self, labels, records) -> str | None:
        """The first record where the learner's ``separation_sample`` disagrees with the
        package, said in a sentence; its calls run like the checked function's (a child
        process, a time limit per record), so a loop or a crash there is reported too."""
        sample = self.learner_sample
        calls = [functools.partial(_learner_sample, sample, rec) for rec in records]
        with contextlib.closing(call_each(calls, self.time_limit)) as outcomes:
            for label, rec, outcome in zip(labels, records, outcomes):
                problem = _sample_problem(outcome, label, self.time_limit)
                if problem is not None:
                    return problem
                kind, mine = outcome.value
                if kind == "wrong-type":
                    return (f"your separation_sample returns the wrong kind of answer on "
                            f"{label}: {mine}")
                if mine != _expected(rec):
                    return (f"the features differ first on {label}: separation_sample gives "
                            f"{mine}, the package {_expected(rec)}\n{draw(rec.start)}")
        return None


def _learner_sample(sample, record):
    """``("value", features)`` or ``("wrong-type", why)`` (run in the checker's child)."""
    try:
        return "value", _as_sample(sample(_copy(record)))
    except WrongType as err:
        return "wrong-type", str(err)


def _sample_problem(outcome, label, limit) -> str | None:
    """A sentence about a call of the learner's separation_sample that did not return."""
    start = "the fit is wrong, and your separation_sample"
    if outcome.kind == "timeout":
        return (f"{start} did not finish within {limit:g} s on {label}: is there a loop that "
                f"never ends? Check it with check_separation_sample first")
    if outcome.kind == "exited":
        return f"{start} ended the program running it on {label} ({outcome.detail})"
    if outcome.kind == "unsendable":
        return f"{start} returned something the checker cannot receive on {label}"
    if outcome.kind != "raised":
        return None
    err = outcome.error
    if isinstance(err, NotImplementedError):
        return (f"{start} is not implemented yet, so the checker cannot say which record's "
                f"features are off; write it (exercise A9 above), or check fit_weights alone")
    at = where(err, outcome.frames or None)
    return f"{start} {crash_phrase(err)} on {label}" + (f", at {at}" if at else "")


@recorded
def check_separation_sample(separation_sample, *, time_limit=None):
    """Check ``separation_sample(record) -> (dn, de, moves0, moves1)`` or None (A9)."""
    return run_check(SeparationSample(), separation_sample, time_limit=time_limit)


@recorded
def check_fit_weights(fit_weights, *, separation_sample=None, time_limit=None):
    """Check ``fit_weights(records) -> (k1, k2)`` (A9); given the learner's
    ``separation_sample`` too, a wrong fit names the first record whose features differ."""
    problem = _helper_problem(separation_sample)
    if problem:
        return CheckResult("fit_weights", False, BAD_ARGUMENT,
                           f"fit_weights: cannot check this. {problem}", hint=problem)
    return run_check(FitWeights(separation_sample, time_limit), fit_weights,
                     time_limit=time_limit)


def _helper_problem(sample) -> str | None:
    """A sentence if ``separation_sample=`` of check_fit_weights is not the learner's function."""
    if sample is None:
        return None
    if not callable(sample) or isinstance(sample, type):
        return (f"separation_sample= takes your separation_sample function (or leave it out), "
                f"but got {describe_value(sample)}: check_fit_weights(fit_weights, "
                f"separation_sample=separation_sample)")
    return signature_problem("separation_sample", ("record",), sample)


def your_weights(fit_weights, records, *, time_limit=60.0):
    """The learner's ``fit_weights(records)`` as ``(k1, k2)``, run in a child process
    under ``time_limit`` seconds like a checked call (exercise 06's match cell); None,
    after one sentence saying why, when there are none: a stub ("write fit_weights
    first"), a crash, an endless loop or an answer that is not two finite numbers."""
    limit = check_time_limit(time_limit, "time_limit")
    if not callable(fit_weights) or isinstance(fit_weights, type):
        print(f"your_weights takes your function itself, not {describe_value(fit_weights)}: "
              f"your_weights(fit_weights, records), no parentheses after fit_weights.")
        return None
    if is_stub(fit_weights):
        print("write fit_weights first (the check cell above says when it is right).")
        return None
    outcome = call_with_time_limit(lambda: fit_weights(records), limit)
    if outcome.kind == "value":
        problem = _weights_problem(outcome.value, records)
        if problem is None:
            return FitWeights().convert(outcome.value, None)
    elif outcome.kind == "timeout":
        problem = f"it did not finish within {limit:g} s: is there a loop that never ends?"
    elif outcome.kind == "raised" and isinstance(outcome.error, NotImplementedError):
        frame = learner_frame(outcome.error, outcome.frames or None)
        name = "fit_weights" if frame is None else frame.name
        called = "" if name == "fit_weights" else ", which fit_weights calls,"
        print(f"write {name}{called} first (its check cell above says when it is right).")
        return None
    elif outcome.kind == "raised":
        err = outcome.error
        at = where(err, outcome.frames or None)
        problem = crash_phrase(err) + (f", at {at}" if at else "")
    elif outcome.kind == "unsendable":
        problem = "it returned something the notebook cannot receive"
    else:
        problem = f"it ended the program running it ({outcome.detail})"
    print(f"No weights from your fit_weights: {problem}" + ("" if problem.endswith("?") else "."))
    return None


def _weights_problem(value, records) -> str | None:
    """Why ``value`` returned by fit_weights(records) is no pair of weights; None if it is."""
    if value is None:
        apart = len(package_samples(records))
        return (f"it returned None, yet {apart} of these {len(records)} games separate: is "
                f"a `return` missing, or does your separation_sample return None for every "
                f"game? (check_fit_weights above says which)")
    try:
        FitWeights().convert(value, None)
    except WrongType as err:
        return f"it returned {short_repr(value)}: {err}"
    return None
