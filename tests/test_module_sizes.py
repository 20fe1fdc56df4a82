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


def _functions():
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                body = lines[node.lineno - 1:node.end_lineno]
                yield _rel(path), node.name, _is_kernel(node), body


@pytest.mark.parametrize("path", FILES, ids=_rel)
def test_no_module_over_400_lines(path):
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_MODULE, f"{_rel(path)} has {n} lines (at most {MAX_MODULE}): split it by topic"


def test_no_plain_function_over_60_lines():
    long = [f"{path}:{name} ({len(body)} lines)" for path, name, is_kernel, body in _functions()
            if not is_kernel and len(body) > MAX_FUNCTION]
    assert not long, "plain-Python functions over 60 lines: " + ", ".join(long)


def test_long_kernels_say_why():
    silent = [f"{path}:{name} ({len(body)} lines)" for path, name, is_kernel, body in _functions()
              if is_kernel and len(body) > MAX_KERNEL
              and sum(line.strip().startswith(WHY) for line in body) != 1]
    assert not silent, f"kernels over 80 lines without one '{WHY}' comment: " + ", ".join(silent)


def test_the_checks_see_what_they_check():
    # the walk finds the package's kernels and functions, and would see a long one
    found = {(path, name): is_kernel for path, name, is_kernel, _ in _functions()}
    assert found[("tronlab/tron/alphabeta.py", "negamax_kernel")] is True
    assert found[("tronlab/tron/search.py", "negamax")] is False
    tree = ast.parse("@kernel(inline='always')\ndef f():\n" + "    x = 1\n" * 90)
    assert _is_kernel(tree.body[0]) and tree.body[0].end_lineno == 91
