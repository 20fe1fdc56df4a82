"""Generic exercise checking: run a learner's function on many boards, report the first failure.

An :class:`Exercise` says which boards to try, how to call the learner's function, what a
right answer looks like and how to explain a wrong one.  :func:`run_check` does the rest,
the same way for every exercise:

* the learner's function is called on a *copy* of each board, under a time limit, in a
  forked child process where the system has one (:mod:`tronlab.course.timelimit`): a bare
  ``except:`` cannot swallow the time limit and ``sys.exit()`` cannot end the notebook;
  nothing it raises escapes: a crash becomes a report naming the exception, the learner's
  own line that raised it and the board;
* a stub (a body of ``pass``, ``...`` or ``raise NotImplementedError``) is reported as
  "not implemented yet";
* an answer of the wrong kind (a list for an int, an array of the wrong shape, ...) is
  explained in a sentence;
* the first wrong answer is shown with the board drawn as ASCII, the expected and the
  given answer, and a hint about the likely mistake.

The result is a :class:`CheckResult`, which prints as text, renders as HTML in Jupyter
and exposes ``passed``, ``status``, ``message``, ``board`` and ``hint`` for tests.
"""

from __future__ import annotations

import contextlib
import functools
import html
import textwrap
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..runner.reprs import safe_repr
from ..tron.board import Board
from .drawing import draw, draw_grid
from .learner import (bad_function_message, describe_value, is_stub, learner_frame,
                      signature_problem, where)
from .timelimit import call_each, check_time_limit

__all__ = ["PASSED", "NOT_IMPLEMENTED", "WRONG", "WRONG_TYPE", "CRASH", "TIMEOUT",
           "CHANGED_INPUT", "BAD_ARGUMENT", "WrongType", "Case", "Failure", "CheckResult",
           "Exercise", "run_check", "draw", "draw_grid", "is_stub", "learner_frame"]

#: statuses a :class:`CheckResult` can have
PASSED = "passed"
NOT_IMPLEMENTED = "not implemented"
WRONG = "wrong answer"
WRONG_TYPE = "wrong type"
CRASH = "crash"
TIMEOUT = "timeout"
CHANGED_INPUT = "changed its input"
BAD_ARGUMENT = "bad argument"


class WrongType(Exception):
    """Raised by :meth:`Exercise.convert` with a sentence saying what is wrong with an answer."""


class Case(NamedTuple):
    """One board to check on: a label (``"tiny: corridor"``, ``"random 12 (7x5)"``), the
    board, extra positional arguments for the learner's function, and free-form options
    for the exercise (e.g. a search depth)."""
    label: str
    board: Board
    args: tuple = ()
    options: dict | None = None


class Failure(NamedTuple):
    """What :meth:`Exercise.judge` returns for a wrong answer."""
    expected: str
    got: str
    hint: str
    status: str = WRONG


@dataclass
class CheckResult:
    """The outcome of checking one function.  ``passed`` is what tests assert on;
    ``message`` is the full text a learner reads (also ``str(result)``)."""
    exercise: str
    passed: bool
    status: str
    message: str
    checked: int = 0
    board: Board | None = None
    case: str | None = None
    expected: str | None = None
    got: str | None = None
    hint: str | None = None
    details: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        colour = {PASSED: "#1a7f37", NOT_IMPLEMENTED: "#9a6700"}.get(self.status, "#cf222e")
        head, _, rest = self.message.partition("\n")
        body = f"<pre style='margin:0.3em 0 0 0'>{html.escape(rest)}</pre>" if rest else ""
        return (f"<div style='border-left:4px solid {colour};padding:0.2em 0.8em'>"
                f"<b style='color:{colour}'>{html.escape(head)}</b>{body}</div>")


# ---------------------------------------------------------------------------
# what an exercise must say
# ---------------------------------------------------------------------------
class Exercise:
    """One exercise.  Subclasses set the class attributes and override the methods they
    need; the defaults call ``student(board, *args)`` and compare with ``==``."""

    #: name of the function the learner writes, used in every message
    function = "solution"
    #: one line saying what the function returns, used when the answer has the wrong kind
    returns = "a value"
    #: seconds allowed for one call before the check gives up on it
    time_limit = 10.0
    #: the parameters the checker passes, for the message when the learner's function takes others
    parameters = ("board",)
    #: hint shown when no specific mistake is recognised
    hint = "compare your answer with the expected one on this board, step by step"
    #: what one case is called in messages ("FAILED on board 3", "all 40 boards passed")
    noun = "board"
    #: how a failure report introduces the drawing of the case's board
    drawn_as = "with this board"
    #: hint when the function writes into a read-only array (numpy's "assignment destination
    #: is read-only"): say which argument is read-only and how to get a copy to write into
    read_only_hint = ("numpy will not write into a read-only array: copy it first (`a.copy()` or "
                      "`np.array(a)`; `np.asarray(a)` does not copy) and write into the copy")
    #: hint for an IndexError past the end of a numpy array ("out of bounds"), where the
    #: likely cause is x and y swapped; None for the generic crash hint (which a list's or
    #: tuple's IndexError, "pop from empty list" say, always gets)
    index_hint: str | None = None

    def cases(self) -> list[Case]:
        raise NotImplementedError

    def call(self, student, case: Case, context: dict):
        """Call the learner's function on a copy of the board (``context['board']``)."""
        return student(context["board"], *case.args)

    def convert(self, value, case: Case):
        """Turn the raw answer into a comparable one or raise :class:`WrongType`."""
        return value

    def expected(self, case: Case):
        raise NotImplementedError

    def same(self, expected, got, case: Case) -> bool:
        return expected == got

    def show(self, value, case: Case) -> str:
        return safe_repr(value)

    def diagnose(self, case: Case, got, expected) -> str | None:
        """A hint naming the likely mistake, or None for the generic :attr:`hint`."""
        return None

    def judge(self, case: Case, got, context: dict) -> Failure | None:
        """None if ``got`` is right on ``case``, else a :class:`Failure`."""
        want = self.expected(case)
        if self.same(want, got, case):
            return None
        return Failure(self.show(want, case), self.show(got, case),
                       self.diagnose(case, got, want) or self.hint)

    def describe_case(self, case: Case) -> str:
        """How the call looked, for messages (e.g. ``flood_fill(board, 0)``)."""
        args = ", ".join(["board", *(repr(a) for a in case.args)])
        return f"{self.function}({args})"

    def show_input(self, case: Case) -> list[str]:
        """The lines of a failure report that show the call and what it was given."""
        return [f"The call: {self.describe_case(case)} {self.drawn_as}:",
                _indent(draw(case.board))]

    def changed_input(self, case: Case, context: dict) -> tuple[str, str] | None:
        """``(headline, hint)`` if the learner's function changed what it was given (the
        copy in ``context['board']``, as it was when the function returned), else None."""
        if not context.get("check_board", True) or _unchanged(case.board, context["board"]):
            return None
        return (f"{self.function} changed the board it was given.",
                "do not write into board.cells (or board.heads): keep what you have visited "
                "in a separate array or set, so the board stays as it was")

    def none_hint(self, case: Case) -> str | None:
        """The hint when the function returned None on ``case``, where None has a reason
        of its own (e.g. no legal move); None for the usual "is a `return` missing?"."""
        return None

    def crash_hint(self, case: Case, err: BaseException) -> str | None:
        """The hint for an exception raised on a ``case`` that explains it (e.g. a board
        without a legal move, where max() of the moves raises); None for the usual."""
        return None

    def recursion_hint(self, case: Case) -> str | None:
        """The hint for a RecursionError on ``case`` when the case is deep enough to pass
        Python's recursion limit without an endless recursion; None for the usual hint."""
        return None

    def timeout_hint(self, case: Case) -> str | None:
        """The hint when the function ran out of time on ``case``, where a right but slow
        answer is the likely reason (a big board last); None for "a loop that never ends?"."""
        return None

    def finish(self, checked: int) -> Failure | None:
        """A last check over all boards together (e.g. "you never pruned"); None if fine."""
        return None


def _indent(text: str, by: str = "    ") -> str:
    return textwrap.indent(text, by)


# ---------------------------------------------------------------------------
# the loop
# ---------------------------------------------------------------------------
def run_check(exercise: Exercise, student, *, cases: list[Case] | None = None,
              time_limit: float | None = None) -> CheckResult:
    """Check ``student`` on every case of ``exercise`` (or on ``cases``); stop at the first
    failure.  Never raises because of the learner's code.  ``time_limit`` (seconds a
    board; None: the exercise's own) is a positive number; anything else is a TypeError
    or ValueError."""
    limit = (exercise.time_limit if time_limit is None
             else check_time_limit(time_limit, "time_limit"))
    name = exercise.function
    problem = (bad_function_message(name, student, exercise.parameters[0])
               or signature_problem(name, exercise.parameters, student))
    if problem:
        return CheckResult(name, False, BAD_ARGUMENT, f"{name}: cannot check this. {problem}",
                           hint=problem)
    cases = exercise.cases() if cases is None else list(cases)
    stub = is_stub(student)
    calls = [functools.partial(_attempt, exercise, student, case) for case in cases]
    with contextlib.closing(call_each(calls, limit)) as outcomes:
        for n, (case, outcome) in enumerate(zip(cases, outcomes)):
            result = _case_problem(exercise, case, outcome, stub, n, limit)
            if result is not None:
                return result
    failure = exercise.finish(len(cases))
    if failure is not None:
        msg = "\n".join([f"{name}: FAILED: the answers on all {len(cases)} {exercise.noun}s "
                         f"were right, but",
                         f"Expected: {failure.expected}", f"Got: {failure.got}",
                         f"Hint: {failure.hint}"])
        return CheckResult(name, False, failure.status, msg, len(cases), hint=failure.hint,
                           expected=failure.expected, got=failure.got)
    return CheckResult(name, True, PASSED,
                       f"{name}: all {len(cases)} {exercise.noun}s passed. Well done!",
                       len(cases))


def _case_problem(exercise, case, outcome, stub, n, limit) -> CheckResult | None:
    """The report for one case's outcome, or None when the answer is right."""
    name = exercise.function
    result = _outcome_problem(exercise, case, outcome, stub, n, limit)
    if result is not None:
        return result
    kind, got, context = outcome.value
    if kind == "wrong-type":
        return _fail(exercise, case, n, WRONG_TYPE,
                     f"{name} returned the wrong kind of answer.", got=got[1], hint=got[0])
    changed = exercise.changed_input(case, context)
    if changed is not None:
        return _fail(exercise, case, n, CHANGED_INPUT, changed[0], hint=changed[1])
    try:
        failure = exercise.judge(case, got, context)
    except Exception as err:  # noqa: BLE001 - the answer's own methods (==, len) may raise
        if learner_frame(err) is None:
            raise   # a mistake of the checker's, not the learner's
        return _fail(exercise, case, n, CRASH,
                     f"comparing {name}'s answer with the expected one raised "
                     f"{_detail(err)} (in a method of the object {name} returned)",
                     hint=f"return {exercise.returns}")
    if failure is not None:
        return _fail(exercise, case, n, failure.status, f"{name} gave a wrong answer.",
                     expected=failure.expected, got=failure.got, hint=failure.hint)
    return None


def _attempt(exercise, student, case):
    """Call the learner's function and convert its answer (run where the time limit
    applies): ``(kind, answer, context)`` with kind "none", "value" or "wrong-type"."""
    context = {"board": case.board.copy()}
    value = exercise.call(student, case, context)
    if value is None or value is Ellipsis:
        return "none", value, context
    try:
        return "value", exercise.convert(value, case), context
    except WrongType as err:
        return "wrong-type", (str(err), describe_value(value)), context


def _detail(err: BaseException) -> str:
    try:
        text = str(err)
    except Exception:  # noqa: BLE001 - a learner's exception may have a broken __str__
        text = ""
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _unchanged(original: Board, given: Board) -> bool:
    return (original.cells.shape == given.cells.shape
            and np.array_equal(original.cells, given.cells)
            and np.array_equal(original.heads, given.heads))


def _outcome_problem(exercise, case, outcome, stub, n, limit) -> CheckResult | None:
    name = exercise.function
    if outcome.kind == "timeout":
        return _fail(exercise, case, n, TIMEOUT,
                     f"{name} did not finish within {limit:g} s on this {exercise.noun}.",
                     hint=exercise.timeout_hint(case) or (
                         "is there a loop that never ends? (a square visited again and again, "
                         "or a while loop whose condition never changes)"))
    if outcome.kind == "exited":
        return _fail(exercise, case, n, CRASH,
                     f"{name} ended the program running it: {outcome.detail}.",
                     hint="os._exit() or a crash inside compiled code ends the whole program "
                          "(here only the checker's copy of it); return the answer instead")
    if outcome.kind == "unsendable":
        return _fail(exercise, case, n, WRONG_TYPE,
                     f"{name} returned something the checker cannot receive "
                     f"({outcome.detail}).", hint=f"{name} should return {exercise.returns}")
    if outcome.kind == "raised":
        return _raised(exercise, case, outcome, n)
    kind, value, _ = outcome.value
    if kind == "none":
        if stub or (stub is None and n == 0):
            return _not_implemented(exercise, n)
        return _fail(exercise, case, n, WRONG_TYPE, f"{name} returned {value!r}.",
                     got=repr(value),
                     hint=exercise.none_hint(case) or (
                         f"{name} should return {exercise.returns}; is a `return` missing "
                         f"at the end (or on one of the paths through your code)?"))
    return None


def _raised(exercise, case, outcome, n) -> CheckResult:
    name, err = exercise.function, outcome.error
    frames = outcome.frames or None
    if isinstance(err, NotImplementedError):
        inner, own = (learner_frame(err, frames, outermost=o) for o in (False, True))
        return _not_implemented(exercise, n, inner and inner.name != own.name and inner.name)
    at = where(err, frames)
    detail = _detail(err)
    if isinstance(err, SystemExit):
        detail = f"sys.exit() (SystemExit: {err.code!r})"
        hint = ("sys.exit() would end the whole program (here it ended only the checker's "
                "copy of it, your notebook keeps running): return the answer instead")
        text = f"{name} called {detail}" + (f"\n  at {at}" if at else "")
    else:
        hint = _crash_hint(exercise, case, err, detail)
        text = f"{name} crashed with {detail}" + (f"\n  at {at}" if at else "")
    return _fail(exercise, case, n, CRASH, text, hint=hint,
                 details={"exception": type(err).__name__, "where": at})


def _crash_hint(exercise, case, err, detail) -> str:
    """The hint for ``err`` raised by the learner's function on ``case``."""
    hint = exercise.crash_hint(case, err)
    if hint is not None:
        return hint
    if isinstance(err, RecursionError):
        return exercise.recursion_hint(case) or (
            "your function calls itself without end: check that every recursive call "
            "gets closer to a stopping case (or use an explicit stack)")
    if isinstance(err, ValueError) and "read-only" in detail:
        return exercise.read_only_hint
    if isinstance(err, IndexError) and exercise.index_hint and "out of bounds" in detail:
        return exercise.index_hint      # numpy's message: an array index, likely x and y swapped
    return (f"read the line above; try the {exercise.noun} by hand and print what the "
            f"variables hold")


def _not_implemented(exercise, n, stub=None) -> CheckResult:
    name, stub = exercise.function, stub or exercise.function    # stub: a helper it calls
    at, calls = ("", ",") if stub == name else (f" (raised in {stub})", f", which {name} calls,")
    msg = (f"{name}: not implemented yet{at}. Write the body of {stub}{calls} "
           f"then run this cell again.")
    return CheckResult(name, False, NOT_IMPLEMENTED, msg, n,
                       hint=f"replace `raise NotImplementedError` in {stub} with your code")


def _fail(exercise, case, n, status, headline, *, expected=None, got=None, hint=None,
          details=None) -> CheckResult:
    name = exercise.function
    parts = [f"{name}: FAILED on {exercise.noun} {n + 1} ({case.label}), after {n} passed.",
             headline, *exercise.show_input(case)]
    if expected is not None:
        parts += ["Expected:", _indent(expected)]
    if got is not None:
        parts += ["Got:", _indent(got)]
    if hint:
        parts.append(f"Hint: {hint}")
    return CheckResult(name, False, status, "\n".join(parts), n, board=case.board, case=case.label,
                       expected=expected, got=got, hint=hint, details=details or {})
