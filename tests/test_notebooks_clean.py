"""Committed notebooks open clean and their links lead somewhere.

A notebook is committed as ``python3 dev.py strip`` leaves it: no outputs, no execution
counts, cell metadata at most ``tags``, notebook metadata only the kernel and language, a
unique id on every cell (nbformat 4.5: without ids Jupyter adds them on opening and marks
the notebook changed).  Exercise and solution notebooks say which they are in their file
names, and every relative link between notebooks points at a file that exists.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("notebooks", "exercises", "solutions")
ALL = sorted(p for d in FOLDERS for p in (ROOT / d).glob("*.ipynb"))
LINK = re.compile(r"\]\(([^)\s]+\.ipynb)(#[^)]*)?\)")


def _dev():
    spec = importlib.util.spec_from_file_location("dev_for_strip", ROOT / "dev.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("path", ALL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_notebook_is_committed_stripped(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert (nb["nbformat"], nb["nbformat_minor"]) == (4, 5)
    assert set(nb["metadata"]) <= {"kernelspec", "language_info"}, \
        f"stray notebook metadata {sorted(set(nb['metadata']) - {'kernelspec', 'language_info'})}"
    assert set(nb["metadata"].get("language_info", {})) <= {"name"}, \
        "language_info keeps only the language's name (not the Python version of the last run)"
    ids = [c.get("id") for c in nb["cells"]]
    assert all(ids) and len(set(ids)) == len(ids), "every cell needs a unique id"
    for k, cell in enumerate(nb["cells"]):
        assert set(cell.get("metadata", {})) <= {"tags"}, \
            f"cell {k} has metadata {cell['metadata']}"
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [], f"cell {k} was saved with outputs"
            assert cell["execution_count"] is None, f"cell {k} was saved with an execution count"
    assert _dev().strip_notebook(nb) == nb, "run `python3 dev.py strip` before committing"


def test_exercise_and_solution_names_tell_the_folders_apart():
    for folder, suffix in (("exercises", "_exercise"), ("solutions", "_solution")):
        for path in (ROOT / folder).glob("*.ipynb"):
            assert re.fullmatch(rf"\d\d_[a-z_]+{suffix}\.ipynb", path.name), path.name
            twin_dir = "solutions" if folder == "exercises" else "exercises"
            twin = path.name.replace(suffix, "_solution" if suffix == "_exercise" else "_exercise")
            assert (ROOT / twin_dir / twin).is_file(), \
                f"{folder}/{path.name} has no {twin_dir}/{twin}"


@pytest.mark.parametrize("path", ALL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_notebook_links_resolve(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for target, _ in LINK.findall("".join(cell["source"])):
            if "://" in target:
                continue
            assert (path.parent / target).resolve().is_file(), f"{path.name} links to {target}"
