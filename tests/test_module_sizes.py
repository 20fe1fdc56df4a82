"""The package stays readable: one topic per short module, short functions.

No module in ``tronlab/`` over 400 lines; no plain-Python function over 60
lines; a kernel (``@kernel``) over 80 lines carries one comment starting
``# Why one long kernel:`` that says why it must be one function.  Nothing is
exempt.  Read with ``ast``, nothing imported.
"""

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "tronlab"
FILES = sorted(PKG.rglob("*.py"))
MAX_MODULE, MAX_FUNCTION, MAX_KERNEL = 400, 60, 80
WHY = "# Why one long kernel:"


def _rel(path):
    return str(path.relative_to(PKG.parent))


def _is_kernel(node):
    for d in node.decorator_list:
        f = d.func if isinstance(d, ast.Call) else d
        if (isinstance(f, ast.Name) and f.id == "kernel") or (
                isinstance(f, ast.Attribute) and f.attr == "kernel"):
            return True
    return False


def _functions_in(rel, text):
    """``(path, name, is_kernel, lines)`` of every function (nested ones too) in ``text``."""
    lines = text.splitlines()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield rel, node.name, _is_kernel(node), lines[node.lineno - 1:node.end_lineno]


def _functions():
    for path in FILES:
        yield from _functions_in(_rel(path), path.read_text(encoding="utf-8"))


def _too_long(functions):
    return [name for _, name, is_kernel, body in functions
            if not is_kernel and len(body) > MAX_FUNCTION]


def _silent(functions):
    return [name for _, name, is_kernel, body in functions
            if is_kernel and len(body) > MAX_KERNEL
            and sum(line.strip().startswith(WHY) for line in body) != 1]


@pytest.mark.parametrize("path", FILES, ids=_rel)
def test_no_module_over_400_lines(path):
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_MODULE, f"{_rel(path)} has {n} lines (at most {MAX_MODULE}): split it by topic"


def test_no_plain_function_over_60_lines():
    long = _too_long(list(_functions()))
    assert not long, "plain-Python functions over 60 lines: " + ", ".join(long)


def test_long_kernels_say_why():
    silent = _silent(list(_functions()))
    assert not silent, f"kernels over 80 lines without one '{WHY}' comment: " + ", ".join(silent)


def test_the_checks_see_what_they_check():
    found = {(path, name): is_kernel for path, name, is_kernel, _ in _functions()}
    assert found[("tronlab/tron/alphabeta.py", "negamax_kernel")] is True
    assert found[("tronlab/tron/search.py", "negamax")] is False
    # 61 lines of plain function, 81 of kernel (with and without the comment), 80 of kernel
    text = ("def plain():\n" + "    x = 1\n" * 60
            + "@kernel(inline='always')\ndef silent():\n" + "    x = 1\n" * 80
            + "@kernel\ndef says():\n    " + WHY + " it must.\n" + "    x = 1\n" * 79
            + "@kernel\ndef short():\n" + "    x = 1\n" * 79)
    functions = list(_functions_in("x.py", text))
    assert [len(body) for *_, body in functions] == [61, 81, 81, 80]
    assert _too_long(functions) == ["plain"]
    assert _silent(functions) == ["silent"]
