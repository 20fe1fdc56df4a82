"""``show_source(fn)``: the package's own code in a lesson, highlighted and folded when long.

The lessons show the code they explain by asking the package for it, never by retyping it.
:func:`show_source` highlights it with pygments (inline styles, so the colours survive in a
saved notebook, on GitHub and in nbconvert's HTML) and folds a listing longer than
``fold`` lines behind a one-line summary that a click opens.  numba kernels are shown by
their Python source.
"""

from __future__ import annotations

import html
import inspect
import textwrap

from ..tron.values import is_whole

__all__ = ["show_source", "Source"]


class Source:
    """Source code of one or more functions, displayed highlighted (see :func:`show_source`)."""

    def __init__(self, parts: list[tuple[str, str, str]], fold: int):
        self.parts = parts          # (name, where, code)
        self.fold = fold

    @property
    def text(self) -> str:
        return "\n\n".join(code for _, _, code in self.parts)

    @property
    def lines(self) -> int:
        return sum(code.count("\n") + 1 for _, _, code in self.parts)

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        from pygments import highlight
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import PythonLexer

        formatter = HtmlFormatter(noclasses=True, nobackground=True, style="default")
        out = []
        for name, where, code in self.parts:
            body = highlight(code, PythonLexer(), formatter)
            n = code.count("\n") + 1
            label = f"<code>{html.escape(name)}</code> <small>({html.escape(where)})</small>"
            if n > self.fold:
                out.append(f"<details class='tronlab-source'><summary>{label}: {n} lines, "
                           f"click to read</summary>{body}</details>")
            else:
                out.append(f"<div class='tronlab-source'>{label}{body}</div>")
        return "\n".join(out)


def _one(fn) -> tuple[str, str, str]:
    target = getattr(fn, "py_func", fn)           # a numba dispatcher: its Python function
    try:
        code = textwrap.dedent(inspect.getsource(target)).rstrip()
    except (TypeError, OSError) as err:
        raise TypeError(f"show_source needs a function or class of the package, got "
                        f"{type(fn).__name__} ({err})") from None
    name = getattr(target, "__qualname__", getattr(target, "__name__", "?"))
    module = getattr(target, "__module__", "") or ""
    return name, module, code


def show_source(*functions, fold: int = 20) -> Source:
    """Show the source of ``functions`` (functions, classes or numba kernels), highlighted;
    each listing longer than ``fold`` lines is folded behind its name."""
    if not functions:
        raise TypeError("show_source needs at least one function")
    if not is_whole(fold):
        raise TypeError(f"fold is a number of lines (an int, 1 or more), got "
                        f"{type(fold).__name__} {fold!r}")
    if fold < 1:
        raise ValueError(f"fold is a number of lines (1 or more), got {fold!r}")
    return Source([_one(f) for f in functions], int(fold))
