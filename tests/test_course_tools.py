"""The course's helpers: hint() on request, progress() across notebooks, show_source().

Tested like the checkers: the right answer for right input, a clear message for wrong
input, and every exercise the course has covered (hints, progress rows and notebooks agree
with the registry of checkers).
"""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

from tronlab.course import exercises, hint, progress, show_source
from tronlab.course.hints import HINTS
from tronlab.course.progress import EXERCISE_NOTEBOOKS, progress_path
from tronlab.grid import reference
from tronlab.grid.flood import flood_fill_kernel

ROOT = Path(__file__).resolve().parent.parent


# ---- hint -------------------------------------------------------------------------------------

def test_every_exercise_has_three_graded_hints():
    assert set(HINTS) == set(EXERCISE_NOTEBOOKS) <= set(exercises.EXERCISES)
    for name, texts in HINTS.items():
        assert len(texts) == 3 and len(set(texts)) == 3, name
        first, last = repr(hint(name)), repr(hint(name, 3))
        assert first.startswith(f"Hint 1 of 3 for {name}: ") and f"hint('{name}', 2)" in first
        assert "the last one" in last


#: every exercise pair, NN_topic, from the exercises/ folder (a new pair cannot be left out)
PAIRS = sorted(p.name.removesuffix("_exercise.ipynb")
               for p in (ROOT / "exercises").glob("*_exercise.ipynb"))


def test_every_exercise_notebook_has_exercise_functions():
    assert len(PAIRS) >= 8
    assert {home.removesuffix("_exercise.ipynb") for home in EXERCISE_NOTEBOOKS.values()} \
        == set(PAIRS)


@pytest.mark.parametrize("notebook", PAIRS)
def test_the_exercise_notebook_tells_about_its_hints(notebook):
    """A learner only finds hint() if the notebook imports it and names the call
    (exercises/10_capture_exercise.ipynb and 06_learning_exercise.ipynb did neither)."""
    for folder in ("exercises", "solutions"):
        path = ROOT / folder / f"{notebook}_{folder[:-1]}.ipynb"
        cells = json.loads(path.read_text())["cells"]
        code = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        prose = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        assert re.search(r"from tronlab\.course import [^\n]*\bhint\b", code), path.name
        # the call shown on one of the notebook's functions (each has its hints)
        names = [name for name, home in EXERCISE_NOTEBOOKS.items() if home.startswith(notebook)]
        assert names, f"no exercise function of {notebook} in EXERCISE_NOTEBOOKS"
        assert any(f'`hint("{name}")`' in prose and f'`hint("{name}", 2)`' in prose
                   for name in names), (path.name, names)


def test_hint_takes_the_function_itself():
    def territory(board):
        raise NotImplementedError
    assert hint(territory).text == hint("territory").text
    assert "<div" in hint(territory)._repr_html_()


def test_hint_errors_name_the_problem():
    with pytest.raises(ValueError, match="no exercise called 'voronoi'; exercises: .*territory"):
        hint("voronoi")
    with pytest.raises(ValueError, match="territory has hints 1 to 3, got level 4"):
        hint("territory", 4)
    with pytest.raises(TypeError, match="the level is an int, got bool True"):
        hint("territory", True)
    with pytest.raises(TypeError, match="name of an exercise function"):
        hint(42)


# ---- progress ---------------------------------------------------------------------------------

@pytest.fixture
def fresh_progress(tmp_path, monkeypatch):
    path = tmp_path / "p" / "progress.json"
    monkeypatch.setenv("TRONLAB_PROGRESS", str(path))
    return path


def flood_fill(board, player):
    """A right answer: the plain-Python twin."""
    return reference.flood_fill(board.flat, int(board.heads[player]), board.stride)


def test_progress_follows_the_latest_check_of_each_function(fresh_progress):
    assert progress_path() == fresh_progress
    p = progress()
    assert p.passed == [] and {s for _, _, s in p.rows} == {"not tried"}
    assert [f for _, f, _ in p.rows] == list(EXERCISE_NOTEBOOKS)

    def components(board):
        raise NotImplementedError

    def territory(board):
        return (0, 0)

    assert exercises.check_flood_fill(flood_fill).passed
    assert not exercises.check_components(components).passed
    assert not exercises.check_territory(territory).passed
    p = progress()
    assert p.passed == ["flood_fill"]
    assert p.state("components") == "not implemented"
    assert p.state("territory") == "wrong answer"
    assert p.state("negamax") == "not tried"
    assert p.summary() == f"1 of {len(EXERCISE_NOTEBOOKS)} exercise functions pass"
    assert "02_flood_fill_exercise.ipynb" in repr(p) and "<table>" in p._repr_html_()
    saved = json.loads(fresh_progress.read_text())
    assert saved["flood_fill"]["passed"] is True and saved["flood_fill"]["checked"] >= 40
    assert not exercises.check_flood_fill(lambda board, player: -1).passed   # latest counts
    assert progress().passed == []
    with pytest.raises(ValueError, match="no exercise called 'x'"):
        progress().state("x")


def test_progress_survives_a_broken_or_unwritable_file(fresh_progress, tmp_path, monkeypatch):
    fresh_progress.parent.mkdir(parents=True)
    fresh_progress.write_text("{not json")
    assert progress().passed == []
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("TRONLAB_PROGRESS", str(blocker / "progress.json"))   # parent is a file
    assert exercises.check_flood_fill(flood_fill).passed                      # no error
    assert progress().passed == []


def test_progress_rows_match_the_exercise_notebooks():
    """Each function progress() lists is checked in the exercise notebook it names, and the
    exercise notebooks with tagged check cells check no other function."""
    found = {}
    for path in sorted((ROOT / "exercises").glob("*_exercise.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] == "code" and "check" in cell["metadata"].get("tags", []):
                name = re.match(r"check_(\w+)\(", src).group(1)
                found[name] = path.name
    assert found == EXERCISE_NOTEBOOKS


def first_code_cell(path):
    return next("".join(c["source"]) for c in json.loads(path.read_text())["cells"]
                if c["cell_type"] == "code")


def test_running_a_solution_notebook_gives_no_credit(fresh_progress, monkeypatch):
    """A learner who runs solutions/03_voronoi_solution.ipynb has written nothing: its checks
    pass but leave progress() as it was (the learner's own results), and progress() there
    says why.  Every solution notebook says so in its first code cell, no exercise does."""
    import importlib

    progress_module = importlib.import_module("tronlab.course.progress")   # not the function
    monkeypatch.setattr(progress_module, "_in_solution_notebook", False)   # put back after
    assert not exercises.check_territory(lambda board: (0, 0)).passed       # the learner's try
    ns: dict = {}
    for cell in json.loads((ROOT / "solutions" / "03_voronoi_solution.ipynb").read_text())[
            "cells"]:
        tags = cell["metadata"].get("tags", [])
        if cell["cell_type"] == "code" and ({"setup", "answer"} & set(tags)):
            exec("".join(cell["source"]), ns)
    assert exercises.check_territory(ns["territory"]).passed
    assert exercises.check_bfs_distances(ns["bfs_distances"]).passed
    p = progress()
    assert p.passed == [] and p.state("territory") == "wrong answer"
    assert p.state("bfs_distances") == "not tried"
    assert set(json.loads(fresh_progress.read_text())) == {"territory"}
    assert "solution notebook" in repr(p) and "solution notebook" in p._repr_html_()
    solutions = sorted((ROOT / "solutions").glob("*_solution.ipynb"))
    exercise_files = sorted((ROOT / "exercises").glob("*_exercise.ipynb"))
    assert len(solutions) == len(exercise_files) == 8       # 01-04, 06, 09-11
    for path in solutions:
        assert "\nsolution_notebook()" in first_code_cell(path), path.name
    for path in exercise_files:
        assert "solution_notebook" not in path.read_text(), path.name


def test_progress_also_lists_other_recorded_checks(fresh_progress):
    from tronlab.course.checker import CheckResult
    from tronlab.course.progress import recorded

    @recorded
    def check_something_new(fn):
        return CheckResult("something_new", True, "passed", "ok", 5)

    check_something_new(None)
    p = progress()
    assert p.state("something_new") == "passed" and p.rows[-1] == ("", "something_new", "passed")


# ---- show_source ------------------------------------------------------------------------------

def test_show_source_of_a_kernel_is_its_python_source():
    s = show_source(flood_fill_kernel)
    plain = getattr(flood_fill_kernel, "py_func", flood_fill_kernel)
    assert s.text == inspect.getsource(plain).rstrip() and "def flood_fill_kernel(" in s.text
    html = s._repr_html_()
    assert "<span style=" in html                      # highlighted with inline styles
    assert ("<details" in html) == (s.lines > 20)


def test_show_source_folds_long_listings_only():
    def short():
        return 1
    assert "<details" not in show_source(short)._repr_html_()
    assert "<details" in show_source(short, fold=1)._repr_html_()
    both = show_source(short, hint)
    assert both.text.count("def ") >= 2 and both._repr_html_().count("tronlab-source") == 2


def test_show_source_errors():
    with pytest.raises(TypeError, match="at least one function"):
        show_source()
    with pytest.raises(TypeError, match="needs a function or class of the package, got int"):
        show_source(3)
    with pytest.raises(ValueError, match="fold is a number of lines"):
        show_source(hint, fold=0)


def test_solution_check_cells_show_their_result():
    """A solution's check cell shows the checker's line ("... all 40 boards passed"): it
    ends with the result as a bare expression, or prints it; a result above an assert
    is never displayed."""
    import ast

    checked = set()
    for path in sorted((ROOT / "solutions").glob("*_solution.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] != "code" or not re.search(r"\b(check_\w+|best_rectangle)\(",
                                                            src):
                continue
            last = ast.parse(src).body[-1]
            assert isinstance(last, ast.Expr) or "print(" in src, (path.name, src)
            checked.add(path.name)
    assert len(checked) == 8, checked       # every solution notebook has a check cell
