"""What the checker needs to know about a learner's function and what it returned.

* :func:`learner_frame` finds the learner's own line in a traceback (not tronlab's,
  not a library's);
* :func:`is_stub` tells a body that does nothing yet (``pass``, ``...``,
  ``raise NotImplementedError``) from a real attempt;
* :func:`bad_function_message` and :func:`signature_problem` explain, in a sentence,
  a checker called with something that is not the function, or a function with the
  wrong parameters;
* :func:`safe_repr` and :func:`describe_value` show an answer even when the
  learner's own ``__repr__`` raises.

>>> class Odd:
...     def __repr__(self):
...         raise ValueError("no")
>>> safe_repr(Odd())
'<Odd object: its __repr__ raised ValueError: no>'
"""

from __future__ import annotations

import ast
import inspect
import os
import sys
import textwrap
import traceback

import numpy as np

from ..runner.reprs import safe_repr

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_LIBRARY_DIRS = tuple(os.path.abspath(d) + os.sep for d in {sys.prefix, sys.base_prefix}
                      if len(os.path.abspath(d)) > 1) + (_PACKAGE_DIR + os.sep,)


def _is_library_file(filename: str) -> bool:
    """True for tronlab's own files, the standard library and installed packages."""
    path = os.path.abspath(filename)
    return "site-packages" in path or path.startswith(_LIBRARY_DIRS)


def learner_frame(err: BaseException | None, frames=None, *, outermost=False):
    """The innermost traceback frame in the learner's own code (not tronlab, not a library),
    as a ``traceback.FrameSummary``, or None; with ``outermost`` the first one (the checked
    function's own).  ``frames`` (a list of ``FrameSummary``) stands in for
    ``err.__traceback__`` when the error came from another process."""
    if frames is None:
        frames = traceback.extract_tb(err.__traceback__) if err is not None else []
    mine = [f for f in frames if not _is_library_file(f.filename)]
    return (mine[0] if outermost else mine[-1]) if mine else None


def where(err: BaseException | None, frames=None) -> str:
    """``"line N of f: code"`` for the learner's innermost frame, or ``""``."""
    frame = learner_frame(err, frames)
    if frame is None:
        return ""
    line = (frame.line or "").strip()
    code = f": {line}" if line else ""
    return f"line {frame.lineno} of {frame.name}{code}"


def is_stub(fn) -> bool | None:
    """True if ``fn``'s body does nothing yet: only a docstring, ``pass``, ``...``,
    a comment, or ``raise NotImplementedError``; None if its source cannot be read."""
    func = _first_def(fn)
    if func is None:
        return None
    body = list(func.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return all(_does_nothing(stmt) for stmt in body)


def returns_value(fn) -> bool | None:
    """True if ``fn``'s source has a ``return`` with a value (``return None`` too: a
    None on purpose), False if it has none, or only a bare ``return`` (every call
    returns None: a forgotten ``return``); None if its source cannot be read or is
    no ``def`` (a lambda)."""
    func = _first_def(fn)
    if func is None:
        return None
    return any(isinstance(node, ast.Return) and node.value is not None
               for node in ast.walk(func))


def _first_def(fn):
    """The syntax tree of the first ``def`` in ``fn``'s source; None if the source
    cannot be read or holds no ``def`` (a lambda)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
    return next((node for node in tree.body if isinstance(node, kinds)), None)


def _does_nothing(stmt) -> bool:
    if isinstance(stmt, ast.Pass):
        return True
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
            and stmt.value.value is Ellipsis:
        return True
    if isinstance(stmt, ast.Return) and (stmt.value is None or (
            isinstance(stmt.value, ast.Constant) and stmt.value.value in (None, Ellipsis))):
        return True
    if isinstance(stmt, ast.Raise) and stmt.exc is not None:
        exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
        return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"
    return False


def short_repr(value, limit: int = 50) -> str:
    """``repr(value)`` on one line, cut after a comma or a space near ``limit`` characters
    with ``...`` when longer (never inside a number or a name).

    >>> short_repr((1, 2))
    '(1, 2)'
    >>> short_repr(list(range(40)), 20)
    '[0, 1, 2, 3, 4, 5, ...'
    """
    text = " ".join(safe_repr(value).split())      # numpy's multi-line reprs on one line
    if len(text) <= limit:
        return text
    cut = max(text.rfind(", ", 0, limit), text.rfind(" ", 0, limit))
    return (text[:cut + 1] if cut > limit // 2 else text[:limit]).rstrip() + " ..."


def describe_value(value) -> str:
    """A short phrase for an answer: ``int 3``, ``a numpy array of shape (4, 5) ...``,
    ``tuple of 4 items: (array([...]), ...``."""
    if isinstance(value, np.ndarray):
        return f"a numpy array of shape {value.shape} and dtype {value.dtype}"
    text = safe_repr(value)
    if len(text) < 60:
        return f"{type(value).__name__} {text}"
    try:
        size = len(value)
    except Exception:  # noqa: BLE001 - no len(), or a learner's __len__ that raises
        return type(value).__name__
    return f"{type(value).__name__} of {size} items: {short_repr(value)}"


def bad_function_message(name: str, student, given: str = "board") -> str | None:
    """A sentence if ``student`` is not something ``check_<name>`` can call, else None
    (``given``: what the function is given first, for the example of a call too many)."""
    if callable(student) and not isinstance(student, type):
        return None
    if isinstance(student, type):
        return (f"check_{name} expects your function, but got the class {student.__name__}. "
                f"Pass the function: check_{name}({name}).")
    if student is None:
        return (f"check_{name} expects your function, but got None. Pass the function itself: "
                f"check_{name}({name}) (no parentheses after {name}).")
    return (f"check_{name} expects your function, but got {describe_value(student)}. Pass the "
            f"function itself, without calling it: check_{name}({name}), not "
            f"check_{name}({name}({given})).")


def signature_problem(name: str, wanted, student) -> str | None:
    """A sentence if ``student`` cannot be called with the parameters ``wanted``, or its
    call cannot give an answer (a generator function, an ``async def``)."""
    if inspect.isgeneratorfunction(student) or inspect.isasyncgenfunction(student):
        return (f"{name} has a yield in it, which makes it a generator: calling it runs none "
                f"of its lines and hands back a generator object. Give the answer back with "
                f"return instead of yield.")
    if inspect.iscoroutinefunction(student):
        return (f"{name} is an async def, so calling it only makes a coroutine and runs none "
                f"of its lines. Define it with a plain def: def {name}({', '.join(wanted)}):")
    try:
        signature = inspect.signature(student)
    except (TypeError, ValueError):
        return None                                    # builtins and such: just try
    try:
        signature.bind(*wanted)
    except TypeError:
        have = ", ".join(signature.parameters)
        return (f"the checker calls {name}({', '.join(wanted)}), but your function "
                f"takes ({have}). Define it as: def {name}({', '.join(wanted)}):")
    names = [p.name for p in signature.parameters.values()
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][:len(wanted)]
    if names != list(wanted) and sorted(names) == sorted(wanted):
        return (f"the checker calls {name}({', '.join(wanted)}) in that order, but your "
                f"function takes ({', '.join(names)}): each argument would land in the "
                f"other's name. Define it as: def {name}({', '.join(wanted)}):")
    return None


def safe_str(err) -> str:
    """``str(err)``, or a placeholder when a learner's exception cannot be shown."""
    try:
        return str(err)
    except Exception:  # noqa: BLE001 - a learner's exception may have a broken __str__
        return "<its message could not be shown>"


def crash_phrase(err: BaseException) -> str:
    """How a learner's call ended with ``err``, to follow the function's name:
    ``called sys.exit() (SystemExit: 3)`` or ``crashed with ValueError: ...``."""
    if isinstance(err, SystemExit):
        return f"called sys.exit() (SystemExit: {err.code!r})"
    return f"crashed with {type(err).__name__}: {safe_str(err)}"
