"""The course covers every technique of the catalogue, where a reader can find it.

A technique counts as covered when its id (``A4``, ``H1``, ...) appears in a markdown heading
of a notebook under ``notebooks/`` or in the first sentence of a markdown cell: mentioning an
id in passing deep inside a paragraph does not count.  The notebooks themselves are executed by
nbval (``pytest --nbval-lax notebooks/``); here we only read them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
EXERCISES = ROOT / "exercises"

#: where each technique of ``../shared/docs/techniques.md`` lives in the package:
#: ``module`` or ``module:name`` (the name must exist), one entry per id
CATALOGUE = {
    "E1": "tronlab:Board", "E2": "tronlab:get_rules", "E3": "tronlab:run_stdio",
    "E4": "tronlab:GameRecord",
    "A1": "tronlab:greedy_move", "A2": "tronlab:potential_articulation",
    "A3": "tronlab:components", "A4": "tronlab:bucket_distances", "A5": "tronlab:negamax",
    "A6": "tronlab:Searcher", "A7": "tronlab:territory", "A8": "tronlab:solve_endgame",
    "A9": "tronlab.tron.learn", "A10": "tronlab:fill_bound",
    "A11": "tronlab:articulation_points", "A12": "tronlab:chamber_tree",
    "A13": "tronlab:chamber_score",
    "H1": "tronlab:negamax", "H2": "tronlab:Searcher", "H3": "tronlab:is_separated",
    "H4": "tronlab:Searcher", "H5": "tronlab.jit.clock", "H6": "tronlab:territory_from_distances",
    "B1": "tronlab.capture.rules", "B2": "tronlab.capture.bots", "B3": "tronlab.capture.rects",
    "B4": "tronlab.capture.rects_bot", "B5": "tronlab.capture.lshapes",
    "B6": "tronlab.capture.paths", "B7": "tronlab.capture.opponent", "B8": "tronlab.capture.back",
    "K1": "tronlab:turn_order_territory", "K2": "tronlab.tron.bots.search",
    "K3": "tronlab.tron.clients",
    "L1": "tronlab:solve_zero_sum", "L2": "tronlab.nash.saddle", "L3": "tronlab.tron.nash_search",
    "L4": "tronlab.tron.longest_path", "L5": "tronlab.tron.nash_searcher",
    "L6": "tronlab.tron.nash_searcher",
    "X1": "tronlab:BoardWidget", "X2": "tronlab.arena", "X3": "tronlab.render",
    "X4": "tronlab.course.checker", "X5": "tronlab:parallel_env", "X6": "tronlab.arena.pyprogram",
}

#: ids whose notebook section is not written yet: the one place to shrink as lessons land
#: (empty now that notebooks 11 and 12 teach B3-B8; the test below keeps it honest)
PENDING: set[str] = set()

#: ids marked **ex** in the catalogue, and the lesson whose exercise notebook holds each
#: (the course map, ``../shared/docs/course.md``)
EXERCISES_BY_ID = {
    "A1": "01", "A10": "01", "A11": "01", "A3": "02", "A4": "03", "K1": "03", "A5": "04",
    "A9": "06", "L1": "09", "B2": "10", "B3": "11",
}

#: the notebooks of later issues and the ids each one must name where a reader finds them
#: (the course map, ``../shared/docs/course.md``; 05 also steps through a search, X1)
LATER = {
    "05_chambers_and_endgame.ipynb": "A8 A12 A13 X1 X3",
    "06_learning_the_evaluation.ipynb": "A9",
    "07_measuring_bots.ipynb": "X2 X6",
    "08_contest_programs.ipynb": "E3 K3 X5",
    "09_simultaneous_moves.ipynb": "L1 L2 L3 L4 L5 L6",
    "10_capture_game.ipynb": "B1 B2",
    "11_rectangles.ipynb": "B3 B4 B5",
    "12_paths_and_time_travel.ipynb": "B6 B7 B8",
}

#: the lessons with an exercise notebook, and the exercise each one points to
COURSE = {
    "01_space_filling.ipynb": "01_space_filling_exercise.ipynb",
    "02_flood_fill.ipynb": "02_flood_fill_exercise.ipynb",
    "03_voronoi.ipynb": "03_voronoi_exercise.ipynb",
    "04_search.ipynb": "04_search_exercise.ipynb",
    "06_learning_the_evaluation.ipynb": "06_learning_exercise.ipynb",
    "09_simultaneous_moves.ipynb": "09_nash_exercise.ipynb",
    "10_capture_game.ipynb": "10_capture_exercise.ipynb",
    "11_rectangles.ipynb": "11_rectangles_exercise.ipynb",
}

#: the authors of the five write-ups in ``../shared/seeds/`` as the lessons cite them
AUTHORS = ("a1k0n", "zenzike", "kootenpv", "Recar", "Light Riders")
#: lessons that rebuild no write-up's technique (the arena is ours) and need cite nobody
OWN_LESSONS = {"07_measuring_bots.ipynb"}

SHARED_DOCS = ROOT.parent / "shared" / "docs"
SOLUTIONS = ROOT / "solutions"

_ID = re.compile(r"(?<![A-Za-z0-9])([ABEHKLX][0-9]{1,2})(?![A-Za-z0-9])")


def markdown_cells(nb: dict) -> list[str]:
    """The text of every markdown cell of a notebook (parsed JSON)."""
    out = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            src = cell.get("source", "")
            out.append("".join(src) if isinstance(src, list) else src)
    return out


def first_sentence(text: str) -> str:
    """The cell's first sentence: up to the first '. ' / '.' at a line end, or a blank line."""
    body = text.strip().split("\n\n", 1)[0]
    match = re.search(r"\.(\s|$)", body)
    return body[:match.start()] if match else body


def findable_ids(nb: dict) -> set[str]:
    """Technique ids in headings or in the first sentence of a markdown cell."""
    found = set()
    for text in markdown_cells(nb):
        places = [line for line in text.splitlines() if line.lstrip().startswith("#")]
        places.append(first_sentence(text))
        for place in places:
            found.update(_ID.findall(place))
    return found


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def all_findable_ids() -> dict[str, set[str]]:
    return {p.name: findable_ids(load(p)) for p in sorted(NOTEBOOKS.glob("*.ipynb"))}


# ---------------------------------------------------------------------------
# the parser itself (so that the coverage test below can fail)
# ---------------------------------------------------------------------------
def _nb(*cells):
    return {"cells": [{"cell_type": kind, "source": src} for kind, src in cells]}


def test_ids_in_headings_and_first_sentences_are_found():
    nb = _nb(("markdown", "# 01 · Title\n\n## A4 - Distances\n\nText naming A7 in passing."),
             ("markdown", ["H6 - territory from two maps. Later K2 is mentioned."]),
             ("markdown", "Intro line.\n### A11: articulation points"))
    assert findable_ids(nb) == {"A4", "H6", "A11"}


def test_ids_in_code_or_deep_in_a_paragraph_are_not_found():
    nb = _nb(("code", "# A4 - not markdown\nx = 1"),
             ("markdown", "Some text first. Then A4 and K1.\n\nAnother paragraph with H1."))
    assert findable_ids(nb) == set()


def test_an_id_is_not_read_inside_a_longer_one():
    nb = _nb(("markdown", "## A11 - articulation points"), ("markdown", "## A10 / H5x and XA1"))
    assert findable_ids(nb) == {"A11", "A10"}


# ---------------------------------------------------------------------------
# the course notebooks
# ---------------------------------------------------------------------------
def catalogue_ids(text: str) -> list[str]:
    """The ids of the catalogue's tables, in order, with whether each is marked **ex**."""
    return re.findall(r"^\|\s*([ABEHKLX][0-9]{1,2})(\s+\*\*ex\*\*)?\s*\|", text, re.M)


@pytest.mark.skipif(not (SHARED_DOCS / "techniques.md").is_file(),
                    reason="../shared/docs/techniques.md is not beside this checkout")
def test_the_catalogue_here_is_the_one_in_techniques_md():
    found = catalogue_ids((SHARED_DOCS / "techniques.md").read_text(encoding="utf-8"))
    assert found, "no ids read from techniques.md: the table format changed"
    assert sorted(i for i, _ in found) == sorted(CATALOGUE)
    assert sorted(i for i, ex in found if ex) == sorted(EXERCISES_BY_ID)


@pytest.mark.skipif(not (SHARED_DOCS / "course.md").is_file(),
                    reason="../shared/docs/course.md is not beside this checkout")
def test_exercise_homes_follow_the_course_map():
    rows = re.findall(r"^\|\s*(\d\d)\s*\|[^\n]*\|\s*([^|\n]*?)\s*\|\s*$",
                      (SHARED_DOCS / "course.md").read_text(encoding="utf-8"), re.M)
    home = {}
    for lesson, cell in rows:
        for tid in _ID.findall(cell):
            home[tid] = lesson
    assert home == EXERCISES_BY_ID


def test_pending_ids_are_catalogue_ids():
    assert PENDING <= set(CATALOGUE)


def _code(where: str):
    import importlib
    module, _, name = where.partition(":")
    obj = importlib.import_module(module)
    return getattr(obj, name) if name else obj


@pytest.mark.parametrize("technique", sorted(CATALOGUE))
def test_every_technique_has_package_code(technique):
    assert _code(CATALOGUE[technique]) is not None


@pytest.mark.parametrize("technique", sorted(CATALOGUE))
def test_every_technique_with_code_has_a_notebook_section(technique):
    where = [name for name, ids in all_findable_ids().items() if technique in ids]
    if technique in PENDING:
        assert not where, (f"{technique} is taught in {where}: remove it from PENDING")
    else:
        assert where, (f"technique {technique} has package code ({CATALOGUE[technique]}) but is "
                       f"in no heading or first sentence of a notebook under notebooks/")


@pytest.mark.parametrize("technique", sorted(EXERCISES_BY_ID))
def test_every_marked_technique_has_an_exercise_and_a_solution(technique):
    lesson = EXERCISES_BY_ID[technique]
    homes = sorted(EXERCISES.glob(f"{lesson}_*_exercise.ipynb"))
    if technique in PENDING and not homes:
        return
    assert len(homes) == 1, f"lesson {lesson} needs one exercises/{lesson}_*_exercise.ipynb"
    exercise = homes[0]
    assert technique in findable_ids(load(exercise)), (
        f"{exercise.name} has no heading or first sentence naming {technique}")
    solution = SOLUTIONS / exercise.name.replace("_exercise", "_solution")
    assert solution.is_file(), f"solutions/{solution.name} does not exist"
    assert technique in findable_ids(load(solution))


def test_no_exercise_sits_in_a_lesson_the_map_does_not_give_it():
    for path in sorted(EXERCISES.glob("*_exercise.ipynb")):
        lesson = path.name[:2]
        for tid in findable_ids(load(path)) & set(EXERCISES_BY_ID):
            assert EXERCISES_BY_ID[tid] == lesson, (
                f"{path.name} holds exercise {tid}, which belongs to lesson "
                f"{EXERCISES_BY_ID[tid]}")


@pytest.mark.parametrize("name, technique", [(n, t) for n, ids in LATER.items()
                                             for t in ids.split()])
def test_later_notebooks_teach_their_techniques(name, technique):
    assert technique in findable_ids(load(NOTEBOOKS / name)), (
        f"technique {technique} is in no heading or first sentence of notebooks/{name}")


@pytest.mark.parametrize("name", sorted(COURSE))
def test_course_notebook_is_saved_without_outputs(name):
    nb = load(NOTEBOOKS / name)
    for k, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            assert cell.get("outputs") == [], f"{name} cell {k} has saved outputs"
            assert cell.get("execution_count") is None, f"{name} cell {k} has an execution count"


@pytest.mark.parametrize("name", sorted(COURSE))
def test_course_notebook_points_to_its_exercises(name):
    exercise = COURSE[name]
    assert (EXERCISES / exercise).is_file(), f"exercises/{exercise} does not exist"
    text = "\n".join(markdown_cells(load(NOTEBOOKS / name)))
    assert f"../exercises/{exercise}" in text, f"{name} has no link to exercises/{exercise}"


@pytest.mark.parametrize("name", sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")
                                         if p.name not in OWN_LESSONS))
def test_course_notebook_cites_its_sources_by_author(name):
    text = "\n".join(markdown_cells(load(NOTEBOOKS / name)))
    assert any(author in text for author in AUTHORS), (
        f"{name} cites none of the write-ups' authors")
