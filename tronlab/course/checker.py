"""Generic exercise checking: run a learner's function on many boards, report the first failure.

An :class:`Exercise` says which boards to try, how to call the learner's function, what a
right answer looks like and how to explain a wrong one.  :func:`run_check` does the rest,
the same way for every exercise:

* the learner's function is called on a *copy* of each board, under a time limit, and
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

import ast
import contextlib
import ctypes
import html
import inspect
import os
import signal
import sys
import textwrap
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from ..tron.board import FREE, TRAIL, WALL, Board

#: statuses a :class:`CheckResult` can have
PASSED = "passed"
NOT_IMPLEMENTED = "not implemented"
WRONG = "wrong answer"
WRONG_TYPE = "wrong type"
CRASH = "crash"
TIMEOUT = "timeout"
CHANGED_INPUT = "changed its input"
BAD_ARGUMENT = "bad argument"

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
        return repr(value)

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

    def finish(self, checked: int) -> Failure | None:
        """A last check over all boards together (e.g. "you never pruned"); None if fine."""
        return None


# ---------------------------------------------------------------------------
# calling learner code safely
# ---------------------------------------------------------------------------
class _TimeUp(BaseException):
    """Raised inside learner code when its time is up (a BaseException, so that a learner's
    ``except Exception`` cannot swallow it)."""


class _Outcome(NamedTuple):
    kind: str            # "value", "raised", "timeout"
    value: Any = None
    error: BaseException | None = None


def _call_with_time_limit(fn, seconds: float, *, use_alarm: bool | None = None) -> _Outcome:
    """Run ``fn()``; stop it after ``seconds`` (no limit when ``seconds`` is 0 or None).

    In the main thread of a system with SIGALRM an interval timer does it (:func:`_alarm`);
    elsewhere (Windows, or a checker run from another thread) a watchdog thread does
    (:func:`_watchdog`).  ``use_alarm`` forces one or the other (tests)."""
    if use_alarm is None:
        use_alarm = (hasattr(signal, "setitimer")
                     and threading.current_thread() is threading.main_thread())
    limit = contextlib.nullcontext if not seconds else _alarm if use_alarm else _watchdog
    try:
        with limit(seconds):
            return _Outcome("value", fn())
    except _TimeUp:
        return _Outcome("timeout")
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as err:  # noqa: BLE001 - anything the learner raises is reported
        return _Outcome("raised", error=err)


@contextlib.contextmanager
def _alarm(seconds: float):
    """Raise :class:`_TimeUp` in the main thread after ``seconds`` (SIGALRM).  An alarm
    already set by someone else (pytest-timeout, say) is put back afterwards with the time
    it had left."""
    def on_alarm(signum, frame):
        raise _TimeUp()
    old_handler = signal.signal(signal.SIGALRM, on_alarm)
    old_delay, old_interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        if old_delay > 0:
            left = old_delay - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), old_interval)


@contextlib.contextmanager
def _watchdog(seconds: float):
    """Raise :class:`_TimeUp` in this thread after ``seconds``, from a timer thread
    (CPython's ``PyThreadState_SetAsyncExc``).  The exception arrives between two Python
    bytecodes, which is where a learner's endless loop spends its time; code blocked inside
    one long C call (``time.sleep``, a compiled kernel) sees it only when that call returns."""
    target = threading.get_ident()
    lock = threading.Lock()
    state = {"done": False, "fired": False}

    def fire():
        with lock:
            if not state["done"]:
                state["fired"] = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target),
                                                           ctypes.py_object(_TimeUp))

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["done"] = True
        timer.cancel()
        if state["fired"]:      # a _TimeUp may still be on its way: withdraw it
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), None)


_LIBRARY_DIRS = tuple(os.path.abspath(d) + os.sep for d in {sys.prefix, sys.base_prefix}
                      if len(os.path.abspath(d)) > 1) + (_PACKAGE_DIR + os.sep,)


def _is_library_file(filename: str) -> bool:
    """True for tronlab's own files, the standard library and installed packages."""
    path = os.path.abspath(filename)
    return "site-packages" in path or path.startswith(_LIBRARY_DIRS)


def learner_frame(err: BaseException):
    """The innermost traceback frame in the learner's own code (not tronlab, not a library),
    as a ``traceback.FrameSummary``, or None."""
    frames = traceback.extract_tb(err.__traceback__)
    mine = [f for f in frames if not _is_library_file(f.filename)]
    return mine[-1] if mine else None


def _where(err: BaseException) -> str:
    frame = learner_frame(err)
    if frame is None:
        return ""
    line = (frame.line or "").strip()
    code = f": {line}" if line else ""
    return f"line {frame.lineno} of {frame.name}{code}"


def is_stub(fn) -> bool | None:
    """True if ``fn``'s body does nothing yet: only a docstring, ``pass``, ``...``,
    a comment, or ``raise NotImplementedError``; None if its source cannot be read."""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
    funcs = [node for node in tree.body if isinstance(node, kinds)]
    if not funcs:
        return None
    body = list(funcs[0].body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    for stmt in body:
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                and stmt.value.value is Ellipsis:
            continue
        if isinstance(stmt, ast.Return) and (stmt.value is None or (
                isinstance(stmt.value, ast.Constant) and stmt.value.value in (None, Ellipsis))):
            continue
        if isinstance(stmt, ast.Raise) and stmt.exc is not None:
            exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                continue
        return False
    return True


# ---------------------------------------------------------------------------
# text
# ---------------------------------------------------------------------------
def draw(board: Board) -> str:
    """The board as ASCII with x digits above and y numbers on the left."""
    rows = board.to_ascii().split("\n")
    ruler = "".join(str(x % 10) for x in range(board.width))
    width = len(str(board.height - 1))
    lines = [" " * (width + 1) + ruler]
    lines += [f"{y:>{width}} {row}" for y, row in enumerate(rows)]
    return "\n".join(lines)


def draw_grid(board: Board, values, *, blank=None, cell=2) -> str:
    """A per-square array shaped like ``board.cells`` drawn over the playing area, each value
    in ``cell`` characters.  Blocked squares whose value is ``blank`` show what blocks them:
    ``#`` for a wall, the owner's trail letter ``a``-``d`` for a trail or head (so a head is
    never mistaken for a number); free squares whose value is ``blank`` show ``.``."""
    values = np.asarray(values)
    out = []
    for y in range(board.height):
        row = []
        for x in range(board.width):
            v = values[y + 1, x + 1]
            code = int(board.cells[y + 1, x + 1])
            if blank is not None and v == blank:
                text = "." if code == FREE else "#" if code == WALL else "abcd"[(code - TRAIL) % 4]
            else:
                text = str(v.item() if hasattr(v, "item") else v)
            row.append(text.rjust(cell))
        out.append(" ".join(row))
    return "\n".join(out)


def _indent(text: str, by: str = "    ") -> str:
    return textwrap.indent(text, by)


def _kind(value) -> str:
    if isinstance(value, np.ndarray):
        return f"a numpy array of shape {value.shape} and dtype {value.dtype}"
    return f"{type(value).__name__} {value!r}" if len(repr(value)) < 60 else type(value).__name__


def _bad_function_message(exercise: Exercise, student) -> str | None:
    """A sentence if ``student`` is not something we can call, else None."""
    name = exercise.function
    if callable(student) and not isinstance(student, type):
        return None
    if isinstance(student, type):
        return (f"check_{name} expects your function, but got the class {student.__name__}. "
                f"Pass the function: check_{name}({name}).")
    if student is None:
        return (f"check_{name} expects your function, but got None. Pass the function itself: "
                f"check_{name}({name}) (no parentheses after {name}).")
    return (f"check_{name} expects your function, but got {_kind(student)}. Pass the function "
            f"itself, without calling it: check_{name}({name}), not check_{name}({name}(board)).")


def _signature_problem(exercise: Exercise, student) -> str | None:
    """A sentence if ``student`` cannot be called with the exercise's parameters."""
    try:
        signature = inspect.signature(student)
    except (TypeError, ValueError):
        return None                                    # builtins and such: just try
    wanted = exercise.parameters
    try:
        signature.bind(*wanted)
    except TypeError:
        have = ", ".join(signature.parameters)
        return (f"the checker calls {exercise.function}({', '.join(wanted)}), but your function "
                f"takes ({have}). Define it as: def {exercise.function}({', '.join(wanted)}):")
    return None


# ---------------------------------------------------------------------------
# the loop
# ---------------------------------------------------------------------------
def run_check(exercise: Exercise, student, *, cases: list[Case] | None = None,
              time_limit: float | None = None) -> CheckResult:
    """Check ``student`` on every case of ``exercise`` (or on ``cases``); stop at the first
    failure.  Never raises because of the learner's code."""
    name = exercise.function
    problem = _bad_function_message(exercise, student)
    if problem:
        return CheckResult(name, False, BAD_ARGUMENT, f"{name}: cannot check this. {problem}",
                           hint=problem)
    problem = _signature_problem(exercise, student)
    if problem:
        return CheckResult(name, False, BAD_ARGUMENT, f"{name}: cannot check this. {problem}",
                           hint=problem)
    limit = exercise.time_limit if time_limit is None else time_limit
    cases = exercise.cases() if cases is None else list(cases)
    stub = is_stub(student)
    for n, case in enumerate(cases):
        context = {"board": case.board.copy()}
        outcome = _call_with_time_limit(lambda: exercise.call(student, case, context), limit)
        result = _outcome_problem(exercise, case, outcome, stub, n, limit)
        if result is not None:
            return result
        try:
            got = exercise.convert(outcome.value, case)
        except WrongType as err:
            return _fail(exercise, case, n, WRONG_TYPE,
                         f"{name} returned the wrong kind of answer.",
                         got=_kind(outcome.value), hint=str(err))
        if context.get("check_board", True) and not _unchanged(case.board, context["board"]):
            return _fail(exercise, case, n, CHANGED_INPUT,
                         f"{name} changed the board it was given.",
                         hint="do not write into board.cells (or board.heads): keep what you "
                              "have visited in a separate array or set, so the board stays as "
                              "it was")
        failure = exercise.judge(case, got, context)
        if failure is not None:
            return _fail(exercise, case, n, failure.status, f"{name} gave a wrong answer.",
                         expected=failure.expected, got=failure.got, hint=failure.hint)
    failure = exercise.finish(len(cases))
    if failure is not None:
        msg = "\n".join([f"{name}: FAILED: the answers on all {len(cases)} boards were right, but",
                         f"Expected: {failure.expected}", f"Got: {failure.got}",
                         f"Hint: {failure.hint}"])
        return CheckResult(name, False, failure.status, msg, len(cases), hint=failure.hint,
                           expected=failure.expected, got=failure.got)
    return CheckResult(name, True, PASSED,
                       f"{name}: all {len(cases)} boards passed. Well done!", len(cases))


def _unchanged(original: Board, given: Board) -> bool:
    return (original.cells.shape == given.cells.shape
            and np.array_equal(original.cells, given.cells)
            and np.array_equal(original.heads, given.heads))


def _outcome_problem(exercise, case, outcome, stub, n, limit) -> CheckResult | None:
    name = exercise.function
    if outcome.kind == "timeout":
        return _fail(exercise, case, n, TIMEOUT,
                     f"{name} did not finish within {limit:g} s on this board.",
                     hint="is there a loop that never ends? (a square visited again and again, "
                          "or a while loop whose condition never changes)")
    if outcome.kind == "raised":
        err = outcome.error
        if isinstance(err, NotImplementedError):
            frame = learner_frame(err)
            where = "" if frame is None or frame.name == name else f" (raised in {frame.name})"
            return _not_implemented(exercise, n, where)
        where = _where(err)
        detail = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
        if isinstance(err, RecursionError):
            hint = ("your function calls itself without end: check that every recursive call "
                    "gets closer to a stopping case (or use an explicit stack)")
        else:
            hint = "read the line above; try the board by hand and print what the variables hold"
        text = f"{name} crashed with {detail}" + (f"\n  at {where}" if where else "")
        return _fail(exercise, case, n, CRASH, text, hint=hint,
                     details={"exception": type(err).__name__, "where": where})
    value = outcome.value
    if value is None or value is Ellipsis:
        if stub or (stub is None and n == 0):
            return _not_implemented(exercise, n, "")
        return _fail(exercise, case, n, WRONG_TYPE, f"{name} returned {value!r}.",
                     got=repr(value),
                     hint=f"{name} should return {exercise.returns}; is a `return` missing "
                          f"at the end (or on one of the paths through your code)?")
    return None


def _not_implemented(exercise, n, where) -> CheckResult:
    name = exercise.function
    msg = (f"{name}: not implemented yet{where}. Write the body of {name}, "
           f"then run this cell again.")
    return CheckResult(name, False, NOT_IMPLEMENTED, msg, n,
                       hint=f"replace `raise NotImplementedError` in {name} with your code")


def _fail(exercise, case, n, status, headline, *, expected=None, got=None, hint=None,
          details=None) -> CheckResult:
    name = exercise.function
    parts = [f"{name}: FAILED on board {n + 1} ({case.label}), after {n} passed.", headline,
             f"The call: {exercise.describe_case(case)} with this board:",
             _indent(draw(case.board))]
    if expected is not None:
        parts += ["Expected:", _indent(expected)]
    if got is not None:
        parts += ["Got:", _indent(got)]
    if hint:
        parts.append(f"Hint: {hint}")
    return CheckResult(name, False, status, "\n".join(parts), n, board=case.board, case=case.label,
                       expected=expected, got=got, hint=hint, details=details or {})
